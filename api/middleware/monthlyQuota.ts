// Monthly quota, per user (the account; a service key on its own). Checked after authentication and
// before the endpoint: the decision came with the chain's one admission call (burstLimit.ts). A
// refused request is a 429 whose `error` begins with the monthly-quota-exceeded message, with
// Retry-After = seconds until 00:00 UTC on the first of next month.
//
// Retry-After: 60 is the contract's marker for the burst limit, so the quota's value never goes
// below 61 even in the last minute of a month.
//
// X-Quota-Limit and X-Quota-Remaining (set by burstLimit.ts with the admission) answer `unlimited` in
// both for plans without a limit.
import type { Middleware } from 'koa';
import type { Clock } from '../clock.js';
import { AccessError, MESSAGES } from '../errors.js';
import { secondsUntilNextMonth } from '../metering/calendar.js';
import { admissionOf } from '../requestState.js';
import { BURST_RETRY_AFTER_SECONDS } from './burstLimit.js';

export function quotaRetryAfterSeconds(nowMs: number): number {
  return Math.max(BURST_RETRY_AFTER_SECONDS + 1, secondsUntilNextMonth(nowMs));
}

export function monthlyQuota(clock: Clock): Middleware {
  return async (ctx, next) => {
    const admission = admissionOf(ctx);
    if (!admission) throw new Error('monthlyQuota runs after burstLimit');
    if (admission.outcome === 'quota') {
      ctx.set('Retry-After', String(quotaRetryAfterSeconds(clock())));
      throw new AccessError(429, MESSAGES.quota(admission.quota.limit ?? 0));
    }
    await next();
  };
}
