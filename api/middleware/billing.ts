// Billing: every call that gets past authentication, the burst limit and the quota costs exactly one
// request, whatever the endpoint answers afterwards (400, 404, 415 and 500 included). The unit was
// already taken in the admission call, atomically with the quota check, so two concurrent requests
// cannot both spend the last unit; this step is where the chain asserts it and reports it.
import type { Middleware } from 'koa';
import { admissionOf, principalOf } from '../requestState.js';

export interface BillingObserver {
  /** Called once per billed request (metrics). */
  billed?: (subject: string) => void;
}

export function billing(observer: BillingObserver = {}): Middleware {
  return async (ctx, next) => {
    const admission = admissionOf(ctx);
    if (admission?.outcome !== 'admitted') throw new Error('billing runs after an admitted request');
    const subject = principalOf(ctx)?.subject;
    if (subject) observer.billed?.(subject);
    await next();
  };
}
