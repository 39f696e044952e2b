// Writes Firmenbuch-shaped data: SOAP response XML as the HVD service sends it (all 18 namespaces on the
// root with shuffled `nsN` prefixes, qualified attributes, the service's FN spellings), annual-account
// filings with known figures, small PDFs, and whole replay corpora in the layout of
// fixtures/corpus/README.md. Used by fixtures/corpus/generateCorpus.ts (the bundled corpus), by the fake
// upstream (fakeUpstream.ts builds its responses with the same writers) and by the ingestion benchmark
// (`writeSyntheticCorpus(dir, { companies: N, seed })`).
//
// Everything is a pure function of its input and a seeded PRNG: the same seed writes the same bytes.

import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fnrCheckLetter, fnrDigitsPadded } from '../../../schemas/identifiers.js';
import { KEY_FIGURES, emptyFigures, figureJsonKey, type FigureValues } from '../../../schemas/keyFigures.js';
import type { CodeText } from '../extractParser.js';
import type { CompanyChange, DocumentChange, DocumentListing } from '../registerParsers.js';
import {
  FIRMENBUCH_OPERATIONS,
  SOAP_11_ENVELOPE_NS,
  SOAP_12_ENVELOPE_NS,
  escapeXml,
  type FirmenbuchOperation,
  type SoapVersion,
} from '../soapEnvelope.js';

// ---------------------------------------------------------------------------------------------------
// Seeded randomness

export type Random = () => number;

/** mulberry32: tiny, fast, good enough for test data; the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function between(random: Random, low: number, high: number): number {
  return low + (high - low) * random();
}

function intBetween(random: Random, low: number, high: number): number {
  return Math.floor(between(random, low, high + 1));
}

function shuffled<T>(random: Random, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Register codes used by the writers

const FB = 'ns://firmenbuch.justiz.gv.at/Abfrage';

/** The 18 namespaces every HVD response declares on its root (HVD-PDF examples, AF recordings). */
export const FIRMENBUCH_NAMESPACES: readonly string[] = [
  `${FB}/AuszugRequest`, `${FB}/AuszugResponse`, `${FB}/v1/AuszugRequest`, `${FB}/v1/AuszugResponse`,
  `${FB}/v2/AuszugRequest`, `${FB}/v2/AuszugResponse`, `${FB}/SucheFirmaRequest`, `${FB}/SucheFirmaResponse`,
  `${FB}/SucheUrkundeRequest`, `${FB}/SucheUrkundeResponse`, `${FB}/UrkundeRequest`, `${FB}/UrkundeResponse`,
  `${FB}/VeraenderungenFirmaRequest`, `${FB}/VeraenderungenFirmaResponse`, `${FB}/VeraenderungenUrkundeRequest`,
  `${FB}/VeraenderungenUrkundeResponse`, `${FB}/v2/FBWertetabellen`, `${FB}/v2/FBWertetabellenRequest`,
];

/** Firmenbuch courts (pipeline/catalogues/data/firmenbuch_courts.csv). */
export const FIRMENBUCH_COURTS: Readonly<Record<string, string>> = {
  '007': 'Handelsgericht Wien', '309': 'Landesgericht Eisenstadt', '929': 'Landesgericht Feldkirch',
  '638': 'Landesgericht für ZRS Graz', '818': 'Landesgericht Innsbruck', '729': 'Landesgericht Klagenfurt',
  '119': 'Landesgericht Korneuburg', '129': 'Landesgericht Krems an der Donau', '609': 'Landesgericht Leoben',
  '458': 'Landesgericht Linz', '469': 'Landesgericht Ried im Innkreis', '569': 'Landesgericht Salzburg',
  '499': 'Landesgericht Steyr', '199': 'Landesgericht St. Pölten', '519': 'Landesgericht Wels',
  '239': 'Landesgericht Wiener Neustadt',
};

export const LEGAL_FORMS: Readonly<Record<string, string>> = {
  GES: 'Gesellschaft mit beschränkter Haftung', AG: 'Aktiengesellschaft', KG: 'Kommanditgesellschaft',
  OG: 'Offene Gesellschaft', GEN: 'Erwerbs- und Wirtschaftsgenossenschaft', PST: 'Privatstiftung',
  EU: 'Eingetragene(r) Unternehmer(in)', SE: 'Europäische Gesellschaft (SE)',
};

/**
 * FKEN texts. GF, PR, GS and VM are confirmed codes; AR, PH, KM, LI and IH are placeholders (the sources
 * name no code for Aufsichtsrat, Komplementär, Kommanditist, Liquidator, Inhaber).
 */
export const FUNCTION_TEXTS: Readonly<Record<string, string>> = {
  GF: 'GESCHÄFTSFÜHRER/IN (handelsrechtlich)', PR: 'PROKURIST/IN', GS: 'GESELLSCHAFTER/IN', VM: 'VORSTANDSMITGLIED',
  AR: 'MITGLIED DES AUFSICHTSRATES', PH: 'UNBESCHRÄNKT HAFTENDE/R GESELLSCHAFTER/IN', KM: 'KOMMANDITIST/IN',
  LI: 'LIQUIDATOR/IN', IH: 'INHABER/IN',
};

export const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  '42': 'Gesellschaftsvertrag', '48': 'Jahresabschluss', '49': 'Konzernabschluss', '61': 'Musterzeichnung',
};

const EINZELVERTRETUNG: CodeText = { code: 'E', text: 'Einzelvertretung' };

// ---------------------------------------------------------------------------------------------------
// FN spellings and document keys

/** Canonical FN for a number: digits plus check letter (`30435h`). */
export function fnrOf(digits: number): string {
  return `${digits}${fnrCheckLetter(digits)}`;
}

function fnrParts(fnr: string): { digits: string; letter: string } {
  const m = /^0*(\d{1,6})\s*([a-z])$/i.exec(fnr.trim());
  if (!m) throw new RangeError(`not a Firmenbuchnummer: ${fnr}`);
  return { digits: m[1]!, letter: m[2]!.toLowerCase() };
}

/** `12345 x`: AUSZUG_V2, SUCHEURKUNDE and VERAENDERUNGENFIRMA spell the FN this way. */
export function fnrSpaced(fnr: string): string {
  const { digits, letter } = fnrParts(fnr);
  return `${digits} ${letter}`;
}

/** `012345x`: filings and some PE_FNR values. */
export function fnrPadded(fnr: string): string {
  const { digits, letter } = fnrParts(fnr);
  return `${digits.padStart(6, '0')}${letter}`;
}

/** `12345x`: SUCHEFIRMA hits. */
export function fnrPlain(fnr: string): string {
  const { digits, letter } = fnrParts(fnr);
  return `${digits}${letter}`;
}

export interface AktenzeichenParts {
  court: string;
  /** Abteilung, 3 digits. */
  department?: string;
  /** Four-digit year of the application. */
  year: number;
  number: number;
}

/** `458 020 Fr 871/26 f` (the trailing letter is the AZ's own check letter; its rule is unknown). */
export function aktenzeichen(p: AktenzeichenParts): string {
  const yy = String(p.year % 100).padStart(2, '0');
  const letter = 'abdfghikmpstvwxyz'.charAt((p.number * 7 + p.year) % 17);
  return `${p.court} ${p.department ?? '020'} Fr ${p.number}/${yy} ${letter}`;
}

export interface DocumentKeyParts extends AktenzeichenParts {
  fnr: string;
  znr?: string;
  pnr?: string;
  fken?: string;
  unr?: string;
  /** `30` for annual accounts, `00` for contracts in the recorded keys. */
  dkz: string;
  urkid: number;
  type: 'XML' | 'PDF';
}

/** KEY = `FNR6_AZ_ZNR_PNR_FKEN_UNR_DKZ_URKID_TYPE`, AZ = court(3) + Abteilung(3) + year(2) + number(5). */
export function documentKey(p: DocumentKeyParts): string {
  const az = `${p.court}${p.department ?? '020'}${String(p.year % 100).padStart(2, '0')}${String(p.number).padStart(5, '0')}`;
  return [fnrDigitsPadded(fnrPlain(p.fnr)), az, p.znr ?? '000', p.pnr ?? '', p.fken ?? '', p.unr ?? '000', p.dkz, String(p.urkid), p.type].join('_');
}

// ---------------------------------------------------------------------------------------------------
// Response XML

export type Attrs = Readonly<Record<string, string | null | undefined>>;
type Child = string | null | undefined | false;

/** nsN prefixes for the 18 namespaces: numbers 2..19 shuffled, as the service's vary per response. */
export function namespacePrefixes(random: Random): Map<string, string> {
  const numbers = shuffled(random, FIRMENBUCH_NAMESPACES.map((_, i) => i + 2));
  return new Map(FIRMENBUCH_NAMESPACES.map((ns, i) => [ns, `ns${numbers[i]!}`]));
}

/** `xmlns:nsN="…"` for every namespace, sorted by prefix text like the recorded responses. */
export function namespaceDeclarations(prefixes: ReadonlyMap<string, string>): string {
  return [...prefixes.entries()]
    .sort((a, b) => (a[1] < b[1] ? -1 : 1))
    .map(([ns, prefix]) => ` xmlns:${prefix}="${escapeXml(ns)}"`)
    .join('');
}

/**
 * Writes the elements of one response: every element and attribute in the response namespace, with the
 * prefix this response drew for it.
 */
export class ResponseXml {
  readonly prefix: string;
  readonly prefixes: ReadonlyMap<string, string>;

  constructor(readonly operation: FirmenbuchOperation, random: Random) {
    this.prefixes = namespacePrefixes(random);
    this.prefix = this.prefixes.get(FIRMENBUCH_OPERATIONS[operation].responseNamespace)!;
  }

  private attributes(attrs: Attrs | null | undefined): string {
    if (!attrs) return '';
    return Object.entries(attrs)
      .filter((e): e is [string, string] => e[1] !== null && e[1] !== undefined)
      .map(([name, value]) => ` ${name.includes(':') ? name : `${this.prefix}:${name}`}="${escapeXml(value)}"`)
      .join('');
  }

  /** An element with already written children (XML strings). */
  el(name: string, attrs: Attrs | null, ...children: Child[]): string {
    const inner = children.filter((c): c is string => typeof c === 'string').join('');
    const tag = `${this.prefix}:${name}`;
    return inner === '' ? `<${tag}${this.attributes(attrs)}/>` : `<${tag}${this.attributes(attrs)}>${inner}</${tag}>`;
  }

  /** A text element; nothing for null/undefined, an empty element for ''. */
  text(name: string, value: string | number | null | undefined, attrs: Attrs | null = null): string {
    if (value === null || value === undefined) return '';
    return this.el(name, attrs, escapeXml(String(value)));
  }

  codeText(name: string, value: CodeText | null | undefined): string {
    if (!value) return '';
    return this.el(name, null, this.text('CODE', value.code), this.text('TEXT', value.text));
  }

  /** The response root, carrying all namespace declarations. */
  root(attrs: Attrs | null, ...children: Child[]): string {
    const name = FIRMENBUCH_OPERATIONS[this.operation].responseRoot;
    const inner = children.filter((c): c is string => typeof c === 'string').join('');
    const tag = `${this.prefix}:${name}`;
    return `<${tag}${namespaceDeclarations(this.prefixes)}${this.attributes(attrs)}>${inner}</${tag}>`;
  }
}

/** SOAP 1.1 uses `SOAP-ENV` (as AF recorded), SOAP 1.2 `env` (as in the HVD-PDF examples). */
export function soapEnvelope(version: SoapVersion, body: string): string {
  const [prefix, ns] = version === '1.2' ? ['env', SOAP_12_ENVELOPE_NS] : ['SOAP-ENV', SOAP_11_ENVELOPE_NS];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<${prefix}:Envelope xmlns:${prefix}="${ns}"><${prefix}:Header/><${prefix}:Body>${body}</${prefix}:Body></${prefix}:Envelope>`
  );
}

// ---------------------------------------------------------------------------------------------------
// AUSZUG_V2 from a company description

export interface AddressSpec {
  /** One-liner STELLE form; otherwise the split street fields are written. */
  lines?: string[];
  street?: string;
  houseNumber?: string;
  staircase?: string;
  door?: string;
  deliveryNote?: string;
  zip?: string;
  city?: string;
  /** ISO 3166 alpha-3, default AUT. */
  country?: string;
  deliverable?: boolean;
}

export interface Versioned {
  vnr: string;
  /** AUFRECHT; default true. */
  current?: boolean;
}

export interface FunctionSpec extends Versioned {
  pnr: string;
  code: string;
  /** DATVON as written (`20190506` or `2019-05-06`); null writes `xsi:nil="true"`. */
  since?: string | null;
  until?: string;
  representation?: CodeText;
  capital?: string;
  paidIn?: string;
  texts?: string[];
}

export interface PersonSpec {
  pnr: string;
  vnr?: string;
  firstName?: string;
  lastName?: string;
  titleBefore?: string;
  titleAfter?: string;
  /** As written: `YYYYMMDD` or ISO. */
  birthDate?: string;
  /** Legal-entity party: BEZEICHNUNG lines instead of a name. */
  designation?: string[];
  /** PE_DKZ09/PE_FNR as written (any spelling): the party is itself a registered company. */
  registeredFnr?: string;
  address?: AddressSpec;
  foreign?: { court: string; registerNumber: string; seat: string; legalForm: CodeText };
}

export interface RegisterEntrySpec {
  vnr: string;
  date: string;
  texts: string[];
  receivedOn?: string;
  az?: string;
}

export interface CompanySpec {
  /** Canonical FN (`30435h`). */
  fnr: string;
  names: Array<Versioned & { lines: string[] }>;
  addresses: Array<Versioned & AddressSpec>;
  purpose?: string[];
  seat: { code: string; name: string };
  legalForm: string;
  /** FI_DKZ15, e.g. `{ code: 'KI', text: 'Kreditunternehmen' }`. */
  legalCharacteristic?: CodeText;
  capital?: { amount: string; currency?: string; vnr?: string };
  court: string;
  functions: FunctionSpec[];
  persons: PersonSpec[];
  entries: RegisterEntrySpec[];
  /** MIT_FIRMA_GELOESCHT_DURCH_VNR on every data group: the company is deleted by this entry. */
  deletedByVnr?: string;
  kur?: string;
  /** STICHTAG of the stored extract. */
  asOf: string;
  /** Root FNR spelling; the service sends `12345 x`. */
  fnrSpelling?: 'spaced' | 'padded' | 'plain';
}

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

function spelledFnr(fnr: string, spelling: CompanySpec['fnrSpelling']): string {
  if (spelling === 'padded') return fnrPadded(fnr);
  if (spelling === 'plain') return fnrPlain(fnr);
  return fnrSpaced(fnr);
}

function groupAttrs(group: Versioned, deletedBy: string | undefined): Attrs {
  return { AUFRECHT: group.current === false ? 'false' : 'true', MIT_FIRMA_GELOESCHT_DURCH_VNR: deletedBy, VNR: group.vnr };
}

/** DKZ03 content: a choice between STELLE lines and the split fields, then STAAT/PLZ/ORT/ZUSTELLBAR. */
function addressContent(w: ResponseXml, a: AddressSpec): string[] {
  const place = [w.text('STAAT', a.country ?? 'AUT'), w.text('PLZ', a.zip), w.text('ORT', a.city)];
  const deliverable = a.deliverable === undefined ? '' : w.text('ZUSTELLBAR', String(a.deliverable));
  if (a.lines) return [...a.lines.map((l) => w.text('STELLE', l)), ...place, deliverable];
  return [
    w.text('ZUSTELLANWEISUNG', a.deliveryNote),
    w.text('STRASSE', a.street),
    w.text('HAUSNUMMER', a.houseNumber),
    w.text('STIEGE', a.staircase),
    w.text('TUERNUMMER', a.door),
    ...place,
    deliverable,
  ];
}

function firmaXml(w: ResponseXml, c: CompanySpec): string {
  const del = c.deletedByVnr;
  return w.el(
    'FIRMA',
    null,
    ...c.names.map((n) => w.el('FI_DKZ02', groupAttrs(n, del), ...n.lines.map((l) => w.text('BEZEICHNUNG', l)))),
    ...c.addresses.map((a) => w.el('FI_DKZ03', groupAttrs(a, del), ...addressContent(w, a))),
    c.purpose ? w.el('FI_DKZ05', groupAttrs({ vnr: '001' }, del), ...c.purpose.map((t) => w.text('TEXT', t))) : '',
    w.el('FI_DKZ06', groupAttrs({ vnr: '001' }, del), w.codeText('ORTNR', { code: c.seat.code, text: c.seat.name }), w.text('SITZ', c.seat.name)),
    w.el('FI_DKZ07', groupAttrs({ vnr: '001' }, del), w.codeText('RECHTSFORM', { code: c.legalForm, text: LEGAL_FORMS[c.legalForm] ?? c.legalForm })),
    c.legalCharacteristic ? w.el('FI_DKZ15', groupAttrs({ vnr: '001' }, del), w.codeText('RECHTSEIGENSCHAFT', c.legalCharacteristic)) : '',
    c.capital
      ? w.el('FI_DKZ20', groupAttrs({ vnr: c.capital.vnr ?? '001' }, del), w.text('WHR', c.capital.currency ?? 'EUR'), w.text('KAPITAL', c.capital.amount))
      : '',
  );
}

function functionXml(w: ResponseXml, f: FunctionSpec, deletedBy: string | undefined): string {
  const since =
    f.since === null ? `<${w.prefix}:DATVON xmlns:xsi="${XSI}" xsi:nil="true"/>` : w.text('DATVON', f.since);
  const main = w.el(
    'FU_DKZ10',
    groupAttrs(f, deletedBy),
    since,
    w.text('DATBIS', f.until),
    f.capital !== undefined ? w.text('WHR', 'EUR') : '',
    w.text('KAPITAL', f.capital),
    w.codeText('VART', f.representation),
    ...(f.texts ?? []).map((t) => w.text('TEXT', t)),
  );
  const paid = f.paidIn !== undefined ? w.el('FU_DKZ11', groupAttrs(f, deletedBy), w.text('WHR', 'EUR'), w.text('EINBEZAHLT', f.paidIn)) : '';
  return w.el('FUN', { FKEN: f.code, FKENTEXT: FUNCTION_TEXTS[f.code] ?? f.code, PNR: f.pnr.padStart(3) }, main, paid);
}

function personXml(w: ResponseXml, p: PersonSpec, deletedBy: string | undefined): string {
  const meta = groupAttrs({ vnr: p.vnr ?? '001' }, deletedBy);
  const formatted = [p.titleBefore, p.firstName, p.lastName].filter(Boolean).join(' ') + (p.titleAfter ? `, ${p.titleAfter}` : '');
  const name = p.designation
    ? w.el('PE_DKZ02', meta, ...p.designation.map((l) => w.text('BEZEICHNUNG', l)))
    : w.el(
        'PE_DKZ02',
        meta,
        w.text('TITELVOR', p.titleBefore),
        w.text('VORNAME', p.firstName),
        w.text('NACHNAME', p.lastName),
        w.text('TITELNACH', p.titleAfter),
        w.text('NAME_FORMATIERT', formatted),
        w.text('GEBURTSDATUM', p.birthDate),
      );
  return w.el(
    'PER',
    { PNR: p.pnr.padStart(3) },
    name,
    p.address ? w.el('PE_DKZ03', meta, ...addressContent(w, p.address)) : '',
    p.foreign
      ? w.el(
          'PE_DKZ06',
          meta,
          w.text('AUSL_HG', p.foreign.court),
          w.text('AUSL_FN', p.foreign.registerNumber),
          w.text('AUSL_SITZ', p.foreign.seat),
          w.codeText('AUSL_FORM', p.foreign.legalForm),
        )
      : '',
    p.registeredFnr ? w.el('PE_DKZ09', meta, w.text('PE_FNR', p.registeredFnr)) : '',
  );
}

function entryXml(w: ResponseXml, c: CompanySpec, e: RegisterEntrySpec): string {
  return w.el(
    'VOLLZ',
    null,
    w.text('VNR', e.vnr),
    w.text('VOLLZUGSDATUM', e.date),
    w.codeText('HG', { code: c.court, text: FIRMENBUCH_COURTS[c.court] ?? null }),
    w.text('AZ', e.az ?? aktenzeichen({ court: c.court, year: Number(e.date.slice(0, 4)), number: Number(e.vnr) * 37 + 100 })),
    ...e.texts.map((t) => w.text('ANTRAGSTEXT', t)),
    w.text('EINGELANGTAM', e.receivedOn),
  );
}

/** The AUSZUG_V2_RESPONSE root element (no envelope) for a company. */
export function auszugResponseRoot(w: ResponseXml, c: CompanySpec): string {
  const del = c.deletedByVnr;
  const inner = [
    firmaXml(w, c),
    ...c.functions.map((f) => functionXml(w, f, del)),
    ...c.persons.map((p) => personXml(w, p, del)),
    ...c.entries.map((e) => entryXml(w, c, e)),
    w.text('KUR', c.kur),
    w.el('EUID', null, w.text('ZNR', '000'), w.text('EUID', `ATBRA.${fnrDigitsPadded(c.fnr)}-000`)),
  ].join('');
  const checksum = createHash('md5').update(inner).digest('hex').toUpperCase();
  return w.root(
    {
      ABFRAGEZEITPUNKT: `${c.asOf}T08:00:00.000+02:00`,
      FNR: spelledFnr(c.fnr, c.fnrSpelling),
      PRUEFSUMME: checksum,
      STICHTAG: c.asOf,
      UMFANG: 'Kurzinformation',
    },
    inner,
  );
}

// ---------------------------------------------------------------------------------------------------
// SUCHEURKUNDE, VERAENDERUNGEN*

/** One SUCHEURKUNDE hit; optional fields are left out when null, as on older recorded entries. */
export function documentListingXml(w: ResponseXml, d: DocumentListing): string {
  return w.el(
    'ERGEBNIS',
    null,
    w.text('KEY', d.key),
    d.fnr ? w.text('FNR', fnrSpaced(d.fnr)) : '',
    w.text('AZ', d.az),
    w.codeText('DOKUMENTART', d.documentType),
    w.text('DOKUMENTENDATUM', d.documentDate),
    w.text('CONTENTTYPE', d.contentType),
    w.text('DATEIENDUNG', d.fileExtension),
    w.text('GROESSE', d.sizeBytes),
    w.text('BEMERKUNG', d.remark),
    w.text('STICHTAG', d.balanceSheetDate),
    w.text('GKL', d.sizeClass),
    w.text('VNR', d.vnr),
    w.text('EINGEREICHT', d.filedOn),
  );
}

export function sucheUrkundeResponseRoot(w: ResponseXml, request: { fnr?: string | null; az?: string | null }, documents: readonly DocumentListing[]): string {
  return w.root(
    { REQUEST_AZ: request.az ?? undefined, REQUEST_FNR: request.fnr ? fnrSpaced(request.fnr) : undefined },
    ...documents.map((d) => documentListingXml(w, d)),
  );
}

function changeDetailXml(w: ResponseXml, detail: CompanyChange['details'][number]): string {
  if (detail.type === 'function') {
    // PNR and FKEN come space-padded in the XSD example ("  A", "GF ").
    return w.el('DETAIL', null, w.text('PNR', detail.pnr.padStart(3)), w.text('FKEN', detail.functionCode.padEnd(3)));
  }
  return w.el(
    'DETAIL',
    null,
    detail.takingOverFnr ? w.text('FNR_UEBERNEHMENDE', fnrPadded(detail.takingOverFnr)) : '',
    detail.transferringFnr ? w.text('FNR_UEBERTRAGENDE', fnrPadded(detail.transferringFnr)) : '',
  );
}

export function companyChangeXml(w: ResponseXml, c: CompanyChange): string {
  return w.el(
    'VERAENDERUNG',
    null,
    w.text('FNR', fnrSpaced(c.fnr)),
    w.text('VNR', c.vnr),
    w.text('VOLLZUGSDATUM', c.executedOn),
    w.text('ARTDERVERAENDERUNG', c.kindText),
    ...c.details.map((d) => changeDetailXml(w, d)),
  );
}

export interface ChangeFilter {
  von: string;
  bis: string;
  gericht?: string | null;
  rechtsform?: string | null;
  artDerVeraenderung?: string | null;
}

export function veraenderungenFirmaResponseRoot(w: ResponseXml, filter: ChangeFilter, changes: readonly CompanyChange[]): string {
  return w.root(
    {
      ARTDERVERAENDERUNG: filter.artDerVeraenderung || undefined,
      BIS: filter.bis,
      GERICHT: filter.gericht || undefined,
      RECHTSFORM: filter.rechtsform || undefined,
      VON: filter.von,
    },
    ...changes.map((c) => companyChangeXml(w, c)),
  );
}

export function documentChangeXml(w: ResponseXml, d: DocumentChange): string {
  return w.el(
    'VERAENDERUNG',
    null,
    w.text('KEY', d.key),
    w.codeText('DOKUMENTART', d.documentType),
    w.text('VOLLZUGSDATUM', d.executedOn),
    w.text('CONTENTTYPE', d.contentType),
    w.text('DATEIENDUNG', d.fileExtension),
  );
}

export function veraenderungenUrkundeResponseRoot(w: ResponseXml, filter: ChangeFilter, changes: readonly DocumentChange[]): string {
  return w.root({ BIS: filter.bis, VON: filter.von }, ...changes.map((c) => documentChangeXml(w, c)));
}

// ---------------------------------------------------------------------------------------------------
// Annual-account filings with known figures

/** Amounts in cents: exact integers, formatted only when written. */
type Cents = number;

function money(cents: Cents): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const out = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return negative ? `-${out}` : out;
}

/** The canonical decimal string the parser produces (`1250`, `42180.4`, `-3.05`). */
export function canonicalMoney(cents: Cents): string {
  const s = money(cents).replace(/\.?0+$/, '');
  return s === '-0' || s === '' ? '0' : s;
}

/** Leaves of one year's balance sheet and P&L, in cents; totals are computed from them. */
interface YearAccounts {
  leaves: Record<string, Cents>;
  totals: Record<string, Cents>;
}

/** Parent -> children of the abstract position tree shared by the legacy and JAb 4.0 writers. */
const POSITION_TREE: Readonly<Record<string, readonly string[]>> = {
  AKT: ['AV', 'UV', 'ARA', 'ALS'],
  AV: ['IMM', 'SACH', 'FIN'],
  IMM: ['IMM1', 'IMM2'],
  SACH: ['SACH1', 'SACH2', 'SACH3', 'SACH4'],
  FIN: ['FIN1', 'FIN3', 'FIN5'],
  UV: ['VOR', 'FORD', 'WP', 'KASSE'],
  VOR: ['VOR1', 'VOR2', 'VOR3'],
  FORD: ['FORD1', 'FORD2', 'FORD4'],
  PAS: ['EK', 'INV', 'RST', 'VBK', 'PRA'],
  EK: ['NENN', 'KRL', 'GRL', 'BG'],
  GRL: ['GRL1', 'GRL3'],
  RST: ['RST1', 'RST3', 'RST4'],
  VBK: ['VBK2', 'VBK3', 'VBK4', 'VBK8'],
};

function total(accounts: Record<string, Cents>, key: string): Cents {
  const children = POSITION_TREE[key];
  if (!children) return accounts[key] ?? 0;
  return children.reduce((sum, child) => sum + total(accounts, child), 0);
}

/** P&L (Gesamtkostenverfahren) leaves and subtotals; expenses negative, as filed. */
function profitAndLoss(random: Random, revenue: Cents, legalForm: string): Record<string, Cents> {
  const share = (low: number, high: number, base = revenue) => Math.round(base * between(random, low, high));
  const p: Record<string, Cents> = {};
  p.U1 = revenue;
  p.U2 = share(-0.01, 0.015);
  p.U3 = random() < 0.5 ? 0 : share(0, 0.004);
  p.U4a = share(0, 0.002);
  p.U4b = share(0, 0.003);
  p.U4c = share(0.001, 0.01);
  p.U4 = p.U4a + p.U4b + p.U4c;
  p.U5a = -share(0.25, 0.45);
  p.U5b = -share(0.03, 0.12);
  p.U5 = p.U5a + p.U5b;
  p.U6a = -share(0.14, 0.24);
  p.U6b = Math.round(p.U6a * between(random, 0.22, 0.3));
  p.U6 = p.U6a + p.U6b;
  p.U7 = -share(0.015, 0.05);
  p.U8 = -share(0.07, 0.14);
  p.U9 = p.U1 + p.U2 + p.U3 + p.U4 + p.U5 + p.U6 + p.U7 + p.U8;
  p.U10 = random() < 0.4 ? share(0, 0.004) : 0;
  p.U12 = share(0.0001, 0.001);
  p.U15 = -share(0.002, 0.012);
  p.U16 = p.U10 + p.U12 + p.U15;
  p.U17 = p.U9 + p.U16;
  // 23 % corporate tax; a loss still pays the minimum tax (500 EUR GmbH, 3 500 EUR AG).
  p.U21 = p.U17 > 0 ? -Math.round(p.U17 * 0.23) : legalForm === 'AG' ? -350000 : -50000;
  p.U30 = p.U17 + p.U21;
  p.U22 = p.U30;
  return p;
}

/** Balance-sheet leaves for a company of that revenue and annual result; cash and other liabilities balance it. */
function balanceSheet(random: Random, revenue: Cents, result: Cents, legalForm: string): Record<string, Cents> {
  const share = (low: number, high: number, base = revenue) => Math.round(base * between(random, low, high));
  const maybe = (probability: number, low: number, high: number) => (random() < probability ? share(low, high) : 0);
  const b: Record<string, Cents> = {
    IMM1: share(0.001, 0.006), IMM2: maybe(0.3, 0.003, 0.02),
    SACH1: share(0.03, 0.15), SACH2: share(0.03, 0.1), SACH3: share(0.01, 0.04), SACH4: maybe(0.4, 0, 0.015),
    FIN1: maybe(0.3, 0.01, 0.04), FIN3: maybe(0.5, 0.003, 0.02), FIN5: maybe(0.3, 0.001, 0.008),
    VOR1: share(0.01, 0.05), VOR2: share(0.005, 0.03), VOR3: share(0.01, 0.05),
    FORD1: share(0.05, 0.12), FORD2: maybe(0.3, 0, 0.02), FORD4: share(0.004, 0.02),
    WP: maybe(0.2, 0, 0.015), ARA: share(0.001, 0.004), ALS: maybe(0.5, 0, 0.003),
  };
  const others = Object.values(b).reduce((s, v) => s + v, 0);
  const cashShare = between(random, 0.04, 0.16);
  b.KASSE = Math.round((others * cashShare) / (1 - cashShare));
  let assets = others + b.KASSE;

  b.NENN = legalForm === 'AG' ? pick(random, [7000000, 10000000, 50000000]) : pick(random, [3500000, 3500000, 1000000, 7267283]);
  b.BG_GV = Math.round(assets * between(random, -0.01, 0.08));
  b.BG = result + b.BG_GV;
  b.KRL = random() < 0.4 ? Math.round(assets * between(random, 0, 0.05)) : 0;
  b.GRL1 = random() < 0.5 ? Math.round(b.NENN * 0.1) : 0;
  b.GRL3 = Math.round(assets * between(random, 0, 0.15));
  b.INV = random() < 0.3 ? Math.round(assets * between(random, 0, 0.03)) : 0;
  b.RST1 = Math.round(assets * between(random, 0.01, 0.05));
  b.RST3 = result > 0 ? Math.round(result * between(random, 0.05, 0.1)) : 0;
  b.RST4 = Math.round(assets * between(random, 0.02, 0.06));
  b.PRA = random() < 0.3 ? Math.round(assets * between(random, 0, 0.01)) : 0;
  const ek = b.NENN + b.KRL + b.GRL1 + b.GRL3 + b.BG;
  let liabilities = assets - ek - b.INV - b.RST1 - b.RST3 - b.RST4 - b.PRA;
  const minimum = Math.round(assets * 0.08);
  if (liabilities < minimum) {
    // Not enough room for liabilities: the company simply holds more cash.
    b.KASSE += minimum - liabilities;
    assets += minimum - liabilities;
    liabilities = minimum;
  }
  b.VBK2 = Math.round(liabilities * between(random, 0.2, 0.5));
  b.VBK3 = Math.round(liabilities * between(random, 0, 0.08));
  b.VBK4 = Math.round(liabilities * between(random, 0.2, 0.4));
  b.VBK8 = liabilities - b.VBK2 - b.VBK3 - b.VBK4;
  b.VBK2_KURZ = Math.round(b.VBK2 * between(random, 0.1, 0.4));
  return b;
}

function yearAccounts(random: Random, revenue: Cents, legalForm: string): YearAccounts {
  const pnl = profitAndLoss(random, revenue, legalForm);
  const leaves = { ...balanceSheet(random, revenue, pnl.U22!, legalForm), ...pnl };
  const totals: Record<string, Cents> = {};
  for (const key of Object.keys(POSITION_TREE)) totals[key] = total(leaves, key);
  totals.VBK_KURZ = leaves.VBK2_KURZ! + leaves.VBK3! + leaves.VBK4! + leaves.VBK8!;
  totals.VBK_LANG = totals.VBK! - totals.VBK_KURZ;
  totals.VBK2_LANG = leaves.VBK2! - leaves.VBK2_KURZ!;
  return { leaves, totals };
}

/** Amount of a position; `NONE` (and anything unknown) is a position filed as 0.00. */
function amount(a: YearAccounts, key: string): Cents {
  return a.totals[key] ?? a.leaves[key] ?? 0;
}

export type FilingVariant = 'legacy' | 'legacySmall' | 'jab4';

export interface FilingSpec {
  fnr: string;
  nameLines: string[];
  legalForm: 'GES' | 'AG';
  variant: FilingVariant;
  /** Fiscal year = calendar year. */
  year: number;
  /** Revenue of the fiscal year in cents. */
  revenue: Cents;
  employees: number;
  /** Signatory (personal data in the filing, as real filings carry). */
  signer: { firstName: string; lastName: string; birthDate: string };
}

export interface GeneratedFiling {
  xml: string;
  documentDate: string;
  sizeClass: 'K' | 'M' | 'G';
  expected: { documentDate: string; figures: FigureValues };
}

/** Size class from the UGB § 221 thresholds (balance-sheet total, revenue, employees: two of three). */
function sizeClass(assets: Cents, revenue: Cents, employees: number): 'K' | 'M' | 'G' {
  const over = (a: number, r: number, e: number) => [assets > a * 100, revenue > r * 100, employees > e].filter(Boolean).length >= 2;
  if (over(25_000_000, 50_000_000, 250)) return 'G';
  if (over(6_250_000, 12_500_000, 50)) return 'M';
  return 'K';
}

/** Key figure JSON key -> abstract position (or P&L line) of the generated accounts. */
const FIGURE_SOURCES: Readonly<Record<string, string>> = {
  bilanzSumme: 'AKT', anlageVermoegen: 'AV', immaterielleVermoegensgegenstaende: 'IMM', sachanlagen: 'SACH',
  finanzanlagen: 'FIN', beteiligungen: 'FIN3', umlaufvermoegen: 'UV', vorraete: 'VOR', forderungen: 'FORD',
  forderungenLuL: 'FORD1', wertpapiereUmlaufvermoegen: 'WP', liquideMittel: 'KASSE', aktiveRechnungsabgrenzung: 'ARA',
  aktiveLatenteSteuern: 'ALS', eigenkapital: 'EK', nennKapital: 'NENN', kapitalruecklagen: 'KRL',
  gewinnruecklagen: 'GRL', bilanzGewinn: 'BG', gewinnVortrag: 'BG_GV', investitionszuschuesse: 'INV',
  rueckstellungen: 'RST', verbindlichkeiten: 'VBK', verbindlichkeitenKurzfristig: 'VBK_KURZ',
  verbindlichkeitenKreditinstitute: 'VBK2', verbindlichkeitenLuL: 'VBK4', passiveRechnungsabgrenzung: 'PRA',
  umsatzerloese: 'U1', bestandsveraenderung: 'U2', aktivierteEigenleistungen: 'U3', sonstigeBetrieblicheErtraege: 'U4',
  materialaufwand: 'U5', personalaufwand: 'U6', abschreibungen: 'U7', sonstigeBetrieblicheAufwendungen: 'U8',
  betriebsErfolg: 'U9', beteiligungsErtraege: 'U10', zinsErtraege: 'U12', zinsAufwendungen: 'U15', finanzErfolg: 'U16',
  ergebnisVorSteuern: 'U17', steuernVomEinkommen: 'U21', ergebnisNachSteuern: 'U30', jahresueberschuss: 'U22',
};

/** Figures the writer puts into the filing, per variant (the rest stays null). */
function expectedFigures(a: YearAccounts, variant: FilingVariant, employees: number): FigureValues {
  const figures = emptyFigures();
  for (const def of KEY_FIGURES) {
    const key = figureJsonKey(def);
    const source = FIGURE_SOURCES[key];
    if (!source) continue;
    const isPnl = /^U\d/.test(source);
    if (isPnl && variant === 'legacySmall') continue;
    // Small balance sheets (Anlage 1) carry no breakdown of receivables and liabilities.
    if (variant === 'legacySmall' && ['FORD1', 'VBK_KURZ', 'VBK2', 'VBK4', 'FIN3'].includes(source)) continue;
    figures[key] = canonicalMoney(amount(a, source));
  }
  figures.employees = variant === 'jab4' ? null : String(employees);
  return figures;
}

// --- legacy writer (FinanzOnline / JAb 3.x) ----------------------------------------------------------

interface LegacyNode {
  tag: string;
  key?: string;
  children?: LegacyNode[];
  /** Fixed-asset schedule columns (SPIEGELWERTE) for this position. */
  schedule?: boolean;
}

const leg = (tag: string, key: string, children?: LegacyNode[], schedule?: boolean): LegacyNode => ({ tag, key, children, schedule });

function legacyAssets(small: boolean): LegacyNode {
  return leg('HGB_224_2', 'AKT', [
    leg('HGB_224_2_A', 'AV', [
      leg('HGB_224_2_A_I', 'IMM', small ? undefined : [leg('HGB_224_2_A_I_1', 'IMM1', undefined, true), leg('HGB_224_2_A_I_2', 'IMM2', undefined, true)], true),
      leg('HGB_224_2_A_II', 'SACH', small ? undefined : [
        leg('HGB_224_2_A_II_1', 'SACH1', undefined, true), leg('HGB_224_2_A_II_2', 'SACH2', undefined, true),
        leg('HGB_224_2_A_II_3', 'SACH3', undefined, true), leg('HGB_224_2_A_II_4', 'SACH4', undefined, true),
      ], true),
      leg('HGB_224_2_A_III', 'FIN', small ? undefined : [leg('HGB_224_2_A_III_1', 'FIN1'), leg('HGB_224_2_A_III_3', 'FIN3'), leg('HGB_224_2_A_III_5', 'FIN5')], true),
    ], true),
    leg('HGB_224_2_B', 'UV', [
      leg('HGB_224_2_B_I', 'VOR', small ? undefined : [leg('HGB_224_2_B_I_1', 'VOR1'), leg('HGB_224_2_B_I_2', 'VOR2'), leg('HGB_224_2_B_I_3', 'VOR3')]),
      leg('HGB_224_2_B_II', 'FORD', small ? undefined : [
        leg('HGB_224_2_B_II_1', 'FORD1', [leg('HGB_224_2_B_II_1_HGB_225b', 'NONE')]),
        leg('HGB_224_2_B_II_2', 'FORD2', [leg('HGB_224_2_B_II_2_HGB_225b', 'NONE')]),
        leg('HGB_224_2_B_II_4', 'FORD4', [leg('HGB_224_2_B_II_4_HGB_225b', 'NONE')]),
      ]),
      leg('HGB_224_2_B_III', 'WP'),
      leg('HGB_224_2_B_IV', 'KASSE'),
    ]),
    leg('HGB_224_2_C', 'ARA'),
    leg('HGB_224_2_D', 'ALS'),
  ]);
}

function legacyLiabilities(small: boolean, legalForm: 'GES' | 'AG'): LegacyNode {
  // GmbH: Stammkapital HGB_229_1_A_I (child HGB_224_3_A_I_a); AG: Grundkapital HGB_229_1_A_II (child _b).
  const nominal = legalForm === 'AG'
    ? leg('HGB_229_1_A_II', 'NENN', [leg('HGB_224_3_A_I_b', 'NENN')])
    : leg('HGB_229_1_A_I', 'NENN', [leg('HGB_224_3_A_I_a', 'NENN')]);
  return leg('HGB_224_3', 'PAS', [
    leg('HGB_224_3_A', 'EK', [
      nominal,
      leg('HGB_224_3_A_II', 'KRL'),
      leg('HGB_224_3_A_III', 'GRL', small ? undefined : [leg('HGB_224_3_A_III_1', 'GRL1'), leg('HGB_224_3_A_III_3', 'GRL3')]),
      leg('HGB_224_3_A_IV', 'BG', [leg('HGB_224_3_A_IV_x', 'BG_GV')]),
    ]),
    leg('XXX_224_3_B_X', 'INV'),
    leg('HGB_224_3_C', 'RST', small ? undefined : [leg('HGB_224_3_C_1', 'RST1'), leg('HGB_224_3_C_3', 'RST3'), leg('HGB_224_3_C_4', 'RST4')]),
    leg('HGB_224_3_D', 'VBK', small ? undefined : [
      leg('HGB_224_3_D_HGB_225a', 'VBK_KURZ'),
      leg('HGB_224_3_D_HGB_225b', 'VBK_LANG'),
      leg('HGB_224_3_D_2', 'VBK2', [leg('HGB_224_3_D_2_HGB_225a', 'VBK2_KURZ'), leg('HGB_224_3_D_2_HGB_225b', 'VBK2_LANG')]),
      leg('HGB_224_3_D_3', 'VBK3', [leg('HGB_224_3_D_3_HGB_225a', 'VBK3'), leg('HGB_224_3_D_3_HGB_225b', 'NONE')]),
      leg('HGB_224_3_D_4', 'VBK4', [leg('HGB_224_3_D_4_HGB_225a', 'VBK4'), leg('HGB_224_3_D_4_HGB_225b', 'NONE')]),
      leg('HGB_224_3_D_8', 'VBK8', [leg('HGB_224_3_D_8_HGB_225a', 'VBK8'), leg('HGB_224_3_D_8_HGB_225b', 'NONE')]),
    ]),
    leg('HGB_224_3_E', 'PRA'),
  ]);
}

const LEGACY_PNL: readonly LegacyNode[] = [
  leg('HGB_231_2_1', 'U1'), leg('HGB_231_2_2', 'U2'), leg('HGB_231_2_3', 'U3'),
  leg('HGB_231_2_4', 'U4', [leg('HGB_231_2_4_a', 'U4a'), leg('HGB_231_2_4_b', 'U4b'), leg('HGB_231_2_4_c', 'U4c')]),
  leg('HGB_231_2_5', 'U5', [leg('HGB_231_2_5_a', 'U5a'), leg('HGB_231_2_5_b', 'U5b')]),
  leg('HGB_231_2_6', 'U6', [leg('HGB_231_2_6_a', 'U6a'), leg('HGB_231_2_6_b', 'U6b')]),
  leg('HGB_231_2_7', 'U7', [leg('HGB_231_2_7_a', 'U7')]), leg('HGB_231_2_8', 'U8'), leg('HGB_231_2_9', 'U9'),
  leg('HGB_231_2_10', 'U10'), leg('HGB_231_2_12', 'U12'), leg('HGB_231_2_15', 'U15'), leg('HGB_231_2_16', 'U16'),
  leg('HGB_231_2_17', 'U17'), leg('HGB_231_2_21', 'U21'), leg('HGB_231_2_30', 'U30'), leg('HGB_231_2_22', 'U22'),
  leg('HGB_231_2_28', 'BG_GV'), leg('HGB_231_2_29', 'BG'),
];

/** SPIEGELWERTE: acquisition costs, additions, disposals, depreciation, book values (columns 1..15). */
function scheduleColumns(bookValue: Cents, priorBookValue: Cents, depreciation: Cents): Cents[] {
  const cost = Math.round(Math.max(bookValue, priorBookValue) * 1.7);
  const additions = Math.max(0, bookValue - priorBookValue + depreciation);
  const accumulated = cost + additions - bookValue;
  return [cost, additions, 0, 0, 0, cost + additions, accumulated - depreciation, depreciation, 0, 0, 0, 0, accumulated, priorBookValue, bookValue];
}

function legacyXml(node: LegacyNode, cur: YearAccounts, prior: YearAccounts, indent: string): string {
  const key = node.key!;
  const t = `${indent}\t`;
  let schedule = '';
  if (node.schedule) {
    const depreciation = Math.round(-amount(cur, 'U7') * (amount(cur, key) / Math.max(1, amount(cur, 'AV'))));
    const cols = scheduleColumns(amount(cur, key), amount(prior, key), depreciation);
    schedule = `${t}\t<SPIEGELWERTE>\n${cols.map((v, i) => `${t}\t\t<SPALTE_${i + 1}>${money(v)}</SPALTE_${i + 1}>\n`).join('')}${t}\t</SPIEGELWERTE>\n`;
  }
  const children = (node.children ?? []).map((c) => legacyXml(c, cur, prior, t)).join('');
  return (
    `${indent}<${node.tag}>\n${t}<POSTENZEILE>\n${t}\t<BETRAG>${money(amount(cur, key))}</BETRAG>\n` +
    `${t}\t<BETRAG_VJ>${money(amount(prior, key))}</BETRAG_VJ>\n${schedule}${t}</POSTENZEILE>\n${children}${indent}</${node.tag}>\n`
  );
}

function legacyFilingXml(spec: FilingSpec, cur: YearAccounts, prior: YearAccounts, size: string): string {
  const small = spec.variant === 'legacySmall';
  const y = spec.year;
  const names = spec.nameLines.map((l) => `<Z>${escapeXml(l)}</Z>`).join('');
  const pruef = createHash('md5').update(`${spec.fnr}${y}`).digest('hex');
  const header =
    `<?xml version="1.0" encoding="UTF-8"?><UEBERMITTLUNG xmlns="https://finanzonline.bmf.gv.at/bilanz" xmlns:xsi="${XSI}">\n` +
    `\t<BILANZ_GLIEDERUNG ART="HGB">\n\t\t<ALLG_JUSTIZ EINORDNUNG="${size}" EINSTUFUNG="${size}">\n` +
    `\t\t\t<VERS>03.32</VERS>\n\t\t\t<PRUEF>${pruef}</PRUEF>\n` +
    `\t\t\t<SOFTWARE>\n\t\t\t\t<SOFT>BMD</SOFT>\n\t\t\t\t<SOFT_VERS>${y + 1}.11.02</SOFT_VERS>\n\t\t\t</SOFTWARE>\n` +
    `\t\t\t<EB><CODE>000000a</CODE><BEZUG> </BEZUG><IBAN>00000</IBAN><ZUSTELL>n</ZUSTELL></EB>\n` +
    `\t\t\t<JABFORM>\n\t\t\t\t<HGBFORM>UGB23</HGBFORM>\n\t\t\t</JABFORM>\n\t\t\t<EINREICHUNG>E</EINREICHUNG>\n\t\t\t<ABSCHLUSSART>J</ABSCHLUSSART>\n` +
    `\t\t\t<FIRMA>\n\t\t\t\t<FNR>${fnrPadded(spec.fnr)}</FNR>\n\t\t\t\t<F_NAME>${names}</F_NAME>\n\t\t\t</FIRMA>\n` +
    `\t\t\t<GJ>\n\t\t\t\t<BEGINN>${y}-01-01</BEGINN>\n\t\t\t\t<ENDE>${y}-12-31</ENDE>\n\t\t\t\t<FORM>${spec.legalForm}</FORM>\n\t\t\t</GJ>\n` +
    `\t\t\t<VOR_GJ>\n\t\t\t\t<BEGINN>${y - 1}-01-01</BEGINN>\n\t\t\t\t<ENDE>${y - 1}-12-31</ENDE>\n\t\t\t\t<FORM>${spec.legalForm}</FORM>\n\t\t\t\t<WERT_TSD>n</WERT_TSD>\n\t\t\t</VOR_GJ>\n` +
    `\t\t\t<WAEHRUNG>EUR</WAEHRUNG>\n` +
    `\t\t\t<UNTER>\n\t\t\t\t<GEB_DAT>${spec.signer.birthDate}</GEB_DAT>\n\t\t\t\t<V_NAME>${escapeXml(spec.signer.firstName)}</V_NAME>\n` +
    `\t\t\t\t<Z_NAME>${escapeXml(spec.signer.lastName)}</Z_NAME>\n\t\t\t\t<DAT_UNT>${y + 1}-06-15</DAT_UNT>\n\t\t\t</UNTER>\n\t\t</ALLG_JUSTIZ>\n`;
  const balance = legacyXml(legacyAssets(small), cur, prior, '\t\t\t') + legacyXml(legacyLiabilities(small, spec.legalForm), cur, prior, '\t\t\t');
  const employees =
    `\t\t<HGB_Form_3>\n\t\t\t<HGB_Form_3_16>\n\t\t\t\t<ANZAHL>${spec.employees}</ANZAHL>\n\t\t\t</HGB_Form_3_16>\n\t\t</HGB_Form_3>\n`;
  if (small) return `${header}\t\t<HGB_Form_2>\n${balance}\t\t</HGB_Form_2>\n${employees}\t</BILANZ_GLIEDERUNG>\n</UEBERMITTLUNG>\n`;
  const pnl = LEGACY_PNL.map((n) => legacyXml(n, cur, prior, '\t\t\t')).join('');
  return `${header}\t\t<BILANZ>\n${balance}\t\t</BILANZ>\n\t\t<GUV>\n${pnl}\t\t</GUV>\n${employees}\t</BILANZ_GLIEDERUNG>\n</UEBERMITTLUNG>\n`;
}

// --- JAb 4.0 writer ------------------------------------------------------------------------------------

interface Jab4Node {
  tag: string;
  key: string;
  children?: Jab4Node[];
  davon?: boolean;
}

const j4 = (tag: string, key: string, children?: Jab4Node[], davon?: boolean): Jab4Node => ({ tag, key, children, davon });

function jab4Balance(legalForm: 'GES' | 'AG'): Jab4Node[] {
  const nominal = legalForm === 'AG'
    ? j4('EINGEFORDERTES_GRUNDKAPITAL', 'NENN', [j4('GRUNDKAPITAL', 'NENN'), j4('DAVON_EINGEZAHLT', 'NENN', undefined, true)])
    : j4('EINGEFORDERTES_STAMMKAPITAL', 'NENN', [j4('STAMMKAPITAL', 'NENN'), j4('DAVON_EINGEZAHLT', 'NENN', undefined, true)]);
  return [
    j4('AKTIVA', 'AKT', [
      j4('ANLAGEVERMOEGEN', 'AV', [
        j4('IMMATERIELLE_VERMOEGENSGEGENSTAENDE', 'IMM', [
          j4('KONZESSIONEN_GEWERBLICHE_SCHUTZRECHTE_UND_LIZENZEN', 'IMM1'), j4('GESCHAEFTS_FIRMENWERT', 'IMM2'),
        ]),
        j4('SACHANLAGEN', 'SACH', [
          j4('GRUNDSTUECKE_GRUNDSTUECKSGLEICHE_RECHTE_UND_BAUTEN', 'SACH1'), j4('TECHNISCHE_ANLAGEN_UND_MASCHINEN', 'SACH2'),
          j4('ANDERE_ANLAGEN_BETRIEBS_UND_GESCHAEFTSAUSSTATTUNG', 'SACH3'), j4('GELEISTETE_ANZAHLUNGEN_UND_ANLAGEN_IM_BAU', 'SACH4'),
        ]),
        j4('FINANZANLAGEN', 'FIN', [
          j4('ANTEILE_AN_VERBUNDENEN_UNTERNEHMEN', 'FIN1'), j4('BETEILIGUNGEN', 'FIN3'), j4('WERTPAPIERE_WERTRECHTE_DES_ANLAGEVERMOEGENS', 'FIN5'),
        ]),
      ]),
      j4('UMLAUFVERMOEGEN', 'UV', [
        j4('VORRAETE', 'VOR', [j4('ROH_HILFS_UND_BETRIEBSSTOFFE', 'VOR1'), j4('UNFERTIGE_ERZEUGNISSE', 'VOR2'), j4('FERTIGE_ERZEUGNISSE_UND_WAREN', 'VOR3')]),
        j4('FORDERUNGEN_UND_SONSTIGE_VERMOEGENSGEGENSTAENDE', 'FORD', [
          j4('FORDERUNGEN_AUS_LIEFERUNGEN_UND_LEISTUNGEN', 'FORD1'), j4('FORDERUNGEN_GEGENUEBER_VERBUNDENEN_UNTERNEHMEN', 'FORD2'),
          j4('SONSTIGE_FORDERUNGEN_UND_VERMOEGENSGEGENSTAENDE', 'FORD4'),
        ]),
        j4('WERTPAPIERE_UND_ANTEILE', 'WP'),
        j4('KASSENBESTAND_SCHECKS_GUTHABEN_BEI_KREDITINSTITUTEN', 'KASSE'),
      ]),
      j4('AKTIVA_RECHNUNGSABGRENZUNGSPOSTEN', 'ARA'),
      j4('AKTIVE_LATENTE_STEUERN', 'ALS'),
    ]),
    j4('PASSIVA', 'PAS', [
      j4('EIGENKAPITAL', 'EK', [
        nominal,
        j4('KAPITALRUECKLAGEN', 'KRL', [j4('GEBUNDENE', 'KRL')]),
        j4('GEWINNRUECKLAGEN', 'GRL', [j4('GESETZLICHE_RUECKLAGE', 'GRL1'), j4('ANDERE_RUECKLAGEN_FREIE_RUECKLAGEN', 'GRL3')]),
        j4('BILANZGEWINN_BILANZVERLUST', 'BG', [j4('DAVON_GEWINNVORTRAG_VERLUSTVORTRAG', 'BG_GV', undefined, true)]),
      ]),
      j4('INVESTITIONSZUSCHUESSE', 'INV'),
      j4('RUECKSTELLUNGEN', 'RST', [
        j4('RUECKSTELLUNGEN_FUER_ABFERTIGUNGEN', 'RST1'), j4('STEUERRUECKSTELLUNGEN', 'RST3'), j4('SONSTIGE_RUECKSTELLUNGEN', 'RST4'),
      ]),
      j4('VERBINDLICHKEITEN', 'VBK', [
        j4('DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR', 'VBK_KURZ', undefined, true),
        j4('DAVON_RESTLAUFZEIT_VON_MEHR_ALS_EINEM_JAHR', 'VBK_LANG', undefined, true),
        j4('VERBINDLICHKEITEN_GEGENUEBER_KREDITINSTITUTEN', 'VBK2', [j4('DAVON_RESTLAUFZEIT_BIS_ZU_EINEM_JAHR', 'VBK2_KURZ', undefined, true)]),
        j4('ERHALTENE_ANZAHLUNGEN_AUF_BESTELLUNGEN', 'VBK3'),
        j4('VERBINDLICHKEITEN_AUS_LIEFERUNGEN_UND_LEISTUNGEN', 'VBK4'),
        j4('SONSTIGE_VERBINDLICHKEITEN', 'VBK8'),
      ]),
      j4('PASSIVA_RECHNUNGSABGRENZUNGSPOSTEN', 'PRA'),
    ]),
  ];
}

/** GUV_GKV nests the lines inside their subtotals, down from the balance-sheet result. */
const JAB4_PNL: Jab4Node = j4('BILANZ_GEWINN_VERLUST', 'BG', [
  j4('JAHRESUEBERSCHUSS_JAHRESFEHLBETRAG', 'U22', [
    j4('ERGEBNIS_NACH_STEUERN', 'U30', [
      j4('ERGEBNIS_VOR_STEUERN', 'U17', [
        j4('ZWISCHENSUMME_BETRIEBSERFOLG', 'U9', [
          j4('UMSATZERLOESE', 'U1'),
          j4('VERAENDERUNG_DES_BESTANDS_AN_ERZEUGNISSEN_UND_LEISTUNGEN', 'U2'),
          j4('ANDERE_AKTIVIERTE_EIGENLEISTUNGEN', 'U3'),
          j4('SONSTIGE_BETRIEBLICHE_ERTRAEGE_ZU_UMSATZERLOESE', 'U4', [
            j4('ERTRAEGE_AUS_ABGANG_UND_ZUSCHREIBUNG_ZUM_ANLAGEVERMOEGEN', 'U4a'),
            j4('ERTRAEGE_AUS_AUFLOESUNG_VON_RUECKSTELLUNGEN', 'U4b'),
            j4('UEBRIGE', 'U4c'),
          ]),
          j4('AUFWENDUNGEN_FUER_HERSTELLUNGSLEISTUNGEN', 'U5', [j4('MATERIALAUFWAND', 'U5a'), j4('AUFWENDUNGEN_FUER_BEZOGENE_LEISTUNGEN', 'U5b')]),
          j4('PERSONALAUFWAND', 'U6', [j4('LOEHNE_UND_GEHAELTER', 'U6a'), j4('SOZIALE_AUFWENDUNGEN', 'U6b')]),
          j4('ABSCHREIBUNGEN', 'U7', [j4('GEGENSTAENDE_DES_ANLAGEVERMOEGENS_UND_SACHANLAGEN', 'U7')]),
          j4('SONSTIGE_BETRIEBLICHE_AUFWENDUNGEN', 'U8'),
        ]),
        j4('ZWISCHENSUMME_FINANZERFOLG', 'U16', [
          j4('ERTRAEGE_AUS_BETEILIGUNGEN', 'U10'),
          j4('SONSTIGE_ZINSEN_UND_AEHNLICHE_ERTRAEGE', 'U12'),
          j4('ZINSEN_UND_AEHNLICHE_AUFWENDUNGEN', 'U15'),
        ]),
      ]),
      j4('STEUERN_VOM_EINKOMMEN_UND_ERTRAG', 'U21'),
    ]),
  ]),
  j4('GEWINN_VERLUSTVORTRAG_AUS_DEM_VORJAHR', 'BG_GV'),
]);

function jab4Xml(node: Jab4Node, cur: YearAccounts, prior: YearAccounts, indent: string): string {
  const t = `${indent}  `;
  const attr = node.davon ? ' davon="true"' : '';
  const children = (node.children ?? []).map((c) => jab4Xml(c, cur, prior, t)).join('');
  return (
    `${indent}<${node.tag}${attr}>\n${t}<POSTENZEILE>\n${t}  <BETRAG_GJ>${money(amount(cur, node.key))}</BETRAG_GJ>\n` +
    `${t}  <BETRAG_VJ>${money(amount(prior, node.key))}</BETRAG_VJ>\n${t}</POSTENZEILE>\n${children}${indent}</${node.tag}>\n`
  );
}

const SCHEDULE_COLUMNS = [
  'STAND_01_01', 'ZUGAENGE', 'DAVON_AKTIVIERTE_ZINSEN_FUER_FREMDKAPITAL', 'UMBUCHUNGEN', 'ABGAENGE', 'ZUGAENGE_ABGAENGE_DURCH_UMGRUENDUNG',
  'STAND_31_12', 'KUMULIERTE_WERTBERICHTIGUNGEN_01_01', 'LAUFENDE_ABSCHREIBUNGEN', 'LAUFENDE_ZUSCHREIBUNGEN', 'WERTBERICHTIGUNGEN_AUF_ZUGAENGE',
  'WERTBERICHTIGUNGEN_AUF_UMBUCHUNGEN', 'WERTBERICHTIGUNGEN_AUF_ABGAENGE', 'KUMULIERTE_WERTBERICHTIGUNGEN_31_12', 'BUCHWERT_01_01', 'BUCHWERT_31_12',
];

/** ANLAGENSPIEGEL rows: no BETRAG_GJ in them, so the parser never mistakes them for balance-sheet values. */
function jab4Schedule(cur: YearAccounts, prior: YearAccounts): string {
  const row = (tag: string, key: string, inner = ''): string => {
    const book = amount(cur, key);
    const priorBook = amount(prior, key);
    const depreciation = Math.round(-amount(cur, 'U7') * (book / Math.max(1, amount(cur, 'AV'))));
    const cost = Math.round(Math.max(book, priorBook) * 1.7);
    const additions = Math.max(0, book - priorBook + depreciation);
    const accumulated = cost + additions - book;
    const values = [cost, additions, 0, 0, 0, 0, cost + additions, accumulated - depreciation, depreciation, 0, 0, 0, 0, accumulated, priorBook, book];
    const cells = SCHEDULE_COLUMNS.map((c, i) => `<${c}>${money(values[i] ?? 0)}</${c}>`).join('');
    return `        <${tag}>\n            <POSTENZEILE>${cells}</POSTENZEILE>\n${inner}        </${tag}>\n`;
  };
  return (
    '    <ANLAGENSPIEGEL>\n' +
    row('ANLAGEVERMOEGEN', 'AV', row('IMMATERIELLE_VERMOEGENSGEGENSTAENDE', 'IMM') + row('SACHANLAGEN', 'SACH') + row('FINANZANLAGEN', 'FIN')) +
    '    </ANLAGENSPIEGEL>\n'
  );
}

function jab4FilingXml(spec: FilingSpec, cur: YearAccounts, prior: YearAccounts, size: string): string {
  const y = spec.year;
  const pruef = createHash('sha256').update(`${spec.fnr}${y}`).digest('hex').toUpperCase();
  const lines = spec.nameLines.map((l, i) => `                <ZEILE SORTIERUNG="${i + 1}">${escapeXml(l)}</ZEILE>\n`).join('');
  const unit = '<EINHEIT>E</EINHEIT><NACHKOMMASTELLEN>N</NACHKOMMASTELLEN>';
  const header =
    `<?xml version="1.0" encoding="UTF-8"?>\n<UEBERMITTLUNG xmlns="ns://justiz.gv.at/Bilanzierung/v4.0/Bilanz">\n    <ALLGEMEINE_ANGABEN>\n` +
    `        <BILANZ_VERSION>04.00</BILANZ_VERSION>\n        <PRUEFSUMME>${pruef}</PRUEFSUMME>\n` +
    `        <SOFTWARE_HERSTELLER>\n            <HERSTELLER_BEZEICHNUNG>RZL Software GmbH</HERSTELLER_BEZEICHNUNG>\n` +
    `            <SOFTWARE_BEZEICHNUNG>RZL Bilanzierung</SOFTWARE_BEZEICHNUNG>\n            <SOFTWARE_VERSION>2.26.1.0</SOFTWARE_VERSION>\n        </SOFTWARE_HERSTELLER>\n` +
    `        <BESTAETIGUNG_UEBEREINSTIMMUNG_ORIGINAL>J</BESTAETIGUNG_UEBEREINSTIMMUNG_ORIGINAL>\n` +
    `        <JAHRESABSCHLUSS_KONZERNABSCHLUSS>JAB</JAHRESABSCHLUSS_KONZERNABSCHLUSS>\n        <GUV_AUSWEISART>G</GUV_AUSWEISART>\n` +
    `        <FIRMENDATEN>\n            <FIRMENBUCHNUMMER>${fnrPadded(spec.fnr)}</FIRMENBUCHNUMMER>\n            <FIRMENWORTLAUT>\n${lines}            </FIRMENWORTLAUT>\n        </FIRMENDATEN>\n` +
    `        <GESCHAEFTSJAHR>\n            <DATUM_DER_AUFSTELLUNG>${y + 1}-04-20</DATUM_DER_AUFSTELLUNG>\n            <BEGINN>${y}-01-01</BEGINN>\n            <ENDE>${y}-12-31</ENDE>\n` +
    `            <RECHTSFORM>${spec.legalForm}</RECHTSFORM>\n            <GROESSENKLASSE>${size}</GROESSENKLASSE>\n` +
    `            <EINGABEDARSTELLUNG><DARSTELLUNG_EINGEREICHT>${unit}</DARSTELLUNG_EINGEREICHT><DARSTELLUNG_VORHERGEHEND>${unit}</DARSTELLUNG_VORHERGEHEND></EINGABEDARSTELLUNG>\n` +
    `            <ZIELDARSTELLUNG><DARSTELLUNG_EINGEREICHT>${unit}</DARSTELLUNG_EINGEREICHT></ZIELDARSTELLUNG>\n        </GESCHAEFTSJAHR>\n` +
    `        <GESCHAEFTSJAHR_VORANGEGANGEN>\n            <BEGINN>${y - 1}-01-01</BEGINN>\n            <ENDE>${y - 1}-12-31</ENDE>\n            <RECHTSFORM>${spec.legalForm}</RECHTSFORM>\n        </GESCHAEFTSJAHR_VORANGEGANGEN>\n` +
    `        <BILANZ_WAEHRUNG>EUR</BILANZ_WAEHRUNG>\n        <AUFSTELLENDE_PERSONEN>\n            <PERSON>\n` +
    `                <GEBURTSDATUM>${spec.signer.birthDate}</GEBURTSDATUM>\n                <VORNAME>${escapeXml(spec.signer.firstName)}</VORNAME>\n` +
    `                <NACHNAME>${escapeXml(spec.signer.lastName)}</NACHNAME>\n                <DATUM_UNTERSCHRIFT>${y + 1}-04-20</DATUM_UNTERSCHRIFT>\n` +
    `            </PERSON>\n        </AUFSTELLENDE_PERSONEN>\n    </ALLGEMEINE_ANGABEN>\n`;
  const balance = jab4Balance(spec.legalForm).map((n) => jab4Xml(n, cur, prior, '    ')).join('');
  const pnl = jab4Xml(JAB4_PNL, cur, prior, '    ');
  return `${header}    <BILANZ>\n${balance}    </BILANZ>\n    <GUV_GKV>\n${pnl}    </GUV_GKV>\n${jab4Schedule(cur, prior)}</UEBERMITTLUNG>\n`;
}

/**
 * A filing with realistic, internally consistent numbers (sums add up, Aktiva = Passiva, Bilanzgewinn =
 * result + carry-forward) and the figures the annual-account parser must extract from it.
 */
export function generateFiling(spec: FilingSpec, random: Random): GeneratedFiling {
  const cur = yearAccounts(random, spec.revenue, spec.legalForm);
  const prior = yearAccounts(random, Math.round(spec.revenue * between(random, 0.85, 1.1)), spec.legalForm);
  const size = sizeClass(amount(cur, 'AKT'), spec.revenue, spec.employees);
  const xml = spec.variant === 'jab4' ? jab4FilingXml(spec, cur, prior, size) : legacyFilingXml(spec, cur, prior, size);
  const documentDate = `${spec.year}-12-31`;
  return { xml, documentDate, sizeClass: size, expected: { documentDate, figures: expectedFigures(cur, spec.variant, spec.employees) } };
}

// ---------------------------------------------------------------------------------------------------
// A minimal PDF writer (text pages, standard Helvetica, WinAnsiEncoding): enough for pdf.js to extract text

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\xff]/g, '?')})`;
}

/** A standards-conforming PDF 1.4 with one text page per entry of `pages` (lines of Latin-1 text). */
export function simplePdf(pages: readonly (readonly string[])[], info: { title: string; created: string }): Buffer {
  const objects: string[] = [];
  const pageRefs: string[] = [];
  const firstPage = 4;
  pages.forEach((lines, i) => {
    const content = `BT /F1 11 Tf 14 TL 56 780 Td ${lines.map((l) => `${pdfString(l)} Tj T*`).join(' ')} ET`;
    const pageId = firstPage + i * 2;
    pageRefs.push(`${pageId} 0 R`);
    objects[pageId] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  const infoId = firstPage + pages.length * 2;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageRefs.join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[infoId] = `<< /Title ${pdfString(info.title)} /Producer (at-company-data corpus generator) /CreationDate (D:${info.created.replace(/-/g, '')}120000Z) >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

// ---------------------------------------------------------------------------------------------------
// Writing a corpus directory

export interface CorpusDocumentSpec {
  listing: DocumentListing;
  bytes: Buffer;
  /** VOLLZUGSDATUM in the document change feed. */
  executedOn: string;
  /** Expected parser output for XML annual accounts (documentDate + all 47 figures). */
  expected?: { documentDate: string | null; figures: FigureValues };
}

export interface CorpusContent {
  companies: CompanySpec[];
  documents: CorpusDocumentSpec[];
  companyChanges: CompanyChange[];
  changesFrom: string;
  changesTo: string;
  /** Documents a replay must fail on (and keep as input), e.g. a truncated filing. */
  malformedDocuments?: string[];
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

function documentChangeOf(d: CorpusDocumentSpec): DocumentChange {
  return {
    key: d.listing.key,
    fnrDigits: d.listing.fnrDigits,
    documentType: d.listing.documentType,
    executedOn: d.executedOn,
    contentType: d.listing.contentType,
    fileExtension: d.listing.fileExtension,
  };
}

function byDateThenKey<T>(date: (item: T) => string | null, key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => (date(a) ?? '').localeCompare(date(b) ?? '') || key(a).localeCompare(key(b));
}

/**
 * Writes `<dir>/firmenbuch/…` and `<dir>/manifest.json` (layout: fixtures/corpus/README.md). Each stored
 * response draws its own prefixes from `random`, like the real service's.
 */
export async function writeCorpus(dir: string, content: CorpusContent, random: Random): Promise<void> {
  const fb = path.join(dir, 'firmenbuch');
  for (const sub of ['auszug', 'urkunden', 'dokumente', 'expected']) await mkdir(path.join(fb, sub), { recursive: true });
  const responses = content.companies.map((c) => ({ c, w: new ResponseXml('auszug', random) }));
  await inBatches(responses, 64, ({ c, w }) =>
    writeFile(path.join(fb, 'auszug', `${c.fnr}.xml`), soapEnvelope('1.2', auszugResponseRoot(w, c))),
  );

  const byCompany = new Map<string, CorpusDocumentSpec[]>();
  for (const d of content.documents) {
    const fnr = d.listing.fnr!;
    byCompany.set(fnr, [...(byCompany.get(fnr) ?? []), { ...d, listing: { ...d.listing, sizeBytes: d.bytes.length } }]);
  }
  const listings = [...byCompany.entries()].map(([fnr, docs]) => ({ fnr, docs, w: new ResponseXml('sucheUrkunde', random) }));
  await inBatches(listings, 64, ({ fnr, docs, w }) =>
    writeFile(path.join(fb, 'urkunden', `${fnr}.xml`), soapEnvelope('1.1', sucheUrkundeResponseRoot(w, { fnr }, docs.map((d) => d.listing)))),
  );
  await inBatches(content.documents, 64, async (d) => {
    await writeFile(path.join(fb, 'dokumente', `${d.listing.key}.${d.listing.fileExtension ?? 'bin'}`), d.bytes);
    if (d.expected) await writeFile(path.join(fb, 'expected', `${d.listing.key}.json`), `${JSON.stringify(d.expected, null, 2)}\n`);
  });

  const window = { von: content.changesFrom, bis: content.changesTo };
  const companyChanges = [...content.companyChanges].sort(byDateThenKey((c) => c.executedOn, (c) => c.fnr));
  const documentChanges = content.documents.map(documentChangeOf).sort(byDateThenKey((c) => c.executedOn, (c) => c.key));
  const firmaXml = veraenderungenFirmaResponseRoot(new ResponseXml('veraenderungenFirma', random), window, companyChanges);
  const urkundeXml = veraenderungenUrkundeResponseRoot(new ResponseXml('veraenderungenUrkunde', random), window, documentChanges);
  await writeFile(path.join(fb, 'veraenderungen-firma.xml'), soapEnvelope('1.2', firmaXml));
  await writeFile(path.join(fb, 'veraenderungen-urkunde.xml'), soapEnvelope('1.2', urkundeXml));
  const manifest = {
    firmenbuch: {
      changesFrom: content.changesFrom,
      changesTo: content.changesTo,
      ...(content.malformedDocuments?.length ? { malformedDocuments: content.malformedDocuments } : {}),
    },
  };
  await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------------
// Building blocks for company descriptions

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** `2019-05-06` -> `20190506`, the register's usual spelling of DATVON and GEBURTSDATUM. */
export function compactDate(isoDate: string): string {
  return isoDate.replace(/-/g, '');
}

export interface ListingSpec {
  fnr: string;
  key: string;
  az: string;
  type: string;
  contentType: 'application/xml' | 'application/pdf';
  documentDate?: string;
  balanceSheetDate?: string;
  sizeClass?: string;
  vnr?: string;
  filedOn?: string;
}

/** A SUCHEURKUNDE entry (GROESSE is filled in from the bytes when the corpus is written). */
export function listing(s: ListingSpec): DocumentListing {
  const [y, m, d] = (s.balanceSheetDate ?? '').split('-');
  return {
    key: s.key,
    fnr: s.fnr,
    fnrDigits: String(Number(s.key.slice(0, 6))),
    az: s.az,
    documentType: { code: s.type, text: DOCUMENT_TYPES[s.type] ?? null },
    documentDate: s.documentDate ?? null,
    contentType: s.contentType,
    fileExtension: s.contentType === 'application/pdf' ? 'pdf' : 'xml',
    sizeBytes: null,
    remark: s.balanceSheetDate ? `zum ${d}.${m}.${y}` : null,
    balanceSheetDate: s.balanceSheetDate ?? null,
    sizeClass: s.sizeClass ?? null,
    vnr: s.vnr ?? null,
    filedOn: s.filedOn ?? null,
  };
}

export function companyChange(fnr: string, vnr: string, executedOn: string, kind: CompanyChange['kind'], details: CompanyChange['details'] = []): CompanyChange {
  return { fnr, fnrCheckLetterValid: true, vnr, executedOn, kind, kindText: kind, details };
}

// ---------------------------------------------------------------------------------------------------
// Synthetic companies

export interface Municipality {
  code: string;
  name: string;
  zip: string;
  court: string;
}

/** Seats with their Gemeindekennziffer (first digit = Bundesland, three digits = Bezirk) and court. */
export const MUNICIPALITIES: readonly Municipality[] = [
  { code: '90001', name: 'Wien', zip: '1010', court: '007' },
  { code: '90001', name: 'Wien', zip: '1030', court: '007' },
  { code: '90001', name: 'Wien', zip: '1220', court: '007' },
  { code: '10101', name: 'Eisenstadt', zip: '7000', court: '309' },
  { code: '20101', name: 'Klagenfurt am Wörthersee', zip: '9020', court: '729' },
  { code: '20201', name: 'Villach', zip: '9500', court: '729' },
  { code: '30101', name: 'Krems an der Donau', zip: '3500', court: '129' },
  { code: '30201', name: 'St. Pölten', zip: '3100', court: '199' },
  { code: '30401', name: 'Wiener Neustadt', zip: '2700', court: '239' },
  { code: '31235', name: 'Korneuburg', zip: '2100', court: '119' },
  { code: '40101', name: 'Linz', zip: '4020', court: '458' },
  { code: '40201', name: 'Steyr', zip: '4400', court: '499' },
  { code: '40301', name: 'Wels', zip: '4600', court: '519' },
  { code: '41227', name: 'Ried im Innkreis', zip: '4910', court: '469' },
  { code: '50101', name: 'Salzburg', zip: '5020', court: '569' },
  { code: '60101', name: 'Graz', zip: '8010', court: '638' },
  { code: '61108', name: 'Leoben', zip: '8700', court: '609' },
  { code: '70101', name: 'Innsbruck', zip: '6020', court: '818' },
  { code: '80207', name: 'Bregenz', zip: '6900', court: '929' },
  { code: '80404', name: 'Feldkirch', zip: '6800', court: '929' },
];

const NAME_STEMS = [
  'Alpen', 'Donau', 'Tauern', 'Gletscher', 'Wörthersee', 'Mühlviertler', 'Zirben', 'Enns', 'Murtaler', 'Traun',
  'Salzkammergut', 'Lungauer', 'Waldviertler', 'Weinviertler', 'Mostviertler', 'Südsteirische', 'Kärntner', 'Tiroler',
  'Vorarlberger', 'Böhmerwald', 'Pöstlingberg', 'Schöckl', 'Dachstein', 'Großglockner', 'Ötscher', 'Hochschwab',
  'Semmering', 'Bärnbacher', 'Fürstenfelder', 'Gmündner', 'Pinzgauer', 'Thayatal', 'Wachauer', 'Zillertaler',
];
const NAME_TRADES = [
  'Holzbau', 'Metalltechnik', 'Elektrotechnik', 'Bäckerei', 'Fleischwaren', 'Maschinenbau', 'Logistik', 'Spedition',
  'Glaserei', 'Möbelwerkstätte', 'Softwareentwicklung', 'Immobilienverwaltung', 'Gastronomie', 'Hotelbetriebs',
  'Kunststofftechnik', 'Getränkehandel', 'Baustoffhandel', 'Energietechnik', 'Reinigungsdienste', 'Druckerei',
  'Schlosserei', 'Gärtnerei', 'Käserei', 'Brauerei', 'Medizintechnik', 'Photovoltaik', 'Installationen', 'Fördertechnik',
];
const GMBH_SUFFIXES = ['GmbH', 'GmbH', 'Gesellschaft m.b.H.', 'GesmbH', 'Ges.m.b.H.'];
const AG_SUFFIXES = ['AG', 'Aktiengesellschaft'];
export const FIRST_NAMES = [
  'Anna', 'Maria', 'Elisabeth', 'Johann', 'Franz', 'Josef', 'Karl', 'Stefan', 'Andreas', 'Michael', 'Thomas', 'Christian',
  'Martina', 'Claudia', 'Sabine', 'Jürgen', 'Günther', 'Jörg', 'Ursula', 'Lukas', 'Katharina', 'Sophie', 'Florian',
  'Matthias', 'Bernhard', 'Doris', 'Gerlinde', 'Herbert', 'Wolfgang', 'Zoë',
];
export const LAST_NAMES = [
  'Gruber', 'Huber', 'Bauer', 'Wagner', 'Müller', 'Pichler', 'Steiner', 'Moser', 'Mayer', 'Hofer', 'Leitner', 'Berger',
  'Fuchs', 'Eder', 'Fischer', 'Schmid', 'Winkler', 'Weber', 'Schwarz', 'Maier', 'Reiter', 'Wimmer', 'Egger', 'Brunner',
  'Baumgartner', 'Auer', 'Höller', 'Jäger', 'Köhler', 'Fürst', 'Schöberl', 'Pröll', 'Strößner', 'Großauer',
];
const STREETS = ['Hauptplatz', 'Bahnhofstraße', 'Kirchengasse', 'Industriestraße', 'Gewerbepark', 'Schlossgasse', 'Mühlweg', 'Lände', 'Grabenstraße', 'Dorfstraße'];

/** Splits long names over two lines at the last space before 35 characters, as long Firmenwortlaute are. */
function nameLines(name: string): string[] {
  if (name.length <= 35) return [name];
  const cut = name.lastIndexOf(' ', 35);
  return cut <= 0 ? [name] : [name.slice(0, cut), name.slice(cut + 1)];
}

function birthDate(random: Random): string {
  const d = new Date(Date.UTC(intBetween(random, 1952, 1996), 0, 1) + intBetween(random, 0, 364) * 86_400_000);
  return d.toISOString().slice(0, 10);
}

export interface SyntheticOptions {
  /** Number of companies. */
  companies: number;
  seed: number;
  /** First FN digits; companies get consecutive numbers from here (default 600001). */
  firstFnr?: number;
  changesFrom?: string;
  changesTo?: string;
  /** false writes companies and change feeds only (search and cap tests): no filings, much faster. */
  filings?: boolean;
}

export interface SyntheticCompany {
  company: CompanySpec;
  documents: CorpusDocumentSpec[];
  change: CompanyChange;
}

/** One typical company: a GmbH or AG with managing directors, maybe shareholders, and one ~25 KB filing. */
export function syntheticCompany(index: number, random: Random, options: Required<Omit<SyntheticOptions, 'companies' | 'seed' | 'filings'>>): SyntheticCompany {
  const fnr = fnrOf(options.firstFnr + index);
  const legalForm: 'GES' | 'AG' = random() < 0.85 ? 'GES' : 'AG';
  const suffix = pick(random, legalForm === 'AG' ? AG_SUFFIXES : GMBH_SUFFIXES);
  const lines = nameLines(`${pick(random, NAME_STEMS)} ${pick(random, NAME_TRADES)} ${suffix}`);
  const seat = pick(random, MUNICIPALITIES);
  const span = Math.max(0, Math.round((Date.parse(options.changesTo) - Date.parse(options.changesFrom)) / 86_400_000));
  const changedOn = addDays(options.changesFrom, index % (span + 1));
  const founded = intBetween(random, 1995, 2022);
  const person = (pnr: string): PersonSpec => ({ pnr, firstName: pick(random, FIRST_NAMES), lastName: pick(random, LAST_NAMES), birthDate: compactDate(birthDate(random)) });
  const persons = [person('A'), person('B')];
  const boardCode = legalForm === 'AG' ? 'VM' : 'GF';
  const functions: FunctionSpec[] = [
    { pnr: 'A', code: boardCode, vnr: '001', since: `${founded}0301`, representation: EINZELVERTRETUNG },
    { pnr: 'B', code: legalForm === 'AG' ? 'AR' : 'PR', vnr: '002', since: compactDate(addDays(`${founded + 2}-01-15`, index % 200)) },
  ];
  const capital = legalForm === 'AG' ? '70000.00' : '35000.00';
  if (legalForm === 'GES' && random() < 0.6) functions.push({ pnr: 'A', code: 'GS', vnr: '001', capital, paidIn: '17500.00' });
  const court = seat.court;
  const company: CompanySpec = {
    fnr,
    names: [{ vnr: '001', lines }],
    addresses: [{ vnr: '001', street: pick(random, STREETS), houseNumber: String(intBetween(random, 1, 120)), zip: seat.zip, city: seat.name, deliverable: true }],
    purpose: [`${lines[0]!.split(' ')[1] ?? 'Handel'} und verwandte Tätigkeiten`],
    seat: { code: seat.code, name: seat.name },
    legalForm,
    capital: { amount: capital },
    court,
    functions,
    persons,
    entries: [
      { vnr: '001', date: `${founded}-03-01`, texts: [`Antrag auf Neueintragung einer Firma eingelangt am 20.02.${founded}`], receivedOn: `${founded}-02-20` },
      { vnr: '002', date: changedOn, texts: [`Antrag auf Änderung eingelangt am ${changedOn.slice(8, 10)}.${changedOn.slice(5, 7)}.${changedOn.slice(0, 4)}`], receivedOn: addDays(changedOn, -5) },
    ],
    kur: `R${String(intBetween(random, 100, 999))}${pick(random, ['K', 'P', 'R', 'V'])}${intBetween(random, 1000, 9999)}`,
    asOf: addDays(options.changesTo, 1),
  };

  const jab4 = random() < 0.5;
  const year = jab4 ? 2025 : 2024;
  const filing = generateFiling(
    {
      fnr, nameLines: lines, legalForm, variant: jab4 ? 'jab4' : 'legacy', year,
      revenue: Math.round(between(random, 1.5e8, 4e9)), employees: intBetween(random, 8, 260),
      signer: { firstName: persons[0]!.firstName!, lastName: persons[0]!.lastName!, birthDate: birthDate(random) },
    },
    random,
  );
  const number = 1000 + (index % 90000);
  const filedOn = addDays(`${year + 1}-06-01`, index % 120);
  const key = documentKey({ fnr, court, year: year + 1, number, dkz: '30', urkid: 40_000_000 + index, type: 'XML' });
  const document: CorpusDocumentSpec = {
    listing: listing({
      fnr, key, az: aktenzeichen({ court, year: year + 1, number }), type: '48', contentType: 'application/xml',
      balanceSheetDate: filing.documentDate, sizeClass: filing.sizeClass, vnr: '002', filedOn,
    }),
    bytes: Buffer.from(filing.xml, 'utf8'),
    executedOn: changedOn,
    expected: filing.expected,
  };
  return { company, documents: [document], change: companyChange(fnr, '002', changedOn, 'Änderung') };
}

/** N synthetic companies (one typical filing each) in the corpus layout, for benchmarks and cap tests. */
export async function writeSyntheticCorpus(dir: string, options: SyntheticOptions): Promise<void> {
  const resolved = {
    firstFnr: options.firstFnr ?? 600001,
    changesFrom: options.changesFrom ?? '2026-10-01',
    changesTo: options.changesTo ?? '2026-10-21',
  };
  const random = seededRandom(options.seed);
  const generated = Array.from({ length: options.companies }, (_, i) => syntheticCompany(i, random, resolved));
  await writeCorpus(
    dir,
    {
      companies: generated.map((g) => g.company),
      documents: options.filings === false ? [] : generated.flatMap((g) => g.documents),
      companyChanges: generated.map((g) => g.change),
      changesFrom: resolved.changesFrom,
      changesTo: resolved.changesTo,
    },
    random,
  );
}
