// tools/call, the hot path (every call a client makes after initialize), answered without the SDK's
// per-request Server and Web-standard transport: those convert the Node request to a Request, check
// every message against zod schemas, build a Response and read it back as a stream, several times
// what the REST route costs (docs/benchmarks.md, MCP phase). A request qualifies only when the SDK
// would take it as it stands: Accept names application/json and text/event-stream, the
// MCP-Protocol-Version is a supported one or absent, and the body is one JSON-RPC request of
// tools/call (no batch, no task) for a known tool with object arguments. Anything else goes through
// the SDK, which answers it (406, 400, JSON-RPC errors). The answer is the one the SDK would send,
// `{ result, jsonrpc, id }` as application/json (test/integration/mcpServer.test.ts compares them),
// with the data serialized once (toolCalls.ts keeps its JSON text for the text block and this answer).
import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'koa';
import type { ToolDefinition } from './toolDefinition.js';
import { callTool, structuredJson, type Caller, type ToolCallDeps } from './toolCalls.js';
import { TOOLS_BY_NAME } from './tools.js';

export interface DirectCall {
  id: string | number;
  tool: ToolDefinition;
  args: Record<string, unknown> | undefined;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The call, when the request is one the SDK would pass to the tools/call handler unchanged; else undefined. */
export function directToolCall(headers: IncomingHttpHeaders, body: unknown): DirectCall | undefined {
  const accept = headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  if (!isObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  if (!Object.keys(body).every((k) => REQUEST_KEYS.has(k))) return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isObject(params) || typeof params.name !== 'string' || !Object.keys(params).every((k) => PARAM_KEYS.has(k))) return undefined;
  if (params._meta !== undefined && !isObject(params._meta)) return undefined;
  if (params.arguments !== undefined && !isObject(params.arguments)) return undefined;
  const tool = TOOLS_BY_NAME.get(params.name);
  if (!tool) return undefined;
  return { id: id as string | number, tool, args: params.arguments };
}

/** Runs the call and writes the JSON-RPC response (a throw becomes the error object the SDK would send). */
export async function answerToolCall(ctx: Context, deps: ToolCallDeps, caller: Caller, call: DirectCall): Promise<void> {
  let text: string;
  try {
    text = responseText(call.id, await callTool(deps, caller, call.tool, call.args));
  } catch (err) {
    deps.log.error({ err, correlationId: caller.correlationId, tool: call.tool.name }, 'tool call failed');
    text = JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: ErrorCode.InternalError, message: err instanceof Error ? err.message : 'Internal error' } });
  }
  ctx.status = 200;
  ctx.set('Content-Type', 'application/json'); // the SDK's, without koa's charset
  ctx.body = text;
}

/** JSON.stringify({ result, jsonrpc, id }), with the structured content's JSON spliced in as callTool wrote it. */
function responseText(id: string | number, result: CallToolResult): string {
  const json = structuredJson(result);
  const { structuredContent, ...rest } = result;
  if (json === undefined || structuredContent === undefined) return JSON.stringify({ result, jsonrpc: '2.0', id });
  const head = JSON.stringify(rest); // {"content":[...]} (content is never absent)
  return `{"result":${head.slice(0, -1)},"structuredContent":${json}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}
