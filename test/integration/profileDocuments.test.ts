// Profile details (issue 23 item 8): every filed document with its type; annual accounts with the
// date their figures are for (documentDate, as in parsedJahresabschluesse) and what became of their
// parse (parsed, failed with the reason, pdfOnly, pending); holdings with their share of the capital;
// a filing that fails in the pipeline says so, and npm run reparse retries it from the kept XML.
import { readFileSync } from 'node:fs';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { firmenbuchHandlers } from '../../pipeline/firmenbuch/firmenbuchJobs.js';
import { reparseAnnualAccounts } from '../../pipeline/firmenbuch/reparse.js';
import { storeDocumentListings } from '../../pipeline/store/documentStore.js';
import { createLogger } from '../../runtime/logger.js';
import type { DocumentContent, DocumentListing } from '../../schemas/firmenbuchRecords.js';
import { json } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const log = createLogger('silent');
const fnr = seedFnr(5150);
const FILING = readFileSync(new URL('../../fixtures/firmenbuch/filings/02-legacy-full-bilanz-guv-gkv.xml', import.meta.url));
const NOT_A_FILING = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Irgendwas><Kein>Jahresabschluss</Kein></Irgendwas>');

const KEYS = {
  parsed: '005150_0070202400001_000___000_30_1_XML',
  failed: '005150_0070202300001_000___000_30_2_XML',
  recoverable: '005150_0070202200001_000___000_30_3_XML',
  pdf: '005150_0070202400001_000___000_30_4_PDF',
  pending: '005150_0070202500001_000___000_30_5_XML',
  refused: '005150_0070202100001_000___000_30_6_XML',
  contract: '005150_4580201500112_000___000_00_7_PDF',
};

const listing = (key: string, over: Partial<DocumentListing>): DocumentListing => ({
  key, fnr, fnrDigits: '5150', az: '458 020 Fr 1/24 a', documentType: { code: '48', text: 'Jahresabschluss' }, documentDate: null,
  contentType: 'application/xml', fileExtension: 'xml', sizeBytes: 9000, remark: null, balanceSheetDate: null, sizeClass: 'K', vnr: null,
  filedOn: null, ...over,
});

/** The register's answers to URKUNDE, by key. */
const contents: Record<string, Buffer> = { [KEYS.parsed]: FILING, [KEYS.failed]: NOT_A_FILING, [KEYS.recoverable]: NOT_A_FILING };
const document = async (key: string): Promise<DocumentContent> => ({
  asOf: null, metadata: {} as DocumentContent['metadata'], content: contents[key]!, contentType: 'application/xml', fileExtension: 'xml',
  sizeBytes: contents[key]!.length, warnings: [],
});
// The annual-account job fetches with heldDocument (a large answer keeps its read slot until stored).
const client = { document, heldDocument: async (key: string) => ({ doc: await document(key), release: () => undefined }) } as unknown as FirmenbuchClient;

let api: TestApi;
type Doc = { documentKey: string; parseStatus: string | null; parseError: string | null; documentDate: string | null; type: unknown };
const profile = async () => json(await api.http.get(`/api/v1/businesses/${fnr}`));

beforeAll(async () => {
  api = await startTestApi({ plan: 'api' });
  const { sql } = api.db;
  await seedCompanies(sql, [{ digits: 5150, name: 'Dokumente Test GmbH' }]);
  await storeDocumentListings(sql, fnr, [
    listing(KEYS.parsed, { balanceSheetDate: '2023-12-31', filedOn: '2024-06-27' }),
    listing(KEYS.failed, { balanceSheetDate: '2022-12-31', filedOn: '2023-06-27' }),
    listing(KEYS.recoverable, { balanceSheetDate: '2021-12-31', filedOn: '2022-06-27' }),
    listing(KEYS.pdf, { contentType: 'application/pdf', fileExtension: 'pdf', balanceSheetDate: '2023-12-31', filedOn: '2024-06-27' }),
    listing(KEYS.pending, { balanceSheetDate: '2024-12-31', filedOn: '2025-06-27' }),
    listing(KEYS.refused, { balanceSheetDate: '2020-12-31', filedOn: '2021-06-27' }),
    listing(KEYS.contract, {
      documentType: { code: '42', text: 'Gesellschaftsvertrag' }, documentDate: '2015-01-08', contentType: 'application/pdf', fileExtension: 'pdf',
      filedOn: '2015-01-12', remark: 'Neufassung',
    }),
  ]);
  // The pipeline's annual-account jobs: one filing parses, two do not (a well-formed answer: no retry).
  const handlers = firmenbuchHandlers({ sql, client, enqueue: async () => undefined, log });
  await handlers.annualAccount({ fnr, documentKey: KEYS.parsed }, {} as Job);
  for (const key of [KEYS.failed, KEYS.recoverable]) {
    await expect(handlers.annualAccount({ fnr, documentKey: key }, {} as Job)).rejects.toThrow(/does not parse/);
  }
  await sql`UPDATE document SET content_refused = 'urkunde is larger than its limit of 67108864 bytes' WHERE document_key = ${KEYS.refused}`;
  // Capital and two current holdings and an ended one.
  await sql`UPDATE company SET capital_amount = 35000, capital_currency = 'EUR' WHERE fnr = ${fnr}`;
  await sql`INSERT INTO person (person_id, first_name, last_name, name_norm) VALUES ('anna-teil-x', 'Anna', 'Teil', 'anna teil'), ('bert-rest-x', 'Bert', 'Rest', 'bert rest')`;
  await sql`INSERT INTO company_party (fnr, pnr, kind, person_id) VALUES (${fnr}, 'A', 'person', 'anna-teil-x'), (${fnr}, 'B', 'person', 'bert-rest-x')`;
  await sql`
    INSERT INTO holding (fnr, pnr, vnr, capital, paid_in, currency, since, until, is_current) VALUES
      (${fnr}, 'A', '002', 24500, 24500, 'EUR', '2011-03-01', NULL, true),
      (${fnr}, 'B', '002', 10500, 5250, 'EUR', '2011-03-01', NULL, true),
      (${fnr}, 'B', '001', 35000, 35000, 'EUR', '2000-01-01', '2011-02-28', false)`;
});
afterAll(() => api.close());

describe('filed documents on the profile', () => {
  it('lists every filed document with its type, annual accounts and others', async () => {
    const body = await profile();
    const documents = body.documents as Doc[];
    expect(documents.map((d) => d.documentKey).sort()).toEqual(Object.values(KEYS).sort());
    expect(documents.find((d) => d.documentKey === KEYS.contract)).toEqual({
      documentKey: KEYS.contract, type: { code: '42', text: 'Gesellschaftsvertrag' }, documentDate: '2015-01-08', filedOn: '2015-01-12',
      contentType: 'application/pdf', sizeBytes: 9000, remark: 'Neufassung', parseStatus: null, parseError: null,
    });
    // Newest first, by the date a document is for.
    expect(documents[0]!.documentKey).toBe(KEYS.pending);
    expect((body.annualAccountDocuments as Doc[]).map((d) => d.documentKey).sort()).toEqual(Object.values(KEYS).filter((k) => k !== KEYS.contract).sort());
  });

  it("gives annual accounts the date their figures are for, as parsedJahresabschluesse does, and no second date beside it", async () => {
    const body = await profile();
    const parsed = (body.annualAccountDocuments as Doc[]).find((d) => d.documentKey === KEYS.parsed)!;
    const filing = (body.parsedJahresabschluesse as Doc[]).find((f) => f.documentKey === KEYS.parsed)!;
    expect(parsed.documentDate).toBe(filing.documentDate);
    expect(parsed.documentDate).not.toBeNull();
    for (const d of body.annualAccountDocuments as Doc[]) {
      expect(d.documentDate, d.documentKey).not.toBeNull();
      expect(d).not.toHaveProperty('balanceSheetDate');
    }
    expect((body.annualAccountDocuments as Doc[]).find((d) => d.documentKey === KEYS.failed)!.documentDate).toBe('2022-12-31');
  });

  it('says what became of each annual account: parsed, failed with the reason, pdfOnly, pending', async () => {
    const status = Object.fromEntries(((await profile()).annualAccountDocuments as Doc[]).map((d) => [d.documentKey, [d.parseStatus, d.parseError]]));
    expect(status[KEYS.parsed]).toEqual(['parsed', null]);
    expect(status[KEYS.pdf]).toEqual(['pdfOnly', null]);
    expect(status[KEYS.pending]).toEqual(['pending', null]);
    expect(status[KEYS.failed]![0]).toBe('failed');
    expect(status[KEYS.failed]![1]).toMatch(/\S/);
    expect(status[KEYS.refused]).toEqual(['failed', 'urkunde is larger than its limit of 67108864 bytes']);
    // Only the parsed filing has figures; the failed ones are not shown as filings without figures.
    expect(((await profile()).parsedJahresabschluesse as Doc[]).map((f) => f.documentKey)).toEqual([KEYS.parsed]);
  });
});

describe('holdings', () => {
  it('carry the share of the registered capital in percent where capital is known; ended holdings none', async () => {
    const shares = ((await profile()).shareholders as Array<{ personId: string; capital: number; isCurrent: boolean; sharePercent: number | null }>)
      .map((h) => [h.personId, h.capital, h.isCurrent, h.sharePercent]);
    expect(shares).toEqual(expect.arrayContaining([
      ['anna-teil-x', 24500, true, 70], ['bert-rest-x', 10500, true, 30], ['bert-rest-x', 35000, false, null],
    ]));
    await api.db.sql`UPDATE company SET capital_amount = NULL WHERE fnr = ${fnr}`;
    const unknown = ((await profile()).shareholders as Array<{ sharePercent: number | null }>).map((h) => h.sharePercent);
    expect(unknown).toEqual([null, null, null]);
    await api.db.sql`UPDATE company SET capital_amount = 35000 WHERE fnr = ${fnr}`;
  });
});

describe('npm run reparse', () => {
  it('retries failed parses from the kept XML: one that parses now gets its figures, one that still fails keeps a reason', async () => {
    const { sql } = api.db;
    // The parser of the time failed on this filing; the one of today reads it (here: the register's
    // bytes are a readable filing now), which is what a reparse after a parser fix meets.
    await sql`UPDATE document SET content = ${FILING} WHERE document_key = ${KEYS.recoverable}`;
    await sql`UPDATE document SET parse_error = 'stale reason' WHERE document_key = ${KEYS.failed}`;
    const summary = await reparseAnnualAccounts(sql, log);
    expect(summary).toMatchObject({ retried: 2, recovered: 1 });
    const status = Object.fromEntries(((await profile()).annualAccountDocuments as Doc[]).map((d) => [d.documentKey, [d.parseStatus, d.parseError]]));
    expect(status[KEYS.recoverable]).toEqual(['parsed', null]);
    expect(status[KEYS.failed]![0]).toBe('failed');
    expect(status[KEYS.failed]![1]).not.toBe('stale reason');
    const filings = ((await profile()).parsedJahresabschluesse as Doc[]).map((f) => f.documentKey);
    expect(filings).toContain(KEYS.recoverable);
    // A business change row records the new figures, as for any re-derived filing.
    const [change] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM change_log WHERE fnr = ${fnr} AND type = 'business' AND 'parsedJahresabschluesse' = ANY(changed_fields)`;
    expect(change!.n).toBeGreaterThanOrEqual(2);
  });
});
