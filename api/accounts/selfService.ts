// What the dashboard does to an account and its keys, always scoped to the signed-in account: every
// statement names the account id, so a key id from another account changes nothing.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../../runtime/db.js';
import { createApiKey, generateApiKey, hashSecret, keyDisplayPrefix, type Account, type IssuedKey, type KeySummary } from './accountStore.js';

export const MAX_KEY_NAME = 60;

export interface SignInRecord {
  id: string;
  email: string;
  passwordHash: string | null;
  disabledAt: Date | null;
}

export async function findSignIn(sql: Sql, email: string): Promise<SignInRecord | undefined> {
  const [row] = await sql<SignInRecord[]>`
    SELECT id, email, password_hash, disabled_at FROM account WHERE lower(email) = lower(${email})`;
  return row;
}

/** A new free-plan account; undefined when the e-mail address is taken (any case). */
export async function signUpAccount(sql: Sql, email: string, passwordHash: string): Promise<Account | undefined> {
  const [account] = await sql<Account[]>`
    INSERT INTO account (email, plan, password_hash) VALUES (${email}, 'free', ${passwordHash})
    ON CONFLICT ((lower(email))) DO NOTHING
    RETURNING id, email, plan, created_at`;
  return account;
}

export interface DashboardKey extends KeySummary {
  rotatedAt: Date | null;
  prevValidUntil: Date | null;
}

export async function accountKeys(sql: Sql, accountId: string): Promise<DashboardKey[]> {
  return sql<DashboardKey[]>`
    SELECT id, key_prefix, label, created_at, revoked_at, last_used_at, rotated_at, prev_valid_until
      FROM api_key WHERE account_id = ${accountId}
     ORDER BY revoked_at IS NOT NULL, created_at DESC, id`;
}

export async function createAccountKey(sql: Sql, accountId: string, label: string): Promise<IssuedKey> {
  return createApiKey(sql, { accountId, label });
}

export async function renameAccountKey(sql: Sql, accountId: string, keyId: string, label: string): Promise<boolean> {
  const rows = await sql`UPDATE api_key SET label = ${label} WHERE id = ${keyId} AND account_id = ${accountId} RETURNING id`;
  return rows.length === 1;
}

/**
 * A new secret for the same key id: grants bound to the key and its usage stay attached. The old
 * secret keeps working until `graceUntil` (a second rotation within the grace ends the first old
 * secret at once). Returns the new key, shown once; undefined for a revoked or foreign key.
 */
export async function rotateAccountKey(sql: Sql, accountId: string, keyId: string, graceUntil: Date): Promise<IssuedKey | undefined> {
  const key = generateApiKey();
  const rows = await sql`
    UPDATE api_key
       SET prev_key_hash = key_hash, prev_valid_until = ${graceUntil}, rotated_at = now(),
           key_hash = ${hashSecret(key)}, key_prefix = ${keyDisplayPrefix(key)}
     WHERE id = ${keyId} AND account_id = ${accountId} AND revoked_at IS NULL
     RETURNING id`;
  return rows.length === 1 ? { id: keyId, key, accountId } : undefined;
}

/** Revokes a key and every OAuth grant bound to it (and so the grants' tokens) in one transaction. */
export async function revokeAccountKey(sql: Sql, accountId: string, keyId: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    const rows = await tx`
      UPDATE api_key SET revoked_at = now(), prev_valid_until = NULL
       WHERE id = ${keyId} AND account_id = ${accountId} AND revoked_at IS NULL RETURNING id`;
    if (rows.length === 0) return false;
    const grants = await tx`UPDATE oauth_grant SET revoked_at = now() WHERE key_id = ${keyId} AND revoked_at IS NULL RETURNING id`;
    if (grants.length > 0) {
      await tx`UPDATE oauth_token SET revoked_at = now() WHERE grant_id IN ${tx(grants.map((g) => g.id as string))} AND revoked_at IS NULL`;
    }
    return true;
  }) as Promise<boolean>;
}

export async function setPassword(sql: Sql, accountId: string, passwordHash: string): Promise<void> {
  await sql`UPDATE account SET password_hash = ${passwordHash} WHERE id = ${accountId}`;
}

/** A single-use reset token for the account; only its hash is stored. */
export async function createPasswordReset(sql: Sql, accountId: string, expiresAt: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql`INSERT INTO password_reset (token_hash, account_id, expires_at) VALUES (${hashSecret(token)}, ${accountId}, ${expiresAt})`;
  return token;
}

/** The account of an unused, unexpired reset token. */
export async function findPasswordReset(sql: Sql, token: string, now: Date): Promise<string | undefined> {
  const [row] = await sql<{ accountId: string }[]>`
    SELECT account_id FROM password_reset WHERE token_hash = ${hashSecret(token)} AND used_at IS NULL AND expires_at > ${now}`;
  return row?.accountId;
}

/**
 * Sets the new password with the token, once: the token is spent, and every session of the account
 * ends (whoever knew the old password is signed out). Returns the account, or undefined when the
 * token was not valid any more.
 */
export async function completePasswordReset(sql: Sql, token: string, passwordHash: string, now: Date): Promise<string | undefined> {
  return sql.begin(async (tx) => {
    const [row] = await tx<{ accountId: string }[]>`
      UPDATE password_reset SET used_at = ${now}
       WHERE token_hash = ${hashSecret(token)} AND used_at IS NULL AND expires_at > ${now}
       RETURNING account_id`;
    if (!row) return undefined;
    await tx`UPDATE account SET password_hash = ${passwordHash} WHERE id = ${row.accountId}`;
    await tx`DELETE FROM session WHERE account_id = ${row.accountId}`;
    return row.accountId;
  }) as Promise<string | undefined>;
}
