// Name autocomplete, batch resolution and similar companies over the read model.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureReadModel, indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { autocompleteNames, coreName, countNameCandidates, findNames, misspeltSuffixCores, resolveBand, resolveNames } from '../../indexer/search/nameSearch.js';
import { normaliseForSearch } from '../../indexer/search/postgresScreenerQuery.js';
import { findSimilar } from '../../indexer/search/similarCompanies.js';
import { createLogger } from '../../runtime/logger.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedCompanies(db.sql, [
    { digits: 3001, name: 'Müller Bau GmbH', city: 'Wien', oenace: ['F 41.20-1'], figures: { umsatzerloese: '5000000', bilanzSumme: '2000000', employees: '40' } },
    { digits: 3002, name: 'Müller Bau Holding GmbH', city: 'Wien', oenace: ['F 41.20-1'], figures: { umsatzerloese: '4500000', bilanzSumme: '1800000', employees: '35' } },
    { digits: 3003, name: 'Bäckerei Müller KG', legalForm: 'KG', city: 'Linz', oenace: ['C 10.71-1'] },
    { digits: 3004, name: 'Müller Bau GmbH', active: false, city: 'Graz', oenace: ['F 41.20-2'] },
    { digits: 3005, name: 'Neue Firma OG', legalForm: 'OG', formerNames: ['Müllerei Alt OG'], oenace: ['F 43.21-0'], figures: { umsatzerloese: '300000' } },
    { digits: 3006, name: 'Holzbau Maier Gesellschaft m.b.H.', city: 'Innsbruck', oenace: ['F 43.32-1'] },
    // Name-resolution cases (no ÖNACE code: they stay out of the similar-companies answers below).
    { digits: 3007, name: 'Kogler Vermögensverwaltung GmbH' },
    { digits: 3008, name: 'Brandstätter Alpen Tiefbau Ges.m.b.H.' },
    { digits: 3009, name: 'Tirol Elektrotechnik GmbH & Co KG', legalForm: 'KG' },
    { digits: 3010, name: 'Alter Name Handels GmbH' },
    { digits: 3011, name: 'Zauner Zimmerei GmbH', active: false },
    { digits: 3012, name: 'Zauner Zimmerei GmbH' },
    { digits: 3013, name: 'Zauner Zimmerei Holding GmbH' },
    { digits: 3014, name: 'Grubers Zauner Zimmerei OG', legalForm: 'OG' },
  ]);
  await rebuildReadModel(db.sql, createLogger('silent'));
  while ((await indexOnce(db.sql)) > 0);
});
afterAll(async () => {
  await db.drop();
});

describe('coreName', () => {
  it('strips legal-form suffixes in their usual spellings', () => {
    expect(coreName('mueller bau gmbh')).toBe('mueller bau');
    expect(coreName('holzbau maier gesellschaft m b h')).toBe('holzbau maier');
    expect(coreName('alpen handel ag')).toBe('alpen handel');
    expect(coreName('mueller bau')).toBe('mueller bau');
  });
});

describe('search_core()', () => {
  // Suffix spellings as customers and the register write them, and a few that must stay as they are.
  const bases = ['Müller Bau', 'Alpen Handel 12', 'Holding', 'E.U. Bau', 'AG'];
  const suffixes = [
    '', 'GmbH', 'Ges.m.b.H.', 'GesmbH', 'Ges.mbH', 'G.m.b.H.', 'Gesellschaft m.b.H.', 'Gesellschaft mbH',
    'Gesellschaft mit beschränkter Haftung', 'GmbH & Co KG', 'GmbH & Co. KG', 'GmbH & Co', 'AG', 'Aktiengesellschaft', 'KG',
    'Kommanditgesellschaft', 'OG', 'OEG', 'KEG', 'OHG', 'Offene Gesellschaft', 'e.U.', 'eU', 'eGen', 'reg.Gen.m.b.H.',
    'Privatstiftung', 'SE', 'VVaG', 'GmbH GmbH', 'AG & Co KG', 'KG OG', 'GmbHx', 'Gesellschaft', 'Co', 'mbH', 'B.H.',
  ];
  const spellings = [...bases.flatMap((b) => suffixes.map((s) => `${b} ${s}`.trim())), 'GmbH', 'AG KG', 'Kag', 'e.U.', ''];

  it('equals coreName() on every spelling', async () => {
    const norms = spellings.map(normaliseForSearch);
    const rows = await db.sql<{ core: string }[]>`
      SELECT search_core(n) AS core FROM unnest(${norms}::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i`;
    expect(rows.map((r) => r.core)).toEqual(norms.map(coreName));
    // and the spellings really differ in their cores, so the comparison means something
    expect(new Set(rows.map((r) => r.core)).size).toBeGreaterThan(bases.length * 4);
  });

  it('is what the read model stores as core_norm', async () => {
    const rows = await db.sql<{ name: string; coreNorm: string }[]>`SELECT name, core_norm FROM company_search`;
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) expect(r.coreNorm).toBe(coreName(normaliseForSearch(r.name)));
  });
});

describe('autocomplete', () => {
  it('ranks exact before prefix before word prefix, active before deleted', async () => {
    const hits = await findNames(db.sql, 'Müller Bau', 10);
    expect(hits.map((h) => [h.fnr, h.band])).toEqual([
      [seedFnr(3001), 'exact'], [seedFnr(3004), 'exact'], [seedFnr(3002), 'prefix'],
    ]);
  });

  it('tolerates umlaut spellings and legal-form suffixes', async () => {
    expect((await findNames(db.sql, 'mueller bau ges.m.b.h.', 5))[0]?.fnr).toBe(seedFnr(3001));
    expect((await findNames(db.sql, 'Holzbau Maier GmbH', 5))[0]).toMatchObject({ fnr: seedFnr(3006), band: 'exact' });
  });

  it('finds word prefixes and former names', async () => {
    const word = await findNames(db.sql, 'muell', 10);
    expect(word.map((h) => h.fnr)).toEqual(expect.arrayContaining([seedFnr(3001), seedFnr(3002), seedFnr(3003)]));
    const band = Object.fromEntries(word.map((h) => [h.fnr, h.band]));
    expect(band[seedFnr(3003)]).toBe('word');
    const former = await findNames(db.sql, 'Müllerei Alt', 5);
    expect(former[0]).toMatchObject({ fnr: seedFnr(3005), band: 'former' });
  });

  it('counts every candidate, not only those ranked for the page: exact, prefix, word and former-name bands, up to the cap', async () => {
    // 'muell' has 5 candidates: 3001-3004 by name, 3005 by its former name. Asking for 2 ranks 2.
    const all = await findNames(db.sql, 'muell', 200);
    expect(all).toHaveLength(5);
    const two = await findNames(db.sql, 'muell', 2);
    expect(await countNameCandidates(db.sql, 'muell', two, 2, 200)).toBe(5);
    expect(await countNameCandidates(db.sql, 'muell', two, 2, 4)).toBe(4);
    // Fewer hits than asked for are all there are, with no query.
    expect(await countNameCandidates(db.sql, 'muell', all, 200, 200)).toBe(5);
    // Only fuzzy candidates: counted by ranking them.
    const fuzzy = await findNames(db.sql, 'Holzbau Meier', 1);
    expect(fuzzy[0]!.band).toBe('fuzzy');
    expect(await countNameCandidates(db.sql, 'Holzbau Meier', fuzzy, 1, 200)).toBe((await findNames(db.sql, 'Holzbau Meier', 200)).length);
  });

  it('falls back to fuzzy matches for misspellings', async () => {
    const hits = await findNames(db.sql, 'Holzbau Meier', 5);
    expect(hits[0]).toMatchObject({ fnr: seedFnr(3006), band: 'fuzzy' });
    expect(resolveBand(hits[0])).not.toBe('exact');
  });

  it('answers exact matches first (active before deleted), then prefixes, also while the suffix is typed', async () => {
    const hits = await findNames(db.sql, 'zauner zimmerei', 10);
    expect(hits.map((h) => [h.fnr, h.band])).toEqual([
      [seedFnr(3012), 'exact'], [seedFnr(3011), 'exact'], [seedFnr(3013), 'prefix'], [seedFnr(3014), 'word'],
    ]);
    const typing = await findNames(db.sql, 'Zauner Zimmerei Gm', 10);
    expect(typing.map((h) => [h.fnr, h.band])).toEqual([[seedFnr(3012), 'prefix'], [seedFnr(3011), 'prefix']]);
    expect((await findNames(db.sql, 'Z', 2)).map((h) => h.fnr)).toHaveLength(2);
  });

  it('finds a one-letter typo, a dropped umlaut, a missing space and a misspelt legal form', async () => {
    for (const [query, fnr] of [
      ['Kogle Vermögensverwaltung GmbH', seedFnr(3007)],
      ['Brandsttter Alpen Tiefbau', seedFnr(3008)],
      ['Tirol ElektrotechnikGmbH & Co KG', seedFnr(3009)],
      ['Tirol Elektrotechnik GmH & Co KG', seedFnr(3009)],
      ['Brandstätter AlpenTiefbau GmbH', seedFnr(3008)],
    ] as const) {
      const hits = await findNames(db.sql, query, 5);
      expect(hits[0], query).toMatchObject({ fnr, band: 'fuzzy' });
      expect(hits[0]!.score, query).toBeGreaterThanOrEqual(0.5);
    }
    expect(await findNames(db.sql, 'Völlig Unbekannte Handels GmbH', 5)).toEqual([]);
  });

  it('resolves match bands from the best candidate', () => {
    expect(resolveBand(undefined)).toBe('none');
    expect(resolveBand({ fnr: '1a', name: 'x', city: null, isActive: true, band: 'exact', score: 1 })).toBe('exact');
    expect(resolveBand({ fnr: '1a', name: 'x', city: null, isActive: true, band: 'fuzzy', score: 0.85 })).toBe('probable');
    expect(resolveBand({ fnr: '1a', name: 'x', city: null, isActive: true, band: 'fuzzy', score: 0.6 })).toBe('review');
    expect(resolveBand({ fnr: '1a', name: 'x', city: null, isActive: true, band: 'fuzzy', score: 0.3 })).toBe('none');
  });
});

describe('misspeltSuffixCores', () => {
  it('reads a misspelt or glued legal form as a suffix', () => {
    expect(misspeltSuffixCores('mueller bau gmh', 'mueller bau gmh')).toEqual(['mueller bau']);
    expect(misspeltSuffixCores('mueller baugmbh', 'mueller baugmbh')).toEqual(['mueller bau']);
    expect(misspeltSuffixCores('mueller bau gesellschaft mb h', 'mueller bau gesellschaft mb h')).toContain('mueller bau');
    expect(misspeltSuffixCores('mueller bau', 'mueller bau')).toEqual([]);
    expect(misspeltSuffixCores('wiener fleischereiag', 'wiener fleischereiag')).toEqual([]);
  });
});

describe('resolveNames', () => {
  it('answers every name in input order, resolving spellings, umlauts, suffix variants and typos', async () => {
    const names = [
      'Holzbau Maier GmbH', 'mueller bau gesellschaft mit beschränkter haftung', '', 'Unbekannte Holding 4711 GmbH',
      'Kogler Vermögensverwaltung', 'Kogle Vermögensverwaltung GmbH', 'Holzbau Maier GmbH', 'Müllerei Alt', '  --  ',
    ];
    const answers = await resolveNames(db.sql, names, 5);
    expect(answers).toHaveLength(names.length);
    expect(answers.map((hits) => (hits[0] ? [hits[0].fnr, hits[0].band] : null))).toEqual([
      [seedFnr(3006), 'exact'], [seedFnr(3001), 'exact'], null, null,
      [seedFnr(3007), 'exact'], [seedFnr(3007), 'fuzzy'], [seedFnr(3006), 'exact'], [seedFnr(3005), 'formerExact'], null,
    ]);
    // the same name twice gets the same answer; exact matches keep their prefix candidates
    expect(answers[6]).toEqual(answers[0]);
    expect(answers[1]!.map((h) => h.fnr)).toEqual([seedFnr(3001), seedFnr(3004), seedFnr(3002)]);
  });

  it('keeps core_norm right when the indexer applies a rename', async () => {
    await seedCompanies(db.sql, [{ digits: 3010, name: 'Neuer Name Bau GesmbH' }]);
    while ((await indexOnce(db.sql)) > 0);
    const [renamed] = await resolveNames(db.sql, ['Neuer Name Bau GmbH'], 5);
    expect(renamed![0]).toMatchObject({ fnr: seedFnr(3010), band: 'exact' });
    const [old] = await resolveNames(db.sql, ['Alter Name Handels GmbH'], 5);
    expect(old!.map((h) => h.fnr)).not.toContain(seedFnr(3010));
  });
});

describe('names of punctuation only', () => {
  it('index and rebuild with a current or former name that normalises to nothing', async () => {
    await seedCompanies(db.sql, [
      { digits: 3020, name: '---', formerNames: ['Punktum Handels GmbH'] },
      { digits: 3021, name: 'Strichpunkt Werkstatt GmbH', formerNames: ['***', '– –'] },
    ]);
    while ((await indexOnce(db.sql)) > 0);
    const check = async () => {
      const [former] = await resolveNames(db.sql, ['Punktum Handels GmbH'], 5);
      expect(former!.map((h) => h.fnr)).toContain(seedFnr(3020));
      expect((await autocompleteNames(db.sql, 'Strichpunkt', 10)).hits.map((h) => h.fnr)).toEqual([seedFnr(3021)]);
      const [row] = await db.sql<{ formerNamesNorm: string[]; allNamesNorm: string }[]>`
        SELECT former_names_norm, all_names_norm FROM company_search WHERE fnr = ${seedFnr(3021)}`;
      expect(row).toEqual({ formerNamesNorm: [], allNamesNorm: 'strichpunkt werkstatt gmbh' });
    };
    await check();
    // The whole read model rebuilt: before, one such name failed the build ("lexeme array may not contain empty strings").
    await rebuildReadModel(db.sql, createLogger('silent'));
    await check();
  });
});

describe('similar companies', () => {
  it('ranks the same subclass, size and region first and never returns the company itself', async () => {
    const result = await findSimilar(db.sql, seedFnr(3001), { page: 1, pageSize: 10 });
    expect(result!.rows.map((r) => r.row.fnr)).not.toContain(seedFnr(3001));
    expect(result!.rows[0]!.row.fnr).toBe(seedFnr(3002));
    expect(result!.rows.map((r) => r.row.fnr)).toEqual([seedFnr(3002), seedFnr(3004), seedFnr(3005), seedFnr(3006)]);
    const [first, second] = result!.rows;
    expect(first!.similarity).toBeGreaterThan(second!.similarity);
    expect(result!.total).toBe(4);
  });

  it('counts every similar company on a page past the last one', async () => {
    expect(await findSimilar(db.sql, seedFnr(3001), { page: 3, pageSize: 2 })).toEqual({ rows: [], total: 4 });
  });

  it('answers null for an unknown company', async () => {
    expect(await findSimilar(db.sql, '999999z', { page: 1, pageSize: 10 })).toBeNull();
  });
});

describe('autocomplete totals', () => {
  it('counts all candidates up to the cap of 200, whichever way it gets there', async () => {
    const many = await createTestDatabase();
    try {
      // 205 names share a prefix (the prefix band alone reaches the cap); 'handel' is a word inside all of them.
      await seedCompanies(many.sql, Array.from({ length: 205 }, (_, i) => ({ digits: 5000 + i, name: `Zebra Handel ${String(i).padStart(3, '0')} GmbH` })));
      await seedCompanies(many.sql, [
        { digits: 6001, name: 'Quagga Zebra Handel OG', legalForm: 'OG' },
        // A two-letter term: its former-name candidates count too.
        { digits: 6002, name: 'Qx Eins GmbH' },
        { digits: 6003, name: 'Neu Zwei GmbH', formerNames: ['Qx Zwei GmbH'] },
        { digits: 6004, name: 'Neu Drei GmbH', formerNames: ['Qx Drei GmbH'] },
      ]);
      await rebuildReadModel(many.sql, createLogger('silent'));
      for (const [term, expected, limit] of [['zeb', 200, 10], ['Zebra Handel 00', 10, 10], ['Zebra Handel 0', 100, 10], ['quagga', 1, 10], ['zebra handel 204', 1, 10], ['qx', 3, 1]] as const) {
        const page = await autocompleteNames(many.sql, term, limit);
        expect(page.total, term).toBe(expected);
        expect(page.total, term).toBe(Math.min(200, (await findNames(many.sql, term, 200)).length));
        expect(page.hits.length, term).toBe(Math.min(limit, expected));
      }
      // Past the cap a page is empty, and the total stays the cap.
      expect(await autocompleteNames(many.sql, 'zeb', 400)).toMatchObject({ total: 200 });
    } finally {
      await many.drop();
    }
  });
});

describe('ensureReadModel at start', () => {
  it('builds one read model when the API and the indexer start together on a new database', async () => {
    const fresh = await createTestDatabase();
    try {
      const lines: string[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      await Promise.all([ensureReadModel(fresh.sql, log), ensureReadModel(fresh.sql, log)]);
      // One build: the second caller waited for the first and found the read model in place.
      expect(lines.filter((l) => l.includes('read model rebuilt'))).toHaveLength(1);
      const tables = await fresh.sql<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'company_search_v%'`;
      expect(tables).toHaveLength(1);
      expect(await fresh.sql`SELECT live_table FROM read_model_version`).toEqual([{ liveTable: tables[0]!.name }]);
    } finally {
      await fresh.drop();
    }
  });
});

// Last: replaces the read-model table.
describe('read model layout', () => {
  const live = async () => (await db.sql<{ liveTable: string }[]>`SELECT live_table FROM read_model_version`)[0]!.liveTable;

  it('is rebuilt on start when the live table lacks an index or column of this release', async () => {
    const before = await live();
    await ensureReadModel(db.sql, createLogger('silent'));
    expect(await live()).toBe(before);
    await db.sql.unsafe(`DROP INDEX ${before}_core_reverse`);
    await ensureReadModel(db.sql, createLogger('silent'));
    const after = await live();
    expect(after).not.toBe(before);
    const [index] = await db.sql`SELECT 1 FROM pg_indexes WHERE indexname = ${`${after}_core_reverse`}`;
    expect(index).toBeDefined();
    expect((await findNames(db.sql, 'Kogle Vermögensverwaltung GmbH', 5))[0]?.fnr).toBe(seedFnr(3007));
  });
});
