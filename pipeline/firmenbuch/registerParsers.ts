// SUCHEFIRMA, SUCHEURKUNDE, URKUNDE, VERAENDERUNGENFIRMA and VERAENDERUNGENURKUNDE -> plain records
// (schemas/firmenbuchRecords.ts).

import {
  ARTEN_DER_VERAENDERUNG,
  type ChangeDetail,
  type ChangeKind,
  type CompanyChange,
  type CompanyChangesResult,
  type CompanySearchHit,
  type CompanySearchResult,
  type DocumentChange,
  type DocumentChangesResult,
  type DocumentContent,
  type DocumentListing,
  type DocumentMetadata,
  type DocumentSearchResult,
  type SearchStatus,
} from '../../schemas/firmenbuchRecords.js';
import {
  attribute,
  childElement,
  childElements,
  childText,
  childTexts,
  elementText,
  type XmlElement,
} from './soapResponse.js';
import { Warnings, codeText, dateValue, fnrValue, pnrValue, responseRoot } from './extractParser.js';


// ---------------------------------------------------------------------------------------------------
// Document KEY

/**
 * KEY = `FNR_AZ_ZNR_PNR_FKEN_UNR_DKZ_URKID_TYPE`; its first segment is the FN's digits, zero-padded to six,
 * without the check letter. Everything else in the KEY is treated as opaque.
 */
export function fnrDigitsFromKey(key: string): string | null {
  const m = /^(\d{1,6})_/.exec(key.trim());
  return m ? String(Number(m[1])) : null;
}

/** Canonical FN from the FNR element; falls back to the request's FNR when the digits agree. */
function documentFnr(raw: string | null, fallback: string | null, digits: string | null, warnings: Warnings): string | null {
  const own = fnrValue(raw, 'FNR', warnings);
  if (own) return own.fnr;
  return fallback !== null && digits !== null && fallback.replace(/[a-z]$/, '') === digits ? fallback : null;
}

// ---------------------------------------------------------------------------------------------------
// SUCHEFIRMA

export const SUCHEFIRMA_MAX_HITS = 1000;

/** STATUS: "" registered, "historisch", "gelöscht"; anything else is read as registered and warned. */
function searchStatus(text: string, warnings: Warnings): SearchStatus {
  const t = text.trim().toLowerCase();
  if (t === 'gelöscht' || t === 'geloescht') return 'deleted';
  if (t === 'historisch') return 'historical';
  if (t !== '') warnings.add(`STATUS: unknown value ${JSON.stringify(text)}`);
  return 'active';
}

function optionalAttribute(root: XmlElement, name: string): string | null {
  return attribute(root, name)?.trim() || null;
}

function booleanAttribute(root: XmlElement, name: string): boolean | null {
  const value = optionalAttribute(root, name);
  return value === null ? null : value === 'true' || value === '1';
}

function searchHit(hit: XmlElement, warnings: Warnings): CompanySearchHit | null {
  const fnr = fnrValue(childText(hit, 'FNR'), 'ERGEBNIS/FNR', warnings);
  if (!fnr) return null;
  const nameLines = childTexts(hit, 'NAME');
  const statusText = elementText(childElement(hit, 'STATUS')) ?? '';
  return {
    fnr: fnr.fnr,
    fnrCheckLetterValid: fnr.checkLetterValid,
    status: searchStatus(statusText, warnings),
    statusText,
    name: nameLines.length > 0 ? nameLines.join(' ') : null,
    nameLines,
    seat: childText(hit, 'SITZ'),
    legalForm: codeText(childElement(hit, 'RECHTSFORM')),
    legalCharacteristic: childText(hit, 'RECHTSEIGENSCHAFT'),
    court: codeText(childElement(hit, 'GERICHT')),
  };
}

export function parseSucheFirma(input: XmlElement | string): CompanySearchResult {
  const root = responseRoot(input, 'sucheFirma');
  const warnings = new Warnings();
  const hits = childElements(root, 'ERGEBNIS')
    .map((hit) => searchHit(hit, warnings))
    .filter((hit): hit is CompanySearchHit => hit !== null);
  const searchArea = optionalAttribute(root, 'REQUEST_SUCHBEREICH');
  return {
    request: {
      name: attribute(root, 'REQUEST_FIRMENWORTLAUT'),
      exact: booleanAttribute(root, 'REQUEST_EXAKTESUCHE'),
      searchArea: searchArea === null ? null : Number(searchArea),
      court: optionalAttribute(root, 'REQUEST_GERICHT'),
      legalForm: optionalAttribute(root, 'REQUEST_RECHTSFORM'),
      legalCharacteristic: optionalAttribute(root, 'REQUEST_RECHTSEIGENSCHAFT'),
      municipalityCode: optionalAttribute(root, 'REQUEST_ORTNR'),
    },
    hits,
    capped: hits.length >= SUCHEFIRMA_MAX_HITS,
    warnings: warnings.list,
  };
}

// ---------------------------------------------------------------------------------------------------
// SUCHEURKUNDE

function sizeValue(raw: string | null, warnings: Warnings): number | null {
  if (raw === null) return null;
  if (!/^\d+$/.test(raw)) {
    warnings.add(`GROESSE: unreadable size ${JSON.stringify(raw)}`);
    return null;
  }
  return Number(raw);
}

function documentListing(hit: XmlElement, requestFnr: string | null, warnings: Warnings): DocumentListing {
  const key = childText(hit, 'KEY') ?? '';
  const fnrDigits = fnrDigitsFromKey(key);
  return {
    key,
    fnr: documentFnr(childText(hit, 'FNR'), requestFnr, fnrDigits, warnings),
    fnrDigits,
    az: childText(hit, 'AZ'),
    documentType: codeText(childElement(hit, 'DOKUMENTART')),
    documentDate: dateValue(childText(hit, 'DOKUMENTENDATUM'), 'DOKUMENTENDATUM', warnings),
    contentType: childText(hit, 'CONTENTTYPE'),
    fileExtension: childText(hit, 'DATEIENDUNG'),
    sizeBytes: sizeValue(childText(hit, 'GROESSE'), warnings),
    remark: childText(hit, 'BEMERKUNG'),
    balanceSheetDate: dateValue(childText(hit, 'STICHTAG'), 'STICHTAG', warnings),
    sizeClass: childText(hit, 'GKL'),
    vnr: childText(hit, 'VNR'),
    filedOn: dateValue(childText(hit, 'EINGEREICHT'), 'EINGEREICHT', warnings),
  };
}

export function parseSucheUrkunde(input: XmlElement | string): DocumentSearchResult {
  const root = responseRoot(input, 'sucheUrkunde');
  const warnings = new Warnings();
  const requestFnr = fnrValue(optionalAttribute(root, 'REQUEST_FNR'), 'REQUEST_FNR', warnings)?.fnr ?? null;
  return {
    requestFnr,
    requestAz: optionalAttribute(root, 'REQUEST_AZ'),
    documents: childElements(root, 'ERGEBNIS').map((hit) => documentListing(hit, requestFnr, warnings)),
    warnings: warnings.list,
  };
}

// ---------------------------------------------------------------------------------------------------
// URKUNDE

function metadata(meta: XmlElement | null, warnings: Warnings): DocumentMetadata {
  const key = childText(meta, 'KEY') ?? '';
  const fnrDigits = fnrDigitsFromKey(key);
  return {
    key,
    documentId: childText(meta, 'URKID'),
    fnr: documentFnr(childText(meta, 'FNR'), null, fnrDigits, warnings),
    fnrDigits,
    az: childText(meta, 'AZ'),
    documentType: codeText(childElement(meta, 'DOKUMENTART')),
    documentDate: dateValue(childText(meta, 'DOKUMENTENDATUM'), 'DOKUMENTENDATUM', warnings),
    branchNumber: childText(meta, 'ZNR'),
    pnr: pnrValue(childText(meta, 'PNR')) || null,
    functionCode: childText(meta, 'FKEN'),
    unr: childText(meta, 'UNR'),
    dkz: childText(meta, 'DKZ'),
    vnr: childText(meta, 'VNR'),
    remark: childText(meta, 'BEMERKUNG'),
    balanceSheetDate: dateValue(childText(meta, 'STICHTAG'), 'STICHTAG', warnings),
    sizeClass: childText(meta, 'GKL'),
    archivedOn: dateValue(childText(meta, 'VON'), 'VON', warnings),
    isPublic: booleanText(childText(meta, 'OEFFENTLICH')),
  };
}

function booleanText(value: string | null): boolean | null {
  return value === null ? null : value === 'true' || value === '1';
}

/**
 * CONTENT is read as raw text (no entity processing, for speed): line breaks may come as whitespace or
 * as character references (`&#13;`), both of which are not base64 and are dropped before decoding.
 */
export function decodeBase64Content(raw: string): Buffer {
  return Buffer.from(raw.replace(/&#x?[0-9a-fA-F]+;|\s+/g, ''), 'base64');
}

export function parseUrkunde(input: XmlElement | string): DocumentContent {
  const root = responseRoot(input, 'urkunde');
  const warnings = new Warnings();
  const dokument = childElement(root, 'DOKUMENT');
  const raw = childText(dokument, 'CONTENT');
  const content = raw === null ? null : decodeBase64Content(raw);
  return {
    asOf: dateValue(optionalAttribute(root, 'STICHTAG'), 'URKUNDERESPONSE/@STICHTAG', warnings),
    metadata: metadata(childElement(root, 'METADATEN'), warnings),
    content,
    contentType: childText(dokument, 'CONTENTTYPE'),
    fileExtension: childText(dokument, 'DATEIENDUNG'),
    sizeBytes: content?.length ?? null,
    warnings: warnings.list,
  };
}

// ---------------------------------------------------------------------------------------------------
// VERAENDERUNGENFIRMA

const CHANGE_KINDS: ReadonlySet<string> = new Set<ChangeKind>(['Neueintragung', 'Änderung', 'Löschung', ...ARTEN_DER_VERAENDERUNG]);

/** Transliterated spellings are tolerated; they map to the documented ones. */
const CHANGE_KIND_ALIASES: Readonly<Record<string, ChangeKind>> = { Aenderung: 'Änderung', Loeschung: 'Löschung' };

function changeKind(text: string): ChangeKind | 'unknown' {
  if (CHANGE_KINDS.has(text)) return text as ChangeKind;
  return CHANGE_KIND_ALIASES[text] ?? 'unknown';
}

function changeDetail(detail: XmlElement, warnings: Warnings): ChangeDetail | null {
  const pnr = childText(detail, 'PNR');
  if (pnr !== null || childText(detail, 'FKEN') !== null) {
    // FKEN comes space-padded ("GF ") like PNR.
    return { type: 'function', pnr: pnrValue(pnr), functionCode: (childText(detail, 'FKEN') ?? '').trim() };
  }
  const takingOver = fnrValue(childText(detail, 'FNR_UEBERNEHMENDE'), 'DETAIL/FNR_UEBERNEHMENDE', warnings);
  const transferring = fnrValue(childText(detail, 'FNR_UEBERTRAGENDE'), 'DETAIL/FNR_UEBERTRAGENDE', warnings);
  if (!takingOver && !transferring) return null;
  return { type: 'transformation', takingOverFnr: takingOver?.fnr ?? null, transferringFnr: transferring?.fnr ?? null };
}

function companyChange(change: XmlElement, warnings: Warnings): CompanyChange | null {
  const fnr = fnrValue(childText(change, 'FNR'), 'VERAENDERUNG/FNR', warnings);
  if (!fnr) return null;
  const kindText = childText(change, 'ARTDERVERAENDERUNG') ?? '';
  const kind = changeKind(kindText);
  if (kind === 'unknown') warnings.add(`ARTDERVERAENDERUNG: unknown value ${JSON.stringify(kindText)}`);
  return {
    fnr: fnr.fnr,
    fnrCheckLetterValid: fnr.checkLetterValid,
    vnr: childText(change, 'VNR'),
    executedOn: dateValue(childText(change, 'VOLLZUGSDATUM'), 'VOLLZUGSDATUM', warnings),
    kind,
    kindText,
    details: childElements(change, 'DETAIL')
      .map((d) => changeDetail(d, warnings))
      .filter((d): d is ChangeDetail => d !== null),
  };
}

export function parseVeraenderungenFirma(input: XmlElement | string): CompanyChangesResult {
  const root = responseRoot(input, 'veraenderungenFirma');
  const warnings = new Warnings();
  return {
    from: dateValue(optionalAttribute(root, 'VON'), '@VON', warnings),
    to: dateValue(optionalAttribute(root, 'BIS'), '@BIS', warnings),
    filter: {
      court: optionalAttribute(root, 'GERICHT'),
      legalForm: optionalAttribute(root, 'RECHTSFORM'),
      kind: optionalAttribute(root, 'ARTDERVERAENDERUNG'),
    },
    changes: childElements(root, 'VERAENDERUNG')
      .map((c) => companyChange(c, warnings))
      .filter((c): c is CompanyChange => c !== null),
    warnings: warnings.list,
  };
}

// ---------------------------------------------------------------------------------------------------
// VERAENDERUNGENURKUNDE

function documentChange(change: XmlElement, warnings: Warnings): DocumentChange {
  const key = childText(change, 'KEY') ?? '';
  const fnrDigits = fnrDigitsFromKey(key);
  if (fnrDigits === null) warnings.add(`KEY: no FN prefix in ${JSON.stringify(key)}`);
  return {
    key,
    fnrDigits,
    documentType: codeText(childElement(change, 'DOKUMENTART')),
    executedOn: dateValue(childText(change, 'VOLLZUGSDATUM'), 'VOLLZUGSDATUM', warnings),
    contentType: childText(change, 'CONTENTTYPE'),
    fileExtension: childText(change, 'DATEIENDUNG'),
  };
}

export function parseVeraenderungenUrkunde(input: XmlElement | string): DocumentChangesResult {
  const root = responseRoot(input, 'veraenderungenUrkunde');
  const warnings = new Warnings();
  return {
    from: dateValue(optionalAttribute(root, 'VON'), '@VON', warnings),
    to: dateValue(optionalAttribute(root, 'BIS'), '@BIS', warnings),
    documents: childElements(root, 'VERAENDERUNG').map((c) => documentChange(c, warnings)),
    warnings: warnings.list,
  };
}
