// `fields=` on GET /businesses through the whole app, on every search backend (plain Postgres, the
// screener columns whose JSON writer answers figure-sorted pages, Elasticsearch where configured):
// a sparse row is the whole row cut down to the chosen parts, and unknown names are a 400 naming them.
// No text filter: the columns answer only queries they support (a name search goes to Postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import { createLogger } from '../../runtime/logger.js';
import { KEY_FIGURES, figureJsonKey, figureParam } from '../../schemas/keyFigures.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { searchBackends } from '../helpers/searchBackends.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

type Row = Record<string, unknown> & { fnr: string; keyFigures?: Record<string, unknown> | null };

const log = createLogger('silent');
const ALL_FIGURES = Object.fromEntries(KEY_FIGURES.map((f, i) => [figureJsonKey(f), f.kind === 'count' ? String(10 + i) : `${(i + 1) * 1000}.5`]));

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    prepare: async (db) => {
      await seedCompanies(db.sql, [
        { digits: 7001, name: 'Feldweg Bau GmbH', city: 'Graz', zipCode: '8010', figures: { umsatzerloese: '4200000.25', bilanzSumme: '1900000', employees: '31' } },
        { digits: 7002, name: 'Feldweg Alles GmbH', city: 'Linz', zipCode: '4020', figures: ALL_FIGURES },
        { digits: 7003, name: 'Feldweg Ohne Zahlen OG', legalForm: 'OG', city: 'Wien', zipCode: '1010', active: false },
      ]);
      await rebuildReadModel(db.sql, log);
      while ((await indexOnce(db.sql)) > 0);
    },
  });
});
afterAll(() => api.close());

/** `row` as a client would cut it down by hand: the reference a sparse answer must equal. */
function cut(row: Row, base: string[], figureKeys: string[] | null): Row {
  const out: Row = { fnr: row.fnr };
  for (const f of base) out[f] = row[f];
  if (figureKeys) {
    const all = row.keyFigures;
    out.keyFigures = all ? Object.fromEntries([['documentDate', all.documentDate], ...figureKeys.map((k) => [k, all[k]])]) : null;
  }
  return out;
}

for (const backend of searchBackends()) {
  describe(`GET /businesses?fields=: ${backend.name}`, () => {
    let search: SearchBackend & { close?: () => Promise<void> };
    let http: TestHttp;
    beforeAll(async () => {
      search = await backend.make(api.db.sql);
      const { key } = await accountWithKey(api.db.sql, 'api');
      http = await serve(createApp({ sql: api.db.sql, log, access: api.access.access, search }), { 'x-api-key': key });
    });
    afterAll(async () => {
      await http?.close();
      await search?.close?.();
    });

    const page = async (query: string) => {
      const res = await http.get(`/api/v1/businesses?${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await json(res)) as { data: Row[]; totalRecords: number };
    };

    // Figure-sorted (the columns' JSON writer) and name-ordered (rows read from Postgres) pages alike.
    for (const order of ['orderBy=guv.Umsatzerloese&orderByDescending=true', 'orderBy=name', '']) {
      it(`returns the chosen parts of each row and nothing else (${order || 'default order'})`, async () => {
        const whole = await page(order);
        const sparse = await page(`${order}&fields=${encodeURIComponent('city, guv.Umsatzerloese,employees,name,isActive')}`);
        expect(sparse.totalRecords).toBe(3);
        expect(sparse.data).toEqual(whole.data.map((r) => cut(r, ['name', 'city', 'isActive'], ['umsatzerloese', 'employees'])));
        const graz = sparse.data.find((r) => r.fnr === seedFnr(7001))!;
        expect(Object.keys(graz)).toEqual(['fnr', 'name', 'city', 'isActive', 'keyFigures']);
        expect(graz.keyFigures).toEqual({ documentDate: '2024-12-31', umsatzerloese: 4200000.25, employees: 31 });
        expect(sparse.data.find((r) => r.fnr === seedFnr(7003))!.keyFigures).toBeNull();
      });
    }

    it('leaves keyFigures out without a figure, keeps documentDate alone, and keyFigures gives every figure', async () => {
      const flags = await page('orderBy=bilanz.BilanzSumme&fields=hasEdikt,isScheinunternehmen,fnr');
      for (const row of flags.data) expect(Object.keys(row)).toEqual(['fnr', 'isScheinunternehmen', 'hasEdikt']);
      const dated = await page('orderBy=bilanz.BilanzSumme&fields=documentDate');
      expect(dated.data.find((r) => r.fnr === seedFnr(7002))).toEqual({ fnr: seedFnr(7002), keyFigures: { documentDate: '2024-12-31' } });
      const whole = await page('orderBy=employees');
      const all = await page('orderBy=employees&fields=keyFigures,legalForm,court,zipCode');
      expect(all.data).toEqual(whole.data.map((r) => cut(r, ['legalForm', 'court', 'zipCode'], KEY_FIGURES.map(figureJsonKey))));
    });

    it('writes every figure by its parameter name, each alone', async () => {
      const whole = await page('orderBy=guv.Umsatzerloese');
      for (const f of KEY_FIGURES) {
        const sparse = await page(`orderBy=guv.Umsatzerloese&fields=${figureParam(f)}`);
        expect(sparse.data, figureParam(f)).toEqual(whole.data.map((r) => cut(r, [], [figureJsonKey(f)])));
      }
    });

    it('refuses unknown and empty field lists with a 400 naming the unknown names', async () => {
      const res = await http.get('/api/v1/businesses?fields=name,colour,guv.Nope,colour');
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      const { errors } = await json(res);
      expect(Object.keys(errors)).toEqual(['fields']);
      expect(errors.fields[0]).toMatch(/^unknown fields colour, guv\.Nope: /);
      const empty = await http.get('/api/v1/businesses?fields=%20,');
      expect(empty.status).toBe(400);
      expect((await json(empty)).errors.fields[0]).toMatch(/at least one field/);
    });
  });
}
