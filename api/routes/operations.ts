// Operator endpoints outside /api/v1: Prometheus metrics and Bull Board (queue monitoring).
// Bull Board sits behind ADMIN_TOKEN (header `x-admin-token`, `Authorization: Bearer`, or `?token=`
// once, which sets an httpOnly cookie for the board's own requests). Without a token it is off.
import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { Queue } from 'bullmq';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';

export const ADMIN_QUEUES_PATH = '/admin/queues';

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function adminGuard(token: string): Middleware {
  return async (ctx, next) => {
    const fromQuery = typeof ctx.query.token === 'string' ? ctx.query.token : undefined;
    const bearer = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
    const given = ctx.get('x-admin-token') || bearer || fromQuery || ctx.cookies.get('admin_token');
    if (!sameToken(given, token)) {
      ctx.status = 401;
      ctx.body = { error: 'Admin token missing or wrong.' };
      return;
    }
    if (fromQuery) ctx.cookies.set('admin_token', fromQuery, { httpOnly: true, sameSite: 'strict', path: ADMIN_QUEUES_PATH });
    await next();
  };
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
