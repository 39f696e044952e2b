// One tools/call: admitted, billed and quota-checked exactly as a REST call through the grant's key
// (the access chain's one admission, api/metering/admission.ts, with channel 'mcp'), then the tool's
// operation. As in the contract's billing rule, a call that passes the burst limit and the quota
// costs one request whatever it answers (a 400 or 404 included); one refused by either costs none.
// Refusals and failures are tool results with isError, in words a model can pass on: the quota's
// says when it resets, a 400 names each parameter. Authentication failures never get here: they are
// the HTTP 401 of mcpServer.ts, so clients refresh their token.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import { nextMonthStart } from '../metering/calendar.js';
import type { Admission, AdmissionResult } from '../metering/admission.js';
import type { Principal } from '../requestState.js';
import { unavailableService, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../serviceFaults.js';
import type { ToolDefinition } from './toolDefinition.js';

export interface ToolCallDeps {
  sql: Sql;
  search: SearchBackend;
  log: Logger;
  clock: Clock;
  admission: Admission;
  /** Where the account's usage is shown (the dashboard), for the quota message. */
  usageUrl: () => string;
  /** Called once per billed call (the API's billed-requests metric). */
  billed?: (subject: string) => void;
}

export interface Caller {
  accountId: string;
  principal: Principal;
  correlationId: string;
}

function textResult(text: string, structured: Record<string, unknown>, isError = true): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured, isError };
}

function refusal(admission: AdmissionResult, nowMs: number, usageUrl: string): CallToolResult {
  if (admission.outcome === 'burst') {
    const { limit, resetSeconds } = admission.burst;
    return textResult(
      `Burst limit reached: at most ${limit} calls per 60 seconds per key. Retry in ${Math.max(1, resetSeconds)} seconds.`,
      { error: 'burst_limit', limit, retryAfterSeconds: Math.max(1, resetSeconds) },
    );
  }
  const resetsAt = new Date(nextMonthStart(nowMs)).toISOString();
  const limit = admission.quota.limit ?? 0;
  return textResult(
    `Monthly quota exceeded: your plan allows ${limit} requests per month and they are used up. The quota resets on ` +
      `${resetsAt.slice(0, 10)} at 00:00 UTC (${resetsAt}). Usage and plans: ${usageUrl}`,
    { error: 'quota_exceeded', limit, used: admission.quota.used, resetsAt, usage: usageUrl },
  );
}

/** A 400 or 404 of the operation, as the route's ProblemDetails would say it. */
function problem(err: ApiError): CallToolResult {
  const fields = err.errors ? Object.entries(err.errors).map(([name, messages]) => `${name}: ${messages.join('; ')}`) : [];
  const text = `${err.status} ${err.title} ${err.detail}${fields.length > 0 ? ` ${fields.join('. ')}.` : ''}`;
  return textResult(text, { status: err.status, title: err.title, detail: err.detail, ...(err.errors ? { errors: { ...err.errors } } : {}) });
}

function failure(err: unknown, deps: ToolCallDeps, tool: ToolDefinition, caller: Caller): CallToolResult {
  const service = unavailableService(err);
  if (service) {
    deps.log.warn({ err, correlationId: caller.correlationId, tool: tool.name, service }, 'backing service unavailable during a tool call');
    return textResult(`The ${service === 'redis' ? 'request counter' : 'database'} is not reachable at the moment. Retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds.`,
      { error: 'unavailable', retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
  }
  deps.log.error({ err, correlationId: caller.correlationId, tool: tool.name }, 'tool call failed');
  return textResult(`Internal error: the call could not be completed (reference ${caller.correlationId}).`, { error: 'internal', reference: caller.correlationId });
}

/**
 * A result's data as JSON text, kept under a symbol (no serializer sees it) so the direct answer
 * (directToolCall.ts) writes it as it is instead of serializing the data a second time.
 */
export const DATA_JSON = Symbol('dataJson');
type WithJson = { [DATA_JSON]?: string };

/** `data`, noting that `json` is its JSON text (the screener's page as the search backend wrote it). */
export function withJson<T extends object>(data: T, json: string): T {
  return Object.defineProperty(data, DATA_JSON, { value: json });
}

function success(tool: ToolDefinition, data: object): CallToolResult {
  const json = (data as WithJson)[DATA_JSON] ?? JSON.stringify(data);
  // The JSON in a text block too: the spec asks it of structured results, for clients that show a model only `content`.
  const result: CallToolResult = {
    content: [{ type: 'text', text: tool.summary(data) }, { type: 'text', text: json }],
    structuredContent: data as Record<string, unknown>,
  };
  return withJson(result, json);
}

/** The JSON text of a success's structured content, when callTool made the result. */
export function structuredJson(result: CallToolResult): string | undefined {
  return (result as WithJson)[DATA_JSON];
}

export async function callTool(deps: ToolCallDeps, caller: Caller, tool: ToolDefinition, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const now = deps.clock();
  let admission: AdmissionResult;
  try {
    const { principal } = caller;
    admission = await deps.admission.admit({ keyId: principal.keyId, subject: principal.subject, monthlyQuota: principal.monthlyQuota, now, channel: 'mcp' });
  } catch (err) {
    return failure(err, deps, tool, caller);
  }
  if (admission.outcome !== 'admitted') return refusal(admission, now, deps.usageUrl());
  deps.billed?.(caller.principal.subject);
  try {
    const input = tool.input.parse(args);
    const data = await tool.run({ sql: deps.sql, search: deps.search, log: deps.log, accountId: caller.accountId }, input);
    return success(tool, data);
  } catch (err) {
    if (err instanceof ApiError) return problem(err);
    return failure(err, deps, tool, caller);
  }
}
