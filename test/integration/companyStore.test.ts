// Storing company extracts: every part lands in its table with one change row in the same
// transaction; an unchanged extract writes nothing but lastCrawledAt; a change names its fields.
// The batched stores (group commit) end in the same rows and change rows as one store per item.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuszug } from '../../pipeline/firmenbuch/extractParser.js';
import { parseAnnualAccount } from '../../pipeline/firmenbuch/annualAccountParser.js';
import { storeCompanyExtract, storeCompanyExtracts } from '../../pipeline/store/companyStore.js';
import { storeAnnualAccount, storeAnnualAccountsBatch, storeDocumentListings, storeDocumentListingsBatch } from '../../pipeline/store/documentStore.js';
import { readChanges, safeChangeBound } from '../../runtime/changeLog.js';
import type { Sql } from '../../runtime/db.js';
import type { CompanyExtract, DocumentListing } from '../../schemas/firmenbuchRecords.js';
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

// ---------------------------------------------------------------------------------------------------
// Batches (pipeline/jobs/groupCommit.ts): several companies in one transaction

const EXTRACTS = ['auszug-gmbh-shareholders', 'auszug-og-stelle', 'auszug-organisation-party', 'auszug-deleted'];

/** The stored rows a batch must reproduce (timestamps and ids aside). */
async function storedRows(sql: Sql) {
  return {
    companies: await sql`SELECT fnr, fnr_check_letter_ok, name, legal_form_code, legal_form_text, court_code, status, euid, kur, seat,
                                municipality_code, municipality_text, capital_amount, capital_currency, business_purpose, register_checksum,
                                extract_queried_at, extract FROM company ORDER BY fnr`,
    names: await sql`SELECT * FROM company_name ORDER BY fnr, vnr, name`,
    addresses: await sql`SELECT * FROM company_address ORDER BY fnr, vnr, position`,
    entries: await sql`SELECT * FROM register_entry ORDER BY fnr, vnr`,
    persons: await sql`SELECT person_id, first_name, last_name, title_before, title_after, birth_date, name_norm FROM person ORDER BY 1`,
    organisations: await sql`SELECT organisation_id, name, foreign_register, foreign_number, country FROM organisation ORDER BY 1`,
    parties: await sql`SELECT * FROM company_party ORDER BY fnr, pnr`,
    functions: await sql`SELECT * FROM company_function ORDER BY fnr, pnr, function_code, vnr`,
    holdings: await sql`SELECT * FROM holding ORDER BY fnr, pnr, vnr`,
    codes: await sql`SELECT code, text, source FROM function_code WHERE source = 'register' ORDER BY code`,
    kinds: await sql`SELECT code, text, source FROM representation_kind WHERE source = 'register' ORDER BY code`,
    documents: await sql`SELECT document_key, fnr, az, document_type_code, document_type_text, document_date, balance_sheet_date, size_class, vnr,
                                filed_on, content_type, file_extension, size_bytes, remark, content, text_content, content_fetched_at IS NOT NULL AS fetched
                           FROM document ORDER BY 1`,
    filings: await sql`SELECT document_key, fnr, document_date, fiscal_year_start, fiscal_year_end, currency, unit, unit_factor, size_class, format,
                              pnl_method, kind, filed_on, has_positions, figures, warnings, raw_xml, parser_version FROM annual_account ORDER BY 1`,
    changes: await sql`SELECT type, fnr, action, changed_fields, vnr, document_key FROM change_log ORDER BY fnr, type, document_key, id`,
  };
}

/** A listing of one annual account of `fnr` (with the filing's own FN for the parser). */
function listing(fnr: string, n: number): DocumentListing {
  const digits = fnr.slice(0, -1);
  return {
    key: `${digits.padStart(6, '0')}_00700000000${n}_000___000_30_${digits}_XML`, fnr, fnrDigits: digits, az: null,
    documentType: { code: '48', text: 'Jahresabschluss' }, documentDate: '2024-12-31', contentType: 'application/xml',
    fileExtension: 'xml', sizeBytes: 100 + n, remark: null, balanceSheetDate: '2024-12-31', sizeClass: 'K', vnr: null, filedOn: `2025-0${n}-15`,
  };
}

const FILINGS = ['01-legacy-small-gmbh-anlage1', '07-jab4-jab-bilanz-guv-gkv-te', '11-firmenbuch2025-variant'];
const filingXml = (name: string) => readFileSync(new URL(`../../fixtures/firmenbuch/filings/${name}.xml`, import.meta.url), 'latin1');

describe('batched stores', () => {
  let one: TestDatabase;
  let batched: TestDatabase;
  beforeAll(async () => {
    [one, batched] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([one.drop(), batched.drop()]);
  });

  it('write the same rows and change rows as one store per item, and nothing when replayed', async () => {
    const extracts = EXTRACTS.map(fixture);
    const fnrs = extracts.map((e) => e.fnr);
    const listings = fnrs.map((fnr, i) => ({ fnr, listings: [listing(fnr, i + 1)] }));
    const filings = fnrs.slice(0, FILINGS.length).map((fnr, i) => ({
      documentKey: listing(fnr, i + 1).key, fnr, parsed: parseAnnualAccount(filingXml(FILINGS[i]!)), rawXml: filingXml(FILINGS[i]!),
      parserVersion: 1, content: Buffer.from(filingXml(FILINGS[i]!), 'latin1'),
    }));

    for (const extract of extracts) await storeCompanyExtract(one.sql, extract, { vnr: '009' });
    for (const l of listings) await storeDocumentListings(one.sql, l.fnr, l.listings, { unfetchedOfType: '48' });
    for (const f of filings) await storeAnnualAccount(one.sql, { ...f, filedOn: listing(f.fnr, filings.indexOf(f) + 1).filedOn });

    const companies = await storeCompanyExtracts(batched.sql, extracts.map((extract) => ({ extract, vnr: '009' })));
    expect(companies.map((r) => (r instanceof Error ? r : r.action))).toEqual(['created', 'created', 'created', 'created']);
    expect(companies.every((r) => !(r instanceof Error) && r.changeIds.length === 1 && !r.listedLately)).toBe(true);
    const listed = await storeDocumentListingsBatch(batched.sql, listings, { unfetchedOfType: '48' });
    expect(listed.map((r) => (r instanceof Error ? r : [r.created, r.unfetched]))).toEqual(listings.map((l) => [[l.listings[0]!.key], [l.listings[0]!.key]]));
    // No filing date given: the store takes the document row's, as the job does.
    const stored = await storeAnnualAccountsBatch(batched.sql, filings);
    expect(stored.every((r) => r !== null && !(r instanceof Error) && r.changeIds.length === 1)).toBe(true);

    expect(await storedRows(batched.sql)).toEqual(await storedRows(one.sql));

    // Replayed: nothing changes, no change rows; the companies are known to be listed now.
    const before = await safeChangeBound(batched.sql);
    const again = await storeCompanyExtracts(batched.sql, extracts.map((extract) => ({ extract })));
    expect(again.map((r) => (r instanceof Error ? r : [r.action, r.listedLately]))).toEqual(extracts.map(() => ['unchanged', true]));
    expect((await storeDocumentListingsBatch(batched.sql, listings)).map((r) => (r instanceof Error ? r : r.created.length + r.updated.length))).toEqual([0, 0, 0, 0]);
    expect(await storeAnnualAccountsBatch(batched.sql, filings)).toEqual([null, null, null]);
    expect(await readChanges(batched.sql, { afterId: before - 1, limit: 10 })).toEqual([]);
  });

  it('fail only the bad item of a batch, and store items of one company one after the other', async () => {
    const [good, bad, other] = ['auszug-gmbh-shareholders', 'auszug-og-stelle', 'auszug-organisation-party'].map(fixture);
    const db = await createTestDatabase();
    try {
      const results = await storeCompanyExtracts(db.sql, [
        { extract: good! }, { extract: { ...bad!, status: 'unknown' as never } }, { extract: other! },
        { extract: { ...good!, name: 'Alpenblick Holzbau GmbH & Co' }, vnr: '005' },
      ]);
      expect(results[1]).toBeInstanceOf(Error);
      expect(results.map((r) => (r instanceof Error ? 'error' : [r.action, r.changedFields.includes('name')]))).toEqual([
        ['created', true], 'error', ['created', true], ['updated', true],
      ]);
      const rows = await db.sql<{ fnr: string; name: string }[]>`SELECT fnr, name FROM company ORDER BY fnr`;
      expect(rows.map((r) => r.fnr).sort()).toEqual([good!.fnr, other!.fnr].sort());
      expect(rows.find((r) => r.fnr === good!.fnr)?.name).toBe('Alpenblick Holzbau GmbH & Co');
      const changes = await readChanges(db.sql, { afterId: 0, limit: 10 });
      expect(changes.map((c) => [c.fnr, c.action])).toEqual([[good!.fnr, 'created'], [other!.fnr, 'created'], [good!.fnr, 'updated']]);
    } finally {
      await db.drop();
    }
  });
});
