// A per-call quota shared by every worker: a sliding-window log in Redis (one sorted set of call
// times per quota), checked and written by one script on Redis's own clock, so no two workers can
// both take the last call of a window. GISA allows 200 data calls and 10 extract starts a minute per
// key; a fixed-window counter would let 400 calls through around a window edge, this never more than
// `max` in any `windowMs` (closed interval).
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface QuotaLimit {
  max: number;
  windowMs: number;
}

export interface CallQuota {
  readonly limit: QuotaLimit;
  /**
   * Takes `n` calls now and answers 0, or takes nothing and answers the milliseconds until they fit.
   * `ceiling` (below `limit.max`) keeps the rest of the window for callers that take without one.
   */
  take(n?: number, ceiling?: number): Promise<number>;
  /** Calls taken within the last window. */
  used(): Promise<number>;
}

// KEYS[1] the log; ARGV: max, windowMs, n, call id. Entries older than the window (strictly) are dropped.
const TAKE = `
if redis.replicate_commands then redis.replicate_commands() end
local key = KEYS[1]
local max = tonumber(ARGV[1]); local window = tonumber(ARGV[2]); local n = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window - 1)
local count = redis.call('ZCARD', key)
if count + n <= max then
  for i = 1, n do redis.call('ZADD', key, now, ARGV[4] .. ':' .. i) end
  redis.call('PEXPIRE', key, window + 1000)
  return 0
end
local e = redis.call('ZRANGE', key, count + n - max - 1, count + n - max - 1, 'WITHSCORES')
return math.max(1, tonumber(e[2]) + window + 1 - now)`;

const USED = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], now - tonumber(ARGV[1]), '+inf')`;

export function redisCallQuota(redis: Redis, key: string, limit: QuotaLimit): CallQuota {
  return {
    limit,
    take: async (n = 1, ceiling = limit.max) => {
      const max = Math.min(ceiling, limit.max);
      if (n > max) throw new Error(`${n} calls can never fit a quota of ${max}`);
      if (n <= 0) return 0;
      return Number(await redis.eval(TAKE, 1, key, max, limit.windowMs, n, randomUUID()));
    },
    used: async () => Number(await redis.eval(USED, 1, key, limit.windowMs)),
  };
}

/**
 * Where a register's quota lives in Redis. Per API key when the upstream takes one (a replay and the
 * service using the same key share it, as the upstream counts them together); per queue prefix otherwise.
 */
export function quotaKey(prefix: string, register: string, name: string, apiKey?: string): string {
  return apiKey ? `quota:${register}:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}:${name}` : `${prefix}:quota:${register}:${name}`;
}
