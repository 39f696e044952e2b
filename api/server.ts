// The API process: createApp() plus a listener, the Redis connection of the access chain and the
// usage flusher, and a graceful close: stop accepting, let in-flight requests finish, write the
// usage counters to Postgres one last time, then drop the Redis connection. So a graceful restart
// loses no counted request.
//
// Entry points that do not pass `access` get one built here: Redis from `redisUrl`, else from the
// configuration (REDIS_URL or the local server), flushing every USAGE_FLUSH_INTERVAL_SECONDS.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { loadConfig } from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';
import { resolveRedisUrl } from '../runtime/services.js';
import { API_PREFIX, createApp, DEFAULT_REDIS_PREFIX, type AccessChainDeps, type AppDeps } from './app.js';
import { systemClock } from './clock.js';
import { createApiServer } from './httpServer.js';
import { postgresSearch } from '../indexer/search/postgresSearch.js';
import { listenerOrigin } from './mcp/mcpServer.js';
import { startMcpBeside, type McpListenerOptions } from './mcp/mcpRuntime.js';
import { createUsageFlusher, type UsageFlusher } from './metering/usageFlusher.js';
import { HOUSEKEEPING_INTERVAL_MS, purgeExpired } from './web/housekeeping.js';
import { webOptionsFromConfig } from './web/webDeps.js';

export interface RunningApi {
  baseUrl: string;
  server: Server;
  /** The MCP server's listener, when `mcp` was given: its local URL (clients are told MCP_URL). */
  mcpLocalUrl?: string;
  /** Writes the usage counters now (tests, operators). */
  flushUsage: () => Promise<void>;
  close: () => Promise<void>;
}

export interface StartApiOptions extends Omit<AppDeps, 'access'> {
  port: number;
  host?: string;
  /** Default: the access chain on `redisUrl` (or the configured Redis). */
  access?: AppDeps['access'];
  redisUrl?: string;
  usageFlushIntervalMs?: number;
  /** Open connections at most (API_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** The MCP server on a listener of its own (MCP_PORT), beside the API in this process (api/mcp/mcpRuntime.ts). */
  mcp?: McpListenerOptions;
}

/**
 * One retry per command, then an error: when Redis is down the chain answers 503 with Retry-After
 * within a reconnect attempt instead of holding requests, and nothing is admitted that could not be counted.
 * Auto-pipelining sends the admission calls of concurrent requests in one write: under load the
 * socket writes, not Redis, are the chain's main cost.
 */
export function connectApiRedis(url: string, log?: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
  // One line per outage, not one per reconnect attempt (ioredis prints every unhandled one).
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) log?.warn({ err: err.message }, 'Redis unreachable; keyed requests answer 503 until it is back');
    down = true;
  });
  redis.on('ready', () => {
    if (down) log?.info('Redis reachable again');
    down = false;
  });
  return redis;
}

interface AccessRuntime {
  access: AppDeps['access'];
  web?: AppDeps['web'];
  flusher?: UsageFlusher;
  ownedRedis?: Redis;
}

async function accessRuntime(options: StartApiOptions): Promise<AccessRuntime> {
  if (options.access && 'bypassForBenchmarkOnly' in options.access) return { access: options.access };
  const config = loadConfig();
  let ownedRedis: Redis | undefined;
  let access: AccessChainDeps;
  if (options.access) {
    access = options.access;
  } else {
    ownedRedis = connectApiRedis(options.redisUrl ?? (await resolveRedisUrl(config, options.log)), options.log);
    access = { redis: ownedRedis };
  }
  const flusher = createUsageFlusher({
    redis: access.redis,
    sql: options.sql,
    prefix: access.redisPrefix ?? DEFAULT_REDIS_PREFIX,
    clock: options.clock ?? systemClock,
    log: options.log,
    intervalMs: options.usageFlushIntervalMs ?? config.USAGE_FLUSH_INTERVAL_SECONDS * 1000,
  });
  await flusher.prepare();
  flusher.start();
  return { access, flusher, ownedRedis, web: options.web ?? webOptionsFromConfig(config) };
}

export async function startApi(options: StartApiOptions): Promise<RunningApi> {
  const { access, flusher, ownedRedis, web: webOptions } = await accessRuntime(options);
  const search = options.search ?? postgresSearch(options.sql);
  const mcp = options.mcp && webOptions && !('bypassForBenchmarkOnly' in access)
    ? await startMcpBeside({ sql: options.sql, log: options.log, clock: options.clock ?? systemClock, search, access, web: webOptions, mcp: options.mcp })
    : undefined;
  const web = mcp?.web ?? webOptions;
  const app = createApp({ ...options, search, access, web });
  const server = createApiServer(app, { maxConnections: options.maxConnections });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '0.0.0.0', () => ready());
  }).catch(async (err: unknown) => {
    await mcp?.running.close();
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://localhost:${port}${API_PREFIX}`;
  mcp?.apiListening(listenerOrigin(options.host, port));
  options.log.info({ baseUrl }, 'API listening');
  // Expired sessions, codes and tokens of the web app (api/web/housekeeping.ts).
  const housekeeping = setInterval(() => {
    purgeExpired(options.sql, new Date((options.clock ?? systemClock)())).catch((err: unknown) => options.log.warn({ err }, 'web housekeeping failed'));
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();
  return {
    baseUrl,
    server,
    mcpLocalUrl: mcp?.running.localUrl,
    flushUsage: async () => {
      await flusher?.flushNow();
    },
    close: async () => {
      clearInterval(housekeeping);
      await mcp?.running.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
      });
      await flusher?.stop();
      await ownedRedis?.quit();
    },
  };
}
