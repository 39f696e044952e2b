// Trade keys the bundled mapping (pipeline/catalogues/data/trade_key_oenace.csv, keyed by the fixture
// catalogue) does not know map through the catalogue's wording (audit of issue 20): a real GISA
// catalogue with other keys for the same trades still gives industry codes, with the held key as evidence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLicenceLookup } from '../../pipeline/gisa/licenceStore.js';
import { derivedRows, oenaceClassifier } from '../../pipeline/oenace/derive.js';
import { loadTradeKeyMap, mappingByWording, resolveTradeKeys } from '../../pipeline/oenace/tradeKeys.js';
import type { TradeLicence } from '../../schemas/tradeRecords.js';
import { GISA_RECORDS } from '../helpers/gisaFixtures.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const map = loadTradeKeyMap();
const byWording = mappingByWording(map);

describe('resolveTradeKeys', () => {
  it('maps a key the mapping lacks by its wording (case, umlauts and spacing aside), and names the held key', () => {
    expect(map.has('301000')).toBe(false);
    const resolved = resolveTradeKeys(['301000', '599999', '777777'], { '301000': 'BÄCKER  (Handwerk)', 777777: 'Drachenzähmer' }, map, byWording);
    expect(resolved.keys).toEqual(['30100', '599999', '777777']);
    expect([...resolved.heldAs]).toEqual([['30100', '301000']]);
  });

  it('the derived rows: the mapped class, the held key as evidence; nothing for a wording no row has', () => {
    const state = { tradeKeys: ['301000'], tradeWordings: { '301000': 'Bäcker (Handwerk)' }, stored: [], given: [] };
    expect(derivedRows(oenaceClassifier(), null, state)).toEqual([
      { code: map.get('30100')!.code, isPrimary: true, confidence: expect.any(Number), evidence: { words: [], tradeKeys: ['301000'] } },
    ]);
    expect(derivedRows(oenaceClassifier(), null, { ...state, tradeWordings: { '301000': 'Bäckerei-Zubehör' } })).toEqual([]);
  });
});

describe('through the GISA store, with the catalogue of a real GISA', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await seedCompanies(db.sql, [{ digits: 6001, name: 'Strom GmbH', city: 'Graz' }]);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('a licence under a key the mapping lacks gets the class of the row with the catalogue\'s wording', async () => {
    // The real catalogue's key for Elektrotechnik (the mapping knows it as 300200).
    await db.sql`INSERT INTO trade (trade_key, name, kind) VALUES ('300201', 'Elektrotechnik', 'reglementiert')`;
    const base = GISA_RECORDS[0]!;
    const licence: TradeLicence = { ...base, gisaZahl: '900000047', tradeKey: '300201', wording: 'Elektrotechnik, eingeschränkt auf Alarmanlagen', endedOn: null, holder: { ...base.holder, fnr: seedFnr(6001), name: 'Strom GmbH' } };
    await storeLicenceLookup(db.sql, { licences: [licence], gone: [] });
    const rows = await db.sql<{ code: string; evidence: { tradeKeys: string[] } }[]>`
      SELECT code, evidence FROM company_oenace WHERE fnr = ${seedFnr(6001)} AND source = 'derived'`;
    expect(rows).toEqual([{ code: map.get('300200')!.code, evidence: { words: [], tradeKeys: ['300201'] } }]);
  });
});
