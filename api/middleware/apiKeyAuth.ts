// API-key authentication, the first step of the access chain. A missing, unknown or revoked key is a
// 401 `{ error }` written before anything is counted, so it is not billed. Account-bound routes (saved
// queries, lists, exports) also need an account: the key's own, or, for a service key, the one a
// session cookie names; without either they answer 401 here, again before anything is counted.
import type { Context, Middleware } from 'koa';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../accounts/accountStore.js';
import type { PrincipalResolver } from '../accounts/principals.js';
import { AccessError, MESSAGES } from '../errors.js';
import { setPrincipal } from '../requestState.js';

export interface ApiKeyAuthOptions {
  resolver: PrincipalResolver;
  /** Whether the routes behind this step belong to one account (set where the chain is mounted, not by path). */
  accountBound: boolean;
}

async function sessionAccount(ctx: Context, resolver: PrincipalResolver): Promise<string | undefined> {
  const token = ctx.cookies.get(SECURE_SESSION_COOKIE) ?? ctx.cookies.get(SESSION_COOKIE);
  return token ? resolver.bySessionToken(token) : undefined;
}

export function apiKeyAuth({ resolver, accountBound }: ApiKeyAuthOptions): Middleware {
  return async (ctx, next) => {
    const key = ctx.get('x-api-key').trim();
    if (key === '') throw new AccessError(401, MESSAGES.missingKey);
    const principal = await resolver.byApiKey(key);
    if (!principal) throw new AccessError(401, MESSAGES.invalidKey);
    let sessionAccountId: string | undefined;
    if (principal.accountId === null && accountBound) {
      sessionAccountId = await sessionAccount(ctx, resolver);
      if (!sessionAccountId) throw new AccessError(401, MESSAGES.accountRequired);
    }
    setPrincipal(ctx, principal, sessionAccountId);
    await next();
  };
}
