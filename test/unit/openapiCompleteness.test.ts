// What a reader and a code generator need from every operation of the OpenAPI document (issue 23.1
// and 23.2): a stable camelCase operationId, a description, a description on every parameter, one tag
// from the documented list in the documented order, and a curl example that fits the operation; each
// figure parameter (the 47 figures x _gte/_lte, and every orderBy value) says what the figure means,
// its unit and its sign as filed; expense parameters give the filter that works.
// test/integration/openapiClients.test.ts runs the curl examples and compiles a generated client.
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/openapi/document.js';
import { KEY_FIGURES, figureParam, figureUnit } from '../../schemas/keyFigures.js';

type Json = Record<string, unknown>;
interface Parameter { name: string; in: string; description?: string; schema?: Json & { 'x-enumDescriptions'?: Record<string, string> } }
interface Operation {
  operationId?: string; description?: string; summary?: string; tags?: string[]; parameters?: Parameter[]; security?: unknown[];
  requestBody?: { required?: boolean }; 'x-codeSamples'?: { lang: string; label?: string; source: string }[];
}

const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, Operation>>; tags: { name: string; description?: string }[] };
const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })));
const EXPENSES = KEY_FIGURES.filter((f) => f.sign === 'negative');

describe('figure parameters', () => {
  const withFigures = operations.filter(({ op }) => op.parameters?.some((p) => p.name === 'bilanz.BilanzSumme_gte'));

  it('are on the screener and the count', () => {
    expect(withFigures.map((o) => o.at).sort()).toEqual(['GET /businesses', 'GET /businesses/count']);
  });

  it('name the meaning (English and German), the unit and the sign convention of each figure', () => {
    for (const { at, op } of withFigures) {
      for (const f of KEY_FIGURES) {
        for (const bound of ['gte', 'lte']) {
          const p = op.parameters!.find((x) => x.name === `${figureParam(f)}_${bound}`);
          expect(p, `${at} ${figureParam(f)}_${bound}`).toBeDefined();
          const text = p!.description ?? '';
          expect(text, p!.name).toContain(f.label);
          expect(text, p!.name).toContain(f.labelDe);
          expect(text, p!.name).toContain(figureUnit(f) === 'EUR' ? 'in EUR' : 'in persons');
          expect(text, p!.name).toMatch(f.sign === 'negative' ? /NEGATIVE/ : f.sign === 'signed' ? /with its sign/ : /positive amount/);
        }
      }
    }
  });

  it('tell, on every expense parameter, the filter that finds large expenses and that a positive lower bound finds nothing', () => {
    expect(EXPENSES.map(figureParam)).toContain('guv.Personalaufwand');
    for (const { op } of withFigures) {
      for (const f of EXPENSES) {
        const gte = op.parameters!.find((x) => x.name === `${figureParam(f)}_gte`)!.description!;
        const lte = op.parameters!.find((x) => x.name === `${figureParam(f)}_lte`)!.description!;
        for (const text of [gte, lte]) expect(text).toContain(`\`${figureParam(f)}_lte=-1000000\``);
        expect(gte).toContain(`\`${figureParam(f)}_gte=1000000\` matches no company`);
      }
    }
  });

  it('describe every orderBy value, with the sort direction that puts the largest expense first', () => {
    for (const { at, op } of withFigures.filter((o) => o.at === 'GET /businesses')) {
      const orderBy = op.parameters!.find((p) => p.name === 'orderBy')!;
      const values = orderBy.schema!.enum as string[];
      const described = orderBy.schema!['x-enumDescriptions']!;
      expect(Object.keys(described).sort(), at).toEqual([...values].sort());
      for (const f of KEY_FIGURES) {
        expect(described[figureParam(f)]).toContain(f.label);
        if (f.sign === 'negative') expect(described[figureParam(f)]).toMatch(/ascending puts the largest expense first/);
      }
      for (const f of EXPENSES) expect(orderBy.description).toContain(figureParam(f));
    }
  });
});

/** The operationIds clients are generated with: renaming one breaks every client, so each stays as it is here. */
const STABLE_IDS: Record<string, string> = {
  'GET /businesses': 'searchCompanies', 'GET /businesses/count': 'countCompanies', 'GET /businesses/names': 'autocompleteCompanyNames',
  'GET /businesses/{fnr}/similar': 'findSimilarCompanies', 'POST /businesses/resolve-names': 'resolveCompanyNames', 'GET /businesses/{fnr}': 'getCompanyProfile',
  'GET /people': 'searchPeople', 'GET /people/names': 'autocompletePersonNames', 'GET /people/{personId}': 'getPersonProfile', 'GET /graph': 'getGraph',
  'GET /trades': 'listTrades', 'GET /trades/{tradeKey}/licenses': 'listTradeLicenses', 'GET /trades/company/{fnr}': 'listCompanyLicenses',
  'GET /trades/documents/{gisaZahl}': 'getTradeExtract', 'GET /documents/download/{documentKey}': 'downloadDocument',
  'GET /businesses/changes': 'listCompanyChanges', 'GET /documents/changes': 'listDocumentChanges', 'GET /edikte/changes': 'listNoticeChanges',
  'GET /trades/changes': 'listTradeChanges', 'GET /globalchanges': 'listGlobalChanges', 'GET /globalchanges/aggregated': 'getAggregatedChanges',
  'GET /edikte/changes/{id}': 'getNoticeChange', 'GET /oenace': 'listOenaceClasses', 'GET /legalforms': 'listLegalForms', 'GET /courts': 'listCourts',
  'GET /assignmentfunctions': 'listAssignmentFunctions', 'GET /keyfigures': 'listKeyFigures', 'GET /addresses/cities': 'listCities',
  'GET /addresses/zipcodes': 'listZipCodes', 'GET /addresses/locations': 'listLocations', 'GET /queries': 'listSavedQueries', 'POST /queries': 'saveQuery',
  'GET /queries/{id}': 'getSavedQuery', 'DELETE /queries/{id}': 'deleteSavedQuery', 'DELETE /queries/all': 'deleteAllSavedQueries', 'GET /lists': 'listLists',
  'POST /lists': 'createList', 'GET /lists/{id}': 'getList', 'PATCH /lists/{id}': 'updateList', 'DELETE /lists/{id}': 'deleteList',
  'POST /lists/{id}/add': 'addListMembers', 'POST /lists/{id}/remove': 'removeListMembers', 'POST /exports/businesses': 'exportCompanies', 'GET /status': 'getStatus',
};

describe('every operation', () => {
  it('is there (more than the pinned ones may come, none may go)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(Object.keys(STABLE_IDS).length);
  });

  it('has a unique camelCase operationId, the pinned ones unchanged', () => {
    const ids = Object.fromEntries(operations.map(({ at, op }) => [at, op.operationId]));
    expect(ids).toMatchObject(STABLE_IDS);
    for (const [at, id] of Object.entries(ids)) expect(id, at).toMatch(/^[a-z][a-zA-Z]{3,}$/);
    expect(new Set(Object.values(ids)).size).toBe(operations.length);
  });

  it('has a summary and a description of its own', () => {
    for (const { at, op } of operations) {
      expect(op.summary?.length ?? 0, at).toBeGreaterThan(5);
      expect(op.description?.length ?? 0, at).toBeGreaterThan(30);
      expect(op.description, at).not.toBe(op.summary);
    }
  });

  it('describes every parameter', () => {
    const missing = operations.flatMap(({ at, op }) => (op.parameters ?? []).filter((p) => (p.description ?? '').trim().length < 10).map((p) => `${at} ${p.in} ${p.name}`));
    expect(operations.reduce((n, { op }) => n + (op.parameters?.length ?? 0), 0)).toBeGreaterThan(300);
    expect(missing).toEqual([]);
  });

  it('carries one tag of the documented list, which is in the order a user needs it and has no unused tag', () => {
    expect(doc.tags.map((t) => t.name)).toEqual(['Companies', 'People', 'Trades', 'Notices', 'Documents', 'Feeds', 'Catalogues', 'Account', 'Status']);
    for (const t of doc.tags) expect(t.description?.length ?? 0, t.name).toBeGreaterThan(10);
    const used = new Set<string>();
    for (const { at, op } of operations) {
      expect(op.tags, at).toHaveLength(1);
      expect(doc.tags.map((t) => t.name), at).toContain(op.tags![0]);
      used.add(op.tags![0]!);
    }
    expect([...used].sort()).toEqual(doc.tags.map((t) => t.name).sort());
    const byTag = (name: string) => operations.filter(({ op }) => op.tags![0] === name).map((o) => o.at);
    expect(byTag('Companies')).toContain('GET /businesses/{fnr}');
    expect(byTag('Notices')).toContain('GET /edikte/changes/{id}');
    expect(byTag('Account')).toEqual(expect.arrayContaining(['POST /queries', 'POST /lists', 'POST /exports/businesses']));
  });

  it('has a curl example that calls it: its method, its path with values filled in, the key unless free, a JSON body where one is required', () => {
    for (const { at, op } of operations) {
      const samples = op['x-codeSamples'] ?? [];
      expect(samples.map((x) => [x.lang, x.label]), at).toEqual([['Shell', 'curl']]);
      const source = samples[0]!.source;
      const [method, template] = at.split(' ') as [string, string];
      expect(source, at).toMatch(new RegExp(`^curl${method === 'GET' ? ' ' : ` -X ${method} `}"\\$API_URL`));
      const target = /"\$API_URL([^"]+)"/.exec(source)![1]!;
      const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}|\{\w+\}/g, '[^/?{}]+');
      expect(target, at).toMatch(new RegExp(`^${pattern}(\\?.*)?$`));
      expect(source.includes('-H "x-api-key: $API_KEY"'), at).toBe(op.security?.length !== 0);
      const body = /-d '((?:[^']|'\\'')*)'/.exec(source)?.[1];
      expect(body !== undefined, at).toBe(op.requestBody?.required === true);
      if (body !== undefined) expect(() => JSON.parse(body.replaceAll("'\\''", "'")), at).not.toThrow();
    }
  });
});
