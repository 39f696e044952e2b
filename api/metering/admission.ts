// Admission: the burst limit and the monthly quota decided, and the request counted, in one Lua
// script, so the access chain costs one Redis round trip and concurrent requests cannot both take the
// last unit of a limit. No database is touched here; usageFlusher.ts copies the counters to Postgres.
//
// Redis keys (all under the configured prefix):
//   burst:<keyId>      sorted set, one member per admitted request scored by its time (ms): the
//                      sliding window is exact, and holds at most `burstLimit` members per key
//   usage:<yyyy-mm>    hash subject -> requests counted this month (plus the `__seeded` marker, see
//                      usageFlusher.ts); expires a while after the month ends
//   usage:dirty        set of `<yyyy-mm>|<subject>` counted since the last flush
//   key:lastused       hash keyId -> time of its last admitted request (flushed to api_key.last_used_at)
//   usage:daily        hash `<yyyy-mm-dd>|<keyId>|<channel>` -> admitted requests since the last flush
//                      (deltas for the dashboard's breakdown, dailyUsage.ts)
//
// Order inside the script follows the contract: burst first (a burst-limited request is neither
// counted in the window nor billed), then quota (a quota-refused request still took a burst slot,
// so hammering after the quota is gone is throttled like any other traffic, but it is not billed:
// it never reached the endpoint), then billing (exactly one request).
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ServiceUnavailableError } from '../serviceFaults.js';
import { monthKey } from './calendar.js';

/** Prefix of every Redis key of the access chain in production (tests use one of their own). */
export const DEFAULT_REDIS_PREFIX = 'api:';
export const DEFAULT_BURST_LIMIT = 1000;
export const DEFAULT_BURST_WINDOW_MS = 60_000;
/** The month's usage hash outlives the month by this much, so a late flush still finds it. */
export const USAGE_TTL_SECONDS = 45 * 24 * 3600;

export type AdmissionOutcome = 'admitted' | 'burst' | 'quota';

/** How a request reached the API: the REST routes, or a tool call of the MCP server. */
export type UsageChannel = 'rest' | 'mcp';

export interface AdmissionResult {
  outcome: AdmissionOutcome;
  burst: {
    limit: number;
    /** Requests this key may still make in the current window. */
    remaining: number;
    /** Seconds until the oldest request in the window leaves it, i.e. until `remaining` grows. */
    resetSeconds: number;
  };
  quota: {
    /** null = unlimited. */
    limit: number | null;
    /** Requests counted this month, including this one when admitted. */
    used: number;
  };
}

export interface AdmissionRequest {
  keyId: string;
  subject: string;
  monthlyQuota: number | null;
  now: number;
  /** Recorded in the daily breakdown only; default 'rest'. */
  channel?: UsageChannel;
}

export interface Admission {
  admit(request: AdmissionRequest): Promise<AdmissionResult>;
}

export interface RedisAdmissionOptions {
  prefix: string;
  burstLimit?: number;
  burstWindowMs?: number;
}

// Returns { code, inWindow, oldestMs, used }: code 0 = burst limited, 1 = quota exhausted, 2 = admitted.
const ADMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local burstLimit = tonumber(ARGV[3])
local quota = tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
local inWindow = redis.call('ZCARD', KEYS[1])
local used = tonumber(redis.call('HGET', KEYS[2], ARGV[5]) or '0')
local function oldest()
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if first[2] then return tonumber(first[2]) end
  return now
end
if inWindow >= burstLimit then
  return {0, inWindow, oldest(), used}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], windowMs)
inWindow = inWindow + 1
if quota >= 0 and used >= quota then
  return {1, inWindow, oldest(), used}
end
used = redis.call('HINCRBY', KEYS[2], ARGV[5], 1)
-- A month's hash is born either here (a first count of 1) or in the flusher's seeding, which sets
-- its own expiry; so only a first count needs one.
if used == 1 then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[8])) end
redis.call('SADD', KEYS[3], ARGV[7] .. '|' .. ARGV[5])
redis.call('HSET', KEYS[4], ARGV[9], now)
redis.call('HINCRBY', KEYS[5], ARGV[10], 1)
return {2, inWindow, oldest(), used}
`;

const OUTCOMES: AdmissionOutcome[] = ['burst', 'quota', 'admitted'];
/** ioredis states in which the connection is known to be down. */
const OFFLINE = new Set(['reconnecting', 'close', 'end']);

type AdmitCommand = (
  burstKey: string, usageKey: string, dirtyKey: string, lastUsedKey: string, dailyKey: string,
  now: number, windowMs: number, burstLimit: number, member: string, subject: string,
  quota: number, month: string, usageTtl: number, keyId: string, dailyField: string,
) => Promise<[number, number, number, number]>;

export function usageKey(prefix: string, month: string): string {
  return `${prefix}usage:${month}`;
}
export const dirtyKey = (prefix: string) => `${prefix}usage:dirty`;
export const lastUsedKey = (prefix: string) => `${prefix}key:lastused`;
export const dailyUsageKey = (prefix: string) => `${prefix}usage:daily`;

/** `2025-03-07|<keyId>|rest`: the UTC day, key and channel of one admitted request. */
export function dailyUsageField(nowMs: number, keyId: string, channel: UsageChannel): string {
  return `${new Date(nowMs).toISOString().slice(0, 10)}|${keyId}|${channel}`;
}

export function createRedisAdmission(redis: Redis, options: RedisAdmissionOptions): Admission {
  const { prefix } = options;
  const burstLimit = options.burstLimit ?? DEFAULT_BURST_LIMIT;
  const windowMs = options.burstWindowMs ?? DEFAULT_BURST_WINDOW_MS;
  if (!(redis as unknown as { apiAdmit?: AdmitCommand }).apiAdmit) {
    redis.defineCommand('apiAdmit', { numberOfKeys: 5, lua: ADMIT_SCRIPT });
  }
  const admit = (redis as unknown as { apiAdmit: AdmitCommand }).apiAdmit.bind(redis);
  // Sorted-set members must be unique per request; a per-process random tag plus a counter is.
  const processTag = randomBytes(4).toString('hex');
  let sequence = 0;

  return {
    async admit({ keyId, subject, monthlyQuota, now, channel = 'rest' }) {
      const month = monthKey(now);
      // Between reconnect attempts a command would wait in ioredis's queue for the next one (seconds).
      if (OFFLINE.has(redis.status)) throw new ServiceUnavailableError('redis');
      let answer: [number, number, number, number];
      try {
        answer = await admit(
          `${prefix}burst:${keyId}`, usageKey(prefix, month), dirtyKey(prefix), lastUsedKey(prefix), dailyUsageKey(prefix),
          now, windowMs, burstLimit, `${now}:${processTag}:${++sequence}`, subject,
          monthlyQuota ?? -1, month, USAGE_TTL_SECONDS, keyId, dailyUsageField(now, keyId, channel),
        );
      } catch (err) {
        // Nothing is admitted that could not be counted: the request is refused as retryable (503).
        throw new ServiceUnavailableError('redis', { cause: err });
      }
      const [code, inWindow, oldestMs, used] = answer;
      return {
        outcome: OUTCOMES[code]!,
        burst: {
          limit: burstLimit,
          remaining: Math.max(0, burstLimit - inWindow),
          resetSeconds: Math.max(0, Math.ceil((oldestMs + windowMs - now) / 1000)),
        },
        quota: { limit: monthlyQuota, used },
      };
    },
  };
}
