// createApp(deps): the Koa application without a listener, so tests drive it in-process and the
// entry points decide how to run it. Middleware order: correlation id -> error handler -> routes.
import Router from '@koa/router';
import Koa from 'koa';
import type { Sql } from '../runtime/db.js';
import type { Logger } from '../runtime/logger.js';
import { correlationId } from './middleware/correlationId.js';
import { errorHandler } from './middleware/errorHandler.js';
import { catalogueRouter } from './routes/catalogues.js';
import { healthRouter } from './routes/health.js';

export const API_PREFIX = '/api/v1';

export interface AppDeps {
  sql: Sql;
  log: Logger;
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

  const api = new Router({ prefix: API_PREFIX });
  const catalogues = catalogueRouter(deps.sql);
  api.use(catalogues.routes(), catalogues.allowedMethods());
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}
