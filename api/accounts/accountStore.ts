// Accounts and API keys. A key is shown once, at creation; only its SHA-256 is stored, so a database
// leak does not leak usable keys. Keys are 32 random bytes: hashing without a salt is safe at that
// entropy, and it keeps the lookup one indexed equality.
import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../../runtime/db.js';

export const PLANS = ['free', 'pro', 'api'] as const;
export type Plan = (typeof PLANS)[number];

const KEY_PREFIX = 'atc_';

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
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

export interface IssuedKey {
  id: string;
  key: string;
  accountId: string | null;
}

/** Issues a key for an account, or a service key (accountId null) that reaches public data only. */
export async function createApiKey(sql: Sql, input: { accountId: string | null; label?: string; rotatedFrom?: string }): Promise<IssuedKey> {
  const key = generateApiKey();
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO api_key (account_id, key_hash, key_prefix, label, rotated_from)
    VALUES (${input.accountId}, ${hashApiKey(key)}, ${key.slice(0, KEY_PREFIX.length + 6)}, ${input.label ?? null}, ${input.rotatedFrom ?? null})
    RETURNING id`;
  return { id: row!.id, key, accountId: input.accountId };
}

export async function revokeApiKey(sql: Sql, keyId: string): Promise<boolean> {
  const rows = await sql`UPDATE api_key SET revoked_at = now() WHERE id = ${keyId} AND revoked_at IS NULL RETURNING id`;
  return rows.length === 1;
}

export async function findAccountByEmail(sql: Sql, email: string): Promise<Account | undefined> {
  const [account] = await sql<Account[]>`SELECT id, email, plan, created_at FROM account WHERE lower(email) = lower(${email})`;
  return account;
}
