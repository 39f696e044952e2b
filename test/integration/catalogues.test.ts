// The bundled catalogues load completely, load twice without writing, and the catalogue endpoints
// serve them searchable and paged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogues } from '../../pipeline/catalogues/catalogueLoader.js';
import { json, type TestHttp } from '../helpers/httpClient.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let api: TestApi;
let db: TestDatabase;
let http: TestHttp;
beforeAll(async () => {
  api = await startTestApi({ plan: 'api' });
  ({ db, http } = api);
});
afterAll(() => api.close());

describe('catalogue data', () => {
  it('has ÖNACE 2008 with 21 sections, 88 divisions, 272 groups, 615 classes and 701 subclasses', async () => {
    const rows = await db.sql<{ level: number; count: number }[]>`
      SELECT level, count(*)::int AS count FROM oenace_class WHERE version = '2008' GROUP BY level ORDER BY level`;
    expect(rows).toEqual([
      { level: 1, count: 21 },
      { level: 2, count: 88 },
      { level: 3, count: 272 },
      { level: 4, count: 615 },
      { level: 5, count: 701 },
    ]);
  });

  it('links every ÖNACE 2008 code below a section to an existing parent one level up', async () => {
    const orphans = await db.sql`
      SELECT c.code FROM oenace_class c
        LEFT JOIN oenace_class p ON p.version = c.version AND p.code = c.parent_code
       WHERE c.version = '2008' AND c.level > 1 AND (p.code IS NULL OR p.level <> c.level - 1)`;
    expect(orphans).toEqual([]);
  });

  it('has the postal codes, courts, legal forms, function codes and regulated trades', async () => {
    const [counts] = await db.sql<Record<string, number>[]>`
      SELECT (SELECT count(*)::int FROM postal_locality) AS localities,
             (SELECT count(DISTINCT zip_code)::int FROM postal_locality) AS zip_codes,
             (SELECT count(*)::int FROM court) AS courts,
             (SELECT count(*)::int FROM legal_form) AS legal_forms,
             (SELECT count(*)::int FROM regulated_trade) AS trades,
             (SELECT count(*)::int FROM regulated_trade WHERE in_force) AS trades_in_force`;
    expect(counts).toEqual({ localities: 18957, zipCodes: 2217, courts: 16, legalForms: 12, trades: 82, tradesInForce: 75 });
    const codes = (await db.sql<{ code: string }[]>`SELECT code FROM function_code ORDER BY code`).map((r) => r.code);
    expect(codes).toEqual(['GF', 'GS', 'PR', 'VM']);
  });

  it('loads a second time without writing anything', async () => {
    const before = await db.sql`SELECT name, checksum, loaded_at FROM catalogue_load ORDER BY name`;
    const results = await loadCatalogues(db.sql);
    expect(results.every((r) => !r.reloaded)).toBe(true);
    expect(await db.sql`SELECT name, checksum, loaded_at FROM catalogue_load ORDER BY name`).toEqual(before);
  });

  it('keeps function codes learned from the register when the catalogue reloads', async () => {
    await db.sql`INSERT INTO function_code (code, text, source) VALUES ('LI', 'LIQUIDATOR/IN', 'register')`;
    await db.sql`UPDATE catalogue_load SET checksum = 'stale' WHERE name = 'function-codes'`;
    const results = await loadCatalogues(db.sql);
    expect(results.find((r) => r.name === 'function-codes')?.reloaded).toBe(true);
    const codes = (await db.sql<{ code: string }[]>`SELECT code FROM function_code ORDER BY code`).map((r) => r.code);
    expect(codes).toEqual(['GF', 'GS', 'LI', 'PR', 'VM']);
    await db.sql`DELETE FROM function_code WHERE code = 'LI'`;
  });
});

describe('catalogue endpoints', () => {
  it('pages ÖNACE by level with the list envelope', async () => {
    const res = await http.get('/api/v1/oenace?level=1&pageSize=5&page=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    expect(body).toMatchObject({ pageNumber: 2, pageSize: 5, totalRecords: 21, totalPages: 5 });
    expect(body.data.map((d: { code: string }) => d.code)).toEqual(['F', 'G', 'H', 'I', 'J']);
    expect(body.data[0]).toMatchObject({ level: 1, title: 'BAU', kurztitel: 'Bau' });
  });

  it('searches ÖNACE by code or title and returns subclass codes in the contract form', async () => {
    const body = await json(await http.get('/api/v1/oenace?level=5&search=10.71'));
    expect(body.data.map((d: { code: string }) => d.code)).toEqual(['C 10.71-1', 'C 10.71-2']);
    expect(body.data[0]).toMatchObject({ numericCode: '10711', parentCode: 'C 10.71', section: 'C' });
  });

  it('serves courts, legal forms and assignment functions', async () => {
    const courts = await json(await http.get('/api/v1/courts?search=Innsbruck'));
    expect(courts.data).toEqual([{ code: '818', text: 'Landesgericht Innsbruck', state: 'Tirol' }]);
    const forms = await json(await http.get('/api/v1/legalforms?search=GES'));
    expect(forms.data[0]).toMatchObject({ code: 'GES', abbreviation: 'GmbH', elfCode: 'AXSB' });
    const functions = await json(await http.get('/api/v1/assignmentfunctions'));
    expect(functions.totalRecords).toBe(4);
    expect(functions.data[0]).toEqual({ code: 'GF', text: 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)', category: 'representation' });
  });

  it('serves cities, zip codes and locations', async () => {
    const cities = await json(await http.get('/api/v1/addresses/cities?search=Innsbruck'));
    expect(cities.data).toContainEqual(expect.objectContaining({ name: 'Innsbruck', municipalityCode: '70101', state: 'Tirol' }));
    const zips = await json(await http.get('/api/v1/addresses/zipcodes?search=1010'));
    expect(zips.data[0]).toMatchObject({ zipCode: '1010', state: 'Wien' });
    const page = await json(await http.get('/api/v1/addresses/locations?search=8010&pageSize=3'));
    expect(page.data).toHaveLength(3);
    const all = await json(await http.get(`/api/v1/addresses/locations?search=8010&pageSize=${page.totalRecords}`));
    expect(all.data.every((l: { zipCode: string }) => l.zipCode === '8010')).toBe(true);
    expect(all.data).toContainEqual(expect.objectContaining({ place: 'Graz,01.Bez.:Innere Stadt', municipality: 'Graz', municipalityCode: '60101' }));
    expect(typeof page.data[0].latitude).toBe('number');
  });

  it('counts every match on a page past the end, which has no rows of its own', async () => {
    for (const path of ['/oenace?level=1', '/legalforms', '/courts?search=Wien', '/assignmentfunctions', '/addresses/cities?search=Graz', '/addresses/zipcodes?search=80', '/addresses/locations?search=8010']) {
      const first = await json(await http.get(`/api/v1${path}${path.includes('?') ? '&' : '?'}pageSize=2`));
      expect(first.totalRecords, path).toBeGreaterThan(0);
      const beyond = await json(await http.get(`/api/v1${path}${path.includes('?') ? '&' : '?'}pageSize=2&page=1000`));
      expect({ data: beyond.data, totalRecords: beyond.totalRecords, totalPages: beyond.totalPages }, path)
        .toEqual({ data: [], totalRecords: first.totalRecords, totalPages: first.totalPages });
    }
  });

  it('answers bad parameters with a 400 ProblemDetails keyed by parameter', async () => {
    const res = await http.get('/api/v1/oenace?level=9&pageSize=1001&colour=red', { 'x-correlation-id': 'test-123' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('x-correlation-id')).toBe('test-123');
    const body = await json(res);
    expect(body).toMatchObject({ status: 400, instance: '/api/v1/oenace', traceId: 'test-123', correlationId: 'test-123' });
    expect(Object.keys(body.errors).sort()).toEqual(['colour', 'level', 'pageSize']);
  });

  it('rejects a parameter given twice', async () => {
    const res = await http.get('/api/v1/courts?page=1&page=2');
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual({ page: ['must be given once'] });
  });

  it('answers unknown paths with a 404 ProblemDetails and a generated correlation id', async () => {
    const res = await http.get('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
