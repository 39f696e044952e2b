// Issue 23.5: `orderBy=name` sorts the screener by name (every backend: the read model, the screener
// columns in front of it, Elasticsearch's sort), saved queries keep it; `since` on the change feeds
// takes a date (00:00 UTC of that day) as well as a timestamp.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { columnarSearch } from '../../indexer/search/columnar/columnarSearch.js';
import { buildEsSort } from '../../indexer/search/elasticsearch/esScreenerQuery.js';
import { postgresSearch } from '../../indexer/search/postgresSearch.js';
import { toScreenerQuery } from '../../indexer/search/screenerFilters.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import { createLogger } from '../../runtime/logger.js';
import { screenerFilters } from '../../schemas/screenerParameters.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { seedFnr, seedSearchable } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const log = createLogger('silent');
let api: TestApi;
let columns: SearchBackend & { close(): Promise<void> };
const clients: Array<{ name: string; http: TestHttp; key: string }> = [];

beforeAll(async () => {
  api = await startTestApi({
    prepare: async (db) => {
      await seedSearchable(db.sql, [
        { digits: 8801, name: 'Zimmerei Ziegler GmbH', figures: { umsatzerloese: '100' } },
        { digits: 8802, name: 'Ötztal Touristik GmbH', active: false },
        { digits: 8803, name: 'Alpenbau GmbH', figures: { umsatzerloese: '900' } },
        { digits: 8804, name: 'Obermayr KG', legalForm: 'KG' },
        { digits: 8805, name: 'Alpenbau GmbH', active: false },
      ]);
      // Changes recorded around midnight UTC of 2030-03-04 (and midnight in Vienna, an hour earlier), after every seeded one.
      await db.sql`
        INSERT INTO change_log (type, fnr, action, changed_fields, recorded_at)
        VALUES ('business', ${seedFnr(8801)}, 'updated', '{name}', '2030-03-03T22:59:59Z'),
               ('business', ${seedFnr(8801)}, 'updated', '{name}', '2030-03-03T23:00:00Z'),
               ('business', ${seedFnr(8802)}, 'updated', '{name}', '2030-03-03T23:59:59.999Z'),
               ('business', ${seedFnr(8803)}, 'updated', '{name}', '2030-03-04T00:00:00Z'),
               ('business', ${seedFnr(8804)}, 'updated', '{name}', '2030-03-04T10:30:00Z')`;
    },
  });
  columns = columnarSearch(api.db.sql, { log }) as SearchBackend & { close(): Promise<void> };
  await columns.ready;
  for (const [name, search] of [['read model', postgresSearch(api.db.sql)], ['screener columns', columns]] as const) {
    const { key } = await accountWithKey(api.db.sql, 'api');
    clients.push({ name, key, http: await serve(createApp({ sql: api.db.sql, log, access: api.access.access, search }), { 'x-api-key': key }) });
  }
});
afterAll(async () => {
  for (const c of clients) await c.http.close();
  await columns.close();
  await api.close();
});

const fnrs = (body: { data: Array<{ fnr: string }> }) => body.data.map((d) => d.fnr);
const byName = [8803, 8805, 8804, 8802, 8801].map(seedFnr); // alpenbau (fnr order), obermayr, oetztal, zimmerei

describe('orderBy=name', () => {
  it('sorts by name alone, both directions, on every page, in both Postgres backends', async () => {
    for (const c of clients) {
      expect(fnrs(await json(await c.http.get('/api/v1/businesses?orderBy=name'))), c.name).toEqual(byName);
      expect(fnrs(await json(await c.http.get('/api/v1/businesses?orderBy=name&orderByDescending=true'))), c.name).toEqual([...byName].reverse());
      const pages: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = await json(await c.http.get(`/api/v1/businesses?orderBy=name&pageSize=2&page=${page}`));
        expect(body.totalRecords).toBe(5);
        pages.push(...fnrs(body));
      }
      expect(pages, c.name).toEqual(byName);
      // With a filter, and the default order (active first) still as it was.
      expect(fnrs(await json(await c.http.get('/api/v1/businesses?orderBy=name&active=true'))), c.name).toEqual([8803, 8804, 8801].map(seedFnr));
      expect(fnrs(await json(await c.http.get('/api/v1/businesses'))), c.name).toEqual([8803, 8804, 8801, 8805, 8802].map(seedFnr));
    }
  });

  it('is the sort Elasticsearch is asked for', () => {
    const query = (params: Record<string, string>) => toScreenerQuery(screenerFilters.strict().parse(params), { page: 1, pageSize: 10 });
    expect(buildEsSort(query({ orderBy: 'name' }))).toEqual([{ name_norm: { order: 'asc' } }, { fnr: { order: 'asc' } }]);
    expect(buildEsSort(query({ orderBy: 'name', orderByDescending: 'true' }))).toEqual([{ name_norm: { order: 'desc' } }, { fnr: { order: 'desc' } }]);
  });

  it('is kept by a saved query and refused when it names nothing', async () => {
    const c = clients[0]!;
    const saved = await c.http.request('/api/v1/queries', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filters: { orderBy: 'name', active: true } }),
    });
    expect(saved.status).toBe(200);
    expect((await json(saved)).filters).toEqual({ active: true, orderBy: 'name' });
    const wrong = await c.http.get('/api/v1/businesses?orderBy=nombre');
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).errors.orderBy[0]).toMatch(/^must be name or one of the figure names/);
  });
});

describe('since on the change feeds', () => {
  const ids = async (path: string) => ((await json(await clients[0]!.http.get(path))).data as Array<{ fnr: string; recordedAt: string }>).map((d) => d.recordedAt);

  it('takes a date as 00:00 UTC of that day, on every feed and the aggregated one', async () => {
    for (const feed of ['/globalchanges', '/businesses/changes']) {
      expect(await ids(`/api/v1${feed}?since=2030-03-04`), feed).toEqual(['2030-03-04T00:00:00.000Z', '2030-03-04T10:30:00.000Z']);
      // The same as the timestamp of that moment.
      expect(await ids(`/api/v1${feed}?since=2030-03-04T00:00:00Z`)).toEqual(await ids(`/api/v1${feed}?since=2030-03-04`));
    }
    expect(await ids('/api/v1/globalchanges?since=2030-03-03T23:00:00Z')).toHaveLength(4);
    const aggregated = await json(await clients[0]!.http.get('/api/v1/globalchanges/aggregated?since=2030-03-04'));
    expect(aggregated.businessChanges.map((c: { recordedAt: string }) => c.recordedAt)).toEqual(['2030-03-04T00:00:00.000Z', '2030-03-04T10:30:00.000Z']);
  });

  it('refuses a date that does not exist, or anything else, in words that name both forms', async () => {
    for (const since of ['2030-02-30', '2030-3-4', 'yesterday', '2030-03-04T10:12']) {
      const res = await clients[0]!.http.get(`/api/v1/globalchanges?since=${since}`);
      expect(res.status, since).toBe(400);
      expect((await json(res)).errors.since, since).toEqual(['must be an ISO 8601 timestamp such as 2025-03-04T10:12:00Z or a date such as 2025-03-04 (meaning 00:00 UTC)']);
    }
  });
});
