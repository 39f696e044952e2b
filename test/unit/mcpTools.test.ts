// The MCP server's tool plumbing without a database: the input a model sends becomes the route's
// query and body (and is refused as the route refuses it), the schema a model sees has the types it
// sends, and a call refused by the burst limit or failing on a backing service is a tool error that
// says what to do, billed only when admitted.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import type { Admission, AdmissionResult } from '../../api/metering/admission.js';
import { callTool, type ToolCallDeps } from '../../api/mcp/toolCalls.js';
import { defineTool, READ_ONLY } from '../../api/mcp/toolDefinition.js';
import { toolInput } from '../../api/mcp/toolInput.js';
import { TOOL_LIST, TOOLS } from '../../api/mcp/tools.js';
import { screenerQuery } from '../../api/operations/companies.js';
import { feedQuery } from '../../api/operations/changeFeeds.js';
import { ServiceUnavailableError } from '../../api/serviceFaults.js';
import { createLogger } from '../../runtime/logger.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import type { Sql } from '../../runtime/db.js';

describe('tool input', () => {
  const screener = toolInput({ query: screenerQuery });

  it('turns JSON values into the query strings the route parses', () => {
    const { query } = screener.parse({ city: 'Graz', active: true, 'guv.Umsatzerloese_gte': 1500000.5, pageSize: 25, fnr: '034853 f', orderBy: null });
    expect(query).toMatchObject({ city: 'Graz', active: true, 'guv.Umsatzerloese_gte': '1500000.5', pageSize: 25, page: 1, fnr: '34853f' });
    expect(query).not.toHaveProperty('orderBy');
  });

  it('refuses what the route refuses, every problem at once, keyed by parameter', () => {
    let error: unknown;
    try {
      screener.parse({ pageSize: 2000, colour: 'red', city: ['Wien', 'Graz'], 'guv.Umsatzerloese_gte': 1e21 });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    const { status, errors } = error as ApiError;
    expect(status).toBe(400);
    expect(Object.keys(errors!).sort()).toEqual(['city', 'colour', 'guv.Umsatzerloese_gte', 'pageSize']);
    expect(errors!.colour).toEqual(['is not a parameter of this endpoint']);
  });

  it('requires path parameters and holds them to their values', () => {
    const feed = toolInput({ path: { feed: { description: 'which', enum: ['business', 'global'] } }, query: feedQuery });
    expect(() => feed.parse({})).toThrow(ApiError);
    expect(() => feed.parse({ feed: 'weather' })).toThrow(ApiError);
    expect(feed.parse({ feed: 'global', sinceId: 4711800 })).toMatchObject({ path: { feed: 'global' }, query: { sinceId: 4711800, pageSize: 100 } });
  });

  it('shows a model numbers and booleans where the query string carries text', () => {
    const properties = screener.jsonSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.active).toMatchObject({ type: 'boolean' });
    expect(properties['bilanz.BilanzSumme_lte']).toMatchObject({ type: 'number' });
    expect(properties.page).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(screener.jsonSchema.additionalProperties).toBe(false);
  });
});

describe('the tool list', () => {
  it('has unique names, and descriptions that name tools rather than REST paths', () => {
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
    const text = JSON.stringify(TOOL_LIST);
    expect(text).not.toMatch(/GET \/[a-z]/);
    expect(text).toContain('list_key_figures');
  });

  it('describes every screener figure parameter with its unit', () => {
    const schema = TOOL_LIST.find((t) => t.name === 'search_companies')!.inputSchema.properties as Record<string, { description: string }>;
    const ranges = Object.keys(schema).filter((name) => /_(gte|lte)$/.test(name));
    expect(ranges.length).toBe(94);
    for (const name of ranges) expect(schema[name]!.description).toMatch(/, (EUR|persons)\./);
    // Sent once per session, so kept to what a model reads: the whole list under 60 KB.
    expect(JSON.stringify(TOOL_LIST).length).toBeLessThan(60_000);
  });
});

describe('a tool call', () => {
  const admitted: AdmissionResult = { outcome: 'admitted', burst: { limit: 1000, remaining: 999, resetSeconds: 60 }, quota: { limit: null, used: 1 } };
  const echo = defineTool({
    name: 'echo', title: 'Echo', description: 'Answers its input.', operations: [], annotations: READ_ONLY,
    input: toolInput({ path: { word: { description: 'a word' } } }),
    run: async (_ctx, { path }) => {
      if (path.word === 'missing') throw new ApiError(404, 'Not Found', 'No such word.');
      if (path.word === 'down') throw new ServiceUnavailableError('database');
      if (path.word === 'bug') throw new Error('boom');
      return { word: path.word };
    },
    summary: (data) => `Said ${data.word}.`,
  });
  const caller = { accountId: 'a', principal: { keyId: 'k', accountId: 'a', subject: 'account:a', monthlyQuota: 100 }, correlationId: 'c-1' };

  function deps(result: AdmissionResult | Error) {
    const billed: string[] = [];
    const admission: Admission = { admit: () => (result instanceof Error ? Promise.reject(result) : Promise.resolve(result)) };
    const d: ToolCallDeps = {
      sql: undefined as unknown as Sql, search: undefined as unknown as SearchBackend, log: createLogger('silent'), clock: () => Date.UTC(2025, 11, 31, 23),
      admission, usageUrl: () => 'https://api.example.at/app/usage', billed: (subject) => billed.push(subject),
    };
    return { d, billed };
  }

  it('answers structured content with a summary and the JSON, billed once', async () => {
    const { d, billed } = deps(admitted);
    const result = await callTool(d, caller, echo, { word: 'hallo' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Said hallo.' }, { type: 'text', text: '{"word":"hallo"}' }], structuredContent: { word: 'hallo' } });
    expect(billed).toEqual(['account:a']);
  });

  it('refuses at the burst limit with the seconds to wait, unbilled', async () => {
    const { d, billed } = deps({ ...admitted, outcome: 'burst', burst: { limit: 1000, remaining: 0, resetSeconds: 17 } });
    const result = await callTool(d, caller, echo, { word: 'hallo' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: 'burst_limit', limit: 1000, retryAfterSeconds: 17 });
    expect(billed).toEqual([]);
  });

  it('names the reset of a quota refused on New Year\'s Eve as 1 January', async () => {
    const { d } = deps({ ...admitted, outcome: 'quota', quota: { limit: 100, used: 100 } });
    const result = await callTool(d, caller, echo, { word: 'hallo' });
    expect(result.structuredContent).toMatchObject({ error: 'quota_exceeded', resetsAt: '2026-01-01T00:00:00.000Z' });
  });

  it('bills a 404 and says it as the route would', async () => {
    const { d, billed } = deps(admitted);
    const result = await callTool(d, caller, echo, { word: 'missing' });
    expect(result).toMatchObject({ isError: true, structuredContent: { status: 404, title: 'Not Found', detail: 'No such word.' } });
    expect(billed).toHaveLength(1);
  });

  it('asks to retry when Redis or the database is down, and gives a reference for a bug', async () => {
    expect((await callTool(deps(new ServiceUnavailableError('redis')).d, caller, echo, { word: 'x' })).structuredContent).toEqual({ error: 'unavailable', retryAfterSeconds: 5 });
    expect((await callTool(deps(admitted).d, caller, echo, { word: 'down' })).structuredContent).toEqual({ error: 'unavailable', retryAfterSeconds: 5 });
    expect((await callTool(deps(admitted).d, caller, echo, { word: 'bug' })).structuredContent).toEqual({ error: 'internal', reference: 'c-1' });
  });
});
