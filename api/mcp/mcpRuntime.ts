// The MCP listener beside the API in one process (the api role of SERVICE_ROLES, docs/mcp.md): it
// shares the API's Redis counters (one admission script, the same burst windows and monthly quota),
// its search backend (the screener's in-memory columns are loaded once) and the usage flusher, and
// the web app's revocations clear its token cache at once.
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import type { Config } from '../../runtime/config.js';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import type { AccessChainDeps } from '../app.js';
import type { Clock } from '../clock.js';
import { createRedisAdmission, DEFAULT_BURST_WINDOW_MS, DEFAULT_REDIS_PREFIX } from '../metering/admission.js';
import { createBearerResolver, DEFAULT_BEARER_CACHE_MS } from '../oauth/bearer.js';
import type { WebOptions } from '../web/webDeps.js';
import { startMcpServer, type McpSettings, type RunningMcp } from './mcpServer.js';

export interface McpListenerOptions {
  /** MCP_PORT (0: any free port). */
  port: number;
  host?: string;
  /** MCP_URL, the URL clients are told; default: this listener's own (http://localhost:<port>/mcp). */
  url?: string;
  allowedOrigins?: readonly string[];
  allowedHosts?: readonly string[];
  /** How long a token's lookup is cached (default 5 s; revocations in this process clear it at once). */
  tokenCacheMs?: number;
  maxConnections?: number;
}

/** The listener's options from the service configuration (entry points). */
export function mcpOptionsFromConfig(config: Config): McpListenerOptions {
  return { port: config.MCP_PORT, url: config.MCP_URL, allowedOrigins: config.MCP_ALLOWED_ORIGINS, allowedHosts: config.MCP_ALLOWED_HOSTS };
}

export interface McpBeside {
  running: RunningMcp;
  /** The web app's options with MCP_URL as the resource and revocations wired to the token cache. */
  web: WebOptions;
  /** Once the API listens: the authorization server's issuer, unless PUBLIC_BASE_URL fixes it. */
  apiListening(apiOrigin: string): void;
}

export async function startMcpBeside(deps: {
  sql: Sql; log: Logger; clock: Clock; search: SearchBackend; access: AccessChainDeps; web: WebOptions; mcp: McpListenerOptions;
}): Promise<McpBeside> {
  const { access, web, mcp } = deps;
  const bearer = createBearerResolver(deps.sql, { clock: deps.clock, cacheMs: mcp.tokenCacheMs ?? DEFAULT_BEARER_CACHE_MS });
  const admission = access.admission ?? createRedisAdmission(access.redis, {
    prefix: access.redisPrefix ?? DEFAULT_REDIS_PREFIX, burstLimit: access.burstLimit, burstWindowMs: access.burstWindowMs ?? DEFAULT_BURST_WINDOW_MS,
  });
  const fixedIssuer = web.publicBaseUrl ? new URL(web.publicBaseUrl).origin : undefined;
  const settings: McpSettings = {
    resource: mcp.url ?? '',
    issuer: fixedIssuer ?? '',
    allowedOrigins: mcp.allowedOrigins ?? [],
    allowedHosts: mcp.allowedHosts ?? [],
  };
  const running = await startMcpServer({
    sql: deps.sql, search: deps.search, log: deps.log, clock: deps.clock, admission, bearer, settings,
    usageUrl: () => `${settings.issuer}/app/usage`,
    port: mcp.port, host: mcp.host, maxConnections: mcp.maxConnections,
  });
  settings.resource ||= running.localUrl;
  const revoked = web.onRevocation;
  return {
    running,
    web: {
      ...web,
      mcpUrl: settings.resource,
      onRevocation: () => {
        bearer.invalidate();
        revoked?.();
      },
    },
    apiListening(apiOrigin) {
      settings.issuer = fixedIssuer ?? apiOrigin;
    },
  };
}
