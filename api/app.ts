// createApp(deps): the Koa application without a listener, so tests drive it in-process and the
// entry points decide how to run it (api/server.ts adds the listener, the Redis connection and the
// usage flusher).
//
// Middleware order, each a middleware of its own:
//   correlation id -> compression -> error handler -> [CORS, answering preflights] -> [for a request an API router will answer: API-key auth ->
//   burst limit -> monthly quota -> billing -> request body -> response type] -> routes
//   (validation -> handler -> presenter)
// /health, /metrics and /admin stay outside the access chain, and so do the API's own description
// (/api/v1/openapi.json) and docs page (/api/v1/docs): a browser cannot send x-api-key, and reading
// the contract is not a billable call.
import Router from '@koa/router';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';
import { Counter, type Registry } from 'prom-client';
import type { Sql } from '../runtime/db.js';
import type { DocumentSource } from '../runtime/documentSource.js';
import type { TradeExtractSource } from '../runtime/tradeExtractSource.js';
import type { Logger } from '../runtime/logger.js';
import { createPrincipalResolver, type PrincipalResolver } from './accounts/principals.js';
import { systemClock, type Clock } from './clock.js';
import { ExportGate } from './exportGate.js';
import { createRedisAdmission, DEFAULT_BURST_WINDOW_MS, DEFAULT_REDIS_PREFIX, type Admission } from './metering/admission.js';
import { apiKeyAuth } from './middleware/apiKeyAuth.js';
import { billing } from './middleware/billing.js';
import { burstLimit } from './middleware/burstLimit.js';
import { compression } from './middleware/compression.js';
import { correlationId } from './middleware/correlationId.js';
import { apiCors } from './middleware/cors.js';
import { errorHandler } from './middleware/errorHandler.js';
import { monthlyQuota } from './middleware/monthlyQuota.js';
import { requestBody } from './middleware/requestBody.js';
import { responseType } from './middleware/responseType.js';
import { postgresSearch } from '../indexer/search/postgresSearch.js';
import type { SearchBackend } from '../indexer/search/searchBackend.js';
import { businessesRouter } from './routes/businesses.js';
import { catalogueRouter } from './routes/catalogues.js';
import { changeFeedRouter } from './routes/changeFeeds.js';
import { companyProfileRouter } from './routes/companyProfile.js';
import { documentsRouter } from './routes/documents.js';
import { graphRouter } from './routes/graph.js';
import { peopleRouter } from './routes/people.js';
import { exportRouter } from './routes/exports.js';
import { healthRouter } from './routes/health.js';
import { listRouter } from './routes/lists.js';
import { DOCS_PATH, OPENAPI_PATH, openApiRouter } from './routes/openapi.js';
import { adminSessions } from './routes/adminSession.js';
import { ADMIN_QUEUES_PATH, adminGuard, adminLoginRouter, metricsRouter, queueBoard } from './routes/operations.js';
import { queryRouter } from './routes/queries.js';
import { tradesRouter } from './routes/trades.js';
import { statusRouter } from './routes/status.js';
import { createWebApp } from './web/webApp.js';
import type { WebOptions } from './web/webDeps.js';

export const API_PREFIX = '/api/v1';
export { DEFAULT_REDIS_PREFIX };

/** The public description pages, outside the access chain. */
export const PUBLIC_API_PATHS = [API_PREFIX + OPENAPI_PATH, API_PREFIX + DOCS_PATH];

export interface AccessChainDeps {
  redis: Redis;
  /** Prefix of every Redis key the chain writes (tests use one per file). Default `api:`. */
  redisPrefix?: string;
  /** Requests per window and key; the contract's default is 1000 per 60 s. */
  burstLimit?: number;
  burstWindowMs?: number;
  /** How long key and session lookups are cached in memory. */
  principalCacheMs?: number;
  /** Replace the Postgres / Redis implementations (unit tests). */
  resolver?: PrincipalResolver;
  admission?: Admission;
}

/** Benchmark only: serve /api/v1 with no authentication, limits, quota or billing. */
export interface BypassedAccessChain {
  bypassForBenchmarkOnly: true;
}

export interface AppDeps {
  sql: Sql;
  log: Logger;
  /** Authentication, burst limit, quota and billing. Required, so an open API is a visible choice. */
  access: AccessChainDeps | BypassedAccessChain;
  clock?: Clock;
  /** Search backend of GET /businesses, /businesses/count and saved-query exports; the Postgres read model by default. */
  search?: SearchBackend;
  /** Where documents the pipeline does not hold are fetched from and kept (built by the entry points). */
  documents?: DocumentSource;
  /** Where signed trade extracts come from: the pipeline's GISA queue (built by the entry points). */
  tradeExtracts?: TradeExtractSource;
  /** How long an extract request waits for its job before a 503 (default 25 s). */
  tradeExtractWaitMs?: number;
  /** Prometheus registry served at /metrics (with adminToken, metricsToken or an operator session). */
  metrics?: Registry;
  /** Queues shown on the operator board at /admin/queues (needs adminToken). */
  queues?: Queue[];
  adminToken?: string;
  /** A token that opens /metrics only (Prometheus), not the board. */
  metricsToken?: string;
  /** Exports running at once in this process (EXPORT_CONCURRENCY); more wait briefly, then get 503. */
  exportConcurrency?: number;
  /** The dashboard (/app) and OAuth authorization server (api/web/webApp.ts); on with the access chain unless false. */
  web?: WebOptions | false;
  /** Browser origins allowed to call the API (CORS_ORIGINS; `*` any); none by default. */
  corsOrigins?: readonly string[];
}

/** Whether `path` names one of `router`'s routes, with any method: the router's own match, as its dispatch makes it. */
const namesARoute = (router: Router, path: string) => router.match(path, 'GET').path.some((layer) => layer.methods.length > 0);

/**
 * Serves `router` behind `chain`. Whether the chain runs is decided by the router's own match, the
 * one its dispatch makes: a path that names any of its routes (with any method, so a 405 is billed
 * like the endpoint's 400) goes through the chain, and no path the router answers can reach a
 * handler around it. A prefix test in front of the routes would be a second matcher that can
 * disagree with the router: one that compared '/api/v1' case-sensitively let '/API/V1/businesses'
 * through without a key, and koa-router's own `router.use()` middleware has the same flaw (a
 * case-sensitive prefix RegExp in front of case-insensitive routes).
 */
function behindChain(router: Router, chain: Middleware[]): Middleware {
  const dispatch: Middleware = compose([router.routes(), router.allowedMethods()] as Middleware[]);
  const guarded = compose([...chain, dispatch]);
  return (ctx, next) => (namesARoute(router, ctx.path) ? guarded(ctx, next) : dispatch(ctx, next));
}

/** CORS on the paths the routers name (by their own match, as behindChain decides): a preflight there is answered before any chain. */
function corsOn(routers: Router[], origins: readonly string[] | undefined): Middleware | null {
  if (!origins || origins.length === 0) return null;
  const cors = apiCors(origins);
  return (ctx, next) => (routers.some((router) => namesARoute(router, ctx.path)) ? cors(ctx, next) : next());
}

function billedCounter(registry: Registry | undefined): ((subject: string) => void) | undefined {
  if (!registry) return undefined;
  const name = 'api_billed_requests_total';
  const existing = registry.getSingleMetric(name) as Counter | undefined;
  const counter = existing ?? new Counter({ name, help: 'Requests counted against a monthly quota', registers: [registry] });
  return () => counter.inc();
}

/** The access chain for public-data routes and for account-bound ones (saved queries, lists, exports). */
function accessChains(deps: AppDeps, clock: Clock): { data: Middleware[]; account: Middleware[] } {
  const body = [requestBody(), responseType()];
  const access = deps.access;
  if ('bypassForBenchmarkOnly' in access) return { data: body, account: body };
  const prefix = access.redisPrefix ?? DEFAULT_REDIS_PREFIX;
  const windowMs = access.burstWindowMs ?? DEFAULT_BURST_WINDOW_MS;
  const resolver = access.resolver ?? createPrincipalResolver(deps.sql, clock, access.principalCacheMs);
  const admission = access.admission ?? createRedisAdmission(access.redis, { prefix, burstLimit: access.burstLimit, burstWindowMs: windowMs });
  const limits = [burstLimit(admission, clock, Math.round(windowMs / 1000)), monthlyQuota(clock), billing({ billed: billedCounter(deps.metrics) })];
  return {
    data: [apiKeyAuth({ resolver, accountBound: false }), ...limits, ...body],
    account: [apiKeyAuth({ resolver, accountBound: true }), ...limits, ...body],
  };
}

function mountOperations(app: Koa, deps: AppDeps): void {
  app.use(healthRouter(deps.sql).routes());
  const clock = deps.clock ?? systemClock;
  const sessions = deps.adminToken ? adminSessions(deps.adminToken) : undefined;
  if (deps.adminToken && sessions) app.use(adminLoginRouter(deps.adminToken, sessions, clock).routes());
  if (deps.metrics) {
    const guard = adminGuard({ tokens: [deps.adminToken, deps.metricsToken].filter((t): t is string => !!t), sessions, clock });
    const metrics = metricsRouter(deps.metrics).routes() as Middleware;
    app.use((ctx, next) => (ctx.path === '/metrics' ? guard(ctx, () => metrics(ctx, next)) : next()));
  }
  if (deps.queues && deps.adminToken) {
    const guard = adminGuard({ tokens: [deps.adminToken], sessions, clock });
    const board = queueBoard(deps.queues);
    app.use(async (ctx, next) => (ctx.path.startsWith(ADMIN_QUEUES_PATH) ? guard(ctx, () => board(ctx, next)) : next()));
  }
}

/** Without a Firmenbuch adapter, documents not stored locally answer the contract's 503. */
const registerUnreachable: DocumentSource = {
  fetch: () => Promise.reject(new Error('no Firmenbuch adapter configured')),
  keep: () => Promise.resolve(),
};

/** Without the pipeline's GISA queue, extracts answer the contract's 503. */
const gisaUnreachable: TradeExtractSource = { extract: () => Promise.reject(new Error('no GISA extract source configured')) };

/** One prefixed router over `routers`, each with its allowed-methods answers. */
function prefixed(routers: Router[]): Router {
  const api = new Router({ prefix: API_PREFIX });
  for (const router of routers) api.use(router.routes(), router.allowedMethods());
  return api;
}

function apiRouters(deps: AppDeps, clock: Clock): { publicPages: Router; account: Router; data: Router } {
  const search = deps.search ?? postgresSearch(deps.sql);
  return {
    publicPages: prefixed([openApiRouter(), statusRouter(deps.sql, deps.queues)]),
    account: prefixed([queryRouter(deps.sql), listRouter(deps.sql), exportRouter(deps.sql, search, deps.log, clock, new ExportGate({ concurrency: deps.exportConcurrency }))]),
    data: prefixed([
      catalogueRouter(deps.sql),
      // Fixed paths under /businesses before the profile's /businesses/{fnr}: the first match answers.
      changeFeedRouter(deps.sql, deps.log),
      businessesRouter({ sql: deps.sql, search }),
      peopleRouter(deps.sql),
      graphRouter(deps.sql),
      documentsRouter({ sql: deps.sql, documents: deps.documents ?? registerUnreachable, log: deps.log }),
      tradesRouter({ sql: deps.sql, extracts: deps.tradeExtracts ?? gisaUnreachable, extractWaitMs: deps.tradeExtractWaitMs }),
      companyProfileRouter(deps.sql),
    ]),
  };
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = true;
  // Errors are logged by errorHandler with their correlation id; Koa's default printer would log twice.
  app.silent = true;
  const clock = deps.clock ?? systemClock;

  app.use(correlationId());
  app.use(compression());
  app.use(errorHandler(deps.log));
  mountOperations(app, deps);
  // The web app has its own chains (sessions, CSRF; OAuth CORS) and never runs the API's access chain.
  if (deps.web !== false && !('bypassForBenchmarkOnly' in deps.access)) {
    const redisPrefix = deps.access.redisPrefix ?? DEFAULT_REDIS_PREFIX;
    app.use(createWebApp({ sql: deps.sql, redis: deps.access.redis, redisPrefix, log: deps.log, clock }, deps.web));
  }

  const routers = apiRouters(deps, clock);
  const chains = accessChains(deps, clock);
  const cors = corsOn([routers.publicPages, routers.account, routers.data], deps.corsOrigins);
  if (cors) app.use(cors);
  app.use(behindChain(routers.publicPages, []));
  app.use(behindChain(routers.account, chains.account));
  app.use(behindChain(routers.data, chains.data));
  return app;
}
