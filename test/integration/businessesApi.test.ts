// The company search endpoints through the whole app (key, limits, quota): screener, count, names,
// resolve-names, similar; parameter errors as ProblemDetails; and a change stored by the pipeline's
// store becoming visible in the screener within 2 s through the running indexer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { indexOnce, rebuildReadModel, startIndexer } from '../../indexer/indexer.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey, createTestAccess, type TestAccess } from '../helpers/apiAccess.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const log = createLogger('silent');
let db: TestDatabase;
let access: TestAccess;
let http: TestHttp;

beforeAll(async () => {
  db = await createTestDatabase();
  access = await createTestAccess();
  await seedCompanies(db.sql, [
    { digits: 4001, name: 'Alpenglühen Tourismus GmbH', city: 'Innsbruck', zipCode: '6020', court: '818', oenace: ['I 55.10-1'], figures: { umsatzerloese: '2500000', bilanzSumme: '900000', employees: '25' } },
    { digits: 4002, name: 'Alpenglühen Hotel GmbH', city: 'Innsbruck', zipCode: '6020', court: '818', oenace: ['I 55.10-1'], figures: { umsatzerloese: '2000000', bilanzSumme: '700000', employees: '20' } },
    { digits: 4003, name: 'Donau Logistik AG', legalForm: 'AG', city: 'Linz', zipCode: '4020', court: '458', figures: { umsatzerloese: '80000000' } },
    { digits: 4004, name: 'Donau Logistik Ges.m.b.H.', active: false },
    { digits: 4005, name: 'Donau Logistik Süd GmbH' },
  ]);
  await rebuildReadModel(db.sql, log);
  while ((await indexOnce(db.sql)) > 0);
  const { key } = await accountWithKey(db.sql);
  http = await serve(createApp({ sql: db.sql, log, access: access.access }), { 'x-api-key': key });
});
afterAll(async () => {
  await http.close();
  await access.close();
  await db.drop();
});

describe('GET /businesses', () => {
  it('filters and sorts, answering the list envelope with figures and documentDate', async () => {
    const res = await http.get('/api/v1/businesses?city=innsbruck&orderBy=guv.Umsatzerloese&orderByDescending=true&pageSize=1');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ pageNumber: 1, pageSize: 1, totalRecords: 2, totalPages: 2 });
    expect(body.data[0]).toMatchObject({
      fnr: seedFnr(4001), name: 'Alpenglühen Tourismus GmbH', legalForm: { code: 'GES' }, court: { code: '818', text: 'Landesgericht Innsbruck' },
      isActive: true, keyFigures: { documentDate: '2024-12-31', umsatzerloese: 2500000, bilanzSumme: 900000, employees: 25, jahresueberschuss: null },
    });
  });

  it('answers countOnly and /businesses/count with the same total', async () => {
    const only = await json(await http.get('/api/v1/businesses?oenaceCode=I%2055&countOnly=true'));
    expect(only).toMatchObject({ data: [], totalRecords: 2 });
    expect(await json(await http.get('/api/v1/businesses/count?oenaceCode=I%2055'))).toEqual({ count: 2 });
  });

  it('refuses unknown parameters, malformed numbers, unknown orderBy and ÖNACE codes, and pageSize above 1000', async () => {
    const res = await http.get('/api/v1/businesses?colour=red&guv.Umsatzerloese_gte=1e6&orderBy=guv.Nope&pageSize=1001');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    expect(Object.keys((await json(res)).errors).sort()).toEqual(['colour', 'guv.Umsatzerloese_gte', 'orderBy', 'pageSize']);
    const oenace = await http.get('/api/v1/businesses?oenaceCode=C%2099');
    expect(oenace.status).toBe(400);
    expect((await json(oenace)).errors.oenaceCode[0]).toMatch(/no ÖNACE 2008 class/);
  });
});

describe('names, resolve-names, similar', () => {
  it('autocompletes with umlaut spellings', async () => {
    const body = await json(await http.get('/api/v1/businesses/names?search=alpenglue'));
    expect(body.data.map((d: { fnr: string }) => d.fnr).sort()).toEqual([seedFnr(4001), seedFnr(4002)].sort());
    expect(body.data[0]).toEqual(expect.objectContaining({ city: 'Innsbruck', isActive: true }));
  });

  it('resolves names in input order with match bands', async () => {
    const res = await http.request('/api/v1/businesses/resolve-names', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ names: ['Donau Logistik Aktiengesellschaft', 'Alpengluehen Hotel', 'Völlig Unbekannt KG'] }),
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.map((r: { name: string }) => r.name)).toEqual(['Donau Logistik Aktiengesellschaft', 'Alpengluehen Hotel', 'Völlig Unbekannt KG']);
    expect(body[0]).toMatchObject({ fnr: seedFnr(4003), match: 'exact', score: 1 });
    expect(body[1]).toMatchObject({ fnr: seedFnr(4002), match: 'exact' });
    expect(body[2]).toMatchObject({ fnr: null, matchedName: null, match: 'none' });
    const tooMany = await http.request('/api/v1/businesses/resolve-names', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ names: Array.from({ length: 1001 }, () => 'x') }),
    });
    expect(tooMany.status).toBe(400);
  });

  it('autocompletes exact names before prefixes, active before deleted, in any suffix spelling', async () => {
    for (const search of ['Donau Logistik', 'donau logistik gmbh', 'Donau Logistik Aktiengesellschaft']) {
      const body = await json(await http.get(`/api/v1/businesses/names?${new URLSearchParams({ search })}`));
      expect(body.data.map((d: { fnr: string; isActive: boolean }) => [d.fnr, d.isActive]), search).toEqual([
        [seedFnr(4003), true], [seedFnr(4004), false], [seedFnr(4005), true],
      ]);
    }
    const paged = await json(await http.get('/api/v1/businesses/names?search=donau&pageSize=2&page=2'));
    expect(paged).toMatchObject({ pageNumber: 2, pageSize: 2, totalRecords: 3 });
    expect(paged.data.map((d: { fnr: string }) => d.fnr)).toEqual([seedFnr(4004)]);
  });

  it('resolves a batch in one pass: suffix variants, umlauts, lower case, typos, blanks and repeats in input order', async () => {
    const names = [
      'Donau Logistik Süd Gesellschaft mit beschränkter Haftung', 'Alpengluehen Tourismus GmbH', 'Donau Logistk Süd GmbH', '',
      'alpenglühen hotel', 'Völlig Unbekannt KG', 'Donau Logistik Süd Gesellschaft mit beschränkter Haftung',
    ];
    const res = await http.request('/api/v1/businesses/resolve-names', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ names }),
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.map((r: { name: string }) => r.name)).toEqual(names);
    expect(body.map((r: { fnr: string | null; match: string }) => [r.fnr, r.match === 'review' ? 'probable' : r.match])).toEqual([
      [seedFnr(4005), 'exact'], [seedFnr(4001), 'exact'], [seedFnr(4005), 'probable'], [null, 'none'],
      [seedFnr(4002), 'exact'], [null, 'none'], [seedFnr(4005), 'exact'],
    ]);
    expect(body[2]).toMatchObject({ matchedName: 'Donau Logistik Süd GmbH', score: expect.any(Number) });
    expect(body[2].score).toBeGreaterThanOrEqual(0.5);
    expect(body[3]).toEqual({ name: '', fnr: null, matchedName: null, score: 0, match: 'none', candidates: [] });
    expect(body[6]).toEqual({ ...body[0], name: names[6] });
  });

  it('answers similar companies and a 404 for an unknown one', async () => {
    const body = await json(await http.get(`/api/v1/businesses/${seedFnr(4001)}/similar`));
    expect(body.data[0]).toMatchObject({ fnr: seedFnr(4002), similarity: expect.any(Number) });
    expect((await http.get('/api/v1/businesses/999999z/similar')).status).toBe(404);
  });
});

describe('reindex', () => {
  it('keeps answering during a rebuild, with no error and no missing company', async () => {
    const expected = (await json(await http.get('/api/v1/businesses/count'))).count;
    let running = true;
    const answers: Array<{ status: number; count?: number }> = [];
    const reader = (async () => {
      while (running) {
        const res = await http.get('/api/v1/businesses?countOnly=true');
        answers.push({ status: res.status, count: res.status === 200 ? (await json(res)).totalRecords : undefined });
      }
    })();
    await rebuildReadModel(db.sql, log);
    await rebuildReadModel(db.sql, log);
    running = false;
    await reader;
    expect(answers.length).toBeGreaterThan(3);
    expect(answers.filter((a) => a.status !== 200 || a.count !== expected)).toEqual([]);
  });
});

describe('freshness', () => {
  it('shows a change stored by the pipeline in the screener within 2 s on an idle system', async () => {
    const indexer = startIndexer(db.sql, log, 100);
    try {
      const started = Date.now();
      await seedCompanies(db.sql, [{ digits: 4004, name: 'Frisch Eingetragen GmbH', city: 'Graz', zipCode: '8010' }]);
      let visibleAfter = Number.POSITIVE_INFINITY;
      while (Date.now() - started < 5000) {
        const body = await json(await http.get(`/api/v1/businesses?fnr=${seedFnr(4004)}`));
        if (body.totalRecords === 1) {
          visibleAfter = Date.now() - started;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(visibleAfter).toBeLessThan(2000);
    } finally {
      await indexer.close();
    }
  });
});
