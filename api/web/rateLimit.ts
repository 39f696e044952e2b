// Fixed-window attempt counters in Redis for sign-in, sign-up, password reset, client registration
// and the token endpoint: one INCR per attempt, the window set by the first. Shared by every API
// process, so a limit holds however many run. Redis unreachable: 503, as for the API.
import type { Redis } from 'ioredis';
import { ServiceUnavailableError } from '../serviceFaults.js';

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  windowSeconds: number;
}

export interface LimitState {
  allowed: boolean;
  /** Seconds until the window ends. */
  retryAfter: number;
}

// Returns { count, ttl in ms } after counting one attempt.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

type HitCommand = (key: string, windowMs: number) => Promise<[number, number]>;

export interface AttemptLimiter {
  /** Counts one attempt in `bucket`; allowed is false once the window holds more than `limit.max`. */
  hit(bucket: string, limit: Limit): Promise<LimitState>;
  /** Whether `bucket` is over its limit, without counting. */
  check(bucket: string, limit: Limit): Promise<LimitState>;
}

export function createAttemptLimiter(redis: Redis, prefix: string): AttemptLimiter {
  if (!(redis as unknown as { webHit?: HitCommand }).webHit) redis.defineCommand('webHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const hitCommand = (redis as unknown as { webHit: HitCommand }).webHit.bind(redis);
  const keyOf = (bucket: string) => `${prefix}web:limit:${bucket}`;
  const wrap = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      throw new ServiceUnavailableError('redis', { cause: err });
    }
  };
  const state = (count: number, ttlMs: number, limit: Limit): LimitState => ({
    allowed: count <= limit.max,
    retryAfter: Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : limit.windowSeconds * 1000) / 1000)),
  });
  return {
    async hit(bucket, limit) {
      const [count, ttl] = await wrap(() => hitCommand(keyOf(bucket), limit.windowSeconds * 1000));
      return state(count, ttl, limit);
    },
    async check(bucket, limit) {
      const answer = await wrap(() => redis.multi().get(keyOf(bucket)).pttl(keyOf(bucket)).exec());
      const count = Number(answer?.[0]?.[1] ?? 0);
      // Not counting this look: allowed while the window holds fewer than max.
      return state(count + 1, Number(answer?.[1]?.[1] ?? -1), limit);
    },
  };
}
