// Usage by UTC day, key and channel (REST or MCP) for the dashboard. Admission (admission.ts) adds one
// to a Redis hash field per billed request; the usage flusher moves those deltas into Postgres
// usage_daily by adding them. Deltas rather than absolute totals, unlike the monthly counter: a Redis
// data loss then loses only the counts since the last flush and needs no seeding. The monthly
// counter stays the one the quota is checked against; this is its breakdown.
import type { Redis } from 'ioredis';
import type { Sql } from '../../runtime/db.js';
import { dailyUsageKey, type UsageChannel } from './admission.js';

interface DailyDelta {
  day: string;
  keyId: string;
  channel: UsageChannel;
  requests: number;
}

function parseField(field: string, value: string): DailyDelta | undefined {
  const [day, keyId, channel] = field.split('|');
  if (!day || !keyId || (channel !== 'rest' && channel !== 'mcp')) return undefined;
  return { day, keyId, channel, requests: Number(value) };
}

/** The deltas counted since the last flush (not yet in Postgres), for a live view. */
export async function pendingDailyUsage(redis: Redis, prefix: string): Promise<DailyDelta[]> {
  const pending = await redis.hgetall(dailyUsageKey(prefix));
  return Object.entries(pending).flatMap(([field, value]) => parseField(field, value) ?? []);
}

/**
 * Takes the pending deltas atomically and adds them to usage_daily; on a failed write they go back
 * into Redis for the next flush. Deltas of keys that no longer exist are dropped.
 */
export async function flushDailyUsage(redis: Redis, sql: Sql, prefix: string): Promise<number> {
  const key = dailyUsageKey(prefix);
  const results = await redis.multi().hgetall(key).del(key).exec();
  const taken = (results?.[0]?.[1] as Record<string, string> | undefined) ?? {};
  const deltas = Object.entries(taken).flatMap(([field, value]) => parseField(field, value) ?? []);
  if (deltas.length === 0) return 0;
  try {
    await sql`
      INSERT INTO usage_daily (key_id, day, channel, requests)
      SELECT t.key_id, t.day, t.channel, t.requests
        FROM unnest(${deltas.map((d) => d.keyId)}::uuid[], ${deltas.map((d) => d.day)}::date[],
                    ${deltas.map((d) => d.channel)}::text[], ${deltas.map((d) => d.requests)}::bigint[]) AS t(key_id, day, channel, requests)
        JOIN api_key k ON k.id = t.key_id
      ON CONFLICT (key_id, day, channel) DO UPDATE SET requests = usage_daily.requests + EXCLUDED.requests`;
  } catch (err) {
    const back = redis.multi();
    for (const [field, value] of Object.entries(taken)) back.hincrby(key, field, Number(value));
    await back.exec();
    throw err;
  }
  return deltas.length;
}
