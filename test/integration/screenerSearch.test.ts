// The simple Postgres screener behind saved-query exports (the screener of issue 4 replaces it):
// every filter of the screener over the source tables, figure ranges over the latest filing (a
// figure the latest filing does not report never matches), orderBy with nulls last, paging, total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresScreener, type ScreenerSearch } from '../../api/screener/screenerSearch.js';
import { seedCompanies } from '../helpers/companies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
let screener: ScreenerSearch;
const all = { page: 1, pageSize: 100 };

beforeAll(async () => {
  db = await createTestDatabase();
  screener = createPostgresScreener(db.sql);
  await seedCompanies(db.sql, [
    { fnr: '1a', name: 'Alpha GmbH', legalFormCode: 'GES', courtCode: '066', city: 'Wien', zipCode: '1010',
      filings: [{ documentDate: '2021-12-31', figures: { umsatzerloese: 9e9 } }, { documentDate: '2023-12-31', figures: { umsatzerloese: 500, employees: 3 } }] },
    { fnr: '2b', name: 'Beta AG', legalFormCode: 'AG', courtCode: '066', city: 'wien', zipCode: '1020',
      filings: [{ documentDate: '2023-12-31', figures: { umsatzerloese: 2000, employees: null } }], scheinunternehmen: true },
    { fnr: '3d', name: 'Gamma KG', legalFormCode: 'KG', courtCode: '033', city: 'Graz', zipCode: '8010', status: 'deleted',
      filings: [{ documentDate: '2022-12-31', figures: { umsatzerloese: 1000 } }] },
    { fnr: '4f', name: 'Delta GmbH', legalFormCode: 'GES', city: 'Linz', zipCode: '4020' },
  ]);
  await db.sql`INSERT INTO company_oenace (fnr, code, source) VALUES ('1a', 'C 10.71-1', 'test')`;
  await db.sql`INSERT INTO trade_license (gisa_zahl, fnr, trade_key) VALUES ('g1', '2b', '123')`;
});
afterAll(async () => {
  await db.drop();
});

const fnrs = async (filters: Record<string, string | number | boolean>, paging = all) => (await screener.search(filters, paging)).fnrs;

describe('postgres screener (simple)', () => {
  it('orders by name without orderBy and counts all matches', async () => {
    expect(await screener.search({}, all)).toEqual({ fnrs: ['1a', '2b', '4f', '3d'], total: 4 });
    expect(await screener.search({}, { page: 2, pageSize: 3 })).toEqual({ fnrs: ['3d'], total: 4 });
  });

  it('filters by text, code, status and list membership', async () => {
    expect(await fnrs({ city: 'WIEN' })).toEqual(['1a', '2b']);
    expect(await fnrs({ zipCode: '1020' })).toEqual(['2b']);
    expect(await fnrs({ legalFormCode: 'GES' })).toEqual(['1a', '4f']);
    expect(await fnrs({ courtCode: '066', active: true })).toEqual(['1a', '2b']);
    expect(await fnrs({ active: false })).toEqual(['3d']);
    expect(await fnrs({ isScheinunternehmen: true })).toEqual(['2b']);
    expect(await fnrs({ search: 'gmbh' })).toEqual(['1a', '4f']);
    expect(await fnrs({ fnr: '3d' })).toEqual(['3d']);
    expect(await fnrs({ oenaceCode: 'C 10' })).toEqual(['1a']);
    expect(await fnrs({ gisaLicenseKey: '123' })).toEqual(['2b']);
  });

  it('filters figure ranges on the latest filing only; a figure it does not report never matches', async () => {
    expect(await fnrs({ 'guv.Umsatzerloese_gte': 1000 })).toEqual(['2b', '3d']); // 1a's 9e9 is an older filing
    expect(await fnrs({ 'guv.Umsatzerloese_gte': 600, 'guv.Umsatzerloese_lte': 1500 })).toEqual(['3d']);
    expect(await fnrs({ employees_lte: 100 })).toEqual(['1a']);
  });

  it('orders by a figure, nulls last, either direction', async () => {
    expect(await fnrs({ orderBy: 'guv.Umsatzerloese', orderByDescending: true })).toEqual(['2b', '3d', '1a', '4f']);
    expect(await fnrs({ orderBy: 'guv.Umsatzerloese' })).toEqual(['1a', '3d', '2b', '4f']);
  });
});
