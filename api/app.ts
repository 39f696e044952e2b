// createApp(deps): the Koa application without a listener, so tests drive it in-process and the
// entry points decide how to run it. Middleware order: correlation id -> error handler -> routes.
import Router from '@koa/router';
import Koa from 'koa';
import type { Queue } from 'bullmq';
import type { Registry } from 'prom-client';
import type { Sql } from '../runtime/db.js';
import type { Logger } from '../runtime/logger.js';
import { correlationId } from './middleware/correlationId.js';
import { errorHandler } from './middleware/errorHandler.js';
import { catalogueRouter } from './routes/catalogues.js';
import { healthRouter } from './routes/health.js';
import { ADMIN_QUEUES_PATH, adminGuard, metricsRouter, queueBoard } from './routes/operations.js';

export const API_PREFIX = '/api/v1';

export interface AppDeps {
  sql: Sql;
  log: Logger;
  /** Prometheus registry served at /metrics. */
  metrics?: Registry;
  /** Queues shown on the operator board at /admin/queues (needs adminToken). */
  queues?: Queue[];
  adminToken?: string;
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = true;
  // Errors are logged by errorHandler with their correlation id; Koa's default printer would log twice.
  app.silent = true;

  app.use(correlationId());
  app.use(errorHandler(deps.log));

  const health = healthRouter(deps.sql);
  app.use(health.routes());
  if (deps.metrics) app.use(metricsRouter(deps.metrics).routes());
  if (deps.queues && deps.adminToken) {
    const guard = adminGuard(deps.adminToken);
    const board = queueBoard(deps.queues);
    app.use(async (ctx, next) => (ctx.path.startsWith(ADMIN_QUEUES_PATH) ? guard(ctx, () => board(ctx, next)) : next()));
  }

  const api = new Router({ prefix: API_PREFIX });
  const catalogues = catalogueRouter(deps.sql);
  api.use(catalogues.routes(), catalogues.allowedMethods());
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}
