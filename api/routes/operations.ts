// Operator endpoints outside /api/v1: Prometheus metrics and Bull Board (queue monitoring), both
// behind tokens (docs/limits-and-safety.md "Operator endpoints"). A token is taken in a header only
// (`Authorization: Bearer`, `x-admin-token`), never in the URL, where it would land in logs and
// browser history. Browsers sign in at /admin/login instead: the form takes ADMIN_TOKEN by POST and
// sets an HttpOnly, SameSite=Strict cookie with a signed, expiring session (adminSession.ts).
// /metrics takes ADMIN_TOKEN, METRICS_TOKEN (for Prometheus, which cannot reach the board with it)
// or the session; Bull Board takes ADMIN_TOKEN or the session. Without ADMIN_TOKEN the board is off.
import Router from '@koa/router';
import type { Queue } from 'bullmq';
import type { Context, Middleware } from 'koa';
import type { Registry } from 'prom-client';
import type { Clock } from '../clock.js';
import { field, readForm, UnsupportedForm } from '../web/forms.js';
import { html } from '../web/html.js';
import { CONTENT_SECURITY_POLICY, crossSiteReason } from '../web/security.js';
import { ADMIN_SESSION_COOKIE, sameSecret, type AdminSessions } from './adminSession.js';

export const ADMIN_QUEUES_PATH = '/admin/queues';
export const ADMIN_LOGIN_PATH = '/admin/login';
export const ADMIN_LOGOUT_PATH = '/admin/logout';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OperatorAccess {
  /** Tokens accepted in a header. */
  tokens: string[];
  /** Sessions of /admin/login (only with ADMIN_TOKEN). */
  sessions?: AdminSessions;
  clock: Clock;
}

const ownOrigin = (ctx: Context) => `${ctx.protocol}://${ctx.host}`;

function headerToken(ctx: Context): string | undefined {
  return ctx.get('x-admin-token') || /^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1] || undefined;
}

function refuse(ctx: Context, status: number, error: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { error };
}

export function adminGuard(access: OperatorAccess): Middleware {
  return async (ctx, next) => {
    const given = headerToken(ctx);
    if (given !== undefined) {
      if (access.tokens.some((token) => sameSecret(given, token))) return next();
    } else if (access.sessions?.valid(ctx.cookies.get(ADMIN_SESSION_COOKIE), access.clock())) {
      // SameSite=Strict keeps the cookie off cross-site requests already; a board action must also
      // come from this origin by the headers browsers set.
      const crossSite = SAFE_METHODS.has(ctx.method) ? undefined : crossSiteReason(ctx, ownOrigin(ctx));
      if (crossSite) return refuse(ctx, 403, `Refused a cross-site request (${crossSite}).`);
      return next();
    }
    if (access.sessions && ctx.method === 'GET' && ctx.accepts('json', 'html') === 'html') {
      ctx.status = 303;
      ctx.redirect(ADMIN_LOGIN_PATH);
      return;
    }
    ctx.set('WWW-Authenticate', 'Bearer realm="operator"');
    refuse(ctx, 401, access.tokens.length === 0
      ? 'No operator token is configured: set METRICS_TOKEN or ADMIN_TOKEN.'
      : `Operator token missing or wrong: send it as Authorization: Bearer <token> or x-admin-token${access.sessions ? `, or sign in at ${ADMIN_LOGIN_PATH}` : ''}.`);
  };
}

function loginPage(ctx: Context, status: number, message?: string): void {
  ctx.status = status;
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Operator sign-in</title></head><body>
<h1>Operator sign-in</h1>${message ? html`<p role="alert">${message}</p>` : ''}
<form method="post" action="${ADMIN_LOGIN_PATH}"><label>Admin token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button></form>
<p>Then: <a href="${ADMIN_QUEUES_PATH}">queues</a>, <a href="/metrics">metrics</a>.</p></body></html>`.text;
}

/** /admin/login (GET: the form; POST: the token, once) and /admin/logout. */
export function adminLoginRouter(token: string, sessions: AdminSessions, clock: Clock): Router {
  const router = new Router();
  const setSession = (ctx: Context, value: string | null) =>
    ctx.cookies.set(ADMIN_SESSION_COOKIE, value, {
      httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/', overwrite: true, ...(value ? { maxAge: sessions.ttlMs } : {}),
    });
  const sameOrigin = (ctx: Context) => {
    const crossSite = crossSiteReason(ctx, ownOrigin(ctx));
    if (crossSite) refuse(ctx, 403, `Refused a cross-site request (${crossSite}).`);
    return !crossSite;
  };
  router.get(ADMIN_LOGIN_PATH, (ctx) => loginPage(ctx, 200));
  router.post(ADMIN_LOGIN_PATH, async (ctx) => {
    if (!sameOrigin(ctx)) return;
    let given: string;
    try {
      given = field(await readForm(ctx, 4096), 'token');
    } catch (err) {
      if (err instanceof UnsupportedForm) return loginPage(ctx, 415, 'Send the form as application/x-www-form-urlencoded.');
      throw err;
    }
    if (!sameSecret(given, token)) return loginPage(ctx, 401, 'That is not the admin token.');
    setSession(ctx, sessions.issue(clock()));
    ctx.status = 303;
    ctx.redirect(ADMIN_QUEUES_PATH);
  });
  router.post(ADMIN_LOGOUT_PATH, (ctx) => {
    if (!sameOrigin(ctx)) return;
    setSession(ctx, null);
    ctx.status = 303;
    ctx.redirect(ADMIN_LOGIN_PATH);
  });
  return router;
}

export function metricsRouter(registry: Registry): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}

export function queueBoard(queues: Queue[]): Middleware {
  // Built on the board's first request, not at start: Bull Board's modules are ~8 MB of heap that
  // every full collection of the API process would mark (~3 ms each, measured), for a page operators
  // open now and then. A failed load is tried again on the next request.
  let board: Promise<Middleware> | null = null;
  const build = async (): Promise<Middleware> => {
    const [{ createBullBoard }, { BullMQAdapter }, { KoaAdapter }] = await Promise.all([
      import('@bull-board/api'), import('@bull-board/api/bullMQAdapter'), import('@bull-board/koa'),
    ]);
    const adapter = new KoaAdapter();
    adapter.setBasePath(ADMIN_QUEUES_PATH);
    createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter: adapter });
    return adapter.registerPlugin({ mount: ADMIN_QUEUES_PATH });
  };
  return async (ctx, next) => {
    board ??= build().catch((error: unknown) => {
      board = null;
      throw error;
    });
    return (await board)(ctx, next);
  };
}
