// Autocomplete with the screener columns' name index answers exactly what it answers from Postgres
// alone: the same candidates in the same order and the same totals, for many terms over names with
// duplicates, umlauts, legal-form spellings and deleted companies, before and after renames. And the
// index's similarity is pg_trgm's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { loadColumns, syncColumns, type LoadedColumns } from '../../indexer/search/columnar/columnSync.js';
import { trigramSimilarity } from '../../indexer/search/columnar/nameIndex.js';
import { autocompleteNames, type NameMemory } from '../../indexer/search/nameSearch.js';
import { normaliseForSearch } from '../../indexer/search/postgresScreenerQuery.js';
import { createLogger } from '../../runtime/logger.js';
import { seedCompanies, type SeedCompany } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const FIRST = ['Müller', 'Mueller', 'Bau', 'Bäckerei', 'Holz', 'Alpen', 'Gasthof', 'Zimmerei', 'Elektro', 'Maier', 'Meier', 'A', 'AB', '1a'];
const SECOND = ['', 'Bau', 'Holz', 'Handel', 'Technik', 'Huber', 'und Söhne', 'Tirol', 'Wien 2'];
const SUFFIX = ['GmbH', 'Ges.m.b.H.', 'KG', 'AG', 'e.U.', 'GmbH & Co KG', 'OG', ''];

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

let db: TestDatabase;
let loaded: LoadedColumns;
const companies: SeedCompany[] = [];
let memoryAnswers = 0;
let memoryCounts = 0;
const memory: NameMemory = {
  bands: (...args) => {
    const answer = loaded.columns.nameBands(...args);
    if (answer) memoryAnswers++;
    return answer;
  },
  count: (...args) => {
    const answer = loaded.columns.nameCount(...args);
    if (answer !== null) memoryCounts++;
    return answer;
  },
};

beforeAll(async () => {
  db = await createTestDatabase();
  const r = random(11);
  for (let i = 0; i < 400; i++) {
    const name = [pick(r, FIRST), pick(r, SECOND), pick(r, SUFFIX)].filter((w) => w !== '').join(' ');
    companies.push({ digits: 5000 + i, name, active: r() < 0.75, city: pick(r, ['Wien', 'Graz', 'Linz']), formerNames: r() < 0.05 ? [`Alt ${name}`] : [] });
  }
  // Names whose JSON has escapes.
  companies.push({ digits: 7500, name: 'Gasthof "Zum Hirschen" GmbH' }, { digits: 7501, name: 'Gasthof Back\\slash KG' });
  // A prefix band past the cap of 200: its total comes from the index alone.
  for (let i = 0; i < 205; i++) companies.push({ digits: 7000 + i, name: `Alpenhof ${i} GmbH`, active: i % 3 !== 0 });
  await seedCompanies(db.sql, companies);
  await rebuildReadModel(db.sql, createLogger('silent'));
  while ((await indexOnce(db.sql)) > 0);
  loaded = (await loadColumns(db.sql))!;
}, 120_000);
afterAll(async () => {
  await db.drop();
});

function termsFor(r: () => number): string[] {
  const terms = new Set<string>(['m', 'mu', 'mü', 'Bau', 'Bau H', 'bau holz', 'MUELLER', 'Müller Bau GmbH', 'Müller Bau', 'a', '1', 'Gasth', 'x', 'Alt', 'A GmbH', 'Alpenh', 'Alpenhof 1', 'alpenhof', 'Gasthof Zum', 'gasthof back', 'Bau T', 'alt m', 'Holz W', 'so', 'hne']);
  for (let i = 0; i < 120; i++) {
    const name = pick(r, companies).name;
    terms.add(name.slice(0, 1 + Math.floor(r() * name.length)));
  }
  return [...terms];
}

async function expectSameAnswers(r: () => number) {
  let compared = 0;
  for (const term of termsFor(r)) {
    for (const limit of [1, 10, 30, 200]) {
      const fromPostgres = await autocompleteNames(db.sql, term, limit);
      const withIndex = await autocompleteNames(db.sql, term, limit, memory);
      expect(withIndex, `${term} / ${limit}`).toEqual(fromPostgres);
      compared++;
    }
  }
  return compared;
}

describe('autocomplete with the name index', () => {
  it('answers the same candidates, order and totals as Postgres alone', async () => {
    memoryAnswers = 0;
    memoryCounts = 0;
    const compared = await expectSameAnswers(random(3));
    // The index answered (ASCII terms), not only the fallback: 'mü' is folded to 'mue' before it asks.
    expect(memoryAnswers).toBe(compared);
    // Totals the prefix band did not settle were counted there too (word starts, former names).
    expect(memoryCounts).toBeGreaterThan(20);
  });

  it('still does after renames, deletions and new companies reach the columns through a sync step', async () => {
    const r = random(5);
    const changed: SeedCompany[] = [];
    for (let i = 0; i < 30; i++) {
      const c = companies[Math.floor(r() * companies.length)]!;
      Object.assign(c, { name: `${pick(r, FIRST)} ${pick(r, SECOND)} Neu ${pick(r, SUFFIX)}`.replace(/ +/g, ' ').trim(), active: r() < 0.5 });
      changed.push(c);
    }
    for (let i = 0; i < 10; i++) {
      const c: SeedCompany = { digits: 6000 + i, name: `${pick(r, FIRST)} Zuwachs ${pick(r, SUFFIX)}`.trim() };
      companies.push(c);
      changed.push(c);
    }
    await seedCompanies(db.sql, changed);
    while ((await indexOnce(db.sql)) > 0);
    while ((await syncColumns(db.sql, loaded)) !== 0);
    memoryAnswers = 0;
    memoryCounts = 0;
    const compared = await expectSameAnswers(r);
    expect(memoryAnswers).toBe(compared);
    expect(memoryCounts).toBeGreaterThan(20);
    const renamed = changed[0]!;
    const [hit] = (await autocompleteNames(db.sql, renamed.name, 1, memory)).hits;
    expect(normaliseForSearch(hit!.name)).toBe(normaliseForSearch(renamed.name));
  });

  it('computes pg_trgm similarity', async () => {
    const r = random(9);
    const pairs = Array.from({ length: 300 }, () => [normaliseForSearch(pick(r, companies).name), normaliseForSearch(pick(r, companies).name.slice(0, 1 + Math.floor(r() * 12)))] as const);
    const rows = await db.sql<{ s: number }[]>`
      SELECT similarity(a, b)::float8 AS s FROM unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) WITH ORDINALITY AS t(a, b, i) ORDER BY i`;
    expect(rows.map((row) => row.s)).toEqual(pairs.map(([a, b]) => trigramSimilarity(a, b)));
  });
});
