// Derived ÖNACE codes end to end: derived when the Firmenbuch store (through seedCompanies) stores a company (once, again when
// the purpose changes) and when the GISA store changes its trade keys, always with a business change
// naming 'oenaces'; the oenaceCode filter finds them from the threshold up at every level in every
// search backend (Elasticsearch: the documents it is sent), "similar companies" ranks by them, and the
// re-derivation of `npm run reparse` restores stale rows once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { esIndexOnce } from '../../indexer/search/elasticsearch/esIndexer.js';
import { oenaceEdv, toScreenerQuery } from '../../indexer/search/screenerFilters.js';
import { findSimilar } from '../../indexer/search/similarCompanies.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import { storeLicenceLookup } from '../../pipeline/gisa/licenceStore.js';
import { rederiveAllOenaces } from '../../pipeline/oenace/rederive.js';
import { createLogger } from '../../runtime/logger.js';
import { OENACE_CONFIDENCE_THRESHOLD } from '../../schemas/oenaceAssignment.js';
import { screenerFilters } from '../../schemas/screenerParameters.js';
import type { TradeLicence } from '../../schemas/tradeRecords.js';
import { bulkAnswer, fakeEsClient, type RecordedRequest } from '../helpers/fakeEsConnection.js';
import { GISA_RECORDS } from '../helpers/gisaFixtures.js';
import { searchBackends } from '../helpers/searchBackends.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const log = createLogger('silent');
let db: TestDatabase;

const BAU = 5001;
const BAU_TOO = 5002;
const SOFTWARE = 5003;
const VAGUE = 5004;
const LICENSED = 5005;
const ELEKTRO = 5006;

interface Row { code: string; isPrimary: boolean; source: string; confidence: string; evidence: { words: string[]; tradeKeys: string[] } }
const derivedRows = (digits: number) => db.sql<Row[]>`
  SELECT code, is_primary, source, confidence, evidence FROM company_oenace WHERE fnr = ${seedFnr(digits)} ORDER BY code`;
const lastChange = async (digits: number) =>
  (await db.sql<{ changedFields: string[] }[]>`SELECT changed_fields FROM change_log WHERE fnr = ${seedFnr(digits)} ORDER BY id DESC LIMIT 1`)[0]!;

/** A licence as the GISA parser returns it, held by a seeded company. */
function licence(gisaZahl: string, digits: number, tradeKey: string, endedOn: string | null = null): TradeLicence {
  const base = GISA_RECORDS[0]!;
  return { ...base, gisaZahl, tradeKey, endedOn, holder: { ...base.holder, fnr: seedFnr(digits), name: `Firma ${digits}` } };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedCompanies(db.sql, [
    { digits: BAU, name: 'Alpenbau GmbH', city: 'Innsbruck', zipCode: '6020', businessPurpose: 'Baumeistergewerbe', figures: { umsatzerloese: '4000000' } },
    { digits: BAU_TOO, name: 'Tiroler Baufirma GmbH', city: 'Innsbruck', zipCode: '6020', businessPurpose: 'Bauunternehmen', figures: { umsatzerloese: '3500000' } },
    { digits: SOFTWARE, name: 'Code & Co GmbH', city: 'Innsbruck', zipCode: '6020', businessPurpose: 'Softwareentwicklung', figures: { umsatzerloese: '3800000' } },
    { digits: VAGUE, name: 'Rat & Tat GmbH', city: 'Wien', businessPurpose: 'Beratung' },
    { digits: LICENSED, name: 'Strom & Licht GmbH', city: 'Graz' },
    { digits: ELEKTRO, name: 'Blitz Elektro GmbH', city: 'Graz', businessPurpose: 'Elektroinstallationen' },
  ]);
});
afterAll(async () => {
  await db.drop();
});

describe('deriving ÖNACE codes in the pipeline', () => {
  it('derives them when a company is stored: source, confidence, evidence, and oenaces in its change', async () => {
    expect(await derivedRows(BAU)).toEqual([
      { code: 'F 41.20-1', isPrimary: true, source: 'derived', confidence: '0.99', evidence: { words: ['Baumeistergewerbe'], tradeKeys: [] } },
    ]);
    const [named] = await db.sql<{ named: boolean }[]>`
      SELECT bool_or('oenaces' = ANY(changed_fields)) AS named FROM change_log WHERE fnr = ${seedFnr(BAU)} AND type = 'business'`;
    expect(named!.named).toBe(true);
    const vague = await derivedRows(VAGUE);
    expect(vague.map((r) => r.code)).toEqual(['M 70.22-0']);
    expect(Number(vague[0]!.confidence)).toBeLessThan(OENACE_CONFIDENCE_THRESHOLD);
    expect(await derivedRows(LICENSED)).toEqual([]);
  });

  it('writes nothing when the same extract comes again, and replaces the codes when the purpose changes', async () => {
    const changeCount = async () => (await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log`)[0]!.n;
    const before = await changeCount();
    await seedCompanies(db.sql, [{ digits: VAGUE, name: 'Rat & Tat GmbH', city: 'Wien', businessPurpose: 'Beratung' }]);
    expect(await changeCount()).toBe(before);

    await seedCompanies(db.sql, [{ digits: VAGUE, name: 'Rat & Tat GmbH', city: 'Wien', businessPurpose: 'Unternehmensberatung' }]);
    expect((await derivedRows(VAGUE)).map((r) => [r.code, Number(r.confidence) >= OENACE_CONFIDENCE_THRESHOLD])).toEqual([['M 70.22-0', true]]);
    expect(await lastChange(VAGUE)).toEqual({ changedFields: ['businessPurpose', 'oenaces'] });
    await seedCompanies(db.sql, [{ digits: VAGUE, name: 'Rat & Tat GmbH', city: 'Wien', businessPurpose: 'Beratung' }]);
  });

  it('derives them again when the GISA store changes the trade keys, and when the licence ends', async () => {
    await storeLicenceLookup(db.sql, { licences: [licence('900000016', LICENSED, '300200')], gone: [] });
    expect(await derivedRows(LICENSED)).toEqual([
      { code: 'F 43.21-0', isPrimary: true, source: 'derived', confidence: '0.80', evidence: { words: [], tradeKeys: ['300200'] } },
    ]);
    expect(await lastChange(LICENSED)).toEqual({ changedFields: ['tradeLicenses', 'oenaces'] });

    // A licence confirming the text joins the evidence of the text's code (already at the 0.99 cap).
    await storeLicenceLookup(db.sql, { licences: [licence('900000023', BAU, '290500')], gone: [] });
    const [bau] = await derivedRows(BAU);
    expect(bau!.evidence).toEqual({ words: ['Baumeistergewerbe'], tradeKeys: ['290500'] });
    expect(bau!.confidence).toBe('0.99');

    await storeLicenceLookup(db.sql, { licences: [licence('900000016', LICENSED, '300200', '2026-01-31')], gone: [] });
    expect(await derivedRows(LICENSED)).toEqual([]);
    expect(await lastChange(LICENSED)).toEqual({ changedFields: ['tradeLicenses', 'oenaces'] });
    await storeLicenceLookup(db.sql, { licences: [licence('900000016', LICENSED, '300200')], gone: [] });
  });
});

describe('searching by derived ÖNACE codes', () => {
  beforeAll(async () => {
    await rebuildReadModel(db.sql, log);
    while ((await indexOnce(db.sql)) > 0);
  });

  const matching = async (search: SearchBackend, oenaceCode: string) => {
    const input = screenerFilters.strict().parse({ oenaceCode });
    const result = await search.screener(toScreenerQuery(input, { page: 1, pageSize: 100 }, oenaceEdv(oenaceCode)));
    return [...result.fnrs].sort();
  };

  for (const backend of searchBackends()) {
    it(`${backend.name}: oenaceCode finds derived codes at every level, only from the threshold up`, async () => {
      const search = await backend.make(db.sql);
      try {
        expect(await matching(search, 'F')).toEqual([seedFnr(BAU), seedFnr(BAU_TOO), seedFnr(ELEKTRO)].sort());
        for (const code of ['F 41', 'F 41.2', 'F 41.20', 'F 41.20-1']) {
          expect(await matching(search, code), code).toEqual([seedFnr(BAU), seedFnr(BAU_TOO)].sort());
        }
        // Not the company holding only the licence: its code keeps the mapping's 0.80, no labelled text calibrates it.
        expect(await matching(search, 'F 43.21')).toEqual([seedFnr(ELEKTRO)]);
        expect(await matching(search, 'J 62.01')).toEqual([seedFnr(SOFTWARE)]);
        // "Beratung" alone gives M 70.22 below the threshold: shown on the profile, never matched.
        expect(await matching(search, 'M')).toEqual([]);
      } finally {
        await search.close?.();
      }
    });
  }

  it('elasticsearch: the documents carry the paths of the codes from the threshold up', async () => {
    const { client, requests } = fakeEsClient((req) => ({ body: req.path.endsWith('/_bulk') ? bulkAnswer(req.body) : {} }));
    while ((await esIndexOnce(db.sql, client)) > 0);
    const docs = (requests as RecordedRequest[]).filter((r) => r.path.endsWith('/_bulk'))
      .flatMap((r) => r.body.trim().split('\n').filter((_l, i) => i % 2 === 1).map((l) => JSON.parse(l) as { fnr: string; oenace_paths: string[] }));
    const paths = (digits: number) => [...docs.filter((d) => d.fnr === seedFnr(digits)).at(-1)!.oenace_paths].sort();
    expect(paths(BAU)).toEqual(['F', 'F41', 'F412', 'F4120', 'F41201']);
    expect(paths(BAU_TOO)).toEqual(['F', 'F41', 'F412', 'F4120', 'F41201']);
    expect(paths(LICENSED)).toEqual([]);
    expect(paths(VAGUE)).toEqual([]);
  });

  it('similar companies: the one sharing the derived subclass first, then the same region', async () => {
    const similar = await findSimilar(db.sql, seedFnr(BAU), { page: 1, pageSize: 10 });
    expect(similar!.rows.map((r) => r.row.fnr)).toEqual([seedFnr(BAU_TOO), seedFnr(ELEKTRO)]);
    expect(similar!.rows[0]!.similarity).toBeGreaterThan(similar!.rows[1]!.similarity);
    // Candidates share at least the section: no other company works in J.
    const software = await findSimilar(db.sql, seedFnr(SOFTWARE), { page: 1, pageSize: 10 });
    expect(software!.rows.map((r) => r.row.fnr)).toEqual([]);
  });
});

describe('re-deriving every company (npm run reparse)', () => {
  it('restores stale rows with a change each, and changes nothing the second time', async () => {
    await db.sql`UPDATE company_oenace SET confidence = 0.10 WHERE fnr = ${seedFnr(SOFTWARE)}`;
    await db.sql`DELETE FROM company_oenace WHERE fnr = ${seedFnr(BAU_TOO)} AND code = 'F 41.20-1'`;
    const first = await rederiveAllOenaces(db.sql, log, { batchSize: 2 });
    expect(first).toMatchObject({ companies: 6, changed: 2 });
    expect((await derivedRows(SOFTWARE)).map((r) => [r.code, r.confidence])).toEqual([['J 62.01-0', '0.99']]);
    expect((await derivedRows(BAU_TOO)).map((r) => r.code)).toEqual(['F 41.20-1']);
    expect(await lastChange(SOFTWARE)).toEqual({ changedFields: ['oenaces'] });
    expect(await rederiveAllOenaces(db.sql, log)).toMatchObject({ companies: 6, changed: 0 });
  });
});
