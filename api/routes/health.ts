// Liveness and readiness: /health answers while the process runs; /health/ready also checks Postgres.
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';

export function healthRouter(sql: Sql): Router {
  const router = new Router();
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/health/ready', async (ctx) => {
    try {
      await sql`SELECT 1`;
      ctx.body = { status: 'ok', database: 'ok' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', database: 'unreachable' };
    }
  });
  return router;
}
