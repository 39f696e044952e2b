// Applying BMF list versions (pipeline/bmf/listingStore.ts) against companies of the register: links
// by FN and by name + address with their evidence (namesakes, a deleted company and another legal form
// stay candidates), a second list version that adds and removes exactly its rows, a row that comes
// back, the unchanged version that writes nothing, and the safety valve that applies nothing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyListVersion, readListState, relinkListings } from '../../pipeline/bmf/listingStore.js';
import { listingsOf, parseLsuList } from '../../pipeline/bmf/lsuParser.js';
import type { LsuList } from '../../schemas/bmfRecords.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const LISTS = new URL('../../fixtures/corpus/bmf/lists/', import.meta.url).pathname;
const readList = (file: string): LsuList => parseLsuList(new TextDecoder('windows-1252').decode(readFileSync(LISTS + file)));
const V1 = readList('01-stand-2026-10-01.csv');
const V2 = readList('02-stand-2026-10-15.csv');
const keys = (list: LsuList) => new Set(listingsOf(list).map((l) => l.listingKey));

let db: TestDatabase;

/** The companies of the corpus the lists name, as the register holds them (addresses included). */
const COMPANIES = [
  { digits: 73210, name: 'Pannonia Elektrotechnik GmbH', zipCode: '7000', street: ['Ruster Straße', '70'] },
  { digits: 156207, name: 'Tauernkraft Energiehandel GmbH', zipCode: '5020', street: ['Sterneckstraße', '55'] },
  { digits: 124530, name: 'Wörthersee Schifffahrt GmbH', zipCode: '9020', street: ['Friedelstrand', '3'] },
  { digits: 455190, name: 'Mühlviertler Holzhandel GmbH', zipCode: '4240', street: ['Linzer Straße', '31'] },
  { digits: 584120, name: 'Kaiserblick Café-Konditorei GmbH', zipCode: '1050', street: ['Schönbrunner Straße', '118'] },
  { digits: 412785, name: 'Bergblick Tischlerei GmbH', zipCode: '6130', street: ['Innsbrucker Straße', '44'] },
  { digits: 187233, name: 'Donauufer Transporte GmbH', zipCode: '2700', street: ['Neunkirchner Straße', '88'], active: false },
  { digits: 600003, name: 'Tauern Getränkehandel GmbH', zipCode: '4600', street: ['Hauptplatz', '93'] },
  { digits: 667215, name: 'Steyrtal Lastenrad GmbH', zipCode: '4400', street: ['Stadtplatz', '17'] },
  { digits: 640215, name: 'Innviertler Solartechnik GmbH', zipCode: '4910', street: ['Eberschwanger Straße', '3'] },
  { digits: 421877, name: 'Salzach Medizintechnik AG', legalForm: 'AG', zipCode: '5400', street: ['Salzachtalstraße', '9'] },
  { digits: 512309, name: 'Hallstätter Seehotel Verwaltungs GmbH', zipCode: '4830', street: ['Seestraße', '104'] },
  { digits: 512308, name: 'Hallstätter Seehotel GmbH & Co KG', legalForm: 'KG', zipCode: '4830', street: ['Seestraße', '104'] },
] as const;

async function listing(key: string) {
  const [row] = await db.sql<{ fnr: string | null; linkEvidence: string | null; linkConfidence: string | null; linkCandidates: unknown[]; removedAt: Date | null; kind: string }[]>`
    SELECT fnr, link_evidence, link_confidence::text, link_candidates, removed_at, kind FROM bogus_company_listing WHERE listing_key = ${key}`;
  return row;
}

async function changesAfter(id: number) {
  return db.sql<{ fnr: string; changedFields: string[] }[]>`
    SELECT fnr, changed_fields FROM change_log WHERE id > ${id} AND type = 'business' ORDER BY fnr`;
}

const lastChange = async () => (await db.sql<{ id: number }[]>`SELECT coalesce(max(id), 0)::int AS id FROM change_log`)[0]!.id;

/** Everything the store writes, to show that a refused or unchanged version wrote nothing. */
async function tables() {
  return {
    listings: await db.sql`SELECT * FROM bogus_company_listing ORDER BY listing_key`,
    publications: await db.sql`SELECT * FROM bogus_company_publication ORDER BY listing_key, published_on`,
    changes: await lastChange(),
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedCompanies(db.sql, COMPANIES.map((c) => ({ ...c, street: [...c.street] as [string, string] })));
});
afterAll(() => db.drop());

describe('BMF list versions', () => {
  it('applies version 1 and links listings by FN and by name + address, never a trap', async () => {
    const before = await lastChange();
    const result = await applyListVersion(db.sql, V1, { etag: '"v1"' });
    expect(result).toMatchObject({ status: 'applied', version: '2026-10-01T06:00:01', listings: 28, added: 28, removed: 0 });
    const [active] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM bogus_company_listing WHERE removed_at IS NULL`;
    expect(active!.n).toBe(28);

    // The list's own FN, in each of its spellings: register-fn, 1.0.
    for (const digits of [73210, 156207, 124530, 667215, 640215]) {
      expect(await listing(`fn:${seedFnr(digits)}`), String(digits)).toMatchObject({ fnr: seedFnr(digits), linkEvidence: 'register-fn', linkConfidence: '1.00' });
    }
    // No FN: the name (spelt differently) at the same zip code and street.
    expect(await listing('uid:ATU44091273')).toMatchObject({ fnr: seedFnr(455190), linkEvidence: 'name-address', linkConfidence: '0.98' });
    expect(await listing('name:kaiserblick cafe-konditorei gesellschaft m.b.h.|1050 wien, schönbrunner str. 118/1/3|2025-06-25'))
      .toMatchObject({ fnr: seedFnr(584120), linkEvidence: 'name-address' });
    // A namesake elsewhere, a deleted company, another legal form: candidates, no link.
    const traps = {
      'name:bergblick tischlerei gmbh|1100 wien, favoritenstraße 200|2025-07-10': seedFnr(412785),
      'name:donauufer transporte gmbh|2700 wiener neustadt, neunkirchner straße 88|2025-07-30': seedFnr(187233),
      'uid:ATU33017847': seedFnr(600003),
    };
    for (const [key, fnr] of Object.entries(traps)) {
      const trap = await listing(key);
      expect(trap, key).toMatchObject({ fnr: null, linkEvidence: null, linkConfidence: null });
      expect(trap!.linkCandidates, key).toEqual([expect.objectContaining({ fnr })]);
      expect((trap!.linkCandidates[0] as { confidence: number }).confidence, key).toBeLessThan(0.9);
    }
    // A wrong check letter links nothing; a person is kept as such.
    expect(await listing('fn:123456f')).toMatchObject({ fnr: null, linkCandidates: [] });
    expect(await listing('uid:ATU12345675')).toMatchObject({ kind: 'natural', fnr: null });

    const flipped = [73210, 156207, 124530, 455190, 584120, 667215, 640215].map(seedFnr).sort();
    expect(await changesAfter(before)).toEqual(flipped.map((fnr) => ({ fnr, changedFields: ['isScheinunternehmen', 'scheinunternehmenKundmachungen'] })));
    expect(await readListState(db.sql)).toEqual({ version: '2026-10-01T06:00:01', etag: '"v1"', lastModified: null });
  });

  it('writes nothing for a version already applied or an older one', async () => {
    const before = await tables();
    expect(await applyListVersion(db.sql, V1)).toEqual({ status: 'unchanged', version: V1.version });
    expect(await applyListVersion(db.sql, { ...V1, version: '2026-09-01T06:00:00' })).toMatchObject({ status: 'stale' });
    expect(await tables()).toEqual(before);
  });

  it('links a listing to a company stored after its list version, once, when the list has not changed', async () => {
    const before = await tables();
    expect(await relinkListings(db.sql)).toBe(0);
    expect(await tables()).toEqual(before);
    const key = 'name:schwarzach montagebau gmbh|5620 schwarzach im pongau, marktplatz 2|2025-04-02';
    expect(await listing(key)).toMatchObject({ fnr: null, linkCandidates: [] });
    await seedCompanies(db.sql, [{ digits: 620011, name: 'Schwarzach Montagebau GmbH', zipCode: '5620', street: ['Marktplatz', '2'] }]);
    const seeded = await lastChange();
    expect(await relinkListings(db.sql)).toBe(1);
    expect(await listing(key)).toMatchObject({ fnr: seedFnr(620011), linkEvidence: 'name-address', linkConfidence: '0.98' });
    expect(await changesAfter(seeded)).toEqual([{ fnr: seedFnr(620011), changedFields: ['isScheinunternehmen', 'scheinunternehmenKundmachungen'] }]);
    expect(await relinkListings(db.sql)).toBe(0);
  });

  it('on an unchanged list, drops a name link to a company deleted since but keeps an FN link to one', async () => {
    const key = 'name:schwarzach montagebau gmbh|5620 schwarzach im pongau, marktplatz 2|2025-04-02';
    await seedCompanies(db.sql, [
      { digits: 620011, name: 'Schwarzach Montagebau GmbH', zipCode: '5620', street: ['Marktplatz', '2'], active: false },
      { digits: 667215, name: 'Steyrtal Lastenrad GmbH', zipCode: '4400', street: ['Stadtplatz', '17'], active: false },
    ]);
    const deleted = await lastChange();
    expect(await relinkListings(db.sql)).toBe(1);
    expect(await listing(key)).toMatchObject({ fnr: null, linkCandidates: [expect.objectContaining({ fnr: seedFnr(620011), confidence: 0.7 })] });
    expect(await listing(`fn:${seedFnr(667215)}`)).toMatchObject({ fnr: seedFnr(667215), linkEvidence: 'register-fn' });
    expect(await changesAfter(deleted)).toEqual([{ fnr: seedFnr(620011), changedFields: ['isScheinunternehmen', 'scheinunternehmenKundmachungen'] }]);
    expect(await relinkListings(db.sql)).toBe(0);
  });

  it('applies version 2: adds and removes exactly its rows, and names the changed companies', async () => {
    const before = await lastChange();
    const activeBefore = new Set((await db.sql<{ key: string }[]>`SELECT listing_key AS key FROM bogus_company_listing WHERE removed_at IS NULL`).map((r) => r.key));
    const result = await applyListVersion(db.sql, V2);
    const added = [...keys(V2)].filter((k) => !keys(V1).has(k));
    const removed = [...keys(V1)].filter((k) => !keys(V2).has(k));
    expect(added.sort()).toEqual([
      'fn:412785m', 'fn:421877h', 'name:hallstätter seehotel verwaltungs gmbh|4830 hallstatt, seestraße 104|2026-10-02',
      'name:innviertler solartechnik gmbh|4910 ried im innkreis, bahnhofstraße 2|2026-10-09', 'uid:ATU90123456',
    ]);
    expect(removed).toEqual(['fn:73210m']);
    expect(result).toMatchObject({ status: 'applied', listings: 32, added: 5, removed: 1, returned: 0 });

    const activeAfter = new Set((await db.sql<{ key: string }[]>`SELECT listing_key AS key FROM bogus_company_listing WHERE removed_at IS NULL`).map((r) => r.key));
    expect([...activeAfter].filter((k) => !activeBefore.has(k)).sort()).toEqual(added.sort());
    expect([...activeBefore].filter((k) => !activeAfter.has(k))).toEqual(removed);
    expect((await listing('fn:73210m'))!.removedAt).toBeInstanceOf(Date);
    // The removed listing keeps its publication; Wörthersee gained a second one.
    const pubs = await db.sql<{ key: string; n: number }[]>`
      SELECT listing_key AS key, count(*)::int AS n FROM bogus_company_publication WHERE listing_key IN ('fn:73210m', 'fn:124530h') GROUP BY 1 ORDER BY 1`;
    expect(pubs).toEqual([{ key: 'fn:124530h', n: 2 }, { key: 'fn:73210m', n: 1 }]);

    const flag = ['isScheinunternehmen', 'scheinunternehmenKundmachungen'];
    expect(await changesAfter(before)).toEqual([
      { fnr: seedFnr(124530), changedFields: ['scheinunternehmenKundmachungen'] },
      { fnr: seedFnr(421877), changedFields: flag },
      { fnr: seedFnr(512309), changedFields: flag },
      { fnr: seedFnr(73210), changedFields: flag },
    ].sort((a, b) => a.fnr.localeCompare(b.fnr)));
    // The Verwaltungs GmbH is linked by name and address, not its GmbH & Co KG at the same address.
    expect(await listing('name:hallstätter seehotel verwaltungs gmbh|4830 hallstatt, seestraße 104|2026-10-02')).toMatchObject({ fnr: seedFnr(512309), linkEvidence: 'name-address' });
    // Traps: a valid FN of a company of another name (kept for review, with a warning), a namesake at the same zip code and another street.
    const slip = await db.sql<{ fnr: string | null; linkCandidates: unknown[]; dataWarnings: string[] }[]>`
      SELECT fnr, link_candidates, data_warnings FROM bogus_company_listing WHERE listing_key = 'fn:412785m'`;
    expect(slip[0]).toMatchObject({ fnr: null, linkCandidates: [{ fnr: seedFnr(412785), name: 'Bergblick Tischlerei GmbH', evidence: 'register-fn', confidence: 0.5 }] });
    expect(slip[0]!.dataWarnings).toContain('fnr-name-mismatch');
    expect(await listing('name:innviertler solartechnik gmbh|4910 ried im innkreis, bahnhofstraße 2|2026-10-09'))
      .toMatchObject({ fnr: null, linkCandidates: [{ fnr: seedFnr(640215), name: 'Innviertler Solartechnik GmbH', evidence: 'name-address', confidence: 0.85 }] });
  });

  it('clears removed_at when a listing comes back', async () => {
    const result = await applyListVersion(db.sql, { ...V1, version: '2026-10-20T06:00:00' });
    expect(result).toMatchObject({ status: 'applied', added: 0, removed: 5, returned: 1 });
    expect(await listing('fn:73210m')).toMatchObject({ removedAt: null, fnr: '73210m' });
  });

  it('refuses a list 60 % shorter and an empty one, and removes nothing', async () => {
    const before = await tables();
    const shorter = { version: '2026-10-21T06:00:00', rows: V1.rows.slice(0, Math.floor(V1.rows.length * 0.4)) };
    const refused = await applyListVersion(db.sql, shorter);
    expect(refused).toMatchObject({ status: 'refused', reason: 'too-many-removals' });
    expect((refused as { message: string }).message).toMatch(/would remove 1\d of 28 current listings/);
    expect(await applyListVersion(db.sql, { version: '2026-10-22T06:00:00', rows: [] })).toMatchObject({ status: 'refused', reason: 'empty' });
    expect(await tables()).toEqual(before);
    expect((await readListState(db.sql)).version).toBe('2026-10-20T06:00:00');
  });

  it('applies the shorter list when an operator forces it', async () => {
    const shorter = { version: '2026-10-23T06:00:00', rows: V1.rows.slice(0, Math.floor(V1.rows.length * 0.4)) };
    const result = await applyListVersion(db.sql, shorter, { force: true });
    expect(result).toMatchObject({ status: 'applied', listings: listingsOf(shorter).length });
    expect((result as { removed: number }).removed).toBe(28 - listingsOf(shorter).length);
  });
});

describe('persons on the list', () => {
  it('are linked by an FN the list gives, never by name', async () => {
    const own = await createTestDatabase();
    try {
      await seedCompanies(own.sql, [
        { digits: 501112, name: 'Anna Höfer e.U.', zipCode: '3500', street: ['Obere Landstraße', '21'], legalForm: 'EU' },
        { digits: 501200, name: 'Karl Gruber e.U.', zipCode: '8020', street: ['Griesgasse', '3'], legalForm: 'EU' },
      ]);
      const header = 'Name~ Anschrift~ Veröffentlichung~ Rechtskraft Bescheid~ Zeitpunkt als Scheinunternehmen~ Geburts-Datum~ Firmenbuch-Nr~ UID-Nr.~ Kennziffer des UR ';
      const list = parseLsuList([
        header,
        `HÖFER Anna~3500 Krems an der Donau, Obere Landstraße 21~01.10.2026~28.09.2026~ ~02.02.1980~${seedFnr(501112)}~~`,
        'Karl Gruber~8020 Graz, Griesgasse 3~01.10.2026~28.09.2026~ ~03.03.1970~~~',
        '', 'Stand:  01.10.2026 06:00:01', '',
      ].join('\r\n'));
      expect(await applyListVersion(own.sql, list)).toMatchObject({ status: 'applied', listings: 2 });
      const rows = await own.sql<{ kind: string; fnr: string | null; linkEvidence: string | null; linkCandidates: unknown[] }[]>`
        SELECT kind, fnr, link_evidence, link_candidates FROM bogus_company_listing ORDER BY listing_key`;
      expect(rows).toEqual([
        { kind: 'natural', fnr: seedFnr(501112), linkEvidence: 'register-fn', linkCandidates: [] },
        { kind: 'natural', fnr: null, linkEvidence: null, linkCandidates: [] },
      ]);
      expect(await relinkListings(own.sql)).toBe(0);
    } finally {
      await own.drop();
    }
  });
});

