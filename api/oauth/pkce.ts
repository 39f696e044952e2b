// PKCE (RFC 7636), S256 only: OAuth 2.1 drops `plain`, and node:crypto does S256 without a library.
import { createHash, timingSafeEqual } from 'node:crypto';

/** code_verifier: 43 to 128 unreserved characters (RFC 7636 §4.1). */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 code_challenge is the base64url of a SHA-256: 43 characters, no padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isCodeVerifier(value: string): boolean {
  return VERIFIER.test(value);
}

export function isS256Challenge(value: string): boolean {
  return S256_CHALLENGE.test(value);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether `verifier` is well-formed and hashes to `challenge` (compared in constant time). */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier)) return false;
  const computed = Buffer.from(s256Challenge(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
