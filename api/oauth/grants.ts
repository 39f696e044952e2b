// Grants: what an account approved on the consent page for one client, bound to one of its API keys
// and to the MCP resource. Created with its authorization code; listed and revoked on the dashboard's
// Connections page. Revoking a grant revokes its tokens in the same transaction.
import { randomBytes } from 'node:crypto';
import type { Sql, TransactionSql } from '../../runtime/db.js';
import { hashSecret } from '../accounts/accountStore.js';

export interface NewGrant {
  accountId: string;
  clientId: string;
  keyId: string;
  scopes: string[];
  resource: string;
  redirectUri: string;
  codeChallenge: string;
  codeExpiresAt: Date;
}

/**
 * Stores the grant and its authorization code; returns the code (shown only in the redirect), or
 * undefined when the key is not an active key of the account.
 */
export async function createGrantWithCode(sql: Sql, grant: NewGrant): Promise<{ grantId: string; code: string } | undefined> {
  const code = randomBytes(32).toString('base64url');
  return sql.begin(async (tx) => {
    const [row] = await tx<{ id: string }[]>`
      INSERT INTO oauth_grant (account_id, client_id, key_id, scopes, resource, redirect_uri)
      SELECT ${grant.accountId}, ${grant.clientId}, k.id, ${grant.scopes}, ${grant.resource}, ${grant.redirectUri}
        FROM api_key k WHERE k.id = ${grant.keyId} AND k.account_id = ${grant.accountId} AND k.revoked_at IS NULL
      RETURNING id`;
    if (!row) return undefined;
    await tx`
      INSERT INTO oauth_code (code_hash, grant_id, redirect_uri, code_challenge, expires_at)
      VALUES (${hashSecret(code)}, ${row.id}, ${grant.redirectUri}, ${grant.codeChallenge}, ${grant.codeExpiresAt})`;
    return { grantId: row.id, code };
  }) as Promise<{ grantId: string; code: string } | undefined>;
}

/** Revokes a grant and all its tokens (inside the caller's transaction). */
export async function revokeGrantIn(tx: TransactionSql, grantId: string): Promise<void> {
  await tx`UPDATE oauth_grant SET revoked_at = now() WHERE id = ${grantId} AND revoked_at IS NULL`;
  await tx`UPDATE oauth_token SET revoked_at = now() WHERE grant_id = ${grantId} AND revoked_at IS NULL`;
}

/** The account's revocation of one of its grants (Connections page); false when not its own or already revoked. */
export async function revokeAccountGrant(sql: Sql, accountId: string, grantId: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    const [row] = await tx`SELECT id FROM oauth_grant WHERE id = ${grantId} AND account_id = ${accountId} AND revoked_at IS NULL FOR UPDATE`;
    if (!row) return false;
    await revokeGrantIn(tx, grantId);
    return true;
  }) as Promise<boolean>;
}

export interface Connection {
  id: string;
  clientName: string | null;
  clientId: string;
  redirectUri: string;
  keyLabel: string | null;
  keyPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The account's active grants that got as far as tokens (an abandoned consent is no connection). */
export async function accountConnections(sql: Sql, accountId: string): Promise<Connection[]> {
  return sql<Connection[]>`
    SELECT g.id, c.client_name, c.client_id, g.redirect_uri, k.label AS key_label, k.key_prefix, g.created_at, g.last_used_at
      FROM oauth_grant g
      JOIN oauth_client c ON c.client_id = g.client_id
      JOIN api_key k ON k.id = g.key_id
     WHERE g.account_id = ${accountId} AND g.revoked_at IS NULL
       AND EXISTS (SELECT 1 FROM oauth_token t WHERE t.grant_id = g.id)
     ORDER BY g.created_at DESC, g.id`;
}

/** How many active grants use the key (the revoke confirmation says so). */
export async function grantsOfKey(sql: Sql, accountId: string, keyId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM oauth_grant
     WHERE key_id = ${keyId} AND account_id = ${accountId} AND revoked_at IS NULL
       AND EXISTS (SELECT 1 FROM oauth_token t WHERE t.grant_id = oauth_grant.id)`;
  return row?.n ?? 0;
}
