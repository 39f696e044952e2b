// Profile, people, graph and document download answers for the replayed corpus, checked against what
// the fixtures contain: a corporate shareholder chain, a person with functions in two companies, a
// company with two filings, stored and live documents, and the register being down.
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { correlationId } from '../../api/middleware/correlationId.js';
import { errorHandler } from '../../api/middleware/errorHandler.js';
import { companyProfileRouter } from '../../api/routes/companyProfile.js';
import { documentsRouter, REGISTER_UNAVAILABLE } from '../../api/routes/documents.js';
import { graphRouter } from '../../api/routes/graph.js';
import { peopleRouter } from '../../api/routes/people.js';
import { parseAuszug } from '../../pipeline/firmenbuch/extractParser.js';
import { firmenbuchDocumentSource } from '../../pipeline/firmenbuch/documentSource.js';
import { startFakeFirmenbuch, type FakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { replay } from '../../pipeline/replay/replay.js';
import { keepFetchedContent } from '../../pipeline/store/documentStore.js';
import { createLogger } from '../../runtime/logger.js';
import { KEY_FIGURES, figureJsonKey } from '../../schemas/keyFigures.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const log = createLogger('silent');
const fixtureExtract = (fnr: string) => parseAuszug(readFileSync(`${CORPUS}firmenbuch/auszug/${fnr}.xml`, 'utf8'));
const expectedFigures = (key: string) =>
  JSON.parse(readFileSync(`${CORPUS}firmenbuch/expected/${key}.json`, 'utf8')) as { documentDate: string; figures: Record<string, string | null> };

let db: TestDatabase;
let http: TestHttp;
let fake: FakeFirmenbuch;
let upstreamDown = false;

beforeAll(async () => {
  db = await createTestDatabase();
  await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, fixturesDir: CORPUS, prefix: `read-${process.pid}` });
  fake = await startFakeFirmenbuch({ corpus: CORPUS, port: 0 });
  const live = new FirmenbuchClient({ baseUrl: fake.url, timeoutMs: 2000 });
  const down = new FirmenbuchClient({ baseUrl: 'http://127.0.0.1:9/unreachable', timeoutMs: 500 });
  const app = new Koa();
  app.silent = true;
  app.use(correlationId());
  app.use(errorHandler(log));
  const api = new Router({ prefix: '/api/v1' });
  for (const router of [
    peopleRouter(db.sql),
    graphRouter(db.sql),
    documentsRouter({ sql: db.sql, documents: firmenbuchDocumentSource(db.sql, { document: (key) => (upstreamDown ? down : live).document(key) }), log }),
    companyProfileRouter(db.sql),
  ]) api.use(router.routes());
  app.use(api.routes());
  http = await serve(app);
});
afterAll(async () => {
  await http.close();
  await fake.close();
  await db.drop();
});

describe('company profile', () => {
  it('answers the fields of the extract for a company held by another company', async () => {
    const extract = fixtureExtract('287541f');
    const body = await json(await http.get('/api/v1/businesses/287541f'));
    expect(body).toMatchObject({
      // The Ediktsdatei fixtures hold a bankruptcy of this company with its FN.
      fnr: '287541f', name: extract.name, isActive: true, isScheinunternehmen: false, hasEdikt: true,
      legalForm: { code: extract.legalForm!.code }, court: { code: extract.court!.code }, euid: extract.euid,
    });
    const current = extract.addresses.find((a) => a.isCurrent)!;
    expect(body.addresses[0]).toMatchObject({ zipCode: current.zipCode, city: current.city, isCurrent: true });
    const corporate = extract.holdings.find((h) => h.holderKind === 'company')!;
    expect(body.shareholders).toContainEqual(expect.objectContaining({
      type: 'company', fnr: corporate.holderFnr, name: fixtureExtract(corporate.holderFnr!).name, capital: Number(corporate.capital),
    }));
    expect(body.functions.length).toBe(extract.functions.filter((f) => extract.parties.some((p) => p.pnr === f.pnr)).length);
    expect(new Date(body.lastCrawledAt).getTime()).toBeGreaterThan(Date.now() - 600_000);
  });

  it('carries the latest filing by documentDate as latestKeyFigures, all filings in parsedJahresabschluesse', async () => {
    const body = await json(await http.get('/api/v1/businesses/301466h'));
    expect(body.parsedJahresabschluesse).toHaveLength(2);
    const dates = body.parsedJahresabschluesse.map((f: { documentDate: string }) => f.documentDate);
    expect(dates).toEqual([...dates].sort().reverse());
    const latest = body.parsedJahresabschluesse[0];
    const expected = expectedFigures(latest.documentKey);
    expect(body.latestKeyFigures.documentDate).toBe(expected.documentDate);
    for (const [key, value] of Object.entries(expected.figures)) {
      expect(body.latestKeyFigures[key], key).toBe(value === null ? null : Number(value));
    }
    expect(body.annualAccountDocuments).toHaveLength(2);
  });

  it('presents every field of a company with every kind of record exactly: types, formats, nulls and the order of every array', async () => {
    const fnr = '900001a';
    const sql = db.sql;
    // A company of its own (no fixture links to it): ties only where the ORDER BY decides them.
    await sql`INSERT INTO company (fnr, name, legal_form_code, court_code, status, euid, seat, municipality_code, municipality_text,
                capital_amount, capital_currency, last_crawled_at)
              VALUES (${fnr}, 'Zzedge Handels GmbH', 'GES', '007', 'deleted', 'ATBRA.900001a', 'Wien', '90001', 'Wien', 0.00, 'EUR',
                '2026-10-01 12:00:00.123999+00')`;
    await sql`INSERT INTO company_name (fnr, vnr, name, is_current)
              VALUES (${fnr}, '002', 'Zzedge B', false), (${fnr}, '001', 'Zzedge A', false), (${fnr}, '003', 'Zzedge Handels GmbH', true)`;
    await sql`INSERT INTO company_address (fnr, vnr, position, is_current, line, street, house_number, staircase, door, zip_code, city, country)
              VALUES (${fnr}, '001', 0, false, 'Altgasse 1, 1010 Wien', NULL, NULL, NULL, NULL, '1010', 'Wien', 'AUT'),
                     (${fnr}, '002', 0, true, NULL, 'Neugasse', '2', '3', '4', '1020', 'Wien', 'AUT')`;
    await sql`INSERT INTO company_oenace (fnr, version, code, is_primary, source)
              VALUES (${fnr}, '2008', 'A 01.12-0', false, 'test'), (${fnr}, '2008', 'A 01.11-0', true, 'test')`;
    await sql`INSERT INTO register_entry (fnr, vnr, executed_on, court_code, court_text, az, application_texts)
              VALUES (${fnr}, '002', '2024-02-01', '007', 'HG Wien', '73 Fr 1/24', '{"Text B1","Text B2"}'), (${fnr}, '001', NULL, NULL, NULL, NULL, '{}')`;
    await sql`INSERT INTO person (person_id, first_name, last_name, name_norm) VALUES ('zzedge-erika-1970-01-01', 'Erika', 'Zzedge', 'erika zzedge')`;
    await sql`INSERT INTO organisation (organisation_id, name) VALUES ('org-zzedge', 'Zzedge Holding Ltd')`;
    await sql`INSERT INTO company_party (fnr, pnr, kind, person_id, related_fnr, organisation_id)
              VALUES (${fnr}, 'P1', 'person', 'zzedge-erika-1970-01-01', NULL, NULL), (${fnr}, 'P2', 'company', NULL, '900002b', NULL),
                     (${fnr}, 'P3', 'organisation', NULL, NULL, 'org-zzedge')`;
    await sql`INSERT INTO company_function (fnr, pnr, function_code, vnr, function_text, representation_code, since, until, is_current)
              VALUES (${fnr}, 'P1', 'PR', '002', 'Prokura alt', NULL, NULL, '2019-12-31', false),
                     (${fnr}, 'P3', 'GF', '003', NULL, NULL, NULL, NULL, true),
                     (${fnr}, 'P1', 'GF', '001', NULL, 'E', '2020-01-01', NULL, true)`;
    await sql`INSERT INTO holding (fnr, pnr, vnr, capital, paid_in, currency, since, until, is_current)
              VALUES (${fnr}, 'P3', '001', 1.10, 1.10, 'ATS', NULL, '2001-12-31', false), (${fnr}, 'P2', '001', 35000.00, 17500.50, 'EUR', '2019-01-01', NULL, true),
                     (${fnr}, 'P1', '002', 0.00, NULL, NULL, NULL, NULL, true)`;
    await sql`INSERT INTO document (document_key, fnr, document_type_code, document_date, balance_sheet_date, content_type, filed_on, size_class, size_bytes)
              VALUES ('ZZ_K1', ${fnr}, '48', '2024-06-30', '2023-12-31', 'application/xml', '2024-07-01', 'klein', 2048),
                     ('ZZ_K2', ${fnr}, '48', '2025-06-30', '2024-12-31', 'application/pdf', NULL, NULL, NULL),
                     ('ZZ_OTHER', ${fnr}, '12', '2025-07-01', NULL, 'application/pdf', NULL, NULL, 10)`;
    const big = '12345678901234567.891';
    await sql`INSERT INTO annual_account (document_key, fnr, document_date, fiscal_year_start, fiscal_year_end, currency, size_class, format, pnl_method,
                kind, filed_on, has_positions, figures, raw_xml, parser_version)
              VALUES ('ZZ_K1', ${fnr}, '2023-12-31', '2023-01-01', '2023-12-31', 'EUR', 'klein', 'jab4', 'GKV', 'JA', '2024-07-01', true,
                       '{"bilanzSumme": 1000, "eigenkapital": null}', '<x/>', 1),
                     ('ZZ_K2', ${fnr}, '2024-12-31', NULL, '2024-12-31', 'EUR', NULL, 'legacy', NULL, NULL, NULL, false,
                       ${`{"bilanzSumme": 1234567.89, "eigenkapital": -0.50, "liquideMittel": ${big}, "employees": 12, "umsatzerloese": null}`}::text::jsonb, '<x/>', 1)`;
    await sql`INSERT INTO bogus_company_listing (listing_key, name, fnr, removed_at, address, uid, listed_fnr, link_evidence, link_confidence)
              VALUES ('ZZ-BL-1', 'Zzedge Handels GmbH', ${fnr}, NULL, '1010 Wien, Ring 1', 'ATU12345675', ${fnr}, 'register-fn', 1),
                     ('ZZ-BL-2', 'Zzedge alt', ${fnr}, now(), NULL, NULL, NULL, NULL, NULL)`;
    await sql`INSERT INTO bogus_company_publication (listing_key, published_on, decision_final_on, deemed_since)
              VALUES ('ZZ-BL-1', '2024-03-01', '2024-04-01', '2024-02-15'), ('ZZ-BL-1', '2023-05-01', NULL, NULL), ('ZZ-BL-2', '2022-01-01', NULL, NULL)`;
    await sql`INSERT INTO court_notice (edikt_id, aktenzeichen, court_code, court_name, proceeding_code, proceeding_text, fnr, link_evidence,
                link_confidence, first_published_on, last_published_on, is_open)
              VALUES ('ZZ-ED-1', '3 S 1/25', '007', 'HG Wien', 'S', 'Sanierungsverfahren', ${fnr}, 'register-fn', 0.95, '2025-01-10', '2025-03-01', true),
                     ('ZZ-ED-2', '3 S 2/25', NULL, NULL, NULL, NULL, ${fnr}, 'name', 0.50, '2025-02-01', NULL, false),
                     ('ZZ-ED-3', NULL, NULL, NULL, NULL, NULL, ${fnr}, 'manual', NULL, NULL, NULL, true)`;
    await sql`INSERT INTO trade_license (gisa_zahl, fnr, trade_key, wording, effective_from, ended_on, is_dormant)
              VALUES ('ZZ-GZ-1', ${fnr}, 'T1', 'Handelsgewerbe', '2010-05-01', '2015-01-01', false), ('ZZ-GZ-2', ${fnr}, NULL, NULL, '2016-01-01', NULL, true)`;
    const oenace = async (code: string) =>
      (await sql<{ shortTitleDe: string | null; titleDe: string }[]>`SELECT short_title_de, title_de FROM oenace_class WHERE version = '2008' AND code = ${code}`)[0]!;
    const [o1, o2] = [await oenace('A 01.11-0'), await oenace('A 01.12-0')];
    const figures = (values: Record<string, number | null>) => ({ ...Object.fromEntries(KEY_FIGURES.map((f) => [figureJsonKey(f), null])), ...values });
    const latest = figures({ bilanzSumme: 1234567.89, eigenkapital: -0.5, liquideMittel: Number(big), employees: 12 });

    const body = await json(await http.get(`/api/v1/businesses/${fnr}`));
    const expected = {
      fnr, name: 'Zzedge Handels GmbH',
      legalForm: { code: 'GES', text: 'Gesellschaft mit beschränkter Haftung' },
      court: { code: '007', text: 'Handelsgericht Wien' },
      isActive: false,
      isScheinunternehmen: true,
      scheinunternehmenKundmachungen: [
        ...[
          { publishedOn: '2023-05-01', decisionFinalOn: null, deemedSince: null },
          { publishedOn: '2024-03-01', decisionFinalOn: '2024-04-01', deemedSince: '2024-02-15' },
        ].map((p) => ({
          name: 'Zzedge Handels GmbH', ...p, address: '1010 Wien, Ring 1', uid: 'ATU12345675', urCode: null, listedFnr: fnr,
          link: { evidence: 'register-fn', confidence: 1 },
        })),
      ],
      hasEdikt: true,
      euid: 'ATBRA.900001a', seat: 'Wien',
      municipality: { code: '90001', text: 'Wien' },
      capital: { amount: 0, currency: 'EUR' },
      businessPurpose: null,
      formerNames: [{ name: 'Zzedge A', vnr: '001' }, { name: 'Zzedge B', vnr: '002' }],
      addresses: [
        { street: 'Neugasse', houseNumber: '2', staircase: '3', door: '4', zipCode: '1020', city: 'Wien', country: 'AUT', isCurrent: true },
        { street: 'Altgasse 1, 1010 Wien', houseNumber: null, staircase: null, door: null, zipCode: '1010', city: 'Wien', country: 'AUT', isCurrent: false },
      ],
      oenaces: [
        { code: 'A 01.11-0', kurztitel: o1.shortTitleDe, title: o1.titleDe, level: 5, isPrimary: true, source: 'test', confidence: null, evidence: null },
        { code: 'A 01.12-0', kurztitel: o2.shortTitleDe, title: o2.titleDe, level: 5, isPrimary: false, source: 'test', confidence: null, evidence: null },
      ],
      oenaceNumericCode: '01110',
      latestKeyFigures: { documentDate: '2024-12-31', ...latest },
      parsedJahresabschluesse: [
        { documentKey: 'ZZ_K2', documentDate: '2024-12-31', fiscalYearStart: null, fiscalYearEnd: '2024-12-31', currency: 'EUR', sizeClass: null,
          format: 'legacy', pnlMethod: null, kind: null, filedOn: null, ...latest },
        { documentKey: 'ZZ_K1', documentDate: '2023-12-31', fiscalYearStart: '2023-01-01', fiscalYearEnd: '2023-12-31', currency: 'EUR', sizeClass: 'klein',
          format: 'jab4', pnlMethod: 'GKV', kind: 'JA', filedOn: '2024-07-01', ...figures({ bilanzSumme: 1000 }) },
      ],
      functions: [
        { type: 'person', personId: 'zzedge-erika-1970-01-01', name: 'Erika Zzedge', functionCode: 'GF', functionText: 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)',
          representation: { code: 'E', text: 'Einzelvertretung' }, since: '2020-01-01', until: null, isCurrent: true },
        { type: 'organisation', organisationId: 'org-zzedge', name: 'Zzedge Holding Ltd', functionCode: 'GF', functionText: 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)',
          representation: null, since: null, until: null, isCurrent: true },
        { type: 'person', personId: 'zzedge-erika-1970-01-01', name: 'Erika Zzedge', functionCode: 'PR', functionText: 'Prokura alt',
          representation: null, since: null, until: '2019-12-31', isCurrent: false },
      ],
      // A party's name: the person's, else the company's as stored here (900002b is not), else the organisation's. No share
      // in percent: the registered capital is 0.
      shareholders: [
        { type: 'person', personId: 'zzedge-erika-1970-01-01', name: 'Erika Zzedge', capital: 0, paidIn: null, currency: null, sharePercent: null, since: null, until: null, isCurrent: true },
        { type: 'company', fnr: '900002b', name: null, capital: 35000, paidIn: 17500.5, currency: 'EUR', sharePercent: null, since: '2019-01-01', until: null, isCurrent: true },
        { type: 'organisation', organisationId: 'org-zzedge', name: 'Zzedge Holding Ltd', capital: 1.1, paidIn: 1.1, currency: 'ATS', sharePercent: null, since: null, until: '2001-12-31', isCurrent: false },
      ],
      registerEntries: [
        { vnr: '001', executedOn: null, court: null, az: null, applicationTexts: [] },
        { vnr: '002', executedOn: '2024-02-01', court: { code: '007', text: 'HG Wien' }, az: '73 Fr 1/24', applicationTexts: ['Text B1', 'Text B2'] },
      ],
      // The licence record (api-decisions.md): current first; what the rows leave out is null.
      tradeLicenses: [
        {
          gisaZahl: 'ZZ-GZ-2', fnr, tradeKey: null, wording: null, kind: null, authority: { code: null, text: null }, effectiveFrom: '2016-01-01',
          endedOn: null, isActive: true, isDormant: true, dormantFrom: null, dormantUntil: null, holder: { type: null, name: null, fnr },
          location: { street: null, zipCode: null, city: null }, manager: null,
        },
        {
          gisaZahl: 'ZZ-GZ-1', fnr, tradeKey: 'T1', wording: 'Handelsgewerbe', kind: null, authority: { code: null, text: null }, effectiveFrom: '2010-05-01',
          endedOn: '2015-01-01', isActive: false, isDormant: false, dormantFrom: null, dormantUntil: null, holder: { type: null, name: null, fnr },
          location: { street: null, zipCode: null, city: null }, manager: null,
        },
      ],
      openNotices: [
        { ediktId: 'ZZ-ED-1', aktenzeichen: '3 S 1/25', court: { code: '007', text: 'HG Wien' }, proceeding: { code: 'S', text: 'Sanierungsverfahren' },
          firstPublishedOn: '2025-01-10', lastPublishedOn: '2025-03-01', link: { evidence: 'register-fn', confidence: 0.95 } },
        { ediktId: 'ZZ-ED-3', aktenzeichen: null, court: null, proceeding: null, firstPublishedOn: null, lastPublishedOn: null,
          link: { evidence: 'manual', confidence: null } },
      ],
      // Annual accounts dated by the date their figures are for (the parsed filing's), newest first; both parsed.
      annualAccountDocuments: [
        { documentKey: 'ZZ_K2', documentDate: '2024-12-31', contentType: 'application/pdf', filedOn: null, sizeClass: null, sizeBytes: null, parseStatus: 'parsed', parseError: null },
        { documentKey: 'ZZ_K1', documentDate: '2023-12-31', contentType: 'application/xml', filedOn: '2024-07-01', sizeClass: 'klein', sizeBytes: 2048, parseStatus: 'parsed', parseError: null },
      ],
      // Every document, other types with the register's own date and no parse status.
      documents: [
        { documentKey: 'ZZ_OTHER', type: { code: '12', text: null }, documentDate: '2025-07-01', filedOn: null, contentType: 'application/pdf', sizeBytes: 10, remark: null,
          parseStatus: null, parseError: null },
        { documentKey: 'ZZ_K2', type: { code: '48', text: null }, documentDate: '2024-12-31', filedOn: null, contentType: 'application/pdf', sizeBytes: null, remark: null,
          parseStatus: 'parsed', parseError: null },
        { documentKey: 'ZZ_K1', type: { code: '48', text: null }, documentDate: '2023-12-31', filedOn: '2024-07-01', contentType: 'application/xml', sizeBytes: 2048, remark: null,
          parseStatus: 'parsed', parseError: null },
      ],
      // As Date#toISOString() gives it: milliseconds, truncated, in UTC.
      lastCrawledAt: '2026-10-01T12:00:00.123Z',
    };
    expect(body).toEqual(expected);
    expect(Object.keys(body)).toEqual(Object.keys(expected));
    expect(Object.keys(body.parsedJahresabschluesse[0])).toEqual(Object.keys(expected.parsedJahresabschluesse[0]!));
  });

  it('flags a company on the bogus-company list before any publication of it, and not after its removal, as the screener does', async () => {
    const sql = db.sql;
    await sql`INSERT INTO company (fnr, name, status) VALUES ('900003c', 'Zzlisted GmbH', 'active'), ('900004d', 'Zzremoved GmbH', 'active')`;
    await sql`INSERT INTO bogus_company_listing (listing_key, name, fnr, removed_at)
              VALUES ('ZZ-BL-3', 'Zzlisted GmbH', '900003c', NULL), ('ZZ-BL-4', 'Zzremoved GmbH', '900004d', now())`;
    await sql`INSERT INTO bogus_company_publication (listing_key, published_on) VALUES ('ZZ-BL-4', '2022-01-01')`;
    const listed = await json(await http.get('/api/v1/businesses/900003c'));
    expect({ flag: listed.isScheinunternehmen, kundmachungen: listed.scheinunternehmenKundmachungen }).toEqual({ flag: true, kundmachungen: [] });
    const removed = await json(await http.get('/api/v1/businesses/900004d'));
    expect({ flag: removed.isScheinunternehmen, kundmachungen: removed.scheinunternehmenKundmachungen }).toEqual({ flag: false, kundmachungen: [] });
  });

  it('matches the path segment exactly: leading zeros and upper case are 404s', async () => {
    for (const path of ['/api/v1/businesses/0287541f', '/api/v1/businesses/287541F', '/api/v1/businesses/999999z']) {
      const res = await http.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    }
  });
});

describe('people', () => {
  it('gives one person with functions in two companies under one personId', async () => {
    const body = await json(await http.get('/api/v1/people/gerhard-leitner-1966-02-21'));
    expect(body).toMatchObject({ personId: 'gerhard-leitner-1966-02-21', firstName: 'Gerhard', lastName: 'Leitner', birthDate: '1966-02-21' });
    expect(new Set(body.functions.map((f: { fnr: string }) => f.fnr))).toEqual(new Set(['211904z', '33918f']));
    // His own debt settlement, and the notices of both his companies (fixtures/corpus/edikte).
    expect(body.hasOpenNotices).toBe(true);
    expect(body.openNotices.map((n: { relation: string; fnr?: string }) => `${n.relation}:${n.fnr ?? ''}`).sort()).toEqual(['company:211904z', 'company:33918f', 'debtor:']);
  });

  it('matches name prefixes literally, umlauts and LIKE characters included', async () => {
    await db.sql`INSERT INTO person (person_id, first_name, last_name, name_norm)
                 VALUES ('zoë-ärger-x', 'Zoë', 'Ärger', 'zoë ärger'), ('al-a_b-x', 'Al', 'A_b', 'al a_b'), ('al-axb-x', 'Al', 'Axb', 'al axb'),
                        ('zoe-arger-x', 'Zoe', 'Arger', 'zoe arger')`;
    const ids = async (path: string) => (await json(await http.get(`/api/v1${path}`))).data.map((p: { personId: string }) => p.personId);
    expect(await ids('/people?lastName=%C3%84r')).toEqual(['zoë-ärger-x']);
    expect(await ids('/people?lastName=a_&firstName=AL')).toEqual(['al-a_b-x']);
    expect(await ids('/people/names?search=zo%C3%AB%20%C3%A4')).toEqual(['zoë-ärger-x']);
    expect(await ids('/people/names?search=al%20a_')).toEqual(['al-a_b-x']);
    expect(await ids('/people/names?search=arg')).toEqual(['zoe-arger-x']);
    // The last code point, which has no successor: the range is open above.
    await db.sql`INSERT INTO person (person_id, first_name, last_name, name_norm) VALUES ('q-max-x', 'Q', ${'Q\u{10FFFF}z'}, ${'q q\u{10FFFF}z'})`;
    expect(await ids(`/people?lastName=${encodeURIComponent('q\u{10FFFF}')}`)).toEqual(['q-max-x']);
    expect(await ids(`/people/names?search=${encodeURIComponent('q q\u{10FFFF}')}`)).toEqual(['q-max-x']);
    expect(await ids(`/people/names?search=${encodeURIComponent('\u{10FFFF}')}`)).toEqual([]);
    await db.sql`DELETE FROM person WHERE person_id = 'q-max-x'`;
    await db.sql`DELETE FROM person WHERE person_id IN ('zoë-ärger-x', 'al-a_b-x', 'al-axb-x', 'zoe-arger-x')`;
  });

  it('counts every match on a page past the end of people and of names', async () => {
    for (const path of ['/people?pageSize=1', '/people/names?search=a&pageSize=1']) {
      const first = await json(await http.get(`/api/v1${path}`));
      expect(first.totalRecords, path).toBeGreaterThan(0);
      const beyond = await json(await http.get(`/api/v1${path}&page=1000`));
      expect({ data: beyond.data, totalRecords: beyond.totalRecords }, path).toEqual({ data: [], totalRecords: first.totalRecords });
    }
  });

  it('searches by last name and by company, and autocompletes names', async () => {
    const byName = await json(await http.get('/api/v1/people?lastName=leit'));
    expect(byName.data.map((p: { personId: string }) => p.personId)).toContain('gerhard-leitner-1966-02-21');
    const byCompany = await json(await http.get('/api/v1/people?fnr=0033918%20f'));
    expect(byCompany.data.map((p: { personId: string }) => p.personId)).toContain('gerhard-leitner-1966-02-21');
    const names = await json(await http.get('/api/v1/people/names?search=gerhard%20le'));
    expect(names.data[0]).toEqual({ personId: 'gerhard-leitner-1966-02-21', name: 'Gerhard Leitner', birthDate: '1966-02-21' });
    expect((await http.get('/api/v1/people/nobody-x-x')).status).toBe(404);
  });
});

describe('graph', () => {
  it('follows the corporate shareholder chain with typed edges', async () => {
    const depth1 = await json(await http.get('/api/v1/graph?fnr=287541f&depth=1'));
    const ids1 = depth1.nodes.map((n: { id: string }) => n.id);
    expect(ids1).toContain('company:388410t');
    expect(ids1).not.toContain('company:211904z');
    expect(depth1.edges).toContainEqual(expect.objectContaining({ source: 'company:388410t', target: 'company:287541f', type: 'holding' }));
    // A corporate holder is labelled with its own name, as its extract gives it.
    expect(depth1.nodes).toContainEqual(expect.objectContaining({ id: 'company:388410t', label: fixtureExtract('388410t').name, fnr: '388410t' }));
    const depth2 = await json(await http.get('/api/v1/graph?fnr=287541f&depth=2'));
    const ids2 = depth2.nodes.map((n: { id: string }) => n.id);
    expect(ids2).toEqual(expect.arrayContaining(['company:211904z', 'company:294417t']));
    expect(depth2.truncated).toBe(false);
    expect(depth2.edges.every((e: { type: string }) => e.type === 'holding' || e.type === 'function')).toBe(true);
  });

  it('starts from a person and refuses both or neither start', async () => {
    const body = await json(await http.get('/api/v1/graph?personId=gerhard-leitner-1966-02-21'));
    expect(body.nodes.map((n: { id: string }) => n.id)).toEqual(expect.arrayContaining(['person:gerhard-leitner-1966-02-21', 'company:211904z', 'company:33918f']));
    expect((await http.get('/api/v1/graph')).status).toBe(400);
    expect((await http.get('/api/v1/graph?fnr=287541f&personId=x')).status).toBe(400);
    expect((await http.get('/api/v1/graph?fnr=287541f&depth=4')).status).toBe(400);
  });
});

describe('document download', () => {
  it('serves a stored XML filing and a stored PDF in their own types', async () => {
    const xml = await http.get('/api/v1/documents/download/301466_7290202403011_000___000_30_38400010_XML');
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(Buffer.from(await xml.arrayBuffer())).toEqual(readFileSync(`${CORPUS}firmenbuch/dokumente/301466_7290202403011_000___000_30_38400010_XML.xml`));
    const pdf = await http.get('/api/v1/documents/download/455190_4580202505512_000___000_30_38400017_PDF');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('fetches a document the pipeline does not hold from the register, and answers 503 text/plain when it is down', async () => {
    const key = '667215_4990202606120_000___000_00_38400018_PDF';
    upstreamDown = true;
    const down = await http.get(`/api/v1/documents/download/${key}`);
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await down.text()).toBe(REGISTER_UNAVAILABLE);
    // The correlation id is on this answer too: generated, and echoed when sent.
    expect(down.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await http.get(`/api/v1/documents/download/${key}`, { 'x-correlation-id': 'c-503' });
    expect(echoed.status).toBe(503);
    expect(echoed.headers.get('x-correlation-id')).toBe('c-503');
    upstreamDown = false;
    const live = await http.get(`/api/v1/documents/download/${key}`);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await live.arrayBuffer())).toEqual(readFileSync(`${CORPUS}firmenbuch/dokumente/${key}.pdf`));
    const unknown = await http.get('/api/v1/documents/download/999999_0000000000000_000___000_00_1_XML');
    expect(unknown.status).toBe(404);
  });

  it('keeps a live-fetched copy only where the pipeline has stored none, so the text it extracted stays', async () => {
    const key = '287541_6090202302204_000___000_30_38400015_PDF';
    await db.sql`UPDATE document SET content = ${Buffer.from('%PDF-pipeline')}, text_content = 'extracted text' WHERE document_key = ${key}`;
    await keepFetchedContent(db.sql, key, Buffer.from('%PDF-live'));
    const [row] = await db.sql<{ content: Buffer; textContent: string | null }[]>`SELECT content, text_content FROM document WHERE document_key = ${key}`;
    expect({ content: row!.content.toString(), text: row!.textContent }).toEqual({ content: '%PDF-pipeline', text: 'extracted text' });
  });

  it('serves a document the register answered even when keeping its copy fails', async () => {
    const key = '287541_6090202302204_000___000_30_38400002_XML';
    await db.sql`UPDATE document SET content = NULL WHERE document_key = ${key}`;
    await db.sql`CREATE FUNCTION refuse_content() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`;
    await db.sql`CREATE TRIGGER refuse_content BEFORE UPDATE OF content ON document FOR EACH ROW EXECUTE FUNCTION refuse_content()`;
    try {
      const res = await http.get(`/api/v1/documents/download/${key}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(readFileSync(`${CORPUS}firmenbuch/dokumente/${key}.xml`));
    } finally {
      await db.sql`DROP TRIGGER refuse_content ON document`;
      await db.sql`DROP FUNCTION refuse_content()`;
    }
    const [kept] = await db.sql<{ kept: boolean }[]>`SELECT content IS NOT NULL AS kept FROM document WHERE document_key = ${key}`;
    expect(kept!.kept).toBe(false);
  });
});
