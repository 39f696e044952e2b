// The web app beside /api/v1: the dashboard under /app, the OAuth authorization server under /oauth
// and its metadata under /.well-known. Two routers with a middleware chain each, neither touching
// the API's access chain:
//   pages   (dashboard, consent): security headers -> language + session -> error pages -> POST guard
//            (cross-site headers, form, CSRF token) -> routes
//   oauth   (metadata, register, token, revoke): CORS -> RFC error bodies -> routes
// As in api/app.ts, whether a chain runs is decided by its router's own match, so no spelling of a
// path reaches a route around its chain.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { consentRoutes } from '../oauth/consent.js';
import { cors, oauthErrors, oauthRouter } from '../oauth/endpoints.js';
import { errorPages, pageState, postGuard } from './context.js';
import { ASSET_PATH } from './layout.js';
import { authRoutes } from './pages/auth.js';
import { connectionRoutes } from './pages/connections.js';
import { keyRoutes } from './pages/keys.js';
import { usageRoutes } from './pages/usage.js';
import { securityHeaders } from './security.js';
import { STYLESHEET } from './styles.js';
import { webDeps, type WebOptions, type WebRuntime } from './webDeps.js';

function guarded(router: Router, chain: Middleware[]): Middleware {
  const run = compose([...chain, router.routes() as Middleware, router.allowedMethods() as Middleware]);
  const namesARoute = (path: string, method: string) => router.match(path, method).path.some((layer) => layer.methods.length > 0);
  return (ctx, next) => (namesARoute(ctx.path, ctx.method) ? run(ctx, next) : next());
}

/** Unknown paths under /app get the dashboard's 404 page rather than the API's problem JSON. */
function dashboardFallback(router: Router): void {
  router.all('/app/{*rest}', (ctx) => {
    ctx.status = 404;
  });
}

export function createWebApp(runtime: WebRuntime, options: WebOptions = {}): Middleware {
  const deps = webDeps(runtime, options);

  const assets = new Router();
  assets.get(ASSET_PATH, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = STYLESHEET;
  });

  const pages = new Router();
  authRoutes(pages, deps);
  usageRoutes(pages, deps, runtime.redisPrefix);
  keyRoutes(pages, deps);
  connectionRoutes(pages, deps);
  consentRoutes(pages, deps);
  dashboardFallback(pages);
  const pageDeps = { sql: deps.sql, clock: deps.clock, log: deps.log, cookieSecurity: deps.cookieSecurity, origin: deps.origin };

  return compose([
    guarded(assets, [securityHeaders()]),
    guarded(oauthRouter(deps), [cors(), oauthErrors()]),
    guarded(pages, [securityHeaders(), pageState(pageDeps), errorPages(), postGuard(pageDeps)]),
  ]);
}
