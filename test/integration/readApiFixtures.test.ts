// The read API over the replayed corpus, checked field by field against what the fixture files hold.
// Expectations are read from the fixtures themselves in this file (AUSZUG_V2 and SUCHEURKUNDE XML by
// element and attribute local names, the expected/<KEY>.json figures), with a plain XML parser and
// without the pipeline's own parsers, so a parser, store or presenter mistake shows up as a difference.
// Covers: every company's profile, every person (two of them with functions in two companies), the
// graph from every company and person at every depth (the corporate shareholder chain
// 287541f <- 388410t <- 211904z / 294417t among them), and a live XML download through the fake register.
import { readdirSync, readFileSync } from 'node:fs';
import Router from '@koa/router';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { correlationId } from '../../api/middleware/correlationId.js';
import { errorHandler } from '../../api/middleware/errorHandler.js';
import { companyProfileRouter } from '../../api/routes/companyProfile.js';
import { documentsRouter } from '../../api/routes/documents.js';
import { graphRouter } from '../../api/routes/graph.js';
import { peopleRouter } from '../../api/routes/people.js';
import { firmenbuchDocumentSource } from '../../pipeline/firmenbuch/documentSource.js';
import { startFakeFirmenbuch, type FakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { oenaceClassifier } from '../../pipeline/oenace/derive.js';
import { replay } from '../../pipeline/replay/replay.js';
import { createLogger } from '../../runtime/logger.js';
import { companyKundmachungen } from '../helpers/bmfFixtures.js';
import { companyNotices, personOpenNotices } from '../helpers/edikteFixtures.js';
import { companyLicences, personLicences } from '../helpers/gisaFixtures.js';
import { json, serve, type JsonBody, type TestHttp } from '../helpers/httpClient.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const FB = `${CORPUS}firmenbuch/`;
const CATALOGUES = new URL('../../pipeline/catalogues/data/', import.meta.url).pathname;
const log = createLogger('silent');

// ---------------------------------------------------------------------------------------------------
// Reading the fixture XML: every element is an array of its occurrences, attributes are `@NAME`,
// namespace prefixes are dropped (the files use shuffled `nsN` prefixes).

type El = Record<string, unknown>;
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

const kids = (el: El | null | undefined, name: string): El[] =>
  ((el?.[name] as unknown[] | undefined) ?? []).map((v) => (typeof v === 'object' && v !== null ? (v as El) : { '#text': v }));
const kid = (el: El | null | undefined, name: string): El | null => kids(el, name)[0] ?? null;
const textOf = (el: El | null): string | null => {
  const t = el?.['#text'];
  return t === undefined || t === null || t === '' ? null : String(t);
};
const text = (el: El | null | undefined, name: string): string | null => textOf(kid(el, name));
const texts = (el: El | null | undefined, name: string): string[] => kids(el, name).map(textOf).filter((t): t is string => t !== null);
const attr = (el: El | null | undefined, name: string): string | null => {
  const v = el?.[`@${name}`];
  return v === undefined ? null : String(v);
};

/** Register dates come as YYYYMMDD or ISO. */
const date = (raw: string | null): string | null => {
  if (raw === null) return null;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}`;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(raw);
  if (!iso) throw new Error(`fixture date ${raw}`);
  return iso[1]!;
};
/**
 * Name and text lines joined as the register means them: a word hyphenated at a line end
 * ("Handels-" / "gesellschaft") is one word; "Bau-" / "und ..." (an elided compound) keeps the space.
 */
const joinRegisterLines = (lines: string[]) =>
  lines.reduce((joined, line) => (/\p{L}-$/u.test(joined) && /^\p{Ll}/u.test(line) && !/^(und|oder|sowie)\b/.test(line) ? joined.slice(0, -1) + line : `${joined} ${line}`));
/** Canonical fnr per api-decisions.md: no spaces, no leading zeros, lower case. */
const canonicalFnr = (raw: string) => raw.replace(/\s+/g, '').replace(/^0+/, '').toLowerCase();
/** personId per the spec: firstname-lastname-birthdate, lower case, inner spaces as hyphens, x for a missing part. */
const personIdOf = (first: string | null, last: string | null, birth: string | null) =>
  [first, last, birth].map((p) => (p === null || p.trim() === '' ? 'x' : p.trim().toLowerCase().replace(/\s+/g, '-'))).join('-');
const num = (v: string | null) => (v === null ? null : Number(v));
const codeText = (el: El | null) => (el && text(el, 'CODE') !== null ? { code: text(el, 'CODE')!, text: text(el, 'TEXT') } : null);

const vnrNumber = (g: El) => Number.parseInt(attr(g, 'VNR') ?? '-1', 10);
const isAufrecht = (g: El) => attr(g, 'AUFRECHT') !== 'false';
/** The standing instance of a data group: AUFRECHT with the highest VNR, else the latest overwritten one. */
function current(groups: El[]): El | null {
  const newestFirst = [...groups].sort((a, b) => vnrNumber(b) - vnrNumber(a));
  return newestFirst.find(isAufrecht) ?? newestFirst[0] ?? null;
}

function soapBody(file: string, operation: string): El {
  const doc = xml.parse(readFileSync(file, 'utf8')) as El;
  const root = kid(kid(kid(doc, 'Envelope'), 'Body'), operation);
  if (!root) throw new Error(`${file}: no ${operation}`);
  return root;
}

// ---------------------------------------------------------------------------------------------------
// The corpus as the fixtures state it

type PartyRef = { type: 'person'; personId: string } | { type: 'company'; fnr: string } | { type: 'organisation'; key: string };

interface FixtureParty {
  ref: PartyRef;
  pnr: string;
  /** Person: first and last name; organisation / company: the designation lines. */
  firstName: string | null;
  lastName: string | null;
  titleBefore: string | null;
  titleAfter: string | null;
  birthDate: string | null;
  designation: string | null;
}

interface FixtureFunction {
  party: FixtureParty;
  functionCode: string;
  functionText: string | null;
  representation: { code: string; text: string | null } | null;
  since: string | null;
  until: string | null;
  isCurrent: boolean;
  capital: number | null;
  paidIn: number | null;
  currency: string | null;
}

interface FixtureDocument {
  documentKey: string; documentTypeCode: string | null; documentTypeText: string | null; documentDate: string | null; balanceSheetDate: string | null;
  contentType: string | null; filedOn: string | null; sizeClass: string | null; sizeBytes: number | null; remark: string | null;
}

interface FixtureCompany {
  fnr: string;
  name: string;
  formerNames: { name: string; vnr: string }[];
  legalForm: { code: string; text: string | null } | null;
  court: { code: string; text: string | null } | null;
  isActive: boolean;
  euid: string | null;
  seat: string | null;
  municipality: { code: string; text: string | null } | null;
  capital: { amount: number; currency: string | null } | null;
  businessPurpose: string | null;
  addresses: { street: string | null; houseNumber: string | null; staircase: string | null; door: string | null; zipCode: string | null; city: string | null; country: string | null; isCurrent: boolean }[];
  registerEntries: { vnr: string; executedOn: string | null; court: { code: string; text: string | null } | null; az: string | null; applicationTexts: string[] }[];
  /** Every FUN block with a PER block (GS included: those are the holdings). */
  functions: FixtureFunction[];
  documents: FixtureDocument[];
}

function readParty(per: El): FixtureParty {
  const pnr = (attr(per, 'PNR') ?? '').trim();
  const nameGroup = current(kids(per, 'PE_DKZ02'));
  const designationLines = texts(nameGroup, 'BEZEICHNUNG');
  const designation = designationLines.length > 0 ? joinRegisterLines(designationLines) : null;
  const peFnr = text(current(kids(per, 'PE_DKZ09')), 'PE_FNR');
  const base = {
    pnr, designation, firstName: text(nameGroup, 'VORNAME'), lastName: text(nameGroup, 'NACHNAME'),
    titleBefore: text(nameGroup, 'TITELVOR'), titleAfter: text(nameGroup, 'TITELNACH'), birthDate: date(text(nameGroup, 'GEBURTSDATUM')),
  };
  if (peFnr !== null) return { ...base, ref: { type: 'company', fnr: canonicalFnr(peFnr) } };
  if (designation !== null) {
    const foreignNumber = text(current(kids(per, 'PE_DKZ06')), 'AUSL_FN');
    return { ...base, ref: { type: 'organisation', key: `${designation}|${foreignNumber ?? ''}` } };
  }
  return { ...base, ref: { type: 'person', personId: personIdOf(base.firstName, base.lastName, base.birthDate) } };
}

/** Every data group of FIRMA, FUN and PER (for the deletion marker). */
function dataGroups(root: El): El[] {
  const groupsOf = (parent: El | null) =>
    Object.keys(parent ?? {}).filter((k) => /^(FI|FU|PE)_DKZ\d+$/.test(k)).flatMap((k) => kids(parent, k));
  return [kid(root, 'FIRMA'), ...kids(root, 'FUN'), ...kids(root, 'PER')].flatMap(groupsOf);
}

function readCompany(fnr: string): FixtureCompany {
  const root = soapBody(`${FB}auszug/${fnr}.xml`, 'AUSZUG_V2_RESPONSE');
  if (canonicalFnr(attr(root, 'FNR')!) !== fnr) throw new Error(`${fnr}.xml names ${attr(root, 'FNR')}`);
  const asOf = date(attr(root, 'STICHTAG'));
  const firma = kid(root, 'FIRMA');
  const nameGroups = kids(firma, 'FI_DKZ02');
  const currentName = current(nameGroups)!;
  const addressGroups = kids(firma, 'FI_DKZ03');
  const currentAddress = current(addressGroups);
  const seatGroup = current(kids(firma, 'FI_DKZ06'));
  const capitalGroup = current(kids(firma, 'FI_DKZ20'));
  const purpose = texts(current(kids(firma, 'FI_DKZ05')), 'TEXT');
  const entries = kids(root, 'VOLLZ')
    .map((v) => ({ vnr: text(v, 'VNR')!, executedOn: date(text(v, 'VOLLZUGSDATUM')), court: codeText(kid(v, 'HG')), az: text(v, 'AZ'), applicationTexts: texts(v, 'ANTRAGSTEXT') }))
    .sort((a, b) => Number(a.vnr) - Number(b.vnr));
  const parties = new Map(kids(root, 'PER').map((per) => [(attr(per, 'PNR') ?? '').trim(), readParty(per)]));
  const functions = kids(root, 'FUN').flatMap((fun): FixtureFunction[] => {
    const party = parties.get((attr(fun, 'PNR') ?? '').trim());
    if (!party) return [];
    const main = current(kids(fun, 'FU_DKZ10'));
    const paid = current(kids(fun, 'FU_DKZ11'));
    const until = date(text(main, 'DATBIS'));
    return [{
      party,
      functionCode: attr(fun, 'FKEN')!.trim(),
      functionText: attr(fun, 'FKENTEXT'),
      representation: codeText(kid(main, 'VART')),
      since: date(text(main, 'DATVON')),
      until,
      isCurrent: main !== null && isAufrecht(main) && attr(main, 'MIT_FIRMA_GELOESCHT_DURCH_VNR') === null && (until === null || asOf === null || until > asOf),
      capital: num(text(main, 'KAPITAL')),
      paidIn: num(text(paid, 'EINBEZAHLT')),
      currency: text(main, 'WHR') ?? text(paid, 'WHR'),
    }];
  });
  let documents: FixtureDocument[] = [];
  try {
    const listing = soapBody(`${FB}urkunden/${fnr}.xml`, 'SUCHEURKUNDERESPONSE');
    documents = kids(listing, 'ERGEBNIS').map((hit) => ({
      documentKey: text(hit, 'KEY')!, documentTypeCode: text(kid(hit, 'DOKUMENTART'), 'CODE'), documentTypeText: text(kid(hit, 'DOKUMENTART'), 'TEXT'),
      documentDate: date(text(hit, 'DOKUMENTENDATUM')), balanceSheetDate: date(text(hit, 'STICHTAG')), contentType: text(hit, 'CONTENTTYPE'),
      filedOn: date(text(hit, 'EINGEREICHT')), sizeClass: text(hit, 'GKL'), sizeBytes: num(text(hit, 'GROESSE')), remark: text(hit, 'BEMERKUNG'),
    }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const lastWithCourt = [...entries].reverse().find((e) => e.court !== null);
  const euids = kids(root, 'EUID');
  const euid = euids.find((e) => (text(e, 'ZNR') ?? '000') === '000') ?? euids[0];
  return {
    fnr,
    name: joinRegisterLines(texts(currentName, 'BEZEICHNUNG')),
    formerNames: nameGroups.filter((g) => g !== currentName && !isAufrecht(g))
      .sort((a, b) => vnrNumber(a) - vnrNumber(b)).map((g) => ({ name: joinRegisterLines(texts(g, 'BEZEICHNUNG')), vnr: attr(g, 'VNR')! })),
    legalForm: codeText(kid(current(kids(firma, 'FI_DKZ07')), 'RECHTSFORM')),
    court: lastWithCourt?.court ?? null,
    isActive: !dataGroups(root).some((g) => attr(g, 'MIT_FIRMA_GELOESCHT_DURCH_VNR') !== null),
    euid: text(euid, 'EUID'),
    seat: text(seatGroup, 'SITZ'),
    municipality: codeText(kid(seatGroup, 'ORTNR')),
    capital: text(capitalGroup, 'KAPITAL') === null ? null : { amount: Number(text(capitalGroup, 'KAPITAL')), currency: text(capitalGroup, 'WHR') },
    businessPurpose: purpose.length > 0 ? joinRegisterLines(purpose) : null,
    // The standing address first, then the overwritten ones, newest first.
    addresses: [...(currentAddress ? [currentAddress] : []), ...addressGroups.filter((g) => g !== currentAddress).sort((a, b) => vnrNumber(b) - vnrNumber(a))]
      .map((g) => ({
        street: text(g, 'STRASSE') ?? (texts(g, 'STELLE').length > 0 ? texts(g, 'STELLE').join(', ') : null),
        houseNumber: text(g, 'HAUSNUMMER'), staircase: text(g, 'STIEGE'), door: text(g, 'TUERNUMMER'),
        zipCode: text(g, 'PLZ'), city: text(g, 'ORT'), country: text(g, 'STAAT'), isCurrent: g === currentAddress && isAufrecht(g),
      })),
    registerEntries: entries,
    functions,
    documents,
  };
}

interface ExpectedFiling { documentKey: string; documentDate: string; figures: Record<string, string | null> }
function expectedFiling(key: string): ExpectedFiling | null {
  try {
    const e = JSON.parse(readFileSync(`${FB}expected/${key}.json`, 'utf8')) as { documentDate: string; figures: Record<string, string | null> };
    return { documentKey: key, ...e };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
const figureNumbers = (figures: Record<string, string | null>) => Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, num(v)]));

// Codes are worded as the bundled catalogues word them (the same text /legalforms, /courts and the
// screener give for a code); the register's own wording only stands in for a code the catalogue lacks.
const catalogue = (file: string, code: string, name: string) =>
  new Map((parseCsv(readFileSync(`${CATALOGUES}${file}`, 'utf8'), { columns: true }) as Record<string, string>[]).map((r) => [r[code]!, r[name]!]));
const legalFormNames = catalogue('firmenbuch_rechtsformen.csv', 'fb_code', 'name_de');
const courtNames = catalogue('firmenbuch_courts.csv', 'fb_court_code', 'name');
const worded = (names: Map<string, string>, v: { code: string; text: string | null } | null) => (v ? { code: v.code, text: names.get(v.code) ?? v.text } : null);

const FNRS = readdirSync(`${FB}auszug`).filter((f) => f.endsWith('.xml')).map((f) => f.slice(0, -4)).sort();
const companies = new Map(FNRS.map((fnr) => [fnr, readCompany(fnr)]));

/** A party's name as the API gives it: a person's first and last name, a company's own current name when the corpus holds it, an organisation's designation. */
function partyName(p: FixtureParty): string | null {
  if (p.ref.type === 'person') return [p.firstName, p.lastName].filter(Boolean).join(' ') || null;
  if (p.ref.type === 'company') return companies.get(p.ref.fnr)?.name ?? null;
  return p.designation;
}

// Organisation ids are the service's own; answers are compared with organisations keyed by their name
// (and foreign register number), the way the fixture identifies them.
function refFields(ref: PartyRef) {
  if (ref.type === 'person') return { type: 'person', personId: ref.personId };
  if (ref.type === 'company') return { type: 'company', fnr: ref.fnr };
  return { type: 'organisation', organisationId: expect.stringMatching(/\S/) };
}

const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0);
const sorted = <T>(items: T[]) => [...items].sort(byJson);
const sortedBy = <T>(items: T[], key: (t: T) => string) => [...items].sort((a, b) => key(a).localeCompare(key(b)));

// ---------------------------------------------------------------------------------------------------

let db: TestDatabase;
let http: TestHttp;
let fake: FakeFirmenbuch;

beforeAll(async () => {
  db = await createTestDatabase();
  await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, fixturesDir: CORPUS, prefix: `readfx-${process.pid}` });
  fake = await startFakeFirmenbuch({ corpus: CORPUS, port: 0 });
  const live = new FirmenbuchClient({ baseUrl: fake.url, timeoutMs: 5000 });
  const app = new Koa();
  app.silent = true;
  app.use(correlationId());
  app.use(errorHandler(log));
  const api = new Router({ prefix: '/api/v1' });
  for (const router of [peopleRouter(db.sql), graphRouter(db.sql), documentsRouter({ sql: db.sql, documents: firmenbuchDocumentSource(db.sql, live), log }), companyProfileRouter(db.sql)]) {
    api.use(router.routes());
  }
  app.use(api.routes());
  http = await serve(app);
});
afterAll(async () => {
  await http?.close();
  await fake?.close();
  await db?.drop();
});

async function getJson(path: string): Promise<JsonBody> {
  const res = await http.get(encodeURI(path));
  expect(res.status, path).toBe(200);
  return json(res);
}

describe('the fixtures cover what the acceptance asks for', () => {
  it('holds a corporate shareholder chain of three levels and people with functions in two companies', () => {
    const holders = (fnr: string) => companies.get(fnr)!.functions.filter((f) => f.functionCode === 'GS' && f.party.ref.type === 'company').map((f) => (f.party.ref as { fnr: string }).fnr);
    expect(holders('287541f')).toEqual(['388410t']);
    expect(holders('388410t').sort()).toEqual(['211904z', '294417t']);
    const companiesOf = (personId: string) => new Set(FNRS.filter((fnr) => companies.get(fnr)!.functions.some((f) => f.party.ref.type === 'person' && f.party.ref.personId === personId)));
    expect(companiesOf('gerhard-leitner-1966-02-21')).toEqual(new Set(['211904z', '33918f']));
    expect(companiesOf('eva-schöberl-1975-06-12')).toEqual(new Set(['211904z', '402287z']));
  });
});

describe('company profile, every fixture company field by field', () => {
  it.each(FNRS)('%s', async (fnr) => {
    const c = companies.get(fnr)!;
    const body = await getJson(`/api/v1/businesses/${fnr}`);

    expect({
      fnr: body.fnr, name: body.name, legalForm: body.legalForm, court: body.court, isActive: body.isActive, euid: body.euid, seat: body.seat,
      municipality: body.municipality, capital: body.capital, businessPurpose: body.businessPurpose,
    }).toEqual({
      fnr, name: c.name, legalForm: worded(legalFormNames, c.legalForm), court: c.court && { code: c.court.code, text: courtNames.get(c.court.code) ?? null }, isActive: c.isActive, euid: c.euid, seat: c.seat,
      municipality: c.municipality, capital: c.capital, businessPurpose: c.businessPurpose,
    });
    expect(body.formerNames).toEqual(c.formerNames);
    expect(body.addresses).toEqual(c.addresses);
    expect(body.registerEntries).toEqual(c.registerEntries);

    // Functions: every FUN with its party, code, text and kind of representation; GS blocks are also the shareholders.
    const functions = c.functions.map((f) => ({
      ...refFields(f.party.ref), name: partyName(f.party), functionCode: f.functionCode, functionText: f.functionText,
      representation: f.representation, since: f.since, until: f.until, isCurrent: f.isCurrent,
    }));
    const fnKey = (f: { functionCode: string; name: string | null; since: string | null }) => `${f.functionCode}|${f.name}|${f.since}`;
    expect(sortedBy(body.functions, fnKey)).toEqual(sortedBy(functions, fnKey));
    // The share of the registered capital: current holdings of a company whose capital the extract gives, in its currency.
    const shareOf = (f: FixtureFunction) => (f.isCurrent && f.capital !== null && c.capital && c.capital.amount > 0
      && (f.currency === null || c.capital.currency === null || f.currency === c.capital.currency)
      ? Math.round((f.capital / c.capital.amount) * 10_000) / 100 : null);
    const shareholders = c.functions.filter((f) => f.functionCode === 'GS').map((f) => ({
      ...refFields(f.party.ref), name: partyName(f.party), capital: f.capital, paidIn: f.paidIn, currency: f.currency, sharePercent: shareOf(f),
      since: f.since, until: f.until, isCurrent: f.isCurrent,
    }));
    const shKey = (s: { name: string | null; capital: number | null }) => `${s.name}|${s.capital}`;
    expect(sortedBy(body.shareholders, shKey)).toEqual(sortedBy(shareholders, shKey));

    // Documents: every document of the company's listing with its type; the annual accounts (type 48) also on their own,
    // dated by the date their figures are for (the parsed filing's, else the listing's STICHTAG), with their parse outcome:
    // the corpus expects figures from some XML filings; the other XML filings did not parse, and PDFs are never parsed.
    const annualAccounts = c.documents.filter((d) => d.documentTypeCode === '48');
    const outcome = (d: FixtureDocument) => (expectedFiling(d.documentKey)
      ? { parseStatus: 'parsed', parseError: null }
      : /pdf/.test(d.contentType ?? '') ? { parseStatus: 'pdfOnly', parseError: null } : { parseStatus: 'failed', parseError: expect.any(String) });
    const dateOf = (d: FixtureDocument) => (d.documentTypeCode === '48' ? expectedFiling(d.documentKey)?.documentDate ?? d.balanceSheetDate ?? d.documentDate : d.documentDate);
    expect(sortedBy(body.annualAccountDocuments, (d: { documentKey: string }) => d.documentKey)).toEqual(sortedBy(annualAccounts.map((d) => ({
      documentKey: d.documentKey, documentDate: dateOf(d), contentType: d.contentType, filedOn: d.filedOn, sizeClass: d.sizeClass, sizeBytes: d.sizeBytes,
      ...outcome(d),
    })), (d) => d.documentKey));
    expect(sortedBy(body.documents, (d: { documentKey: string }) => d.documentKey)).toEqual(sortedBy(c.documents.map((d) => ({
      documentKey: d.documentKey, type: d.documentTypeCode ? { code: d.documentTypeCode, text: d.documentTypeText } : null, documentDate: dateOf(d),
      filedOn: d.filedOn, contentType: d.contentType, sizeBytes: d.sizeBytes, remark: d.remark,
      ...(d.documentTypeCode === '48' ? outcome(d) : { parseStatus: null, parseError: null }),
    })), (d) => d.documentKey));

    // Filings: one per listed filing the corpus expects to parse, with exactly its expected figures; the latest by documentDate is latestKeyFigures.
    const filings = annualAccounts.map((d) => ({ filing: expectedFiling(d.documentKey), listing: d })).filter((f) => f.filing !== null);
    const expectedFilings = filings.map(({ filing, listing }) => ({
      documentKey: filing!.documentKey, documentDate: filing!.documentDate, filedOn: listing.filedOn, ...figureNumbers(filing!.figures),
    }));
    const figureKeys = Object.keys(filings[0]?.filing?.figures ?? {});
    const projected = (body.parsedJahresabschluesse as Record<string, unknown>[]).map((f) =>
      Object.fromEntries(['documentKey', 'documentDate', 'filedOn', ...figureKeys].map((k) => [k, f[k]])));
    expect(sortedBy(projected, (f) => String(f.documentKey))).toEqual(sortedBy(expectedFilings, (f) => String(f.documentKey)));
    const dates = (body.parsedJahresabschluesse as { documentDate: string }[]).map((f) => f.documentDate);
    expect(dates, 'newest documentDate first').toEqual([...dates].sort().reverse());
    const latest = [...filings].sort((a, b) => b.filing!.documentDate.localeCompare(a.filing!.documentDate))[0]?.filing;
    expect(body.latestKeyFigures).toEqual(latest ? { documentDate: latest.documentDate, ...figureNumbers(latest.figures) } : null);
    if (latest) expect(Object.keys(latest.figures)).toHaveLength(47);

    // The BMF list's publications of the company, as the list fixtures and their labelled links hold them.
    const kundmachungen = companyKundmachungen(fnr);
    expect({ isScheinunternehmen: body.isScheinunternehmen, scheinunternehmenKundmachungen: body.scheinunternehmenKundmachungen })
      .toEqual({ isScheinunternehmen: kundmachungen.length > 0, scheinunternehmenKundmachungen: kundmachungen });
    // The Ediktsdatei's notices of the company, as the edict fixtures and their labelled links hold them.
    expect({ hasEdikt: body.hasEdikt, openNotices: body.openNotices }).toEqual(companyNotices(fnr));
    // Industry codes: derived from the business purpose and the current licences' trade keys, as the classifier reads them.
    const tradeKeys = (body.tradeLicenses as Array<{ tradeKey: string | null; isActive: boolean }>).filter((l) => l.isActive && l.tradeKey).map((l) => l.tradeKey!);
    const derived = oenaceClassifier().classify({ purposeText: body.businessPurpose, tradeKeys })
      .sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || b.confidence - a.confidence || (a.code < b.code ? -1 : 1));
    expect(body.oenaces.map(({ code, isPrimary, source, confidence, evidence }: JsonBody) => ({ code, isPrimary, source, confidence, evidence })))
      .toEqual(derived.map((d) => ({ ...d, source: 'derived' })));
    expect(body.oenaceNumericCode).toBe(derived[0] ? derived[0].code.replace(/^[A-Z] /, '').replace(/[.-]/g, '') : null);
    // The trade register's licences of the company, as the GISA fixtures hold them.
    expect(body.tradeLicenses).toEqual(companyLicences(fnr, people));
    expect(Date.now() - new Date(body.lastCrawledAt).getTime()).toBeLessThan(600_000);
  });
});

// ---------------------------------------------------------------------------------------------------
// People: everyone the fixtures name, with their functions in every company

interface FixturePerson { personId: string; occurrences: { company: FixtureCompany; party: FixtureParty }[] }
const people = new Map<string, FixturePerson>();
for (const c of companies.values()) {
  for (const f of c.functions) {
    if (f.party.ref.type !== 'person') continue;
    const person = people.get(f.party.ref.personId) ?? { personId: f.party.ref.personId, occurrences: [] };
    if (!person.occurrences.some((o) => o.company === c && o.party === f.party)) person.occurrences.push({ company: c, party: f.party });
    people.set(person.personId, person);
  }
}
const PERSON_IDS = [...people.keys()].sort();

describe('people, every person of the fixtures field by field', () => {
  it('the two people with functions in two companies hold different function codes and representations there', async () => {
    for (const personId of ['gerhard-leitner-1966-02-21', 'eva-schöberl-1975-06-12']) {
      const person = people.get(personId)!;
      const expected = person.occurrences.flatMap(({ company, party }) =>
        company.functions.filter((f) => f.party === party).map((f) => ({ fnr: company.fnr, functionCode: f.functionCode, representation: f.representation })));
      expect(new Set(expected.map((e) => e.fnr)).size, personId).toBe(2);
      expect(new Set(expected.map((e) => e.functionCode)).size, personId).toBe(2);
      const body = await getJson(`/api/v1/people/${personId}`);
      expect(sorted(body.functions.map((f: { fnr: string; functionCode: string; representation: unknown }) => ({ fnr: f.fnr, functionCode: f.functionCode, representation: f.representation }))))
        .toEqual(sorted(expected));
    }
  });

  it.each(PERSON_IDS)('%s', async (personId) => {
    const person = people.get(personId)!;
    const first = person.occurrences[0]!.party;
    const body = await getJson(`/api/v1/people/${personId}`);
    const functions = person.occurrences.flatMap(({ company, party }) =>
      company.functions.filter((f) => f.party === party).map((f) => ({
        fnr: company.fnr, companyName: company.name, companyIsActive: company.isActive, functionCode: f.functionCode, functionText: f.functionText,
        representation: f.representation, since: f.since, until: f.until, isCurrent: f.isCurrent,
      })));
    expect({ ...body, functions: sorted(body.functions) }).toEqual({
      personId,
      firstName: first.firstName,
      lastName: first.lastName,
      titles: { before: first.titleBefore, after: first.titleAfter },
      birthDate: first.birthDate,
      functions: sorted(functions),
      openNotices: personOpenNotices(personId, functions),
      hasOpenNotices: personOpenNotices(personId, functions).length > 0,
      tradeLicenses: personLicences(personId, people),
    });
    // Current functions come before former ones.
    const currentFlags = body.functions.map((f: { isCurrent: boolean }) => f.isCurrent);
    expect(currentFlags).toEqual([...currentFlags].sort((a: boolean, b: boolean) => Number(b) - Number(a)));
  });
});

// ---------------------------------------------------------------------------------------------------
// Graph: the current links of the fixtures, walked breadth first

interface Node { id: string; type: 'company' | 'person' | 'organisation'; label: string; fnr?: string; personId?: string; isActive?: boolean }
interface Edge { source: string; target: string; type: 'holding' | 'function'; [field: string]: unknown }

function partyNode(p: FixtureParty): Node {
  if (p.ref.type === 'person') return { id: `person:${p.ref.personId}`, type: 'person', label: partyName(p)!, personId: p.ref.personId };
  if (p.ref.type === 'company') {
    const held = companies.get(p.ref.fnr);
    return held
      ? { id: `company:${p.ref.fnr}`, type: 'company', label: held.name, fnr: p.ref.fnr, isActive: held.isActive }
      : { id: `company:${p.ref.fnr}`, type: 'company', label: p.ref.fnr, fnr: p.ref.fnr };
  }
  return { id: `organisation:~${p.ref.key}`, type: 'organisation', label: p.designation! };
}
const companyNode = (c: FixtureCompany): Node => ({ id: `company:${c.fnr}`, type: 'company', label: c.name, fnr: c.fnr, isActive: c.isActive });

/** Every current function and holding as an edge from the party to the company (api-decisions.md's edge fields). */
const links: { edge: Edge; nodes: [Node, Node] }[] = [...companies.values()].flatMap((c) =>
  c.functions.filter((f) => f.isCurrent).map((f) => {
    const source = partyNode(f.party);
    const target = companyNode(c);
    const edge: Edge = f.functionCode === 'GS'
      ? { source: source.id, target: target.id, type: 'holding', capital: f.capital, paidIn: f.paidIn, currency: f.currency, since: f.since }
      : { source: source.id, target: target.id, type: 'function', functionCode: f.functionCode, functionText: f.functionText, representation: f.representation, since: f.since };
    return { edge, nodes: [source, target] as [Node, Node] };
  }));

/** Nodes within `depth` links of the start; edges with an end closer than `depth` (the walk expands those). */
function expectedGraph(start: Node, depth: number): { nodes: Node[]; edges: Edge[] } {
  const distance = new Map<string, number>([[start.id, 0]]);
  const nodes = new Map<string, Node>([[start.id, start]]);
  for (let level = 0; level < depth; level++) {
    for (const { nodes: ends } of links) {
      const [a, b] = ends;
      for (const [from, to] of [[a, b], [b, a]] as const) {
        if (distance.get(from.id) === level && !distance.has(to.id)) {
          distance.set(to.id, level + 1);
          nodes.set(to.id, to);
        }
      }
    }
  }
  const edges = links.filter(({ nodes: [a, b] }) => Math.min(distance.get(a.id) ?? Infinity, distance.get(b.id) ?? Infinity) < depth).map((l) => l.edge);
  return { nodes: [...nodes.values()], edges };
}

/** The answer with organisation ids replaced by the fixture's key for them (name | foreign number), via their label. */
function normaliseOrganisations(body: { nodes: Node[]; edges: Edge[] }) {
  const ids = new Map<string, string>();
  for (const n of body.nodes) {
    if (n.type !== 'organisation') continue;
    expect(n.id).toMatch(/^organisation:\S+$/);
    const matches = links.flatMap((l) => l.nodes).filter((f) => f.type === 'organisation' && f.label === n.label);
    expect(new Set(matches.map((m) => m.id)).size, `one fixture organisation is labelled ${n.label}`).toBe(1);
    ids.set(n.id, matches[0]!.id);
  }
  const id = (v: string) => ids.get(v) ?? v;
  return { nodes: body.nodes.map((n) => ({ ...n, id: id(n.id) })), edges: body.edges.map((e) => ({ ...e, source: id(e.source), target: id(e.target) })) };
}

async function checkGraph(query: string, start: Node, depth: number) {
  const body = await getJson(`/api/v1/graph?${query}&depth=${depth}`);
  expect(body.truncated).toBe(false);
  const ids = new Set(body.nodes.map((n: Node) => n.id));
  expect(ids.size, 'node ids are unique').toBe(body.nodes.length);
  for (const e of body.edges as Edge[]) expect(ids.has(e.source) && ids.has(e.target), `${e.source} -> ${e.target}`).toBe(true);
  const answer = normaliseOrganisations(body);
  const expected = expectedGraph(start, depth);
  expect(sortedBy(answer.nodes, (n) => n.id)).toEqual(sortedBy(expected.nodes, (n) => n.id));
  expect(sorted(answer.edges)).toEqual(sorted(expected.edges));
  return body as { nodes: Node[]; edges: Edge[] };
}

describe('graph', () => {
  it('walks the corporate shareholder chain with holding edges carrying the fixture capital, paid-in amount, currency and date', async () => {
    const a = companies.get('287541f')!;
    const body = await checkGraph('fnr=287541f', companyNode(a), 3);
    // The chain A <- B <- C/D, each holding edge as its GS block states it.
    const chain = [['287541f', '388410t'], ['388410t', '211904z'], ['388410t', '294417t']] as const;
    for (const [held, holder] of chain) {
      const gs = companies.get(held)!.functions.find((f) => f.functionCode === 'GS' && f.party.ref.type === 'company' && f.party.ref.fnr === holder)!;
      expect(gs.capital, `${holder} holds capital in ${held}`).not.toBeNull();
      expect(body.edges.filter((e) => e.source === `company:${holder}` && e.target === `company:${held}`)).toEqual([
        { source: `company:${holder}`, target: `company:${held}`, type: 'holding', capital: gs.capital, paidIn: gs.paidIn, currency: gs.currency, since: gs.since },
      ]);
      expect(body.nodes.find((n) => n.id === `company:${holder}`)).toEqual(companyNode(companies.get(holder)!));
    }
    // A function edge: A's managing director with code, text and kind of representation.
    const gf = a.functions.find((f) => f.functionCode === 'GF')!;
    expect(gf.representation).not.toBeNull();
    expect(body.edges).toContainEqual({
      source: partyNode(gf.party).id, target: 'company:287541f', type: 'function', functionCode: 'GF', functionText: gf.functionText,
      representation: gf.representation, since: gf.since,
    });
    // Depth 3 reaches the people of C and D but not what only they lead to.
    expect(body.nodes.map((n) => n.id)).toContain('person:gerhard-leitner-1966-02-21');
    expect(body.nodes.map((n) => n.id)).not.toContain('company:33918f');
  });

  it.each(FNRS.flatMap((fnr) => [1, 2, 3].map((depth) => [fnr, depth] as const)))('from company %s at depth %i', async (fnr, depth) => {
    await checkGraph(`fnr=${fnr}`, companyNode(companies.get(fnr)!), depth);
  });

  it.each(PERSON_IDS.flatMap((personId) => [1, 2].map((depth) => [personId, depth] as const)))('from person %s at depth %i', async (personId, depth) => {
    await checkGraph(`personId=${personId}`, partyNode(people.get(personId)!.occurrences[0]!.party), depth);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('document download, live through the fake register', () => {
  it('fetches an XML filing the database holds no bytes for from the register: application/xml and exactly the bytes the register serves', async () => {
    const key = '287541_6090202302204_000___000_30_38400002_XML';
    const file = readFileSync(`${FB}dokumente/${key}.xml`);
    // The pipeline stored the filing; drop its bytes so only the register can answer.
    const cleared = await db.sql`UPDATE document SET content = NULL WHERE document_key = ${key} RETURNING document_key`;
    expect(cleared).toHaveLength(1);
    const before = fake.stats.requests.urkunde;

    const res = await http.get(`/api/v1/documents/download/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml(;|$)/);
    expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);
    expect(fake.stats.requests.urkunde, 'one URKUNDE request reached the register').toBe(before + 1);

    // The fetched bytes are kept: the next download is the stored copy, without asking the register again.
    const [kept] = await db.sql<{ content: Buffer | null }[]>`SELECT content FROM document WHERE document_key = ${key}`;
    expect(kept!.content && Buffer.from(kept!.content).equals(file)).toBe(true);
    const again = await http.get(`/api/v1/documents/download/${key}`);
    expect(again.headers.get('content-type')).toMatch(/^application\/xml(;|$)/);
    expect(Buffer.from(await again.arrayBuffer()).equals(file)).toBe(true);
    expect(fake.stats.requests.urkunde).toBe(before + 1);
  });

  it('fetches an XML document the database does not know at all, by its key', async () => {
    const key = '412785_8180202201412_000___000_30_38400001_XML';
    const file = readFileSync(`${FB}dokumente/${key}.xml`);
    await db.sql`DELETE FROM annual_account WHERE document_key = ${key}`;
    expect(await db.sql`DELETE FROM document WHERE document_key = ${key} RETURNING document_key`).toHaveLength(1);
    const before = fake.stats.requests.urkunde;
    const res = await http.get(`/api/v1/documents/download/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml(;|$)/);
    expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);
    expect(fake.stats.requests.urkunde).toBe(before + 1);
  });
});
