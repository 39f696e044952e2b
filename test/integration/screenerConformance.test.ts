// The search conformance suite: one list of screener cases with the answers they must give. It runs
// against the Postgres backend here, and against Elasticsearch wherever ELASTICSEARCH_URL is set
// (test/helpers/searchBackends.ts adds that backend when a node is configured); the answers must be identical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { toScreenerQuery, oenaceEdv } from '../../indexer/search/screenerFilters.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import { createLogger } from '../../runtime/logger.js';
import { KEY_FIGURES, figureJsonKey, figureParam } from '../../schemas/keyFigures.js';
import { screenerFilters } from '../../schemas/screenerParameters.js';
import { searchBackends } from '../helpers/searchBackends.js';
import { seedCompanies, seedFnr, type SeedCompany } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const COMPANIES: SeedCompany[] = [
  { digits: 34853, name: 'Müller Bau GmbH', city: 'Wien', zipCode: '1010', figures: { umsatzerloese: '5000000', bilanzSumme: '2000000', employees: '40' }, oenace: ['F 41.20-1'] },
  { digits: 1001, name: 'Huber Holz GmbH', city: 'Linz', zipCode: '4020', court: '458', figures: { umsatzerloese: '1200000.50', bilanzSumme: '800000', employees: '12' }, oenace: ['C 16.10-0'] },
  { digits: 1002, name: 'Alpen Handel AG', legalForm: 'AG', city: 'Innsbruck', zipCode: '6020', court: '818', figures: { umsatzerloese: '90000000', bilanzSumme: '45000000', employees: '310' } },
  { digits: 1003, name: 'Gasthaus Zum Löwen KG', legalForm: 'KG', city: 'Graz', zipCode: '8010', court: '638', figures: { bilanzSumme: '150000' } },
  { digits: 1004, name: 'Stillgelegt Verwaltungs GmbH', active: false, city: 'Wien', zipCode: '1010', figures: { umsatzerloese: '0', bilanzSumme: '35000', employees: '0' } },
  { digits: 1005, name: 'Neue Software OG', legalForm: 'OG', city: 'Wien', zipCode: '1070', formerNames: ['Softwareschmiede Maier OG'], oenace: ['J 62.01-0'] },
  { digits: 1006, name: 'Verlustbringer GmbH', city: 'Salzburg', zipCode: '5020', court: '569', figures: { umsatzerloese: '250000', jahresueberschuss: '-120000.75', bilanzSumme: '90000' } },
];

type Case = { name: string; params: Record<string, string>; expect: number[]; ordered?: boolean };

/** The cases both backends must answer identically (fnrs by their digits). */
export const SCREENER_CASES: Case[] = [
  { name: 'no filter lists everything, active first then by name', params: {}, expect: [1002, 1003, 1001, 34853, 1005, 1006, 1004], ordered: true },
  { name: 'fnr with leading zero and space matches', params: { fnr: '034853 f' }, expect: [34853] },
  { name: 'fnr in upper case matches nothing', params: { fnr: '34853F' }, expect: [] },
  { name: 'search by name part, umlaut spelled out', params: { search: 'mueller' }, expect: [34853] },
  { name: 'search by name part with umlaut', params: { search: 'Löwen' }, expect: [1003] },
  { name: 'search finds former names', params: { search: 'softwareschmiede' }, expect: [1005] },
  { name: 'city, case-insensitive', params: { city: 'wien' }, expect: [34853, 1004, 1005] },
  { name: 'zip code', params: { zipCode: '1010' }, expect: [34853, 1004] },
  { name: 'court code', params: { courtCode: '818' }, expect: [1002] },
  { name: 'legal form', params: { legalFormCode: 'KG' }, expect: [1003] },
  { name: 'ÖNACE section matches its descendants', params: { oenaceCode: 'C' }, expect: [1001] },
  { name: 'ÖNACE division in contract form', params: { oenaceCode: 'J 62' }, expect: [1005] },
  { name: 'ÖNACE subclass exact', params: { oenaceCode: 'F 41.20-1' }, expect: [34853] },
  { name: 'active=false', params: { active: 'false' }, expect: [1004] },
  { name: 'active=true', params: { active: 'true', city: 'Wien' }, expect: [34853, 1005] },
  { name: 'trade key of a licence held (ended licences do not count)', params: { gisaLicenseKey: '590100' }, expect: [1001] },
  { name: 'on the bogus-company list', params: { isScheinunternehmen: 'true' }, expect: [1006] },
  { name: 'not on the bogus-company list', params: { isScheinunternehmen: 'false', zipCode: '5020' }, expect: [] },
  { name: 'not on the bogus-company list, with matches', params: { isScheinunternehmen: 'false', zipCode: '1010' }, expect: [34853, 1004] },
  { name: 'an upper bound never matches a null figure either', params: { 'guv.Umsatzerloese_lte': '250000' }, expect: [1004, 1006] },
  { name: 'an upper bound of zero matches zero, not null', params: { employees_lte: '0' }, expect: [1004] },
  { name: 'range never matches a null figure', params: { 'guv.Umsatzerloese_gte': '0' }, expect: [34853, 1001, 1002, 1004, 1006] },
  { name: 'range with decimals', params: { 'guv.Umsatzerloese_gte': '1200000.50', 'guv.Umsatzerloese_lte': '5000000' }, expect: [34853, 1001] },
  { name: 'negative values', params: { 'guv.Jahresueberschuss_lte': '-100000' }, expect: [1006] },
  { name: 'employees range', params: { employees_gte: '10', employees_lte: '100' }, expect: [34853, 1001] },
  {
    name: 'sort by revenue descending, missing last', params: { orderBy: 'guv.Umsatzerloese', orderByDescending: 'true' },
    expect: [1002, 34853, 1001, 1006, 1004, 1003, 1005], ordered: true,
  },
  {
    name: 'sort by balance-sheet total ascending with a filter', params: { orderBy: 'bilanz.BilanzSumme', 'bilanz.BilanzSumme_gte': '50000' },
    expect: [1006, 1003, 1001, 34853, 1002], ordered: true,
  },
  // orderBy=name: the name alone (as folded for search: Müller sorts as mueller), the deleted company among the others.
  { name: 'sort by name', params: { orderBy: 'name' }, expect: [1002, 1003, 1001, 34853, 1005, 1004, 1006], ordered: true },
  { name: 'sort by name descending', params: { orderBy: 'name', orderByDescending: 'true' }, expect: [1006, 1004, 1005, 34853, 1001, 1003, 1002], ordered: true },
  { name: 'sort by name with a filter', params: { orderBy: 'name', city: 'Wien' }, expect: [34853, 1005, 1004], ordered: true },
];

// The same cases against every backend (test/helpers/searchBackends.ts; Elasticsearch wherever ELASTICSEARCH_URL is set).
const backends = searchBackends();

for (const backend of backends) {
  describe(`screener conformance: ${backend.name}`, () => {
    let db: TestDatabase;
    let search: SearchBackend & { close?: () => Promise<void> };
    beforeAll(async () => {
      db = await createTestDatabase();
      await seedCompanies(db.sql, COMPANIES);
      // A trade licence and a listing as bogus company, as the GISA and BMF pipelines store them.
      await db.sql`
        INSERT INTO trade_license (gisa_zahl, fnr, trade_key, wording, effective_from, holder_kind, holder_name)
        VALUES ('123456784', ${seedFnr(1001)}, '590100', 'Tischler', '2018-06-15', 'legal', 'Huber Holz GmbH'),
               ('223456781', ${seedFnr(1002)}, '590100', 'Tischler', '2010-01-01', 'legal', 'Alpen Handel AG')`;
      await db.sql`UPDATE trade_license SET ended_on = '2020-01-01' WHERE gisa_zahl = '223456781'`;
      await db.sql`INSERT INTO bogus_company_listing (listing_key, name, fnr) VALUES (${seedFnr(1006)}, 'Verlustbringer GmbH', ${seedFnr(1006)})`;
      await rebuildReadModel(db.sql, createLogger('silent'));
      while ((await indexOnce(db.sql)) > 0);
      search = await backend.make(db.sql);
    });
    afterAll(async () => {
      await search.close?.();
      await db.drop();
    });

    for (const c of SCREENER_CASES) {
      it(c.name, async () => {
        const input = screenerFilters.strict().parse(c.params);
        const query = toScreenerQuery(input, { page: 1, pageSize: 100 }, input.oenaceCode ? oenaceEdv(input.oenaceCode) : undefined);
        const result = await search.screener(query);
        const fnrs = [...result.fnrs];
        const expected = c.expect.map(seedFnr);
        if (c.ordered) expect(fnrs).toEqual(expected);
        else expect(fnrs.sort()).toEqual(expected.sort());
        expect(result.total).toBe(c.expect.length);
        expect(await search.count(query)).toBe(c.expect.length);
      });
    }

    it('pages through a sorted result without gaps or repeats', async () => {
      const input = screenerFilters.strict().parse({ orderBy: 'guv.Umsatzerloese', orderByDescending: 'true' });
      const all: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const result = await search.screener(toScreenerQuery(input, { page, pageSize: 2 }));
        all.push(...result.fnrs);
        expect(result.total).toBe(COMPANIES.length);
      }
      expect(all).toEqual([1002, 34853, 1001, 1006, 1004, 1003, 1005].map(seedFnr));
    });

    it('returns the figures with their documentDate, null staying null', async () => {
      const result = await search.screener(toScreenerQuery(screenerFilters.parse({ fnr: '1006' + seedFnr(1006).slice(-1) }), { page: 1, pageSize: 10 }));
      const [row] = result.presented();
      expect(row).toMatchObject({ fnr: seedFnr(1006), keyFigures: { documentDate: '2024-12-31' } });
      expect(row!.keyFigures).toMatchObject({ umsatzerloese: 250000, jahresueberschuss: -120000.75, bilanzSumme: 90000, employees: null });
    });

    it('answers countOnly with the total and no rows', async () => {
      const result = await search.screener(toScreenerQuery(screenerFilters.parse({ city: 'Wien' }), { page: 1, pageSize: 10 }), { countOnly: true });
      expect(result.total).toBe(3);
      expect(result.fnrs).toEqual([]);
      expect(result.json().toString()).toBe('[]');
    });
  });
}

// Every one of the 47 figures as a range filter (both bounds) and as the sort, on every backend: two
// companies with every figure set, the second one below the first in each, and one without figures.
const ALL_FIGURES = [
  { digits: 2001, name: 'Hoch Alles GmbH', zipCode: '9999', figures: Object.fromEntries(KEY_FIGURES.map((f, i) => [figureJsonKey(f), f.kind === 'count' ? String(100 + i) : `${(i + 1) * 1111}.25`])) },
  { digits: 2002, name: 'Tief Alles GmbH', zipCode: '9999', figures: Object.fromEntries(KEY_FIGURES.map((f, i) => [figureJsonKey(f), f.kind === 'count' ? String(99 + i) : `-${(i + 1) * 1111}.75`])) },
  { digits: 2003, name: 'Ohne Zahlen GmbH', zipCode: '9999' },
];

for (const backend of backends) {
  describe(`screener conformance, all 47 figures: ${backend.name}`, () => {
    let db: TestDatabase;
    let search: SearchBackend & { close?: () => Promise<void> };
    beforeAll(async () => {
      db = await createTestDatabase();
      await seedCompanies(db.sql, ALL_FIGURES);
      await rebuildReadModel(db.sql, createLogger('silent'));
      search = await backend.make(db.sql);
    });
    afterAll(async () => {
      await search.close?.();
      await db.drop();
    });
    const run = async (params: Record<string, string>) => {
      const input = screenerFilters.strict().parse({ zipCode: '9999', ...params });
      const result = await search.screener(toScreenerQuery(input, { page: 1, pageSize: 10 }));
      return result.fnrs;
    };

    it.each(KEY_FIGURES.map((f, i) => [figureParam(f), i] as const))('%s: _gte, _lte and orderBy', async (param, i) => {
      const high = ALL_FIGURES[0]!.figures![figureJsonKey(KEY_FIGURES[i]!)]!;
      const low = ALL_FIGURES[1]!.figures![figureJsonKey(KEY_FIGURES[i]!)]!;
      expect(await run({ [`${param}_gte`]: high })).toEqual([seedFnr(2001)]);
      expect(await run({ [`${param}_lte`]: low })).toEqual([seedFnr(2002)]);
      expect(await run({ [`${param}_gte`]: low, [`${param}_lte`]: high, orderBy: param, orderByDescending: 'true' })).toEqual([seedFnr(2001), seedFnr(2002)]);
      // Sorted without a range: the company without figures comes last in both directions.
      expect(await run({ orderBy: param })).toEqual([seedFnr(2002), seedFnr(2001), seedFnr(2003)]);
      expect(await run({ orderBy: param, orderByDescending: 'true' })).toEqual([seedFnr(2001), seedFnr(2002), seedFnr(2003)]);
    });
  });
}
