// Every tool of the MCP server, in the order tools/list answers them (deterministic: the 2026 spec
// asks for it, and clients cache the list): find companies, read one, people and links, other
// registers, catalogues, then the account's own records.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from './toolDefinition.js';
import { ACCOUNT_TOOLS } from './tools/account.js';
import { CATALOGUE_TOOLS } from './tools/catalogues.js';
import { COMPANY_TOOLS } from './tools/companies.js';
import { PEOPLE_TOOLS } from './tools/people.js';
import { REGISTER_TOOLS } from './tools/registers.js';

export const TOOLS: readonly ToolDefinition[] = [...COMPANY_TOOLS, ...PEOPLE_TOOLS, ...REGISTER_TOOLS, ...CATALOGUE_TOOLS, ...ACCOUNT_TOOLS];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

/** The tools/list answer, built once: the schemas are derived from zod at start, not per request. */
export const TOOL_LIST: Tool[] = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.input.jsonSchema as Tool['inputSchema'],
  annotations: { title: t.title, ...t.annotations },
}));

/** What the server tells a model about itself at initialize (InitializeResult.instructions). */
export const SERVER_INSTRUCTIONS =
  'Austrian company data from the public registers: the company register (Firmenbuch) with officers, shareholders and filed ' +
  'annual accounts, the trade register (GISA), court notices (Ediktsdatei) and the finance ministry\'s list of bogus companies. ' +
  'Companies are identified by their company number (fnr, e.g. 30435h), people by a personId. Start with search_companies or ' +
  'resolve_company_names, then get_company. Every tool call counts as one request against your account\'s monthly quota, as ' +
  'a REST call does; large lists are paged (page, pageSize), so ask for small pages.';
