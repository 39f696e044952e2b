// The company search endpoints through the whole app (key, limits, quota): screener, count, names,
// resolve-names, similar; parameter errors as ProblemDetails; and a change stored by the pipeline's
// store becoming visible in the screener within 2 s through the running indexer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { indexOnce, rebuildReadModel, startIndexer } from '../../indexer/indexer.js';
import { columnarSearch } from '../../indexer/search/columnar/columnarSearch.js';
import { READ_MODEL } from '../../indexer/companySearchTable.js';
import { postgresSearch } from '../../indexer/search/postgresSearch.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey, type TestAccess } from '../helpers/apiAccess.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const log = createLogger('silent');
let db: TestDatabase;
let access: TestAccess;
let http: TestHttp;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    plan: 'api',
    prepare: async (db) => {
      await seedCompanies(db.sql, [
        { digits: 4001, name: 'Alpenglühen Tourismus GmbH', city: 'Innsbruck', zipCode: '6020', court: '818', oenace: ['I 55.10-1'], figures: { umsatzerloese: '2500000', bilanzSumme: '900000', employees: '25' } },
        { digits: 4002, name: 'Alpenglühen Hotel GmbH', city: 'Innsbruck', zipCode: '6020', court: '818', oenace: ['I 55.10-1'], figures: { umsatzerloese: '2000000', bilanzSumme: '700000', employees: '20' } },
        { digits: 4003, name: 'Donau Logistik AG', legalForm: 'AG', city: 'Linz', zipCode: '4020', court: '458', figures: { umsatzerloese: '80000000' } },
        { digits: 4004, name: 'Donau Logistik Ges.m.b.H.', active: false },
        { digits: 4005, name: 'Donau Logistik Süd GmbH' },
      ]);
      await rebuildReadModel(db.sql, log);
      while ((await indexOnce(db.sql)) > 0);
    },
  });
  ({ db, access, http } = api);
});
afterAll(() => api.close());

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

  it('resolves ÖNACE codes without their section letter, at any level, to the same matches', async () => {
    for (const code of ['I 55.10-1', '55.10-1', '55.10', '55.1', '55', 'I']) {
      const body = await json(await http.get(`/api/v1/businesses/count?oenaceCode=${encodeURIComponent(code)}`));
      expect(body, code).toEqual({ count: 2 });
    }
    expect(await json(await http.get('/api/v1/businesses/count?oenaceCode=56'))).toEqual({ count: 0 });
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
    // Page 1 counts all three too, so a client knows there is a page 2.
    expect(await json(await http.get('/api/v1/businesses/names?search=donau&pageSize=2'))).toMatchObject({ pageNumber: 1, totalRecords: 3, totalPages: 2 });
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

// The backends the API can run with on Postgres: the read model alone, and with the screener columns
// in front (the default of `npm start`, following the read model on its own 250 ms timer).
const backends = [
  { name: 'postgres read model', make: () => ({ search: postgresSearch(db.sql), close: async () => undefined }) },
  {
    name: 'screener columns (default)',
    make: async () => {
      const search = columnarSearch(db.sql, { log });
      await search.ready;
      return { search, close: () => search.close() };
    },
  },
];

async function allFnrs(client: TestHttp): Promise<{ status: number; fnrs?: string[] }> {
  const res = await client.get('/api/v1/businesses?pageSize=1000');
  if (res.status !== 200) return { status: res.status };
  return { status: 200, fnrs: ((await json(res)).data as Array<{ fnr: string }>).map((r) => r.fnr).sort() };
}

describe.each(backends)('reindex ($name)', ({ make }) => {
  it('keeps answering during a rebuild, with no error and no missing company', async () => {
    const backend = await make();
    const { key } = await accountWithKey(db.sql);
    const client = await serve(createApp({ sql: db.sql, log, access: access.access, search: backend.search }), { 'x-api-key': key });
    try {
      const expected = (await allFnrs(client)).fnrs!;
      expect(expected).toEqual(expect.arrayContaining([seedFnr(4001), seedFnr(4004), seedFnr(4005)]));
      let running = true;
      const answers: Array<{ status: number; fnrs?: string[] }> = [];
      const reader = (async () => {
        while (running) answers.push(await allFnrs(client));
      })();
      await rebuildReadModel(db.sql, log);
      await rebuildReadModel(db.sql, log);
      running = false;
      await reader;
      expect(answers.length).toBeGreaterThan(3);
      // Every answer during and after both swaps: a 200 holding exactly the same companies.
      expect(answers.filter((a) => a.status !== 200 || a.fnrs!.join() !== expected.join())).toEqual([]);
    } finally {
      await client.close();
      await backend.close();
    }
  });
});

describe('postgres read model: a page and its total', () => {
  it('come from one snapshot while the read model changes', async () => {
    const search = postgresSearch(db.sql);
    const [model] = await db.sql<{ liveTable: string }[]>`SELECT live_table FROM read_model_version WHERE name = ${READ_MODEL}`;
    const liveTable = model!.liveTable;
    const fnr = seedFnr(4003);
    const query = { city: 'racetown', ranges: [], descending: false, page: 1, pageSize: 10 };
    let writing = true;
    // One company moves in and out of the filter as fast as commits go, as the indexer would move it.
    const writer = (async () => {
      while (writing) {
        await db.sql`UPDATE ${db.sql(liveTable)} SET city_norm = CASE WHEN city_norm = 'racetown' THEN 'linz' ELSE 'racetown' END WHERE fnr = ${fnr}`;
      }
    })();
    const torn: Array<{ total: number; rows: number }> = [];
    try {
      for (let i = 0; i < 500; i++) {
        const answer = await search.screener(query);
        if (answer.fnrs.length !== Math.min(answer.total, query.pageSize)) torn.push({ total: answer.total, rows: answer.fnrs.length });
      }
    } finally {
      writing = false;
      await writer;
      await db.sql`UPDATE ${db.sql(liveTable)} SET city_norm = 'linz' WHERE fnr = ${fnr}`;
    }
    expect(torn).toEqual([]);
  });
});

describe.each(backends)('freshness ($name)', ({ name, make }) => {
  it('shows changes stored by the pipeline in the screener within 2 s on an idle system', async () => {
    const backend = await make();
    const { key } = await accountWithKey(db.sql);
    const client = await serve(createApp({ sql: db.sql, log, access: access.access, search: backend.search }), { 'x-api-key': key });
    // The indexer as `npm start` runs it (its default 250 ms poll).
    const indexer = startIndexer(db.sql, log);
    // One new company and one changed company per backend, so neither run sees the other's change.
    const digits = name.startsWith('screener') ? 4107 : 4106;
    const city = name.startsWith('screener') ? 'Bregenz' : 'Feldkirch';
    const renamed = name.startsWith('screener') ? 'Donau Logistik Nord GmbH' : 'Donau Logistik West GmbH';
    const until = async (path: string, seen: (body: { totalRecords: number; data: Array<Record<string, unknown>> }) => boolean, started: number) => {
      while (Date.now() - started < 5000) {
        if (seen(await json(await client.get(path)))) return Date.now() - started;
        await new Promise((r) => setTimeout(r, 20));
      }
      return Number.POSITIVE_INFINITY;
    };
    try {
      const newPath = `/api/v1/businesses?city=${city}&guv.Umsatzerloese_gte=4000000&orderBy=guv.Umsatzerloese`;
      expect(await json(await client.get(newPath))).toMatchObject({ totalRecords: 0 });
      expect(await json(await client.get(`/api/v1/businesses?search=${encodeURIComponent(renamed)}`))).toMatchObject({ totalRecords: 0 });

      const started = Date.now();
      await seedCompanies(db.sql, [
        { digits, name: `Frisch Eingetragen ${digits} GmbH`, city, zipCode: '6900', figures: { umsatzerloese: '4200000' } },
        // 4005 gets a new name (the store writes the change row in the same transaction).
        { digits: 4005, name: renamed },
      ]);
      const newVisible = await until(newPath, (b) => b.totalRecords === 1 && b.data[0]!.fnr === seedFnr(digits) && (b.data[0]!.keyFigures as Record<string, unknown>).umsatzerloese === 4200000, started);
      const renameVisible = await until(`/api/v1/businesses?search=${encodeURIComponent(renamed)}`, (b) => b.data.some((r) => r.fnr === seedFnr(4005) && r.name === renamed), started);
      expect(newVisible).toBeLessThan(2000);
      expect(renameVisible).toBeLessThan(2000);
    } finally {
      await indexer.close();
      await client.close();
      await backend.close();
    }
  });
});
