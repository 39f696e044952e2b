// Who is calling: an API key resolved to its principal (key, account, metering subject, monthly
// quota), and a session cookie resolved to its account. Both are looked up by the SHA-256 of the
// secret and cached briefly in memory (a revoked key or a plan change takes effect within the TTL).
//
// Constant time: the secret itself is never compared. Its digest is the lookup key, and an attacker
// cannot steer digest bytes, so lookup timing says nothing about stored keys; the digest found is then
// confirmed with timingSafeEqual as a second, explicit check.
import { timingSafeEqual } from 'node:crypto';
import type { Sql } from '../../runtime/db.js';
import type { Clock } from '../clock.js';
import type { Principal } from '../requestState.js';
import { hashSecret } from './accountStore.js';
import { TtlCache } from './ttlCache.js';

export const DEFAULT_PRINCIPAL_CACHE_MS = 5_000;

export interface PrincipalResolver {
  /** The principal behind a key; undefined for a missing, unknown, revoked or disabled one. */
  byApiKey(key: string): Promise<Principal | undefined>;
  /** The account a session token belongs to; undefined when unknown or expired. */
  bySessionToken(token: string): Promise<string | undefined>;
}

export function meteringSubject(row: { accountId: string | null; meterKeyId: string }): string {
  return row.accountId ? `account:${row.accountId}` : `key:${row.meterKeyId}`;
}

function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createPrincipalResolver(sql: Sql, clock: Clock, cacheMs = DEFAULT_PRINCIPAL_CACHE_MS): PrincipalResolver {
  const keys = new TtlCache<Principal | undefined>(cacheMs, clock);
  const sessions = new TtlCache<string | undefined>(cacheMs, clock);

  async function loadKey(digest: Buffer): Promise<Principal | undefined> {
    // A rotated key's previous secret is accepted until its grace period ends (same key id).
    const [row] = await sql<{ keyId: string; keyHash: Buffer; prevKeyHash: Buffer | null; accountId: string | null; meterKeyId: string; monthlyQuota: number | null }[]>`
      SELECT k.id AS key_id, k.key_hash, k.prev_key_hash, k.account_id, coalesce(k.meter_key_id, k.id) AS meter_key_id, p.monthly_quota
        FROM api_key k
        LEFT JOIN account a ON a.id = k.account_id
        JOIN plan p ON p.code = coalesce(a.plan, k.plan, 'free')
       WHERE (k.key_hash = ${digest} OR (k.prev_key_hash = ${digest} AND k.prev_valid_until > ${new Date(clock())}))
         AND k.revoked_at IS NULL
         AND (k.account_id IS NULL OR a.disabled_at IS NULL)`;
    if (!row || !(sameDigest(row.keyHash, digest) || (row.prevKeyHash !== null && sameDigest(row.prevKeyHash, digest)))) return undefined;
    return { keyId: row.keyId, accountId: row.accountId, subject: meteringSubject(row), monthlyQuota: row.monthlyQuota };
  }

  async function loadSession(digest: Buffer): Promise<{ accountId: string; expiresAt: Date } | undefined> {
    const [row] = await sql<{ accountId: string; tokenHash: Buffer; expiresAt: Date }[]>`
      SELECT s.account_id, s.token_hash, s.expires_at
        FROM session s
        JOIN account a ON a.id = s.account_id
       WHERE s.token_hash = ${digest}
         AND s.expires_at > ${new Date(clock())}
         AND a.disabled_at IS NULL`;
    if (!row || !sameDigest(row.tokenHash, digest)) return undefined;
    return { accountId: row.accountId, expiresAt: row.expiresAt };
  }

  return {
    async byApiKey(key) {
      const digest = hashSecret(key);
      const cacheKey = digest.toString('base64');
      const hit = keys.get(cacheKey);
      if (hit) return hit.value;
      const principal = await loadKey(digest);
      keys.set(cacheKey, principal);
      return principal;
    },
    async bySessionToken(token) {
      const digest = hashSecret(token);
      const cacheKey = digest.toString('base64');
      const hit = sessions.get(cacheKey);
      if (hit) return hit.value;
      const session = await loadSession(digest);
      // Never cache a session past its expiry.
      sessions.set(cacheKey, session?.accountId, session ? Math.min(cacheMs, session.expiresAt.getTime() - clock()) : cacheMs);
      return session?.accountId;
    },
  };
}
