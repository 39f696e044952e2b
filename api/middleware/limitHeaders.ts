// The limit headers of every authenticated response (api-decisions.md "Accounts, keys, headers"),
// written from the chain's one admission result: the burst window's RateLimit-* and the month's
// X-Quota-*. Both sets go on every answer after authentication, a burst 429 included.
import type { Context } from 'koa';
import type { AdmissionResult } from '../metering/admission.js';

/** What X-Quota-* say for a plan without a monthly limit. */
export const UNLIMITED = 'unlimited';

/** RateLimit-Reset is the seconds until the oldest request leaves the window, i.e. until Remaining grows. */
export function setLimitHeaders(ctx: Context, result: AdmissionResult): void {
  ctx.set('RateLimit-Limit', String(result.burst.limit));
  ctx.set('RateLimit-Remaining', String(result.burst.remaining));
  ctx.set('RateLimit-Reset', String(result.burst.resetSeconds));
  const { quota } = result;
  ctx.set('X-Quota-Limit', quota.limit === null ? UNLIMITED : String(quota.limit));
  ctx.set('X-Quota-Remaining', quota.limit === null ? UNLIMITED : String(Math.max(0, quota.limit - quota.used)));
}
