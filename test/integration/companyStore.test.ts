// Storing company extracts: every part lands in its table with one change row in the same
// transaction; an unchanged extract writes nothing but lastCrawledAt; a change names its fields.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuszug, type CompanyExtract } from '../../pipeline/firmenbuch/extractParser.js';
import { readChanges, safeChangeBound } from '../../pipeline/store/changeLog.js';
import { storeCompanyExtract } from '../../pipeline/store/companyStore.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const fixture = (name: string): CompanyExtract =>
  parseAuszug(readFileSync(new URL(`../../fixtures/firmenbuch/soap/${name}.xml`, import.meta.url), 'utf8'));

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('storeCompanyExtract', () => {
  it('stores a GmbH with names, addresses, register entries, parties, functions and holdings', async () => {
    const extract = fixture('auszug-gmbh-shareholders');
    const before = await safeChangeBound(db.sql);
    const result = await storeCompanyExtract(db.sql, extract);
    expect(result.action).toBe('created');

    const [company] = await db.sql`SELECT fnr, name, legal_form_code, status, euid, capital_amount FROM company WHERE fnr = ${extract.fnr}`;
    expect(company).toEqual({
      fnr: '123456d', name: extract.name, legalFormCode: extract.legalForm?.code, status: 'active',
      euid: extract.euid, capitalAmount: extract.capital ? expect.stringMatching(/^\d+(\.\d+)?$/) : null,
    });
    const names = await db.sql<{ name: string; isCurrent: boolean }[]>`SELECT name, is_current FROM company_name WHERE fnr = ${extract.fnr} ORDER BY is_current DESC, name`;
    expect(names).toEqual([
      { name: 'Alpenblick Holzbau und Zimmerei Gesellschaft m.b.H.', isCurrent: true },
      { name: 'Alpenblick Holzbau GmbH', isCurrent: false },
    ]);
    const entries = await db.sql`SELECT vnr FROM register_entry WHERE fnr = ${extract.fnr} ORDER BY vnr`;
    expect(entries.map((e) => e.vnr)).toEqual(['001', '002', '003', '004']);

    const parties = await db.sql`SELECT pnr, kind, person_id, related_fnr FROM company_party WHERE fnr = ${extract.fnr} ORDER BY pnr`;
    expect(parties.map((p) => [p.pnr, p.kind])).toEqual([['A', 'person'], ['B', 'person'], ['C', 'company'], ['E', 'person']]);
    const corporate = extract.parties.find((p) => p.kind === 'company');
    expect(parties.find((p) => p.pnr === 'C')?.relatedFnr).toBe(corporate?.kind === 'company' ? corporate.relatedFnr : undefined);

    const functions = await db.sql`SELECT pnr, function_code, is_current, representation_code FROM company_function WHERE fnr = ${extract.fnr} ORDER BY pnr, function_code, vnr`;
    expect(functions.map((f) => [f.pnr, f.functionCode, f.isCurrent])).toEqual(
      extract.functions.map((f) => [f.pnr, f.functionCode, f.isCurrent]).sort(),
    );
    const holdings = await db.sql`SELECT pnr, capital, paid_in FROM holding WHERE fnr = ${extract.fnr} ORDER BY pnr`;
    expect(holdings.map((h) => h.pnr)).toEqual(['A', 'C']);
    expect(holdings.map((h) => h.capital)).toEqual(extract.holdings.map((h) => h.capital).map((c) => (c === null ? null : expect.any(String))));

    const changes = await readChanges(db.sql, { afterId: before - 1, limit: 10 });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ type: 'business', fnr: '123456d', action: 'created', vnr: '004' });
    expect(changes[0]!.changedFields).toEqual(expect.arrayContaining(['name', 'addresses', 'legalForm', 'functions', 'holdings']));
  });

  it('writes no change row for an unchanged extract but updates lastCrawledAt', async () => {
    const extract = fixture('auszug-gmbh-shareholders');
    const before = await safeChangeBound(db.sql);
    const crawledAt = new Date('2030-01-02T03:04:05Z');
    const result = await storeCompanyExtract(db.sql, { ...extract, queriedAt: '2030-01-02T03:04:05+01:00', checksum: 'OTHER' }, { crawledAt });
    expect(result).toEqual({ fnr: '123456d', action: 'unchanged', changedFields: [], changeIds: [] });
    expect(await readChanges(db.sql, { afterId: before - 1, limit: 10 })).toEqual([]);
    const [row] = await db.sql`SELECT last_crawled_at FROM company WHERE fnr = '123456d'`;
    expect(row!.lastCrawledAt).toEqual(crawledAt);
  });

  it('names exactly the fields that changed', async () => {
    const extract = fixture('auszug-gmbh-shareholders');
    const before = await safeChangeBound(db.sql);
    const renamed = { ...extract, name: 'Alpenblick Holzbau GmbH & Co', seat: 'Innsbruck-Land' };
    const result = await storeCompanyExtract(db.sql, renamed, { vnr: '005' });
    expect(result.action).toBe('updated');
    expect(result.changedFields).toEqual(['name', 'seat']);
    const [change] = await readChanges(db.sql, { afterId: before - 1, limit: 10 });
    expect(change).toMatchObject({ action: 'updated', changedFields: ['name', 'seat'], vnr: '005' });
    const [company] = await db.sql`SELECT name, seat FROM company WHERE fnr = '123456d'`;
    expect(company).toEqual({ name: 'Alpenblick Holzbau GmbH & Co', seat: 'Innsbruck-Land' });
  });

  it('records a deletion as a deleted change', async () => {
    const deleted = fixture('auszug-deleted');
    await storeCompanyExtract(db.sql, { ...deleted, status: 'active', deletion: null });
    const before = await safeChangeBound(db.sql);
    const result = await storeCompanyExtract(db.sql, deleted);
    expect(result.action).toBe('deleted');
    expect(result.changedFields).toContain('isActive');
    const [company] = await db.sql`SELECT status FROM company WHERE fnr = ${deleted.fnr}`;
    expect(company!.status).toBe('deleted');
    expect((await readChanges(db.sql, { afterId: before - 1, limit: 10 }))[0]).toMatchObject({ action: 'deleted', fnr: deleted.fnr });
  });

  it('keeps organisations that are no registered company as organisation parties', async () => {
    const extract = fixture('auszug-organisation-party');
    await storeCompanyExtract(db.sql, extract);
    const rows = await db.sql`
      SELECT p.pnr, o.name FROM company_party p JOIN organisation o USING (organisation_id) WHERE p.fnr = ${extract.fnr} ORDER BY p.pnr`;
    const expected = extract.parties.filter((p) => p.kind === 'organisation').map((p) => p.name);
    expect(rows.map((r) => r.name).sort()).toEqual(expected.sort());
    expect(rows.length).toBeGreaterThan(0);
  });

  it('leaves nothing half-written when a write fails', async () => {
    const extract = fixture('auszug-og-stelle');
    const before = await safeChangeBound(db.sql);
    // The status check constraint fails after the company row and children were written.
    await expect(storeCompanyExtract(db.sql, { ...extract, status: 'unknown' as never })).rejects.toThrow();
    const [company] = await db.sql`SELECT count(*)::int AS n FROM company WHERE fnr = ${extract.fnr}`;
    expect(company!.n).toBe(0);
    expect(await readChanges(db.sql, { afterId: before - 1, limit: 10 })).toEqual([]);
  });
});
