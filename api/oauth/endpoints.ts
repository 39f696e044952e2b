// The authorization server's machine endpoints: RFC 8414 metadata, RFC 7591 registration, the token
// endpoint and RFC 7009 revocation. No cookies are read here, so no CSRF applies; CORS is open
// (browser-based MCP clients such as the Inspector call these directly). Every error is an RFC JSON
// error with no-store, never a 500 for bad input. The router runs behind cors() and oauthErrors()
// (mounted in web/webApp.ts).
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { isJsonMediaType, readBody } from '../middleware/requestBody.js';
import { parseForm } from '../web/forms.js';
import type { WebDeps } from '../web/webDeps.js';
import { authenticateClient, AUTH_METHODS, registerClient } from './clients.js';
import { AUTHORIZE_PATH } from './consent.js';
import { noStore, OAuthError, writeOAuthError } from './oauthErrors.js';
import { MCP_SCOPE } from './resourceServer.js';
import { exchangeCode, refreshTokens, revokeToken } from './tokens.js';

export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const REVOKE_PATH = '/oauth/revoke';

const BODY_LIMIT = 65_536;

/** RFC 8414 metadata for the issuer (this site's origin, no path). */
export function authorizationServerMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: issuer + AUTHORIZE_PATH,
    token_endpoint: issuer + TOKEN_PATH,
    registration_endpoint: issuer + REGISTER_PATH,
    revocation_endpoint: issuer + REVOKE_PATH,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
    scopes_supported: [MCP_SCOPE],
    authorization_response_iss_parameter_supported: true,
  };
}

/** Open CORS, with preflights answered here (the router has no OPTIONS routes). */
export function cors(): Middleware {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type, Authorization, MCP-Protocol-Version');
      ctx.set('Access-Control-Max-Age', '86400');
      ctx.status = 204;
      return;
    }
    await next();
  };
}

/** OAuthErrors as RFC JSON; a body over the limit as invalid_request (413). */
export function oauthErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof OAuthError) return writeOAuthError(ctx, err);
      const status = (err as { status?: number }).status;
      if (status === 413 || status === 400) return writeOAuthError(ctx, new OAuthError('invalid_request', (err as Error).message, status));
      throw err;
    }
  };
}

async function formBody(ctx: Context): Promise<Record<string, string>> {
  const type = ctx.get('content-type').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  return parseForm(await readBody(ctx, BODY_LIMIT));
}

async function limited(ctx: Context, deps: WebDeps, bucket: string, limit: WebDeps['limits']['token']): Promise<void> {
  const state = await deps.limiter.hit(`${bucket}:${ctx.ip}`, limit);
  if (!state.allowed) {
    ctx.set('Retry-After', String(state.retryAfter));
    throw new OAuthError('slow_down', `Too many requests; retry in ${state.retryAfter} s.`);
  }
}

export function oauthRouter(deps: WebDeps): Router {
  const router = new Router();
  const now = () => new Date(deps.clock());

  router.get(AS_METADATA_PATH, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = authorizationServerMetadata(deps.origin(ctx));
  });

  router.post(REGISTER_PATH, async (ctx) => {
    noStore(ctx);
    await limited(ctx, deps, 'register', deps.limits.register);
    if (!isJsonMediaType(ctx.get('content-type'))) throw new OAuthError('invalid_client_metadata', 'Send the client metadata as application/json.');
    let body: unknown;
    try {
      body = JSON.parse(await readBody(ctx, BODY_LIMIT));
    } catch (err) {
      if ((err as { status?: number }).status) throw err;
      throw new OAuthError('invalid_client_metadata', 'The body is not valid JSON.');
    }
    const client = await registerClient(deps.sql, body, deps.clock());
    deps.log.info({ clientId: client.client_id, clientName: client.client_name }, 'OAuth client registered');
    ctx.status = 201;
    ctx.body = client;
  });

  router.post(TOKEN_PATH, async (ctx) => {
    noStore(ctx);
    await limited(ctx, deps, 'token', deps.limits.token);
    const form = await formBody(ctx);
    const client = await authenticateClient(ctx, deps.sql, form);
    const grantType = form.grant_type;
    if (grantType === 'authorization_code') {
      ctx.body = await exchangeCode(deps.sql, client, { code: form.code ?? '', redirectUri: form.redirect_uri, codeVerifier: form.code_verifier, resource: form.resource }, deps.tokenLifetimes, now());
    } else if (grantType === 'refresh_token') {
      ctx.body = await refreshTokens(deps.sql, client, { refreshToken: form.refresh_token ?? '', scope: form.scope, resource: form.resource }, deps.tokenLifetimes, now());
    } else {
      throw new OAuthError(grantType ? 'unsupported_grant_type' : 'invalid_request', grantType ? `grant_type ${grantType} is not supported.` : 'grant_type is missing.');
    }
  });

  router.post(REVOKE_PATH, async (ctx) => {
    noStore(ctx);
    await limited(ctx, deps, 'token', deps.limits.token);
    const form = await formBody(ctx);
    const client = await authenticateClient(ctx, deps.sql, form);
    await revokeToken(deps.sql, client, form.token ?? '');
    deps.revoked();
    ctx.status = 200;
    ctx.body = '';
  });

  return router;
}
