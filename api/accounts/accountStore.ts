// Accounts, API keys and dashboard sessions. A key (or session token) is shown once, at creation;
// only its SHA-256 is stored, so a database leak does not leak usable secrets. Secrets are 32 random
// bytes: hashing without a salt is safe at that entropy, and it keeps the lookup one indexed equality.
import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../../runtime/db.js';

export const PLANS = ['free', 'pro', 'api'] as const;
export type Plan = (typeof PLANS)[number];

const KEY_PREFIX = 'atc_';
const SESSION_PREFIX = 'ats_';
export const SESSION_COOKIE = 'session';
/** The session cookie's name over HTTPS: the __Host- prefix pins it to this host, path / and Secure. */
export const SECURE_SESSION_COOKIE = '__Host-session';
export const DEFAULT_SESSION_HOURS = 12;

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Kept for callers that name it after keys. */
export const hashApiKey = hashSecret;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** What is kept of a key in clear, to recognise it in lists: `atc_` and six characters. */
export function keyDisplayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

export interface Account {
  id: string;
  email: string;
  plan: Plan;
  createdAt: Date;
}

export async function createAccount(sql: Sql, input: { email: string; plan: Plan }): Promise<Account> {
  const [account] = await sql<Account[]>`
    INSERT INTO account (email, plan) VALUES (${input.email}, ${input.plan})
    RETURNING id, email, plan, created_at`;
  return account!;
}

export async function findAccount(sql: Sql, id: string): Promise<Account | undefined> {
  const [account] = await sql<Account[]>`SELECT id, email, plan, created_at FROM account WHERE id = ${id}`;
  return account;
}

export async function findAccountByEmail(sql: Sql, email: string): Promise<Account | undefined> {
  const [account] = await sql<Account[]>`SELECT id, email, plan, created_at FROM account WHERE lower(email) = lower(${email})`;
  return account;
}

export interface IssuedKey {
  id: string;
  key: string;
  accountId: string | null;
}

export interface NewKey {
  /** null: a service key, which reaches public data only and is metered on its own. */
  accountId: string | null;
  label?: string;
  /** Service keys only (default free); account keys follow their account's plan. */
  plan?: Plan;
}

/** Issues a key for an account, or a service key (accountId null). */
export async function createApiKey(sql: Sql, input: NewKey & { rotatedFrom?: string }): Promise<IssuedKey> {
  const key = generateApiKey();
  const plan = input.accountId ? null : (input.plan ?? 'free');
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO api_key (account_id, key_hash, key_prefix, label, rotated_from, plan)
    VALUES (${input.accountId}, ${hashSecret(key)}, ${keyDisplayPrefix(key)}, ${input.label ?? null},
            ${input.rotatedFrom ?? null}, ${plan})
    RETURNING id`;
  return { id: row!.id, key, accountId: input.accountId };
}

export async function revokeApiKey(sql: Sql, keyId: string): Promise<boolean> {
  const rows = await sql`UPDATE api_key SET revoked_at = now() WHERE id = ${keyId} AND revoked_at IS NULL RETURNING id`;
  return rows.length === 1;
}

/**
 * Rotation: a new key with the old one's account, label and plan, and the old key revoked, in one
 * transaction. The monthly quota is untouched: account keys meter under the account, and a service
 * key's successor meters under the first key of its chain (meter_key_id).
 * Returns undefined when the key does not exist or is already revoked.
 */
export async function rotateApiKey(sql: Sql, keyId: string): Promise<(IssuedKey & { rotatedFrom: string }) | undefined> {
  return sql.begin(async (tx) => {
    const [old] = await tx<{ id: string; accountId: string | null; label: string | null; plan: Plan | null; meterKeyId: string }[]>`
      UPDATE api_key SET revoked_at = now()
       WHERE id = ${keyId} AND revoked_at IS NULL
       RETURNING id, account_id, label, plan, coalesce(meter_key_id, id) AS meter_key_id`;
    if (!old) return undefined;
    const key = generateApiKey();
    const [row] = await tx<{ id: string }[]>`
      INSERT INTO api_key (account_id, key_hash, key_prefix, label, rotated_from, plan, meter_key_id)
      VALUES (${old.accountId}, ${hashSecret(key)}, ${keyDisplayPrefix(key)}, ${old.label}, ${old.id},
              ${old.plan}, ${old.accountId ? null : old.meterKeyId})
      RETURNING id`;
    return { id: row!.id, key, accountId: old.accountId, rotatedFrom: old.id };
  }) as Promise<(IssuedKey & { rotatedFrom: string }) | undefined>;
}

export interface KeySummary {
  id: string;
  keyPrefix: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export async function listApiKeys(sql: Sql, accountId: string): Promise<KeySummary[]> {
  return sql<KeySummary[]>`
    SELECT id, key_prefix, label, created_at, revoked_at, last_used_at
      FROM api_key WHERE account_id = ${accountId} ORDER BY created_at, id`;
}

export interface IssuedSession {
  token: string;
  accountId: string;
  expiresAt: Date;
}

/**
 * A dashboard session for an account: the token goes into the `session` cookie; only its hash is
 * stored. Account-bound routes accept it when the API key names no account.
 */
export async function createSession(sql: Sql, accountId: string, options: { hours?: number; now?: Date } = {}): Promise<IssuedSession> {
  const token = SESSION_PREFIX + randomBytes(32).toString('base64url');
  const now = options.now ?? new Date();
  const expiresAt = new Date(now.getTime() + (options.hours ?? DEFAULT_SESSION_HOURS) * 3_600_000);
  await sql`INSERT INTO session (token_hash, account_id, created_at, expires_at) VALUES (${hashSecret(token)}, ${accountId}, ${now}, ${expiresAt})`;
  return { token, accountId, expiresAt };
}

export async function deleteSession(sql: Sql, token: string): Promise<boolean> {
  const rows = await sql`DELETE FROM session WHERE token_hash = ${hashSecret(token)} RETURNING account_id`;
  return rows.length === 1;
}
