// The numbers of the dashboard's Overview and Usage pages: this month's count against the plan's
// quota (the counter the quota is checked against: metering/usageReport.ts), and its breakdown by
// day, key and channel (usage_daily plus the deltas not flushed yet, metering/dailyUsage.ts).
import type { Redis } from 'ioredis';
import type { Sql } from '../../runtime/db.js';
import { nextMonthStart } from '../metering/calendar.js';
import { pendingDailyUsage } from '../metering/dailyUsage.js';
import { accountUsage } from '../metering/usageReport.js';

export interface ChannelCounts {
  rest: number;
  mcp: number;
}

export interface MonthUsage {
  plan: string;
  monthlyQuota: number | null;
  /** Billed requests this month (the quota's counter). */
  used: number;
  remaining: number | null;
  month: string;
  /** 00:00 UTC on the first of next month. */
  resetsAt: Date;
  /** Every day of the month, 1 to 28..31. */
  days: ({ day: string } & ChannelCounts)[];
  byKey: ({ keyId: string; label: string | null; keyPrefix: string; revoked: boolean } & ChannelCounts)[];
  byChannel: ChannelCounts;
}

function monthDays(month: string): string[] {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const count = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

export async function monthUsage(sql: Sql, redis: Redis, redisPrefix: string, accountId: string, nowMs: number): Promise<MonthUsage | undefined> {
  const summary = await accountUsage(sql, redis, redisPrefix, accountId, nowMs);
  if (!summary) return undefined;
  const days = monthDays(summary.month);
  const stored = await sql<{ keyId: string; day: string; channel: 'rest' | 'mcp'; requests: number }[]>`
    SELECT u.key_id, to_char(u.day, 'YYYY-MM-DD') AS day, u.channel, u.requests
      FROM usage_daily u JOIN api_key k ON k.id = u.key_id
     WHERE k.account_id = ${accountId} AND u.day >= ${days[0]!}::date AND u.day <= ${days[days.length - 1]!}::date`;
  const keyIds = new Set(summary.keys.map((k) => k.id));
  const pending = (await pendingDailyUsage(redis, redisPrefix)).filter((d) => keyIds.has(d.keyId) && d.day.startsWith(summary.month));
  const perDay = new Map(days.map((day) => [day, { day, rest: 0, mcp: 0 }]));
  const perKey = new Map(summary.keys.map((k) => [k.id, { keyId: k.id, label: k.label, keyPrefix: k.keyPrefix, revoked: k.revokedAt !== null, rest: 0, mcp: 0 }]));
  const byChannel: ChannelCounts = { rest: 0, mcp: 0 };
  for (const row of [...stored, ...pending]) {
    perDay.get(row.day)![row.channel] += row.requests;
    perKey.get(row.keyId)![row.channel] += row.requests;
    byChannel[row.channel] += row.requests;
  }
  return {
    plan: summary.plan,
    monthlyQuota: summary.monthlyQuota,
    used: summary.requests,
    remaining: summary.remaining,
    month: summary.month,
    resetsAt: new Date(nextMonthStart(nowMs)),
    days: [...perDay.values()],
    byKey: [...perKey.values()].filter((k) => k.rest + k.mcp > 0 || !k.revoked),
    byChannel,
  };
}
