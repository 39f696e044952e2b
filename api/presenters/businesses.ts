// Companies as the API presents them: the profile (GET /businesses/{fnr}), name hits, similar
// companies and name resolution. A screener hit (presentScreenerRow, schemas/screenerRecords.ts) and
// the key-figure objects (schemas/figureRecords.ts) stay in schemas/: the indexer's in-memory columns
// write the same JSON.
import { presentedScore, type MatchBand, type NameHit, type ResolveBand } from '../../indexer/search/nameSearch.js';
import { figuresAsNumbers, presentKeyFigures } from '../../schemas/figureRecords.js';
import { codeAndText, presentScreenerRow, type ScreenerRow } from '../../schemas/screenerRecords.js';
import { presentLicence, type LicenceRow } from './licences.js';

// ---------------------------------------------------------------------------------------------------
// The profile: the rows loadProfile (api/operations/companyProfile.ts) reads, and their presentation

// Every collection arrives as a json array of camelCase objects (the client's column transform does
// not reach json keys), with the values the presenter got when these were separate queries: dates as
// 'YYYY-MM-DD' (json renders a date so, independent of DateStyle), numerics cast to text as the client
// returns numeric columns (Number() below, exactly as before), figures as the stored jsonb.
type IsoDate = string | null;

interface FilingRow {
  documentKey: string;
  documentDate: IsoDate;
  fiscalYearStart: IsoDate;
  fiscalYearEnd: IsoDate;
  currency: string | null;
  sizeClass: string | null;
  format: string;
  pnlMethod: string | null;
  kind: string | null;
  filedOn: IsoDate;
  figures: Record<string, unknown>;
}

interface PartyColumns {
  pnr: string;
  kind: string;
  personId: string | null;
  relatedFnr: string | null;
  organisationId: string | null;
  partyName: string | null;
}

interface FunctionRow extends PartyColumns {
  functionCode: string;
  functionText: string | null;
  representationCode: string | null;
  representationText: string | null;
  since: IsoDate;
  until: IsoDate;
  isCurrent: boolean;
}

interface HoldingRow extends PartyColumns {
  capital: string | null;
  paidIn: string | null;
  currency: string | null;
  since: IsoDate;
  until: IsoDate;
  isCurrent: boolean;
}

/** A filed document, with what became of an annual account's content and parse. */
interface DocumentRow {
  documentKey: string;
  typeCode: string | null;
  typeText: string | null;
  /** The register's DOKUMENTENDATUM (annual accounts come without one). */
  documentDate: IsoDate;
  /** The register's STICHTAG: the balance-sheet date of an annual account. */
  balanceSheetDate: IsoDate;
  filedOn: IsoDate;
  contentType: string | null;
  fileExtension: string | null;
  sizeClass: string | null;
  sizeBytes: number | null;
  remark: string | null;
  contentRefused: string | null;
  parseError: string | null;
  /** The parsed filing's documentDate (its fiscal year's end), when it parsed. */
  parsedDate: IsoDate;
  parsed: boolean;
}

/** The register's document type of annual accounts (Jahresabschluss). */
const ANNUAL_ACCOUNT_TYPE = '48';

export type ParseStatus = 'parsed' | 'failed' | 'pdfOnly' | 'pending';

const isPdf = (d: DocumentRow) => /pdf/i.test(d.contentType ?? d.fileExtension ?? '') || /_PDF$/i.test(d.documentKey);

/**
 * What became of an annual account's figures: read (`parsed`), not readable (`failed`, with the reason:
 * the parser's, or why the content was not taken), a PDF (`pdfOnly`: figures are read from XML filings
 * only), or not fetched yet (`pending`).
 */
function parseOutcome(d: DocumentRow): { parseStatus: ParseStatus; parseError: string | null } {
  if (d.parsed) return { parseStatus: 'parsed', parseError: null };
  if (isPdf(d)) return { parseStatus: 'pdfOnly', parseError: null };
  if (d.parseError !== null || d.contentRefused !== null) return { parseStatus: 'failed', parseError: d.parseError ?? d.contentRefused };
  return { parseStatus: 'pending', parseError: null };
}

/**
 * A document's date as the contract's documentDate means it: for an annual account the date its figures
 * are for (the balance-sheet date; parsedJahresabschluesse[].documentDate of the same filing), else the
 * date of the document as the register gives it.
 */
const documentDateOf = (d: DocumentRow): IsoDate =>
  (d.typeCode === ANNUAL_ACCOUNT_TYPE ? d.parsedDate ?? d.balanceSheetDate ?? d.documentDate : d.documentDate);

/** A holding's share of the registered capital in percent (2 decimals), where both amounts are known in one currency. */
function sharePercent(h: HoldingRow, capital: { amount: string | null; currency: string | null }): number | null {
  const total = toNumber(capital.amount);
  const held = toNumber(h.capital);
  if (!h.isCurrent || total === null || held === null || !(total > 0)) return null;
  if (h.currency !== null && capital.currency !== null && h.currency !== capital.currency) return null;
  return Math.round((held / total) * 10_000) / 100;
}

/** The company columns it shares with a screener hit, then its own. */
export interface ProfileRow extends Pick<ScreenerRow, 'fnr' | 'name' | 'legalFormCode' | 'legalFormText' | 'courtCode' | 'courtText'> {
  status: string;
  euid: string | null;
  seat: string | null;
  municipalityCode: string | null;
  municipalityText: string | null;
  capitalAmount: string | null;
  capitalCurrency: string | null;
  businessPurpose: string | null;
  oenaceNumericCode: string | null;
  lastCrawledAt: Date | null;
  isScheinunternehmen: boolean;
  names: { name: string; vnr: string }[] | null;
  addresses: {
    line: string | null; street: string | null; houseNumber: string | null; staircase: string | null; door: string | null;
    zipCode: string | null; city: string | null; country: string | null; isCurrent: boolean;
  }[] | null;
  oenaces: {
    code: string; isPrimary: boolean; shortTitleDe: string | null; titleDe: string | null; level: number | null; edvCode: string | null;
    source: string; confidence: number | null; evidence: { words: string[]; tradeKeys: string[] } | null;
  }[] | null;
  entries: { vnr: string; executedOn: IsoDate; courtCode: string | null; courtText: string | null; az: string | null; applicationTexts: string[] }[] | null;
  functions: FunctionRow[] | null;
  holdings: HoldingRow[] | null;
  filings: FilingRow[] | null;
  documents: DocumentRow[] | null;
  bogus: {
    publishedOn: string; decisionFinalOn: IsoDate; deemedSince: IsoDate; name: string; address: string | null; uid: string | null;
    urCode: string | null; listedFnr: string | null; linkEvidence: string | null; linkConfidence: string | null;
  }[] | null;
  notices: {
    ediktId: string; aktenzeichen: string | null; courtCode: string | null; courtName: string | null; proceedingCode: string | null;
    proceedingText: string | null; firstPublishedOn: IsoDate; lastPublishedOn: IsoDate; isOpen: boolean; linkEvidence: string | null;
    linkConfidence: string | null;
  }[] | null;
  licences: LicenceRow[] | null;
}

type Collection = 'names' | 'addresses' | 'oenaces' | 'entries' | 'functions' | 'holdings' | 'filings' | 'documents' | 'bogus' | 'notices' | 'licences';

/** The company row, and each of its collections as an array (empty when the statement found none). */
export type Profile = { company: Omit<ProfileRow, Collection> } & { [K in Collection]: NonNullable<ProfileRow[K]> };

const toNumber = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));

const partyRef = (r: PartyColumns) =>
  r.kind === 'person' ? { type: 'person', personId: r.personId } : r.kind === 'company' ? { type: 'company', fnr: r.relatedFnr } : { type: 'organisation', organisationId: r.organisationId };

export function presentProfile(p: Profile) {
  const c = p.company;
  const filings = p.filings.map((f) => ({
    documentKey: f.documentKey,
    documentDate: f.documentDate,
    fiscalYearStart: f.fiscalYearStart,
    fiscalYearEnd: f.fiscalYearEnd,
    currency: f.currency,
    sizeClass: f.sizeClass,
    format: f.format,
    pnlMethod: f.pnlMethod,
    kind: f.kind,
    filedOn: f.filedOn,
    // Stored figures as JSON numbers: a jsonb number arrives as its exact decimal text and JSON.parse
    // rounds it as Number() does. Fixed-shape literals (schemas/figureRecords.ts), not Object.fromEntries.
    ...figuresAsNumbers(f.figures ?? {}),
  }));
  const latest = filings[0];
  return {
    fnr: c.fnr,
    name: c.name,
    legalForm: codeAndText(c.legalFormCode, c.legalFormText),
    court: codeAndText(c.courtCode, c.courtText),
    isActive: c.status === 'active',
    isScheinunternehmen: c.isScheinunternehmen,
    scheinunternehmenKundmachungen: p.bogus.map((b) => ({
      name: b.name, publishedOn: b.publishedOn, decisionFinalOn: b.decisionFinalOn, deemedSince: b.deemedSince,
      address: b.address, uid: b.uid, urCode: b.urCode, listedFnr: b.listedFnr,
      link: { evidence: b.linkEvidence, confidence: toNumber(b.linkConfidence) },
    })),
    hasEdikt: p.notices.length > 0,
    euid: c.euid,
    seat: c.seat,
    municipality: codeAndText(c.municipalityCode, c.municipalityText),
    capital: c.capitalAmount ? { amount: Number(c.capitalAmount), currency: c.capitalCurrency } : null,
    businessPurpose: c.businessPurpose,
    formerNames: p.names.map((n) => ({ name: n.name, vnr: n.vnr })),
    addresses: p.addresses.map((a) => ({
      street: a.street ?? a.line, houseNumber: a.houseNumber, staircase: a.staircase, door: a.door, zipCode: a.zipCode, city: a.city,
      country: a.country, isCurrent: a.isCurrent,
    })),
    oenaces: p.oenaces.map((o) => ({
      code: o.code, kurztitel: o.shortTitleDe, title: o.titleDe, level: o.level, isPrimary: o.isPrimary,
      source: o.source, confidence: o.confidence === null ? null : Number(o.confidence), evidence: o.evidence,
    })),
    oenaceNumericCode: c.oenaceNumericCode ?? (p.oenaces[0]?.edvCode ? String(p.oenaces[0].edvCode).replace(/^[A-Z]/, '') : null),
    latestKeyFigures: latest ? presentKeyFigures(p.filings[0]!.figures ?? {}, latest.documentDate) : null,
    parsedJahresabschluesse: filings,
    functions: p.functions.map((f) => ({
      ...partyRef(f), name: f.partyName || null, functionCode: f.functionCode, functionText: f.functionText,
      representation: codeAndText(f.representationCode, f.representationText),
      since: f.since, until: f.until, isCurrent: f.isCurrent,
    })),
    shareholders: p.holdings.map((h) => ({
      ...partyRef(h), name: h.partyName || null, capital: toNumber(h.capital), paidIn: toNumber(h.paidIn), currency: h.currency,
      sharePercent: sharePercent(h, { amount: c.capitalAmount, currency: c.capitalCurrency }),
      since: h.since, until: h.until, isCurrent: h.isCurrent,
    })),
    registerEntries: p.entries.map((e) => ({
      vnr: e.vnr, executedOn: e.executedOn, court: codeAndText(e.courtCode, e.courtText), az: e.az,
      applicationTexts: e.applicationTexts,
    })),
    tradeLicenses: p.licences.map(presentLicence),
    openNotices: p.notices.filter((n) => n.isOpen).map((n) => ({
      ediktId: n.ediktId, aktenzeichen: n.aktenzeichen, court: codeAndText(n.courtCode, n.courtName),
      proceeding: codeAndText(n.proceedingCode, n.proceedingText),
      firstPublishedOn: n.firstPublishedOn, lastPublishedOn: n.lastPublishedOn,
      link: { evidence: n.linkEvidence, confidence: toNumber(n.linkConfidence) },
    })),
    annualAccountDocuments: p.documents.filter((d) => d.typeCode === ANNUAL_ACCOUNT_TYPE).map((d) => ({
      documentKey: d.documentKey, documentDate: documentDateOf(d), contentType: d.contentType, filedOn: d.filedOn,
      sizeClass: d.sizeClass, sizeBytes: d.sizeBytes, ...parseOutcome(d),
    })),
    documents: p.documents.map((d) => ({
      documentKey: d.documentKey, type: codeAndText(d.typeCode, d.typeText), documentDate: documentDateOf(d), filedOn: d.filedOn,
      contentType: d.contentType, sizeBytes: d.sizeBytes, remark: d.remark,
      ...(d.typeCode === ANNUAL_ACCOUNT_TYPE ? parseOutcome(d) : { parseStatus: null, parseError: null }),
    })),
    lastCrawledAt: c.lastCrawledAt instanceof Date ? c.lastCrawledAt.toISOString() : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Name search, similar companies, name resolution

/** Why an autocomplete entry matched, in the API's words. */
const MATCHED_ON: Record<MatchBand, 'name' | 'formerName' | 'fnr' | 'word' | 'fuzzy'> = {
  fnr: 'fnr', fnrPrefix: 'fnr', exact: 'name', prefix: 'name', word: 'word', formerExact: 'formerName', former: 'formerName', fuzzy: 'fuzzy',
};

/** An autocomplete entry (GET /businesses/names): matchedName is the former name for formerName, else the current one. */
export const presentNameHit = (h: NameHit) => ({
  fnr: h.fnr, name: h.name, city: h.city, isActive: h.isActive, matchedOn: MATCHED_ON[h.band], matchedName: h.matchedName ?? h.name,
});

/** A similar company: the screener hit plus its similarity. */
export const presentSimilar = (r: { row: ScreenerRow; similarity: number }) => ({ ...presentScreenerRow(r.row), similarity: r.similarity });

/** One name of POST /businesses/resolve-names: the best candidate when its band is not `none`, and every candidate. */
export function presentResolvedName(name: string, hits: NameHit[], band: ResolveBand) {
  const best = hits[0];
  return {
    name,
    fnr: band === 'none' ? null : best!.fnr,
    matchedName: band === 'none' ? null : best!.matchedName ?? best!.name,
    score: best ? presentedScore(best.score) : 0,
    match: band,
    candidates: hits.map((h) => ({ fnr: h.fnr, name: h.name, score: presentedScore(h.score) })),
  };
}
