// HTTP niceties (issue 23 item 7) through the whole app: compression negotiated by Accept-Encoding
// above a size threshold (JSON, CSV streams; never PDFs), ETag + If-None-Match 304 (billed) with
// Cache-Control on profiles, catalogues and documents, and CORS for configured origins with preflights
// answered without a key while every other request still meets the access chain.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { COMPRESS_MIN_BYTES } from '../../api/middleware/compression.js';
import { CACHE_CONTROL } from '../../api/middleware/conditionalGet.js';
import { CONDITIONAL_GETS } from '../../api/openapi/conditional.js';
import { buildOpenApiDocument } from '../../api/openapi/document.js';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { createLogger } from '../../runtime/logger.js';
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { serve, type TestHttp } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const log = createLogger('silent');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20_000, 'stream of text that compresses well ')]);
const PDF_KEY = '123456_4580201500112_000___000_00_1029384_PDF';
const APP_ORIGIN = 'https://app.example.org';

interface Raw { status: number; headers: IncomingHttpHeaders; body: Buffer }

let api: TestApi;
/** A key of an account on the pro plan (exports are account-bound; X-Quota-Remaining counts down). */
let key: string;

/** A request over node:http, which (unlike fetch) neither adds Accept-Encoding nor decodes the body. */
function raw(http: TestHttp, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  const url = new URL(http.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  api = await startTestApi({
    prepare: async (db) => {
      const figures = Object.fromEntries(KEY_FIGURES.map((f, i) => [figureJsonKey(f), String(1000 * (i + 1))]));
      await seedCompanies(db.sql, Array.from({ length: 30 }, (_, i) => ({ digits: 8100 + i, name: `Kompressions Test ${i} GmbH`, figures })));
      await rebuildReadModel(db.sql, log);
      while ((await indexOnce(db.sql)) > 0);
      await db.sql`
        INSERT INTO document (document_key, fnr, document_type_code, content_type, file_extension, content, content_fetched_at)
        VALUES (${PDF_KEY}, ${seedFnr(8100)}, '42', 'application/pdf', 'pdf', ${PDF}, now())`;
      await db.sql`INSERT INTO person (person_id, first_name, last_name, birth_date, name_norm) VALUES ('eva-muster-1980-02-02', 'Eva', 'Muster', '1980-02-02', 'eva muster')`;
    },
  });
  key = (await accountWithKey(api.db.sql, 'pro')).key;
});
afterAll(() => api.close());

describe('compression', () => {
  const page = '/api/v1/businesses?pageSize=1000&orderBy=guv.Umsatzerloese';

  it('answers gzip or br as Accept-Encoding asks, the same JSON once decoded; identity without it', async () => {
    const plain = await raw(api.http, 'GET', page, { 'x-api-key': key });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(plain.body.length).toBeGreaterThan(30 * 1000);
    const gzip = await raw(api.http, 'GET', page, { 'x-api-key': key, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 4);
    const br = await raw(api.http, 'GET', page, { 'x-api-key': key, 'accept-encoding': 'gzip;q=0.5, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  it('leaves answers below the threshold alone', async () => {
    const small = await raw(api.http, 'GET', '/api/v1/businesses/count', { 'x-api-key': key, 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses a PDF again: the stored bytes with their Content-Length', async () => {
    const pdf = await raw(api.http, 'GET', `/api/v1/documents/download/${PDF_KEY}`, { 'x-api-key': key, 'accept-encoding': 'gzip, br' });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(Number(pdf.headers['content-length'])).toBe(PDF.length);
    expect(pdf.body.equals(PDF)).toBe(true);
  });

  it('compresses a streamed CSV export on the way', async () => {
    const fnrs = Array.from({ length: 30 }, (_, i) => seedFnr(8100 + i));
    const body = JSON.stringify({ format: 'csv', fnrs });
    const headers = { 'x-api-key': key, 'content-type': 'application/json', 'accept-encoding': 'gzip' };
    const csv = await raw(api.http, 'POST', '/api/v1/exports/businesses', headers, body);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-encoding']).toBe('gzip');
    const lines = gunzipSync(csv.body).toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(31);
    expect(lines[1]).toContain(seedFnr(8100));
  });
});

describe('ETag, If-None-Match and Cache-Control', () => {
  const cases: Array<[string, string, keyof typeof CACHE_CONTROL]> = [
    ['a company profile', `/api/v1/businesses/${seedFnr(8101)}`, 'profile'],
    ['a catalogue', '/api/v1/legalforms', 'catalogue'],
    ['a document', `/api/v1/documents/download/${PDF_KEY}`, 'document'],
  ];
  for (const [what, path, policy] of cases) {
    it(`answers ${what} with an ETag and Cache-Control, and 304 without a body when If-None-Match names it (billed)`, async () => {
      const first = await raw(api.http, 'GET', path, { 'x-api-key': key });
      expect(first.status).toBe(200);
      const etag = first.headers.etag!;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe(CACHE_CONTROL[policy]);
      const remaining = Number(first.headers['x-quota-remaining']);
      const again = await raw(api.http, 'GET', path, { 'x-api-key': key, 'if-none-match': `"other", ${etag}` });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      // A 304 is an endpoint call like any other: one request of the quota.
      expect(Number(again.headers['x-quota-remaining'])).toBe(remaining - 1);
      const stale = await raw(api.http, 'GET', path, { 'x-api-key': key, 'if-none-match': 'W/"stale"' });
      expect(stale.status).toBe(200);
      expect(stale.body.equals(first.body)).toBe(true);
    });
  }

  it('does so on every operation the OpenAPI document lists as conditional, which documents If-None-Match and the 304', async () => {
    const doc = buildOpenApiDocument() as unknown as { paths: Record<string, { get?: { parameters?: { name: string }[]; responses: Record<string, unknown> } }> };
    const values: Record<string, string> = { fnr: seedFnr(8104), personId: 'eva-muster-1980-02-02', documentKey: PDF_KEY };
    const listed = Object.entries(CONDITIONAL_GETS).filter(([path]) => doc.paths[path]);
    expect(listed.length).toBeGreaterThanOrEqual(10);
    for (const [template, policy] of listed) {
      const operation = doc.paths[template]!.get!;
      expect(operation.parameters?.map((p) => p.name), template).toContain('If-None-Match');
      expect(Object.keys(operation.responses), template).toContain('304');
      const path = `/api/v1${template.replace(/\{(\w+)\}/g, (_m, name: string) => values[name]!)}`;
      const res = await raw(api.http, 'GET', path, { 'x-api-key': key });
      expect(res.status, path).toBe(200);
      expect(res.headers.etag, path).toBeDefined();
      expect(res.headers['cache-control'], path).toBe(CACHE_CONTROL[policy]);
    }
  });

  it('gives a changed profile a new ETag', async () => {
    const path = `/api/v1/businesses/${seedFnr(8102)}`;
    const before = (await raw(api.http, 'GET', path, { 'x-api-key': key })).headers.etag!;
    await api.db.sql`UPDATE company SET name = 'Umbenannt GmbH' WHERE fnr = ${seedFnr(8102)}`;
    const after = await raw(api.http, 'GET', path, { 'x-api-key': key, 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('keeps the screener and feeds without an ETag (they change with every filing)', async () => {
    const screener = await raw(api.http, 'GET', '/api/v1/businesses?pageSize=1', { 'x-api-key': key });
    expect(screener.headers.etag).toBeUndefined();
  });
});

describe('CORS', () => {
  let http: TestHttp;
  beforeAll(async () => {
    http = await serve(createApp({ sql: api.db.sql, log, access: api.access.access, corsOrigins: [APP_ORIGIN] }));
  });
  afterAll(() => http.close());

  const preflight = (path: string, origin: string, method = 'GET') =>
    raw(http, 'OPTIONS', path, { origin, 'access-control-request-method': method, 'access-control-request-headers': 'x-api-key' });

  it('answers a preflight from an allowed origin without a key, for GET and POST routes alike', async () => {
    for (const [path, method] of [['/api/v1/businesses', 'GET'], ['/api/v1/exports/businesses', 'POST'], ['/api/v1/openapi.json', 'GET']] as const) {
      const res = await preflight(path, APP_ORIGIN, method);
      expect(res.status, path).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
      expect(res.headers['access-control-allow-headers']).toMatch(/x-api-key/);
      expect(res.headers['access-control-allow-methods']).toMatch(new RegExp(method));
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('opens nothing else: other origins, OPTIONS without a preflight header and every other method still need a key', async () => {
    expect((await preflight('/api/v1/businesses', 'https://evil.example')).status).toBe(401);
    expect((await raw(http, 'OPTIONS', '/api/v1/businesses', { origin: APP_ORIGIN })).status).toBe(401);
    const anonymous = await raw(http, 'GET', '/api/v1/businesses', { origin: APP_ORIGIN });
    expect(anonymous.status).toBe(401);
    // The browser may read the 401 (and so tell its user why).
    expect(anonymous.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect((await raw(http, 'DELETE', '/api/v1/queries/all', { origin: APP_ORIGIN })).status).toBe(401);
  });

  it('lets an allowed page read the answer and its headers; other origins get no CORS headers', async () => {
    const res = await raw(http, 'GET', `/api/v1/businesses/${seedFnr(8103)}`, { origin: APP_ORIGIN, 'x-api-key': key });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(res.headers['access-control-expose-headers']).toMatch(/ETag/);
    expect(res.headers['access-control-expose-headers']).toMatch(/X-Quota-Remaining/);
    const other = await raw(http, 'GET', `/api/v1/businesses/${seedFnr(8103)}`, { origin: 'https://evil.example', 'x-api-key': key });
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends no CORS headers and answers preflights through the chain when no origin is configured', async () => {
    const res = await raw(api.http, 'OPTIONS', '/api/v1/businesses', { origin: APP_ORIGIN, 'access-control-request-method': 'GET' });
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
