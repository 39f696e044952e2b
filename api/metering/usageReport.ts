// An account's usage as operators see it (admin `usage`): this month's count, live from Redis where
// the API counts it, never below what Postgres already holds; and the earlier months from Postgres.
import type { Redis } from 'ioredis';
import type { Sql } from '../../runtime/db.js';
import { usageKey } from './admission.js';
import { monthKey } from './calendar.js';

export interface AccountUsage {
  accountId: string;
  email: string;
  plan: string;
  /** null = unlimited. */
  monthlyQuota: number | null;
  month: string;
  requests: number;
  remaining: number | null;
  /** Flushed months, newest first (the current one as last flushed). */
  history: { month: string; requests: number }[];
  keys: { id: string; keyPrefix: string; label: string | null; createdAt: Date; revokedAt: Date | null; lastUsedAt: Date | null }[];
}

export async function accountUsage(
  sql: Sql, redis: Redis | undefined, prefix: string, accountId: string, nowMs: number,
): Promise<AccountUsage | undefined> {
  const [account] = await sql<{ email: string; plan: string; monthlyQuota: number | null }[]>`
    SELECT a.email, a.plan, p.monthly_quota FROM account a JOIN plan p ON p.code = a.plan WHERE a.id = ${accountId}`;
  if (!account) return undefined;
  const subject = `account:${accountId}`;
  const month = monthKey(nowMs);
  const history = await sql<{ month: string; requests: number }[]>`
    SELECT to_char(month, 'YYYY-MM') AS month, requests FROM usage_counter WHERE subject = ${subject} ORDER BY month DESC`;
  const keys = await sql<AccountUsage['keys']>`
    SELECT id, key_prefix, label, created_at, revoked_at, last_used_at FROM api_key WHERE account_id = ${accountId} ORDER BY created_at, id`;
  const flushed = history.find((h) => h.month === month)?.requests ?? 0;
  const live = redis ? Number((await redis.hget(usageKey(prefix, month), subject)) ?? 0) : 0;
  const requests = Math.max(flushed, live);
  return {
    accountId,
    email: account.email,
    plan: account.plan,
    monthlyQuota: account.monthlyQuota,
    month,
    requests,
    remaining: account.monthlyQuota === null ? null : Math.max(0, account.monthlyQuota - requests),
    history,
    keys,
  };
}
