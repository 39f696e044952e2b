// What a tool of the MCP server is: a name, a description and an input schema written for a model,
// the REST operation(s) it runs (operationIds of /api/v1's OpenAPI document), and a run function that
// calls that operation (api/operations/) with the validated input. No tool has a query of its own.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import type { ParsedInput, ToolInput } from './toolInput.js';

/** What a tool call runs with: the service's stores and the caller's account (the grant's). */
export interface ToolContext {
  sql: Sql;
  search: SearchBackend;
  log: Logger;
  accountId: string;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** operationIds of the REST operations the tool runs (one per call). */
  operations: string[];
  annotations: ToolAnnotations;
  input: ToolInput<unknown, unknown>;
  /** The operation's answer; arrays are wrapped (`{ data: [...] }`), structured content is an object. */
  run(ctx: ToolContext, input: ParsedInput<unknown, unknown>): Promise<object>;
  /** One line for the text content: what the answer holds. */
  summary(data: object): string;
}

/** Read-only tools over the register data (no side effects, same answer for the same input until the data change). */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

/** A typed tool: run and summary see the parsed input and the data they return. */
export function defineTool<Q, B, R extends object>(tool: Omit<ToolDefinition, 'input' | 'run' | 'summary'> & {
  input: ToolInput<Q, B>;
  run(ctx: ToolContext, input: ParsedInput<Q, B>): Promise<R>;
  summary(data: R): string;
}): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

interface Page {
  data: unknown[];
  /** The rows in `data`, where counting them would read a lazy page (screenerPage). */
  readonly rowCount?: number;
  pageNumber: number;
  pageSize: number;
  totalRecords: number;
  totalPages: number;
}

/** `42 companies; page 1 of 5 (10 here). Next: page 2.` for a list envelope. */
export function pageSummary(noun: string) {
  return (page: Page): string => {
    const next = page.pageNumber < page.totalPages ? ` Next: page ${page.pageNumber + 1}.` : '';
    return `${page.totalRecords} ${noun}; page ${page.pageNumber} of ${Math.max(page.totalPages, 1)} (${page.rowCount ?? page.data.length} here).${next}`;
  };
}
