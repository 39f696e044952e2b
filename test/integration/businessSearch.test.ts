// Name autocomplete, batch resolution and similar companies over the read model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { coreName, findNames, resolveBand } from '../../indexer/search/nameSearch.js';
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

  it('falls back to fuzzy matches for misspellings', async () => {
    const hits = await findNames(db.sql, 'Holzbau Meier', 5);
    expect(hits[0]).toMatchObject({ fnr: seedFnr(3006), band: 'fuzzy' });
    expect(resolveBand(hits[0])).not.toBe('exact');
  });

  it('resolves match bands from the best candidate', () => {
    expect(resolveBand(undefined)).toBe('none');
    expect(resolveBand({ fnr: '1a', name: 'x', city: null, isActive: true, band: 'exact', score: 1 })).toBe('exact');
    expect(resolveBand({ fnr: '1a', name: 'x', city: null, isActive: true, band: 'fuzzy', score: 0.85 })).toBe('probable');
    expect(resolveBand({ fnr: '1a', name: 'x', city: null, isActive: true, band: 'fuzzy', score: 0.6 })).toBe('review');
    expect(resolveBand({ fnr: '1a', name: 'x', city: null, isActive: true, band: 'fuzzy', score: 0.3 })).toBe('none');
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

  it('answers null for an unknown company', async () => {
    expect(await findSimilar(db.sql, '999999z', { page: 1, pageSize: 10 })).toBeNull();
  });
});
