// Operator sessions for Bull Board and /metrics in a browser (issue 22): the sign-in form at
// /admin/login takes ADMIN_TOKEN once by POST and sets a cookie holding a signed, expiring session
// value, never the token. The signing key is derived from the token, so changing ADMIN_TOKEN ends
// every session; a value cannot be extended or made without the token.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const ADMIN_SESSION_COOKIE = 'admin_session';
/** A working day; then the operator signs in again. */
export const ADMIN_SESSION_MS = 8 * 3_600_000;

/** Constant-time comparison of a presented secret with the expected one. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface AdminSessions {
  /** A new session value `<expires ms>.<nonce>.<mac>` valid for `ttlMs` from `now`. */
  issue: (now: number) => string;
  valid: (value: string | undefined, now: number) => boolean;
  ttlMs: number;
}

export function adminSessions(token: string, ttlMs = ADMIN_SESSION_MS): AdminSessions {
  const key = createHmac('sha256', token).update('admin-session-v1').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    ttlMs,
    issue: (now) => {
      const payload = `${now + ttlMs}.${randomBytes(12).toString('base64url')}`;
      return `${payload}.${mac(payload)}`;
    },
    valid: (value, now) => {
      if (!value || value.length > 200) return false;
      const cut = value.lastIndexOf('.');
      if (cut < 0) return false;
      const payload = value.slice(0, cut);
      if (!sameSecret(value.slice(cut + 1), mac(payload))) return false;
      const expires = Number(payload.split('.')[0]);
      return Number.isFinite(expires) && expires > now;
    },
  };
}
