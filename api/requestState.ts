// What the access chain learns about a request, kept on ctx.state under typed accessors so routes
// never read untyped state.
import type { Context } from 'koa';
import { AccessError, MESSAGES } from './errors.js';
import type { AdmissionResult } from './metering/admission.js';

/** The caller behind an API key. */
export interface Principal {
  keyId: string;
  /** Null for service keys: public data only, unless a session cookie names an account. */
  accountId: string | null;
  /** Who the monthly quota is counted for: `account:<id>`, or `key:<first key of the rotation chain>`. */
  subject: string;
  /** Requests per month; null = unlimited. */
  monthlyQuota: number | null;
}

interface AccessState {
  principal?: Principal;
  /** The account a session cookie named, for service keys on account-bound routes. */
  sessionAccountId?: string;
  admission?: AdmissionResult;
}

function access(ctx: Context): AccessState {
  return ((ctx.state as { access?: AccessState }).access ??= {});
}

export function setPrincipal(ctx: Context, principal: Principal, sessionAccountId?: string): void {
  const state = access(ctx);
  state.principal = principal;
  if (sessionAccountId) state.sessionAccountId = sessionAccountId;
}

export function principalOf(ctx: Context): Principal | undefined {
  return access(ctx).principal;
}

export function setAdmission(ctx: Context, admission: AdmissionResult): void {
  access(ctx).admission = admission;
}

export function admissionOf(ctx: Context): AdmissionResult | undefined {
  return access(ctx).admission;
}

/**
 * The account an account-bound route acts for: the key's account, else the session's. The auth
 * middleware already refused (unbilled) account-bound requests without one, so reaching the throw
 * means a route was not registered as account-bound; it still answers 401 rather than leak data.
 */
export function requireAccount(ctx: Context): string {
  const state = access(ctx);
  const accountId = state.principal?.accountId ?? state.sessionAccountId;
  if (!accountId) throw new AccessError(401, MESSAGES.accountRequired);
  return accountId;
}
