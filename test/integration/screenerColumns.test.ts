// The screener columns against Postgres on the same data: a seeded set of random companies (ties,
// negatives, decimals, missing figures) and a few hundred random screener queries, each of which must
// give the same page and the same total from both. Then the columns follow the indexer: a new filing,
// and a rebuild that swaps the live table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { columnarSearch, type ColumnarSearch } from '../../indexer/search/columnar/columnarSearch.js';
import { loadColumns } from '../../indexer/search/columnar/columnSync.js';
import { postgresSearch } from '../../indexer/search/postgresSearch.js';
import { toScreenerQuery } from '../../indexer/search/screenerFilters.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import { createLogger } from '../../runtime/logger.js';
import { screenerFilters } from '../../schemas/screenerParameters.js';
import { rng, pick } from '../../bench/syntheticCompanies.js';
import { seedCompanies, seedFnr, type SeedCompany } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const log = createLogger('silent');
const FIGURES = [
  { key: 'umsatzerloese', param: 'guv.Umsatzerloese' },
  { key: 'bilanzSumme', param: 'bilanz.BilanzSumme' },
  { key: 'jahresueberschuss', param: 'guv.Jahresueberschuss' },
  { key: 'employees', param: 'employees' },
];
const CITIES = ['Wien', 'Graz', 'Linz', 'Sankt Pölten'];
const LEGAL_FORMS = ['GES', 'AG', 'KG'];
const COURTS = ['007', '458', '638'];
const OENACE = ['F 41.20-1', 'C 16.10-0', 'J 62.01-0', 'C 10.71-1'];
/** Few distinct values, so ties are common and ordering by fnr among equals is exercised. */
const VALUES = ['0', '-120000.75', '35000', '150000', '150000', '800000', '1200000.50', '5000000', '90000000', '12.5'];

function randomCompanies(count: number): SeedCompany[] {
  const r = rng(42);
  return Array.from({ length: count }, (_, i) => {
    const figures: Record<string, string> = {};
    if (r() < 0.65) for (const f of FIGURES) if (r() < 0.8) figures[f.key] = f.key === 'employees' ? String(Math.floor(r() * 5) * 10) : pick(r, VALUES);
    return {
      digits: 2000 + i,
      name: `Firma ${i} GmbH`,
      city: pick(r, CITIES),
      zipCode: pick(r, ['1010', '8010', '4020']),
      legalForm: pick(r, LEGAL_FORMS),
      court: pick(r, COURTS),
      active: r() < 0.85,
      oenace: r() < 0.5 ? [pick(r, OENACE)] : [],
      figures: Object.keys(figures).length > 0 ? figures : undefined,
    };
  });
}

function randomParams(r: () => number): Record<string, string> {
  const params: Record<string, string> = {};
  const filters = Math.floor(r() * 4);
  for (let i = 0; i < filters; i++) {
    const k = r();
    if (k < 0.5) {
      const f = pick(r, FIGURES);
      const v = f.key === 'employees' ? String(Math.floor(r() * 5) * 10) : pick(r, VALUES);
      params[`${f.param}_${r() < 0.5 ? 'gte' : 'lte'}`] = v;
    } else if (k < 0.6) params.city = pick(r, [...CITIES, 'sankt poelten', 'Bregenz']);
    else if (k < 0.7) params.legalFormCode = pick(r, LEGAL_FORMS);
    else if (k < 0.75) params.courtCode = pick(r, COURTS);
    else if (k < 0.85) params.active = pick(r, ['true', 'false']);
    else if (k < 0.9) params.zipCode = pick(r, ['1010', '8010', '9999']);
    else params.oenaceCode = pick(r, ['C', 'C 10', 'F 41.20-1', 'J']);
  }
  if (r() < 0.85) {
    params.orderBy = pick(r, FIGURES).param;
    if (r() < 0.6) params.orderByDescending = 'true';
  }
  return params;
}

const queryOf = (params: Record<string, string>, page: number, pageSize: number) => {
  const input = screenerFilters.strict().parse(params);
  const oenace = input.oenaceCode?.replace(/[\s.-]/g, '');
  return toScreenerQuery(input, { page, pageSize }, oenace);
};

describe('screener columns answer as Postgres does', () => {
  let db: TestDatabase;
  let columnar: ColumnarSearch;
  let plain: SearchBackend;
  const companies = randomCompanies(240);

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedCompanies(db.sql, companies);
    await rebuildReadModel(db.sql, log);
    while ((await indexOnce(db.sql)) > 0);
    columnar = columnarSearch(db.sql, { log, syncIntervalMs: 60_000 });
    await columnar.ready;
    plain = postgresSearch(db.sql);
  });
  afterAll(async () => {
    await columnar.close();
    await db.drop();
  });

  it('gives the same page and total for 300 random screener queries', async () => {
    const r = rng(7);
    let nonEmpty = 0;
    for (let i = 0; i < 300; i++) {
      const params = randomParams(r);
      const pageSize = pick(r, [1, 5, 10, 50]);
      const page = 1 + Math.floor(r() * 3);
      const query = queryOf(params, page, pageSize);
      const [a, b] = await Promise.all([columnar.screener(query), plain.screener(query)]);
      const context = JSON.stringify({ params, page, pageSize });
      expect(a.total, context).toBe(b.total);
      expect(a.fnrs, context).toEqual(b.fnrs);
      // The API's bytes: the columns write the JSON themselves, Postgres' rows go through the presenter.
      expect(a.json().toString(), context).toBe(b.json().toString());
      expect(await columnar.count(query), context).toBe(b.total);
      if (b.total > 0) nonEmpty++;
    }
    // The generator must produce real matches, not 300 empty answers that trivially agree.
    expect(nonEmpty).toBeGreaterThan(200);
  });

  it('loads every company, and figure columns only for those with a filing', async () => {
    const loaded = await loadColumns(db.sql);
    const [counts] = await db.sql<{ n: number; withFigures: number }[]>`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE document_key IS NOT NULL)::int AS with_figures FROM company_search`;
    expect(loaded!.columns.rows).toBe(counts!.n);
    expect(loaded!.columns.rowsWithFigures).toBe(counts!.withFigures);
    expect(counts!.withFigures).toBeLessThan(counts!.n);
  });

  it('follows a new filing once the indexer has applied it', async () => {
    const query = queryOf({ 'guv.Umsatzerloese_gte': '999000000', orderBy: 'guv.Umsatzerloese' }, 1, 10);
    expect((await columnar.screener(query)).total).toBe(0);
    await seedCompanies(db.sql, [{ digits: 9001, name: 'Neu Reich GmbH', figures: { umsatzerloese: '999000001' } }]);
    while ((await indexOnce(db.sql)) > 0);
    await columnar.sync();
    const result = await columnar.screener(query);
    expect(result.total).toBe(1);
    expect(result.fnrs).toEqual([seedFnr(9001)]);
  });

  it('answers a name-ordered page and its total from one read-model state while the columns lag', async () => {
    const query = queryOf({ city: 'Bregenz' }, 1, 10);
    expect(await columnar.screener(query)).toMatchObject({ total: 0, fnrs: [] });
    await seedCompanies(db.sql, [{ digits: 9005, name: 'Spaet Gefolgt GmbH', city: 'Bregenz' }]);
    while ((await indexOnce(db.sql)) > 0);
    // Not synced yet (the interval is a minute): the columns alone still count the state before ...
    expect(await columnar.count(query)).toBe(0);
    // ... while the page, read from the read model, holds the new company: its total must count it.
    expect(await columnar.screener(query)).toMatchObject({ total: 1, fnrs: [seedFnr(9005)] });
    await columnar.sync();
    expect(await columnar.count(query)).toBe(1);
    expect(await columnar.screener(query)).toMatchObject({ total: 1, fnrs: [seedFnr(9005)] });
  });

  it('answers a name-ordered page and its total from one state when a rebuild swaps the table meanwhile', async () => {
    const query = queryOf({ city: 'Dornbirn' }, 1, 10);
    expect(await columnar.screener(query)).toMatchObject({ total: 0, fnrs: [] });
    const [{ liveTable } = { liveTable: '' }] = await db.sql<{ liveTable: string }[]>`SELECT live_table FROM read_model_version WHERE name = 'company_search'`;
    // A rebuilt table that holds one company more in Dornbirn, swapped in as rebuildReadModel swaps.
    await db.sql.unsafe(`CREATE TABLE swap_probe AS SELECT * FROM ${liveTable}`);
    await db.sql.unsafe(`UPDATE swap_probe SET city_norm = 'dornbirn' WHERE fnr = '${seedFnr(2000)}'`);
    const swap = await db.sql.reserve();
    try {
      await swap`BEGIN`;
      await swap`DROP VIEW company_search`;
      await swap`CREATE VIEW company_search AS SELECT * FROM swap_probe`;
      await swap`UPDATE read_model_version SET live_table = 'swap_probe' WHERE name = 'company_search'`;
      // The read arrives while the swap holds its locks; the swap commits while the read waits.
      const reading = columnar.screener(query);
      await new Promise((r) => setTimeout(r, 200));
      await swap`COMMIT`;
      const answer = await reading;
      expect(answer.total).toBe(answer.fnrs.length);
    } finally {
      await swap`ROLLBACK`.catch(() => undefined);
      await swap`DROP VIEW company_search`;
      await swap.unsafe(`CREATE VIEW company_search AS SELECT * FROM ${liveTable}`);
      await swap`UPDATE read_model_version SET live_table = ${liveTable} WHERE name = 'company_search'`;
      await swap`DROP TABLE swap_probe`;
      swap.release();
    }
  });

  it('reloads after a rebuild swaps the live table, and keeps answering meanwhile', async () => {
    const query = queryOf({ 'bilanz.BilanzSumme_gte': '0', orderBy: 'bilanz.BilanzSumme', orderByDescending: 'true' }, 1, 20);
    const before = await plain.screener(query);
    await rebuildReadModel(db.sql, log);
    await columnar.sync(); // notices the swap, starts the reload
    expect((await columnar.screener(query)).json().toString()).toBe(before.json().toString());
    await columnar.sync(); // waits for the reload's end only through the next step
    await seedCompanies(db.sql, [{ digits: 9002, name: 'Nach Umbau GmbH', figures: { bilanzSumme: '777777777' } }]);
    while ((await indexOnce(db.sql)) > 0);
    await expect.poll(async () => {
      await columnar.sync();
      return (await columnar.screener(query)).fnrs[0];
    }, { timeout: 5000 }).toBe(seedFnr(9002));
    expect((await columnar.screener(query)).json().toString()).toBe((await plain.screener(query)).json().toString());
  });

  it('leaves numbers beyond double precision to Postgres, so their answers stay exact', async () => {
    await seedCompanies(db.sql, [
      { digits: 9003, name: 'Genau Eins GmbH', figures: { umsatzerloese: '100000000000000001' } },
      { digits: 9004, name: 'Genau Null GmbH', figures: { umsatzerloese: '100000000000000000' } },
    ]);
    while ((await indexOnce(db.sql)) > 0);
    await columnar.sync();
    const query = queryOf({ 'guv.Umsatzerloese_gte': '100000000000000001', orderBy: 'guv.Umsatzerloese' }, 1, 10);
    const result = await columnar.screener(query);
    expect(result.fnrs).toEqual([seedFnr(9003)]);
    expect(result.total).toBe(1);
  });
});
