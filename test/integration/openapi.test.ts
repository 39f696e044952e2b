// The API describes itself: OpenAPI 3.1 at /api/v1/openapi.json (version v1) generated from the
// routes' zod schemas, covering every route the app serves under /api/v1; and a docs page served by
// the API itself, with no external assets. Both are free: no key, not billed.
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Router from '@koa/router';
import { businessesRouter } from '../../api/routes/businesses.js';
import { catalogueRouter } from '../../api/routes/catalogues.js';
import { changeFeedRouter } from '../../api/routes/changeFeeds.js';
import { companyProfileRouter } from '../../api/routes/companyProfile.js';
import { documentsRouter } from '../../api/routes/documents.js';
import { tradesRouter } from '../../api/routes/trades.js';
import { graphRouter } from '../../api/routes/graph.js';
import { peopleRouter } from '../../api/routes/people.js';
import { postgresSearch } from '../../indexer/search/postgresSearch.js';
import { exportRouter } from '../../api/routes/exports.js';
import { listRouter } from '../../api/routes/lists.js';
import { statusRouter } from '../../api/routes/status.js';
import { queryRouter } from '../../api/routes/queries.js';
import { KEY_FIGURES, figureParam } from '../../schemas/keyFigures.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, type TestHttp } from '../helpers/httpClient.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let api: TestApi;
let db: TestDatabase;
let http: TestHttp;

beforeAll(async () => {
  api = await startTestApi();
  ({ db, http } = api);
});
afterAll(() => api.close());

/** `GET /queries/{id}` for every route a router serves. */
function routesOf(router: Router): string[] {
  return router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
  );
}

describe('GET /api/v1/openapi.json', () => {
  it('is OpenAPI 3.1 with version v1, served without a key and not billed', async () => {
    const res = await http.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-quota-limit')).toBeNull();
    const doc = await json(res);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('v1');
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.security).toEqual([{ ApiKey: [] }]);
  });

  it('documents every route the API serves, catalogues included, and nothing else', async () => {
    const doc = await json(await http.get('/api/v1/openapi.json'));
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
    const log = createLogger('silent');
    const served = [
      ...routesOf(catalogueRouter(db.sql)), ...routesOf(queryRouter(db.sql)), ...routesOf(listRouter(db.sql)),
      ...routesOf(exportRouter(db.sql, postgresSearch(db.sql), log, Date.now)),
      ...routesOf(changeFeedRouter(db.sql, createLogger('silent'))), ...routesOf(businessesRouter({ sql: db.sql, search: postgresSearch(db.sql) })),
      ...routesOf(peopleRouter(db.sql)), ...routesOf(graphRouter(db.sql)), ...routesOf(companyProfileRouter(db.sql)),
      ...routesOf(documentsRouter({ sql: db.sql, documents: { fetch: () => Promise.reject(new Error('unused')), keep: () => Promise.resolve() }, log: createLogger('silent') })),
      ...routesOf(tradesRouter({ sql: db.sql, extracts: { extract: () => Promise.reject(new Error('unused')) } })),
      ...routesOf(statusRouter(db.sql)),
    ].sort();
    expect(documented).toEqual(served);
    expect(documented).toContain('GET /oenace');
    expect(documented).toContain('DELETE /queries/all');
  });

  it('is generated from the zod schemas the routes validate with', async () => {
    const doc = await json(await http.get('/api/v1/openapi.json'));
    const schemas = doc.components.schemas;
    expect(schemas.SaveQuery.additionalProperties).toBe(false);
    expect(schemas.SaveQuery.required).toEqual(['filters']);
    expect(schemas.CreateList.properties.fnrs.maxItems).toBe(1000);
    expect(schemas.ListMembers.properties.fnrs).toMatchObject({ minItems: 1, maxItems: 1000 });
    expect(schemas.ExportBusinesses.properties.format.enum).toEqual(['csv', 'xlsx']);
    expect(schemas.ExportBusinesses.properties.columns.items.enum).toEqual(expect.arrayContaining(KEY_FIGURES.map(figureParam)));
    expect(Object.keys(schemas.ProblemDetails.properties)).toEqual(
      expect.arrayContaining(['title', 'status', 'detail', 'instance', 'traceId', 'correlationId', 'errors']),
    );
    const oenace = doc.paths['/oenace'].get.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
    expect(oenace).toEqual(['search', 'level', 'version', 'page', 'pageSize']);
    const pageSize = doc.paths['/courts'].get.parameters.find((p: { name: string }) => p.name === 'pageSize');
    expect(pageSize.schema).toMatchObject({ maximum: 1000, default: 10 });
  });

  it('writes the choices the contract leaves open and the access answers into the document', async () => {
    const doc = await json(await http.get('/api/v1/openapi.json'));
    expect(doc.info.description).toMatch(/never below 61/);
    expect(doc.info.description).toMatch(/unlimited/);
    const save = doc.paths['/queries'].post;
    expect(Object.keys(save.responses).sort()).toEqual(['200', '400', '401', '404', '429', '500']);
    expect(Object.keys(save.requestBody.content)).toEqual(['application/json', 'text/json', 'application/*+json']);
    expect(Object.keys(save.responses['200'].content)).toEqual(['application/json', 'text/json', 'text/plain']);
    expect(save.responses['200'].headers).toHaveProperty('X-Quota-Remaining');
    expect(save.responses['429'].headers).toHaveProperty('Retry-After');
    expect(doc.paths['/exports/businesses'].post.responses).toHaveProperty('204');
  });

  it('does not charge a caller who sends a key', async () => {
    const { key } = await accountWithKey(db.sql, 'free');
    const res = await http.get('/api/v1/openapi.json', { 'x-api-key': key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quota-remaining')).toBeNull();
  });
});

describe('GET /api/v1/docs', () => {
  it('is a self-contained HTML page rendering openapi.json, with no external assets', async () => {
    const res = await http.get('/api/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await res.text();
    expect(html).toContain("fetch('openapi.json')");
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    expect(html).not.toMatch(/@import|url\(/);
  });
});

/** Just enough DOM to run the docs page's script in Node and read back the text it renders. */
class StubNode {
  children: (StubNode | string)[] = [];
  attributes: Record<string, string> = {};
  constructor(readonly tagName: string) {}
  setAttribute(name: string, value: string) { this.attributes[name] = value; }
  append(...nodes: (StubNode | string)[]) { this.children.push(...nodes); }
  get lastChild() { return this.children.at(-1); }
  set textContent(text: string) { this.children = [text]; }
  get textContent(): string { return this.children.map((c) => (typeof c === 'string' ? c : c.textContent)).join(''); }
  count(tag: string, className?: string): number {
    const counts = (c: StubNode) => c.tagName === tag && (className === undefined || c.attributes.class === className);
    return this.children.reduce<number>((n, c) => n + (typeof c === 'string' ? 0 : (counts(c) ? 1 : 0) + c.count(tag, className)), 0);
  }
}

/** Runs the docs page's script against the served document in a stub DOM; answers what it rendered. */
async function renderDocsPage() {
  const html = await (await http.get('/api/v1/docs')).text();
  const script = /<script nonce="[^"]+">([\s\S]*)<\/script>/.exec(html)![1]!;
  const doc = await json(await http.get('/api/v1/openapi.json'));
  const ids: Record<string, StubNode> = { title: new StubNode('H1'), version: new StubNode('P'), description: new StubNode('SECTION'), operations: new StubNode('MAIN') };
  // The page as served: whatever the markup puts in <main> before the script runs.
  ids.operations!.append(/<main id="operations">([^<]*)<\/main>/.exec(html)![1]!);
  const document = {
    title: '', createElement: (tag: string) => new StubNode(tag.toUpperCase()), createTextNode: (text: string) => text, getElementById: (id: string) => ids[id],
  };
  const errors: unknown[] = [];
  await new Promise<void>((done) => {
    runInNewContext(script, {
      document, Node: StubNode, fetch: async () => ({ json: async () => doc }),
      console: { error: (e: unknown) => errors.push(e) },
    });
    setTimeout(done, 50);
  });
  return { doc, ids, document, errors };
}

describe('the docs page script', () => {
  it('renders every operation of the document without errors, and nothing is left loading', async () => {
    const { doc, ids, document, errors } = await renderDocsPage();
    expect(ids.operations!.textContent).not.toMatch(/Could not load/);
    const operations = Object.values(doc.paths as Record<string, object>).reduce<number>((n, ops) => n + Object.keys(ops).length, 0);
    expect(ids.operations!.count('DETAILS', 'op')).toBe(operations);
    expect(ids.operations!.textContent).not.toMatch(/Loading/);
    expect(ids.operations!.textContent).toContain('/exports/businesses');
    expect(ids.operations!.textContent).toContain('fnrs?: string[]');
    expect(ids.description!.textContent).toContain('Monthly quota exceeded');
    expect(document.title).toBe('Austrian company data API v1');
    expect(errors).toEqual([]);
  });

  it('shows each operation\'s operationId, curl example and named examples, and what each orderBy value means', async () => {
    const { doc, ids } = await renderDocsPage();
    const text = ids.operations!.textContent;
    type Op = { operationId: string; 'x-codeSamples': { source: string }[]; parameters?: { name: string; schema: { 'x-enumDescriptions'?: Record<string, string> } }[] };
    for (const item of Object.values(doc.paths as Record<string, Record<string, Op>>)) {
      for (const op of Object.values(item)) {
        expect(text).toContain(op.operationId);
        for (const sample of op['x-codeSamples']) expect(text).toContain(sample.source);
      }
    }
    const examples = Object.entries(doc.components.examples as Record<string, { summary: string; value: unknown }>);
    expect(examples.length).toBeGreaterThan(30);
    for (const [name, example] of examples) {
      expect(text, name).toContain(`Example: ${example.summary}`);
      expect(text, name).toContain(typeof example.value === 'string' ? example.value : JSON.stringify(example.value, null, 2));
    }
    const orderBy = doc.paths['/businesses'].get.parameters.find((p: { name: string }) => p.name === 'orderBy');
    expect(text).toContain(orderBy.schema['x-enumDescriptions']['guv.Personalaufwand']);
    expect(ids.operations!.count('DETAILS', 'example')).toBeGreaterThanOrEqual(examples.length);
  });
});
