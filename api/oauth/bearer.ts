// For the MCP server (the resource server): a bearer access token resolved to the account, the API
// key the grant is bound to, and the grant, with the principal the access chain meters (so a tool
// call is billed, quota-checked and burst-limited through the grant's key like a REST call).
//
// A token is valid while it is an unexpired, unrevoked access token of an unrevoked grant whose key
// is active and whose account is enabled, and (when `resource` is given) minted for that resource.
// Answers are cached in memory for `cacheMs` (never past the token's expiry), like API keys
// (accounts/principals.ts): a revocation takes effect within that time in other processes, and at
// once in this one through invalidate().
import type { Sql } from '../../runtime/db.js';
import { hashSecret } from '../accounts/accountStore.js';
import { meteringSubject } from '../accounts/principals.js';
import { TtlCache } from '../accounts/ttlCache.js';
import type { Clock } from '../clock.js';
import type { Principal } from '../requestState.js';
import { sameResource } from './resource.js';

export const DEFAULT_BEARER_CACHE_MS = 5_000;

export interface BearerGrant {
  accountId: string;
  keyId: string;
  grantId: string;
  clientId: string;
  scopes: string[];
  /** The RFC 8707 resource the grant was approved for. */
  resource: string;
  expiresAt: Date;
  /** What the access chain needs to admit and bill the call through the grant's key. */
  principal: Principal;
}

export interface BearerResolver {
  /** The grant behind an access token; undefined for anything that must be answered 401. */
  resolve(token: string): Promise<BearerGrant | undefined>;
  /** Forget every cached answer (after a revocation in this process). */
  invalidate(): void;
}

export interface BearerResolverOptions {
  clock: Clock;
  /** Only tokens minted for this resource (the MCP server's URL) are accepted. */
  resource?: string;
  cacheMs?: number;
}

interface Row extends Omit<BearerGrant, 'principal'> {
  meterKeyId: string;
  monthlyQuota: number | null;
  lastUsedAt: Date | null;
}

/** Grants record when they were last used at most this often (one UPDATE per grant and minute). */
const LAST_USED_RESOLUTION_MS = 60_000;

export function createBearerResolver(sql: Sql, options: BearerResolverOptions): BearerResolver {
  const cacheMs = options.cacheMs ?? DEFAULT_BEARER_CACHE_MS;
  const cache = new TtlCache<BearerGrant | undefined>(cacheMs, options.clock);

  async function load(digest: Buffer, now: Date): Promise<BearerGrant | undefined> {
    const [row] = await sql<Row[]>`
      SELECT g.account_id, g.key_id, g.id AS grant_id, g.client_id, t.scopes, g.resource, t.expires_at,
             coalesce(k.meter_key_id, k.id) AS meter_key_id, p.monthly_quota, g.last_used_at
        FROM oauth_token t
        JOIN oauth_grant g ON g.id = t.grant_id
        JOIN api_key k ON k.id = g.key_id
        JOIN account a ON a.id = g.account_id
        JOIN plan p ON p.code = a.plan
       WHERE t.token_hash = ${digest} AND t.kind = 'access'
         AND t.revoked_at IS NULL AND t.expires_at > ${now}
         AND g.revoked_at IS NULL AND k.revoked_at IS NULL AND a.disabled_at IS NULL`;
    if (!row) return undefined;
    if (options.resource !== undefined && !sameResource(row.resource, options.resource)) return undefined;
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await sql`UPDATE oauth_grant SET last_used_at = ${now} WHERE id = ${row.grantId}`;
    }
    return {
      accountId: row.accountId,
      keyId: row.keyId,
      grantId: row.grantId,
      clientId: row.clientId,
      scopes: row.scopes,
      resource: row.resource,
      expiresAt: row.expiresAt,
      principal: {
        keyId: row.keyId,
        accountId: row.accountId,
        subject: meteringSubject({ accountId: row.accountId, meterKeyId: row.meterKeyId }),
        monthlyQuota: row.monthlyQuota,
      },
    };
  }

  return {
    async resolve(token) {
      if (token === '' || token.length > 200) return undefined;
      const digest = hashSecret(token);
      const cacheKey = digest.toString('base64');
      const hit = cache.get(cacheKey);
      const nowMs = options.clock();
      if (hit) return hit.value && hit.value.expiresAt.getTime() > nowMs ? hit.value : undefined;
      const grant = await load(digest, new Date(nowMs));
      cache.set(cacheKey, grant, grant ? Math.min(cacheMs, grant.expiresAt.getTime() - nowMs) : cacheMs);
      return grant;
    },
    invalidate() {
      cache.clear();
    },
  };
}
