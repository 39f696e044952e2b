// The MCP server (the "agent-tool server at {mcp_url}"): its own listener (MCP_PORT), Streamable HTTP
// at /mcp, stateless, JSON responses (no sessions, no SSE stream: GET and DELETE are 405). A client
// that knows only the URL is answered 401 with a WWW-Authenticate challenge naming the RFC 9728
// metadata (/.well-known/oauth-protected-resource/mcp, and the root form), which names the
// authorization server of the web app; from there it registers and runs the OAuth flow (docs/mcp.md).
//
// POST /mcp, in order: Host and Origin checks (403; DNS rebinding and foreign pages), the bearer
// token (401 / 403 insufficient_scope), the body up to a limit (413), then a tools/call the SDK would
// take as it is runs directly (directToolCall.ts), and anything else through a Server and transport of
// the MCP SDK made for this one request: nothing is shared between requests, so concurrent calls
// cannot wait on each other. The tools (tools.ts) run the operations of /api/v1 (api/operations/),
// each call admitted and billed through the grant's key (toolCalls.ts).
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import Koa, { type Context } from 'koa';
import type { BearerGrant, BearerResolver } from '../oauth/bearer.js';
import { sameResource } from '../oauth/resource.js';
import { MCP_SCOPE, PROTECTED_RESOURCE_ROOT_PATH, protectedResourceMetadata, protectedResourceMetadataUrl, wwwAuthenticate } from '../oauth/resourceServer.js';
import { createApiServer } from '../httpServer.js';
import { correlationId } from '../middleware/correlationId.js';
import { ApiError } from '../errors.js';
import { DEFAULT_BODY_LIMIT_BYTES, isJsonMediaType, readBody } from '../middleware/requestBody.js';
import { answerToolCall, directToolCall } from './directToolCall.js';
import { callTool, type ToolCallDeps } from './toolCalls.js';
import { SERVER_INSTRUCTIONS, TOOL_LIST, TOOLS_BY_NAME } from './tools.js';

export const MCP_PATH = '/mcp';
export const SERVER_INFO = { name: 'austrian-company-data', title: 'Austrian company data', version: '1.0.0' };

/** Where the server is reached and whom it trusts; resource and issuer may be filled in once the listeners run. */
export interface McpSettings {
  /** MCP_URL: the resource tokens must be minted for, and what the metadata names. */
  resource: string;
  /** The authorization server (the web app's origin, no path). */
  issuer: string;
  /** Browser origins allowed to call /mcp (MCP_ALLOWED_ORIGINS; `*` any). Requests without Origin are not browsers' and pass. */
  allowedOrigins: readonly string[];
  /** Host headers accepted besides MCP_URL's host (MCP_ALLOWED_HOSTS); on a loopback MCP_URL every loopback host is. */
  allowedHosts: readonly string[];
}

export interface McpAppDeps extends ToolCallDeps {
  bearer: BearerResolver;
  settings: McpSettings;
  maxBodyBytes?: number;
}

// The SDK builds an Ajv instance per Server by default (milliseconds), for elicitation, which this server never sends.
const noSchemaValidation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'this server requests no input from clients' }),
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function jsonRpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}

function hostAllowed(ctx: Context, settings: McpSettings): boolean {
  const host = ctx.host.toLowerCase();
  const own = new URL(settings.resource);
  if (host === own.host.toLowerCase() || settings.allowedHosts.some((h) => h.toLowerCase() === host)) return true;
  const hostname = host.replace(/:\d+$/, '');
  return LOOPBACK.has(own.hostname.toLowerCase()) && LOOPBACK.has(hostname);
}

function originAllowed(origin: string, settings: McpSettings): boolean {
  return settings.allowedOrigins.includes('*') || settings.allowedOrigins.includes(origin);
}

/** CORS for an allowed browser origin: the headers a client sends, and the challenge it must be able to read. */
function corsHeaders(ctx: Context, origin: string): void {
  ctx.set('Access-Control-Allow-Origin', origin);
  ctx.set('Vary', 'Origin');
  ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID');
  ctx.set('Access-Control-Expose-Headers', 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, X-Correlation-ID');
  ctx.set('Access-Control-Max-Age', '600');
}

/** The grant behind the request's bearer token, or the 401/403 answer written and undefined. */
async function authenticate(ctx: Context, deps: McpAppDeps): Promise<BearerGrant | undefined> {
  const resourceMetadataUrl = protectedResourceMetadataUrl(deps.settings.resource);
  const header = ctx.get('authorization');
  const token = /^Bearer +([^\s]+)\s*$/i.exec(header)?.[1];
  const refuse = (status: 401 | 403, error: 'invalid_token' | 'insufficient_scope' | undefined, description: string) => {
    ctx.set('WWW-Authenticate', wwwAuthenticate({ error, description, resourceMetadataUrl }));
    ctx.status = status;
    ctx.type = 'application/json';
    ctx.body = { error: error ?? 'unauthorized', error_description: description };
    return undefined;
  };
  // Without any credentials the challenge carries no error code (RFC 6750 section 3.1).
  if (header === '') return refuse(401, undefined, 'Sign in: this server takes an OAuth access token (see resource_metadata).');
  if (!token) return refuse(401, 'invalid_token', 'Send the access token as Authorization: Bearer <token>.');
  const grant = await deps.bearer.resolve(token);
  if (!grant || !sameResource(grant.resource, deps.settings.resource)) {
    return refuse(401, 'invalid_token', 'The access token is unknown, expired or revoked, or was issued for another resource.');
  }
  if (!grant.scopes.includes(MCP_SCOPE)) return refuse(403, 'insufficient_scope', `The token lacks the scope ${MCP_SCOPE}.`);
  return grant;
}

/** The request's body parsed, or null for a non-JSON one (the SDK answers that 415); an answer written and undefined on failure. */
async function jsonBody(ctx: Context, limit: number): Promise<unknown> {
  if (!isJsonMediaType(ctx.get('content-type'))) return null;
  let text: string;
  try {
    text = await readBody(ctx, limit);
  } catch (err) {
    if (err instanceof ApiError) {
      jsonRpcError(ctx, err.status, -32000, err.detail);
      return undefined;
    }
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    jsonRpcError(ctx, 400, ErrorCode.ParseError, 'Parse error: the body is not JSON.');
    return undefined;
  }
}

/** One JSON-RPC exchange: a Server and a stateless transport made for it, closed with the response. */
async function serveMcp(ctx: Context, deps: McpAppDeps, grant: BearerGrant, body: unknown): Promise<void> {
  const caller = { accountId: grant.accountId, principal: grant.principal, correlationId: ctx.state.correlationId as string };
  const direct = directToolCall(ctx.headers, body);
  if (direct) return answerToolCall(ctx, deps, caller, direct);
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: SERVER_INSTRUCTIONS, jsonSchemaValidator: noSchemaValidation });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool is called ${request.params.name}; tools/list names them.`);
    return callTool(deps, caller, tool, request.params.arguments);
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  ctx.respond = false;
  ctx.res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await transport.handleRequest(ctx.req, ctx.res, body ?? undefined);
}

async function mcpEndpoint(ctx: Context, deps: McpAppDeps): Promise<void> {
  const { settings } = deps;
  if (!hostAllowed(ctx, settings)) return jsonRpcError(ctx, 403, -32000, `Host ${ctx.host} is not this server's.`);
  const origin = ctx.get('origin');
  if (origin !== '') {
    if (!originAllowed(origin, settings)) return jsonRpcError(ctx, 403, -32000, `Requests from the origin ${origin} are not accepted.`);
    corsHeaders(ctx, origin);
  }
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    return;
  }
  if (ctx.method !== 'POST') {
    ctx.set('Allow', 'POST, OPTIONS');
    return jsonRpcError(ctx, 405, -32000, 'Method not allowed: this server is stateless and takes JSON-RPC messages by POST only.');
  }
  const grant = await authenticate(ctx, deps);
  if (!grant) return;
  const body = await jsonBody(ctx, deps.maxBodyBytes ?? DEFAULT_BODY_LIMIT_BYTES);
  if (body === undefined) return;
  await serveMcp(ctx, deps, grant, body);
}

function resourceMetadata(ctx: Context, settings: McpSettings): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.method === 'OPTIONS') {
    ctx.set('Access-Control-Allow-Methods', 'GET, OPTIONS');
    ctx.status = 204;
    return;
  }
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    ctx.set('Allow', 'GET, HEAD, OPTIONS');
    ctx.status = 405;
    ctx.body = { error: 'method_not_allowed' };
    return;
  }
  ctx.set('Cache-Control', 'public, max-age=3600');
  ctx.body = protectedResourceMetadata({ resource: settings.resource, issuer: settings.issuer });
}

export function createMcpApp(deps: McpAppDeps): Koa {
  const app = new Koa();
  app.proxy = true;
  app.silent = true;
  app.use(correlationId());
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      deps.log.error({ err, correlationId: ctx.state.correlationId as string, path: ctx.path }, 'MCP request failed');
      if (ctx.respond === false || ctx.headerSent) return;
      jsonRpcError(ctx, 500, ErrorCode.InternalError, `Internal error (reference ${ctx.state.correlationId as string}).`);
    }
  });
  app.use(async (ctx) => {
    if (ctx.path === MCP_PATH) return mcpEndpoint(ctx, deps);
    // The root form, and the path-aware one of the resource as configured (and of /mcp, should MCP_URL carry another path).
    const metadataPath = new URL(protectedResourceMetadataUrl(deps.settings.resource)).pathname;
    if (ctx.path === PROTECTED_RESOURCE_ROOT_PATH || ctx.path === metadataPath || ctx.path === `${PROTECTED_RESOURCE_ROOT_PATH}${MCP_PATH}`) {
      return resourceMetadata(ctx, deps.settings);
    }
    ctx.status = 404;
    ctx.body = { error: 'not_found', error_description: `This server answers ${MCP_PATH} and ${PROTECTED_RESOURCE_ROOT_PATH}${MCP_PATH}.` };
  });
  return app;
}

export interface RunningMcp {
  /** The URL /mcp is served at here (the listener's own; MCP_URL is what clients are told). */
  localUrl: string;
  server: HttpServer;
  close(): Promise<void>;
}

export interface StartMcpOptions extends McpAppDeps {
  port: number;
  host?: string;
  maxConnections?: number;
}

/** `http://<host>:<port>` of a listener: the address it is bound to, localhost for any address. */
export function listenerOrigin(host: string | undefined, port: number): string {
  const name = !host || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export async function startMcpServer(options: StartMcpOptions): Promise<RunningMcp> {
  const server = createApiServer(createMcpApp(options), { maxConnections: options.maxConnections });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '0.0.0.0', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  const localUrl = `${listenerOrigin(options.host, port)}${MCP_PATH}`;
  options.log.info({ localUrl }, 'MCP server listening');
  return {
    localUrl,
    server,
    close: () => new Promise<void>((done) => {
      server.close(() => done());
      server.closeIdleConnections();
    }),
  };
}
