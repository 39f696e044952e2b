// The token endpoint's grants and RFC 7009 revocation. Tokens are opaque (`mcp_at_` / `mcp_rt_` plus
// 32 random bytes) and stored as SHA-256 only.
// - authorization_code: single use; a second exchange of a code revokes the grant and its tokens
//   (RFC 6749 §4.1.2: the code has probably leaked).
// - refresh_token: rotates. The presented token stays usable until its replacement is first used
//   (a client that lost the answer can retry); presenting it after that is a replay and revokes the
//   grant.
// Failures that revoke still commit the revocation before the error is answered.
import { randomBytes } from 'node:crypto';
import type { Sql, TransactionSql } from '../../runtime/db.js';
import { hashSecret } from '../accounts/accountStore.js';
import type { OAuthClient } from './clients.js';
import { revokeGrantIn } from './grants.js';
import { OAuthError } from './oauthErrors.js';
import { verifyS256 } from './pkce.js';
import { sameResource } from './resource.js';

export const ACCESS_TOKEN_PREFIX = 'mcp_at_';
export const REFRESH_TOKEN_PREFIX = 'mcp_rt_';

export interface TokenLifetimes {
  accessSeconds: number;
  refreshSeconds: number;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

type Outcome = { tokens: TokenResponse } | { error: OAuthError };

const fail = (code: OAuthError['code'], description: string): Outcome => ({ error: new OAuthError(code, description) });

function newToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

async function issueTokens(tx: TransactionSql, grantId: string, scopes: string[], withRefresh: boolean, lifetimes: TokenLifetimes, now: Date): Promise<{ response: TokenResponse; refreshHash?: Buffer }> {
  const access = newToken(ACCESS_TOKEN_PREFIX);
  const accessExpires = new Date(now.getTime() + lifetimes.accessSeconds * 1000);
  await tx`INSERT INTO oauth_token (token_hash, grant_id, kind, scopes, created_at, expires_at)
           VALUES (${hashSecret(access)}, ${grantId}, 'access', ${scopes}, ${now}, ${accessExpires})`;
  await tx`UPDATE oauth_grant SET last_used_at = ${now} WHERE id = ${grantId}`;
  const response: TokenResponse = { access_token: access, token_type: 'Bearer', expires_in: lifetimes.accessSeconds, scope: scopes.join(' ') };
  if (!withRefresh) return { response };
  const refresh = newToken(REFRESH_TOKEN_PREFIX);
  const refreshHash = hashSecret(refresh);
  await tx`INSERT INTO oauth_token (token_hash, grant_id, kind, scopes, created_at, expires_at)
           VALUES (${refreshHash}, ${grantId}, 'refresh', ${scopes}, ${now}, ${new Date(now.getTime() + lifetimes.refreshSeconds * 1000)})`;
  return { response: { ...response, refresh_token: refresh }, refreshHash };
}

/** Whether the grant can still mint tokens: not revoked, its key active, its account enabled. */
async function grantUsable(tx: TransactionSql, grantId: string): Promise<boolean> {
  const [row] = await tx`
    SELECT 1 FROM oauth_grant g JOIN api_key k ON k.id = g.key_id JOIN account a ON a.id = g.account_id
     WHERE g.id = ${grantId} AND g.revoked_at IS NULL AND k.revoked_at IS NULL AND a.disabled_at IS NULL`;
  return row !== undefined;
}

function settle(outcome: Outcome): TokenResponse {
  if ('error' in outcome) throw outcome.error;
  return outcome.tokens;
}

export interface CodeExchange {
  code: string;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  resource: string | undefined;
}

export async function exchangeCode(sql: Sql, client: OAuthClient, input: CodeExchange, lifetimes: TokenLifetimes, now: Date): Promise<TokenResponse> {
  if (!input.code) throw new OAuthError('invalid_request', 'code is missing.');
  if (!input.codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is missing (PKCE is required).');
  const outcome = await sql.begin(async (tx): Promise<Outcome> => {
    const [code] = await tx<{ grantId: string; redirectUri: string; codeChallenge: string; expiresAt: Date; usedAt: Date | null; clientId: string; accountId: string; resource: string; scopes: string[] }[]>`
      SELECT c.grant_id, c.redirect_uri, c.code_challenge, c.expires_at, c.used_at, g.client_id, g.account_id, g.resource, g.scopes
        FROM oauth_code c JOIN oauth_grant g ON g.id = c.grant_id
       WHERE c.code_hash = ${hashSecret(input.code)}
         FOR UPDATE OF c`;
    if (!code || code.clientId !== client.clientId) return fail('invalid_grant', 'The authorization code is unknown or was issued to another client.');
    if (code.usedAt) {
      await revokeGrantIn(tx, code.grantId);
      return fail('invalid_grant', 'The authorization code was used already; the grant and its tokens are revoked.');
    }
    if (code.expiresAt <= now) return fail('invalid_grant', 'The authorization code has expired.');
    if (input.redirectUri !== code.redirectUri) return fail('invalid_grant', 'redirect_uri differs from the one of the authorization request.');
    if (!verifyS256(input.codeVerifier!, code.codeChallenge)) return fail('invalid_grant', 'code_verifier does not match the code_challenge.');
    if (input.resource !== undefined && !sameResource(input.resource, code.resource)) return fail('invalid_target', `The grant is for the resource ${code.resource}.`);
    if (!(await grantUsable(tx, code.grantId))) return fail('invalid_grant', 'The grant was revoked, or its key is no longer active.');
    await tx`UPDATE oauth_code SET used_at = ${now} WHERE code_hash = ${hashSecret(input.code)}`;
    // One connection per account and client: an earlier grant of the same pair ends here.
    const older = await tx<{ id: string }[]>`
      SELECT id FROM oauth_grant WHERE account_id = ${code.accountId} AND client_id = ${client.clientId} AND id <> ${code.grantId} AND revoked_at IS NULL`;
    for (const grant of older) await revokeGrantIn(tx, grant.id);
    await tx`UPDATE oauth_client SET last_used_at = ${now} WHERE client_id = ${client.clientId}`;
    const issued = await issueTokens(tx, code.grantId, code.scopes, client.grantTypes.includes('refresh_token'), lifetimes, now);
    return { tokens: issued.response };
  });
  return settle(outcome);
}

export interface RefreshExchange {
  refreshToken: string;
  scope: string | undefined;
  resource: string | undefined;
}

export async function refreshTokens(sql: Sql, client: OAuthClient, input: RefreshExchange, lifetimes: TokenLifetimes, now: Date): Promise<TokenResponse> {
  if (!input.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is missing.');
  if (!client.grantTypes.includes('refresh_token')) throw new OAuthError('unauthorized_client', 'This client did not register the refresh_token grant.');
  const presented = hashSecret(input.refreshToken);
  const outcome = await sql.begin(async (tx): Promise<Outcome> => {
    const [token] = await tx<{ grantId: string; clientId: string; scopes: string[]; expiresAt: Date; revokedAt: Date | null; replacedBy: Buffer | null; resource: string }[]>`
      SELECT t.grant_id, g.client_id, t.scopes, t.expires_at, t.revoked_at, t.replaced_by, g.resource
        FROM oauth_token t JOIN oauth_grant g ON g.id = t.grant_id
       WHERE t.token_hash = ${presented} AND t.kind = 'refresh'
         FOR UPDATE OF t`;
    if (!token || token.clientId !== client.clientId) return fail('invalid_grant', 'The refresh token is unknown or was issued to another client.');
    if (token.revokedAt) return fail('invalid_grant', 'The refresh token was revoked.');
    if (token.expiresAt <= now) return fail('invalid_grant', 'The refresh token has expired.');
    if (token.replacedBy) {
      const [replacement] = await tx<{ firstUsedAt: Date | null }[]>`SELECT first_used_at FROM oauth_token WHERE token_hash = ${token.replacedBy}`;
      if (!replacement || replacement.firstUsedAt) {
        await revokeGrantIn(tx, token.grantId);
        return fail('invalid_grant', 'The refresh token was replaced and its successor is in use: a replay. The grant and its tokens are revoked.');
      }
      // The client never used what it got last time: that answer is void, this token is still current.
      await tx`UPDATE oauth_token SET revoked_at = ${now} WHERE token_hash = ${token.replacedBy}`;
    }
    if (!(await grantUsable(tx, token.grantId))) return fail('invalid_grant', 'The grant was revoked, or its key is no longer active.');
    if (input.resource !== undefined && !sameResource(input.resource, token.resource)) return fail('invalid_target', `The grant is for the resource ${token.resource}.`);
    const requested = input.scope === undefined ? token.scopes : input.scope.split(' ').filter(Boolean);
    const wider = requested.filter((s) => !token.scopes.includes(s));
    if (wider.length > 0 || requested.length === 0) return fail('invalid_scope', `A refresh may only narrow the granted scope (${token.scopes.join(' ')}).`);
    await tx`UPDATE oauth_token SET first_used_at = coalesce(first_used_at, ${now}) WHERE token_hash = ${presented}`;
    const issued = await issueTokens(tx, token.grantId, requested, true, lifetimes, now);
    await tx`UPDATE oauth_token SET replaced_by = ${issued.refreshHash!} WHERE token_hash = ${presented}`;
    return { tokens: issued.response };
  });
  return settle(outcome);
}

/**
 * RFC 7009: an access token is revoked alone; a refresh token ends its whole grant. Tokens that are
 * unknown or belong to another client are ignored (the answer is 200 either way).
 */
export async function revokeToken(sql: Sql, client: OAuthClient, token: string): Promise<void> {
  if (!token) throw new OAuthError('invalid_request', 'token is missing.');
  await sql.begin(async (tx) => {
    const [row] = await tx<{ grantId: string; kind: 'access' | 'refresh'; clientId: string }[]>`
      SELECT t.grant_id, t.kind, g.client_id FROM oauth_token t JOIN oauth_grant g ON g.id = t.grant_id
       WHERE t.token_hash = ${hashSecret(token)}`;
    if (!row || row.clientId !== client.clientId) return;
    if (row.kind === 'refresh') await revokeGrantIn(tx, row.grantId);
    else await tx`UPDATE oauth_token SET revoked_at = now() WHERE token_hash = ${hashSecret(token)} AND revoked_at IS NULL`;
  });
}
