// GET /api/v1/status: how fresh each register is (last successful crawl, watermark, lag, queue).
// Like the API's own description it needs no key and costs nothing: it says how current the data
// are, not what they hold.
import Router from '@koa/router';
import type { Queue } from 'bullmq';
import type { Sql } from '../../runtime/db.js';
import { readRegisterStatus } from '../../runtime/registerStatus.js';
import { noQuery, parseQuery } from '../validation.js';

export const STATUS_PATH = '/status';

export function statusRouter(sql: Sql, queues: Queue[] = []): Router {
  const router = new Router();
  router.get(STATUS_PATH, async (ctx) => {
    parseQuery(noQuery, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { registers: await readRegisterStatus(sql, queues) };
  });
  return router;
}
