// Burst limit: a sliding window of requests per key (1000 per 60 s by default). Runs the one
// admission call of the chain (metering/admission.ts), which also decides and counts the monthly
// quota, and leaves the result for monthlyQuota and billing. A refused request is a 429 `{ error }`
// with Retry-After: 60 (the contract's marker for the burst cause); it is neither counted in the
// window nor billed.
//
// The limit headers (RateLimit-* and X-Quota-*) are set here, from the admission result, so every
// authenticated response carries them, this 429 included (limitHeaders.ts).
import type { Middleware } from 'koa';
import type { Clock } from '../clock.js';
import { AccessError, MESSAGES } from '../errors.js';
import type { Admission } from '../metering/admission.js';
import { principalOf, setAdmission } from '../requestState.js';
import { setLimitHeaders } from './limitHeaders.js';

export const BURST_RETRY_AFTER_SECONDS = 60;

export function burstLimit(admission: Admission, clock: Clock, windowSeconds = 60): Middleware {
  return async (ctx, next) => {
    const principal = principalOf(ctx);
    if (!principal) throw new Error('burstLimit runs after apiKeyAuth');
    const result = await admission.admit({
      keyId: principal.keyId,
      subject: principal.subject,
      monthlyQuota: principal.monthlyQuota,
      now: clock(),
    });
    setAdmission(ctx, result);
    setLimitHeaders(ctx, result);
    if (result.outcome === 'burst') {
      ctx.set('Retry-After', String(BURST_RETRY_AFTER_SECONDS));
      throw new AccessError(429, MESSAGES.burst(result.burst.limit, windowSeconds));
    }
    await next();
  };
}
