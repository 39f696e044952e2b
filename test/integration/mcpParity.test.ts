// Every tool of the MCP server against /api/v1: the same input through the tool (signed in with
// OAuth, the grant bound to a key) and through the REST route (with that key) gives the same data,
// on the replayed corpus (all four registers), with the API's default search backend (the screener's
// in-memory columns, whose REST answer is written as bytes while the tool takes the rows as objects). Errors too: a 404 or 400 of a route is the tool's
// error with the same status, detail and field messages. The table must name every tool.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createApiKey, findAccountByEmail } from '../../api/accounts/accountStore.js';
import { TOOLS } from '../../api/mcp/tools.js';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { columnarSearch } from '../../indexer/search/columnar/columnarSearch.js';
import { BUNDLED_CORPUS, replay } from '../../pipeline/replay/replay.js';
import { createLogger } from '../../runtime/logger.js';
import { connectThroughOAuth, startMcpTestApp, type McpTestApp } from '../helpers/mcpTestApp.js';
import { signUp, WebClient } from '../helpers/webClient.js';

let app: McpTestApp;
let client: Client;
let key: string;
let accessToken: string;

interface Rest {
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
}

interface Answer {
  status: number;
  body: unknown;
}

async function rest({ method = 'GET', path, body }: Rest): Promise<Answer> {
  const res = await fetch(`${app.origin}/api/v1${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** The tool's answer as REST would carry it: structured content (arrays unwrapped), or the problem's status. */
async function tool(name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.structuredContent as Record<string, unknown>;
  if (result.isError) return { status: content.status as number, body: content };
  return { status: 200, body: content };
}

const q = (params: Record<string, string | number | boolean>) => `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;

/** Facts of the corpus the cases use, read from the database rather than written down. */
const corpus = {} as { fnr: string; licensedFnr: string; personId: string; lastName: string; tradeKey: string; noticeChangeId: number; names: string[] };

beforeAll(async () => {
  app = await startMcpTestApp({
    prepare: async (db) => {
      await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log: createLogger('silent'), fixturesDir: BUNDLED_CORPUS, prefix: `mcp-parity-${process.pid}` });
      await rebuildReadModel(db.sql, createLogger('silent'));
      while ((await indexOnce(db.sql)) > 0);
    },
    search: async (sql) => {
      const columns = columnarSearch(sql, { log: createLogger('silent'), syncIntervalMs: 60_000 });
      await columns.ready;
      return columns;
    },
  });
  const sql = app.db.sql;
  const [filed] = await sql<{ fnr: string }[]>`
    SELECT a.fnr FROM annual_account a JOIN company_party p USING (fnr) GROUP BY a.fnr ORDER BY count(*) DESC, a.fnr LIMIT 1`;
  const [licensed] = await sql<{ fnr: string }[]>`SELECT fnr FROM trade_license WHERE fnr IS NOT NULL ORDER BY gisa_zahl LIMIT 1`;
  const [person] = await sql<{ personId: string; lastName: string }[]>`
    SELECT pe.person_id, pe.last_name FROM person pe JOIN company_party p USING (person_id) GROUP BY pe.person_id ORDER BY count(*) DESC, pe.person_id LIMIT 1`;
  const [trade] = await sql<{ tradeKey: string }[]>`SELECT trade_key FROM trade_license GROUP BY trade_key ORDER BY count(*) DESC, trade_key LIMIT 1`;
  const [notice] = await sql<{ id: string }[]>`SELECT id FROM change_log WHERE type = 'edikt' ORDER BY id LIMIT 1`;
  const names = await sql<{ name: string }[]>`SELECT name FROM company ORDER BY fnr LIMIT 3`;
  Object.assign(corpus, {
    fnr: filed!.fnr, licensedFnr: licensed!.fnr, personId: person!.personId, lastName: person!.lastName, tradeKey: trade!.tradeKey,
    noticeChangeId: Number(notice!.id), names: [...names.map((n) => n.name), 'Gibt es nicht GmbH'],
  });

  const browser = new WebClient(app.origin);
  const { email, password } = await signUp(browser);
  const account = (await findAccountByEmail(sql, email))!;
  await sql`UPDATE account SET plan = 'api' WHERE id = ${account.id}`;
  const issued = await createApiKey(sql, { accountId: account.id, label: 'parity' });
  key = issued.key;
  const connected = await connectThroughOAuth(app, email, password, issued.id);
  client = connected.client;
  accessToken = connected.provider.saved!.access_token;
}, 180_000);
afterAll(async () => {
  await client?.close();
  await app?.close();
});

interface Case {
  tool: string;
  args: () => Record<string, unknown>;
  rest: () => Rest;
  /** How REST's body relates to the tool's: equal, or an array the tool wraps as { data }. */
  wrapped?: boolean;
  /** The answer must hold something (no vacuous parity on empty pages). */
  nonEmpty?: (body: unknown) => boolean;
}

const rows = (body: unknown) => ((body as { data?: unknown[] }).data ?? (body as unknown[])).length > 0;
const feedCase = (feed: string, path: string): Case => ({ tool: 'list_changes', args: () => ({ feed, pageSize: 20 }), rest: () => ({ path: `${path}?pageSize=20` }), nonEmpty: rows });
const catalogueCase = (catalogue: string, path: string, search?: string): Case => ({
  tool: 'list_catalogue', args: () => ({ catalogue, pageSize: 5, ...(search ? { search } : {}) }), rest: () => ({ path: `${path}${q({ pageSize: 5, ...(search ? { search } : {}) })}` }), nonEmpty: rows,
});

const READ_CASES: Case[] = [
  { tool: 'search_companies', args: () => ({ orderBy: 'bilanz.BilanzSumme', orderByDescending: true, pageSize: 5 }),
    rest: () => ({ path: `/businesses${q({ orderBy: 'bilanz.BilanzSumme', orderByDescending: true, pageSize: 5 })}` }), nonEmpty: rows },
  { tool: 'search_companies', args: () => ({ active: true, 'bilanz.BilanzSumme_gte': 1, fields: 'name,city,bilanz.BilanzSumme', page: 2, pageSize: 2 }),
    rest: () => ({ path: `/businesses${q({ active: true, 'bilanz.BilanzSumme_gte': 1, fields: 'name,city,bilanz.BilanzSumme', page: 2, pageSize: 2 })}` }), nonEmpty: rows },
  { tool: 'count_companies', args: () => ({ legalFormCode: 'GES' }), rest: () => ({ path: '/businesses/count?legalFormCode=GES' }), nonEmpty: (b) => (b as { count: number }).count > 0 },
  { tool: 'get_company', args: () => ({ fnr: corpus.fnr }), rest: () => ({ path: `/businesses/${corpus.fnr}` }) },
  { tool: 'find_similar_companies', args: () => ({ fnr: corpus.fnr, pageSize: 3 }), rest: () => ({ path: `/businesses/${corpus.fnr}/similar?pageSize=3` }) },
  { tool: 'resolve_company_names', args: () => ({ names: corpus.names }), rest: () => ({ method: 'POST', path: '/businesses/resolve-names', body: { names: corpus.names } }), wrapped: true, nonEmpty: rows },
  { tool: 'autocomplete_company_names', args: () => ({ search: corpus.names[0]!.slice(0, 4) }), rest: () => ({ path: `/businesses/names${q({ search: corpus.names[0]!.slice(0, 4) })}` }), nonEmpty: rows },
  { tool: 'search_people', args: () => ({ lastName: corpus.lastName }), rest: () => ({ path: `/people${q({ lastName: corpus.lastName })}` }), nonEmpty: rows },
  { tool: 'autocomplete_person_names', args: () => ({ search: corpus.lastName }), rest: () => ({ path: `/people/names${q({ search: corpus.lastName })}` }), nonEmpty: rows },
  { tool: 'get_person', args: () => ({ personId: corpus.personId }), rest: () => ({ path: `/people/${encodeURIComponent(corpus.personId)}` }) },
  { tool: 'get_company_network', args: () => ({ fnr: corpus.fnr, depth: 2 }), rest: () => ({ path: `/graph?fnr=${corpus.fnr}&depth=2` }), nonEmpty: (b) => (b as { edges: unknown[] }).edges.length > 0 },
  { tool: 'search_trades', args: () => ({ pageSize: 5 }), rest: () => ({ path: '/trades?pageSize=5' }), nonEmpty: rows },
  { tool: 'list_trade_licences', args: () => ({ tradeKey: corpus.tradeKey, pageSize: 3 }), rest: () => ({ path: `/trades/${corpus.tradeKey}/licenses?pageSize=3` }), nonEmpty: rows },
  { tool: 'get_company_licences', args: () => ({ fnr: corpus.licensedFnr }), rest: () => ({ path: `/trades/company/${corpus.licensedFnr}` }), nonEmpty: rows },
  feedCase('business', '/businesses/changes'),
  feedCase('document', '/documents/changes'),
  feedCase('edikt', '/edikte/changes'),
  feedCase('trade', '/trades/changes'),
  feedCase('global', '/globalchanges'),
  { tool: 'get_latest_changes', args: () => ({ maxResultsPerType: 5, since: '2000-01-01' }), rest: () => ({ path: '/globalchanges/aggregated?maxResultsPerType=5&since=2000-01-01' }),
    nonEmpty: (b) => (b as { globalChanges: unknown[] }).globalChanges.length > 0 },
  { tool: 'get_court_notice', args: () => ({ id: corpus.noticeChangeId }), rest: () => ({ path: `/edikte/changes/${corpus.noticeChangeId}` }), nonEmpty: (b) => (b as { notice: unknown }).notice !== null },
  catalogueCase('legalforms', '/legalforms', 'GmbH'),
  catalogueCase('courts', '/courts'),
  catalogueCase('functions', '/assignmentfunctions'),
  catalogueCase('cities', '/addresses/cities', 'Wien'),
  catalogueCase('zipcodes', '/addresses/zipcodes', '80'),
  catalogueCase('locations', '/addresses/locations', '1010'),
  { tool: 'list_oenace_classes', args: () => ({ level: 2, search: 'bau' }), rest: () => ({ path: '/oenace?level=2&search=bau' }), nonEmpty: rows },
  { tool: 'list_key_figures', args: () => ({ sign: 'negative' }), rest: () => ({ path: '/keyfigures?sign=negative' }), nonEmpty: rows },
];

const ERROR_CASES: Case[] = [
  { tool: 'get_company', args: () => ({ fnr: '999999z' }), rest: () => ({ path: '/businesses/999999z' }) },
  { tool: 'search_companies', args: () => ({ pageSize: 0, zipCode: 'Wien', orderBy: 'profit' }), rest: () => ({ path: '/businesses?pageSize=0&zipCode=Wien&orderBy=profit' }) },
  { tool: 'get_company_network', args: () => ({ depth: 2 }), rest: () => ({ path: '/graph?depth=2' }) },
  { tool: 'get_person', args: () => ({ personId: 'niemand-1900-01-01' }), rest: () => ({ path: '/people/niemand-1900-01-01' }) },
  { tool: 'get_court_notice', args: () => ({ id: 'abc' }), rest: () => ({ path: '/edikte/changes/abc' }) },
];

function expectSameData(toolAnswer: Answer, restAnswer: Answer, wrapped = false): void {
  expect(toolAnswer.status).toBe(restAnswer.status);
  if (restAnswer.status !== 200) {
    // A route's ProblemDetails carries instance, traceId and correlationId besides; the tool says the rest.
    const problem = restAnswer.body as { title: string; detail: string; errors?: unknown };
    expect(toolAnswer.body).toEqual({ status: restAnswer.status, title: problem.title, detail: problem.detail, ...(problem.errors ? { errors: problem.errors } : {}) });
    return;
  }
  expect(wrapped ? (toolAnswer.body as { data: unknown }).data : toolAnswer.body).toEqual(restAnswer.body);
}

describe('every read tool answers what its route answers', () => {
  it.each(READ_CASES.map((c, i) => [`${c.tool} (case ${i + 1})`, c] as const))('%s', async (_label, c) => {
    const [viaTool, viaRest] = [await tool(c.tool, c.args()), await rest(c.rest())];
    expect(viaRest.status).toBe(200);
    if (c.nonEmpty) expect(c.nonEmpty(viaRest.body)).toBe(true);
    expectSameData(viaTool, viaRest, c.wrapped);
  });

  it.each(ERROR_CASES.map((c) => [c.tool, c] as const))('%s fails as its route does', async (_label, c) => {
    const [viaTool, viaRest] = [await tool(c.tool, c.args()), await rest(c.rest())];
    expect(viaRest.status).toBeGreaterThanOrEqual(400);
    expectSameData(viaTool, viaRest);
  });
});

describe('the account tools act on the records REST shows', () => {
  const filters = { legalFormCode: 'GES', 'bilanz.BilanzSumme_gte': 100000, orderBy: 'bilanz.BilanzSumme', orderByDescending: true };

  it('saves, lists, gets and deletes saved queries', async () => {
    const saved = await tool('save_query', { name: 'Große GmbHs', filters });
    expect(saved.status).toBe(200);
    const id = (saved.body as { id: string }).id;
    // Saving equal filters through REST updates the same record: same id, name and canonical filters.
    const again = await rest({ method: 'POST', path: '/queries', body: { name: 'Große GmbHs', filters } });
    const { updatedAt: _a, ...savedRest } = again.body as Record<string, unknown>;
    const { updatedAt: _b, ...savedTool } = saved.body as Record<string, unknown>;
    expect(savedTool).toEqual(savedRest);
    expectSameData(await tool('get_saved_query', { id }), await rest({ path: `/queries/${id}` }));
    expectSameData(await tool('list_saved_queries', {}), await rest({ path: '/queries' }), true);
    expect(await tool('delete_saved_query', { id })).toEqual({ status: 200, body: { deleted: true, id } });
    expectSameData(await tool('get_saved_query', { id }), await rest({ path: `/queries/${id}` }));
    expectSameData(await tool('delete_saved_query', { id }), await rest({ method: 'DELETE', path: `/queries/${id}` }));
  });

  it('creates, changes, lists, gets and deletes company lists', async () => {
    const created = await tool('create_company_list', { name: 'Watch', fnrs: [corpus.fnr] });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    expectSameData(created, await rest({ path: `/lists/${id}` }));
    const added = await tool('change_company_list', { id, action: 'add', fnrs: [corpus.licensedFnr] });
    expect((added.body as { fnrs: string[] }).fnrs).toEqual([corpus.fnr, corpus.licensedFnr].filter((f, i, all) => all.indexOf(f) === i));
    expectSameData(added, await rest({ path: `/lists/${id}` }));
    const removed = await tool('change_company_list', { id, action: 'remove', fnrs: [corpus.fnr] });
    expectSameData(removed, await rest({ path: `/lists/${id}` }));
    expectSameData(await tool('get_company_list', { id }), await rest({ path: `/lists/${id}` }));
    expectSameData(await tool('list_company_lists', {}), await rest({ path: '/lists' }), true);
    expectSameData(await tool('change_company_list', { id, action: 'add', fnrs: ['999999z'] }), await rest({ method: 'POST', path: `/lists/${id}/add`, body: { fnrs: ['999999z'] } }));
    expect(await tool('delete_company_list', { id })).toEqual({ status: 200, body: { deleted: true, id } });
    expectSameData(await tool('get_company_list', { id }), await rest({ path: `/lists/${id}` }));
  });
});

it('answers search_companies without the SDK (the backend\'s JSON spliced in) as the SDK does (a batch of one goes through it)', async () => {
  const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_companies', arguments: { orderBy: 'guv.Umsatzerloese', orderByDescending: true, pageSize: 5 } } };
  const post = (body: unknown) => fetch(app.mcpUrl, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${accessToken}` },
  }).then((res) => res.json() as Promise<{ result: { isError?: boolean; content: Array<{ text: string }>; structuredContent: { data: unknown[] } } }>);
  const direct = await post(call);
  expect(direct.result.isError).toBeUndefined();
  expect(direct.result.structuredContent.data).toHaveLength(5);
  expect(JSON.parse(direct.result.content[1]!.text)).toEqual(direct.result.structuredContent);
  expect(direct).toEqual(await post([call]));
});

it('names every tool in a parity case', () => {
  const covered = new Set([...READ_CASES, ...ERROR_CASES].map((c) => c.tool));
  for (const name of ['save_query', 'get_saved_query', 'list_saved_queries', 'delete_saved_query', 'create_company_list', 'change_company_list',
    'get_company_list', 'list_company_lists', 'delete_company_list']) covered.add(name);
  expect([...covered].sort()).toEqual(TOOLS.map((t) => t.name).sort());
});
