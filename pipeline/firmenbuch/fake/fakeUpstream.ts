// A fake Firmenbuch HVD web service (node:http, no framework) serving a replay corpus through the real
// interface (docs/contract/upstream-interfaces.md §1): SOAP 1.1 and 1.2 on the base URL and on the
// per-operation paths, dispatch on the Body's first child (local name + namespace), random `nsN`
// prefixes per response, Spring-WS validation faults for schema violations, the German business faults,
// and injected transport faults (429, 500, timeout, truncated body, a 200 cut off part-way) drawn from a
// seeded PRNG.
// Used by tests, the ingestion benchmark and operators (fakeUpstreamCli.ts) to run without internet.
//
// Fault semantics (all HTTP 500 with a SOAP fault in the request's SOAP version):
//   schema violation (missing/misplaced/unknown child, bad xs:date/boolean/integer)
//       -> 1.1 Client / 1.2 Sender, "Validation error", detail/spring-ws:ValidationError (Xerces text)
//   invalid FN (format or check letter)  -> "Firmenbuchnummer ist ungültig! (max. 6 Ziffern plus Prüfzeichen)"
//   AUSZUG STICHTAG after `today`         -> "Stichtag darf nicht in der Zukunft sein"
//   AUSZUG for a valid FN not in corpus   -> "Zur Firmenbuchnummer <fn> ist keine Firma eingetragen"
//                                            (invented: the sources record no text for this case)
//   URKUNDE with an unknown KEY           -> 'Der Parameter "KEY" ist ungültig'
//   VERAENDERUNGEN* BIS before VON        -> "BIS-Datum darf nicht vor dem VON-Datum liegen"
//   VERAENDERUNGEN* over 7 days           -> "Der Zeitraum darf 7 Tage nicht überschreiten" (VON..BIS inclusive)
//   SUCHEFIRMA SUCHBEREICH not 1..6       -> "Der Suchbereich ist ungültig!"
//   SUCHEFIRMA "*" alone without RECHTSFORM/ORTNR -> "… nur in Kombination mit RECHTSFORM oder ORTNR möglich"
//   WERTETABELLEN_V2_REQUEST              -> "Zugriff nicht erlaubt" (outside the HVD scope)
// Business faults are 1.1 Server / 1.2 Receiver. An unknown Body element gets HTTP 404 (no endpoint).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fnrCheckLetter } from '../../../schemas/identifiers.js';
import type { FaultRates } from '../../register.js';
import type { FirmenbuchFaultKind } from '../soapResponse.js';
import { addDays } from '../changeWindows.js';
import { loadFirmenbuchCorpus, type CorpusCompany, type FirmenbuchCorpus } from './corpus.js';
import { parseXmlOrderedFast, type OrderedElement } from '../fastXml.js';
import type { CompanyChange, DocumentChange, DocumentListing } from '../../../schemas/firmenbuchRecords.js';
import { SUCHEFIRMA_MAX_HITS } from '../registerParsers.js';
import {
  FIRMENBUCH_OPERATIONS,
  SOAP_11_ENVELOPE_NS,
  SOAP_12_ENVELOPE_NS,
  escapeXml,
  type FirmenbuchOperation,
  type SoapVersion,
} from '../soapEnvelope.js';
import { sucheUrkundeResponseRoot, veraenderungenFirmaResponseRoot, veraenderungenUrkundeResponseRoot } from './synthetic/listingAndChangeXml.js';
import { seededRandom, type Random } from './synthetic/random.js';
import { FIRMENBUCH_COURTS, LEGAL_FORMS } from './synthetic/registerCodes.js';
import { fnrPlain, fnrSpaced } from './synthetic/registerKeys.js';
import { ResponseXml, namespaceDeclarations, namespacePrefixes, soapEnvelope } from './synthetic/responseXml.js';

// ---------------------------------------------------------------------------------------------------
// Public API

export type FaultKind = '429' | '500' | 'timeout' | 'truncated' | 'cutoff';

/** The rates of pipeline/register.ts (the same for every register's fake), here per operation too. */
export interface FaultOptions extends FaultRates {
  /** Inject only into these operations (default: all). */
  only?: FirmenbuchOperation[];
}

export interface FakeFirmenbuchOptions {
  /** A loaded corpus or the directory to load one from. */
  corpus: FirmenbuchCorpus | string;
  /** 0 (default) = a free port. */
  port?: number;
  host?: string;
  /** When set, X-API-KEY must equal it, else HTTP 401. */
  apiKey?: string;
  faults?: FaultOptions;
  /** The fake's "today" (yyyy-mm-dd) for the Stichtag check; default the real date at each request. */
  today?: string;
  /**
   * Serve the change feeds as if the corpus were published recently: every change date moves by the
   * same number of days so that the latest lands on this date (yyyy-mm-dd).
   */
  changesEndOn?: string;
}

/** The kinds of SOAP fault the fake answers with (counted in stats.soapFaults): what the client tells apart, and two it cannot. */
export type SoapFaultKind = Exclude<FirmenbuchFaultKind, 'other'> | 'unknownFnr' | 'internal';

export interface FakeFirmenbuchStats {
  /** Requests per operation that reached dispatch (faulted ones included). */
  requests: Record<FirmenbuchOperation, number>;
  /** Injected transport faults. */
  faults: Record<FaultKind, number>;
  soapFaults: Partial<Record<SoapFaultKind, number>>;
}

export interface FakeFirmenbuch {
  /** Base URL (the single endpoint); per-operation paths are `${url}/auszug_v2` etc. */
  url: string;
  corpus: FirmenbuchCorpus;
  stats: FakeFirmenbuchStats;
  /** Replaces the fault options (and restarts the PRNG from their seed). */
  setFaults(faults: FaultOptions | undefined): void;
  close(): Promise<void>;
}

/** Path of the real endpoint (`https://justizonline.gv.at/jop/api/at.gv.justiz.fbw/ws`), kept so only the host differs. */
export const FAKE_BASE_PATH = '/jop/api/at.gv.justiz.fbw/ws';

const MAX_REQUEST_BYTES = 1 << 20;
const SPRING_WS_NS = 'http://springframework.org/spring-ws';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const WERTETABELLEN_REQUEST_NS = 'ns://firmenbuch.justiz.gv.at/Abfrage/v2/FBWertetabellenRequest';

const OPERATIONS = Object.keys(FIRMENBUCH_OPERATIONS) as FirmenbuchOperation[];

// ---------------------------------------------------------------------------------------------------
// A namespace-resolved XML tree (requests and stored responses)

interface XAttr {
  ns: string | null;
  name: string;
  value: string;
}

interface XElement {
  ns: string | null;
  name: string;
  /** The name as written (`fb:FNR`), for Xerces-style messages. */
  qname: string;
  attrs: XAttr[];
  children: Array<XElement | string>;
}

type OrderedNode = Record<string, unknown>;

const orderedParser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  // PNR ("  A") and FKEN ("GF ") padding is significant in stored responses.
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

function splitQName(qname: string): [string, string] {
  const colon = qname.indexOf(':');
  return colon < 0 ? ['', qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
}

function isDeclaration(attribute: string): boolean {
  return attribute === 'xmlns' || attribute.startsWith('xmlns:');
}

/** The prefix -> namespace scope inside an element: its parent's plus its own xmlns declarations. */
function scopeOf(parentScope: ReadonlyMap<string, string>, rawAttrs: Record<string, string>): ReadonlyMap<string, string> {
  const declarations = Object.entries(rawAttrs).filter(([name]) => isDeclaration(name));
  if (declarations.length === 0) return parentScope;
  const scope = new Map(parentScope);
  for (const [name, value] of declarations) scope.set(name === 'xmlns' ? '' : name.slice(6), value);
  return scope;
}

function toElement(node: OrderedNode, parentScope: ReadonlyMap<string, string>): XElement | string | null {
  if ('#text' in node) return String(node['#text']);
  const qname = Object.keys(node).find((k) => k !== ':@');
  if (!qname) return null;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
  const scope = scopeOf(parentScope, rawAttrs);
  const [prefix, name] = splitQName(qname);
  const attrs: XAttr[] = Object.entries(rawAttrs)
    .filter(([n]) => !isDeclaration(n))
    .map(([n, value]) => {
      const [p, local] = splitQName(n);
      return { ns: p === '' ? null : p === 'xml' ? XML_NS : scope.get(p) ?? null, name: local, value };
    });
  const children = ((node[qname] ?? []) as OrderedNode[])
    .map((c) => toElement(c, scope))
    .filter((c): c is XElement | string => c !== null);
  return { ns: (prefix === 'xml' ? XML_NS : scope.get(prefix)) ?? null, name, qname, attrs, children };
}

/** toElement for the one-pass reader's tree (fastXml.ts), which is fast-xml-parser's preserveOrder tree. */
function fromOrdered(node: OrderedElement, parentScope: ReadonlyMap<string, string>): XElement {
  const rawAttrs: Record<string, string> = {};
  for (let a = 0; a < node.attrs.length; a += 2) rawAttrs[node.attrs[a]!] = node.attrs[a + 1]!;
  const scope = scopeOf(parentScope, rawAttrs);
  const [prefix, name] = splitQName(node.name);
  const attrs: XAttr[] = Object.entries(rawAttrs)
    .filter(([n]) => !isDeclaration(n))
    .map(([n, value]) => {
      const [p, local] = splitQName(n);
      return { ns: p === '' ? null : p === 'xml' ? XML_NS : scope.get(p) ?? null, name: local, value };
    });
  const children = node.children.map((c) => (typeof c === 'string' ? c : fromOrdered(c, scope)));
  return { ns: (prefix === 'xml' ? XML_NS : scope.get(prefix)) ?? null, name, qname: node.name, attrs, children };
}

/** The root element; `fast` is the one-pass reading when the caller has it (null: outside its subset). */
function parseTree(xml: string, fast: OrderedElement | null = parseXmlOrderedFast(xml)): XElement | null {
  if (fast) return fromOrdered(fast, new Map());
  const nodes = orderedParser.parse(xml) as OrderedNode[];
  for (const node of nodes) {
    const el = toElement(node, new Map());
    if (el !== null && typeof el !== 'string') return el;
  }
  return null;
}

function elementChildren(el: XElement): XElement[] {
  return el.children.filter((c): c is XElement => typeof c !== 'string');
}

function textOf(el: XElement): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

function soapBodyChild(envelope: XElement): { version: SoapVersion; child: XElement | null } | null {
  if (envelope.name !== 'Envelope') return null;
  const version: SoapVersion | null = envelope.ns === SOAP_12_ENVELOPE_NS ? '1.2' : envelope.ns === SOAP_11_ENVELOPE_NS ? '1.1' : null;
  if (!version) return null;
  const body = elementChildren(envelope).find((c) => c.name === 'Body' && c.ns === envelope.ns);
  return { version, child: body ? elementChildren(body)[0] ?? null : null };
}

// ---------------------------------------------------------------------------------------------------
// Re-prefixing stored responses

const FIRMENBUCH_NS_PREFIX = 'ns://firmenbuch.justiz.gv.at/';

/**
 * Serialises a response root with the prefixes of `prefixes`. Namespaces outside the 18 Firmenbuch
 * ones (xsi on nil elements) get `ns20`, `ns21`…; unqualified attributes of Firmenbuch elements are
 * qualified with their element's prefix, as the service's schemas demand.
 */
function serializeWithPrefixes(root: XElement, prefixes: ReadonlyMap<string, string>): string {
  const extra = new Map<string, string>();
  const prefixOf = (ns: string): string => {
    if (ns === XML_NS) return 'xml';
    const known = prefixes.get(ns) ?? extra.get(ns);
    if (known) return known;
    const created = `ns${20 + extra.size}`;
    extra.set(ns, created);
    return created;
  };
  const write = (el: XElement): string => {
    const tag = el.ns === null ? el.name : `${prefixOf(el.ns)}:${el.name}`;
    const attrs = el.attrs
      .map((a) => {
        const ns = a.ns ?? (el.ns?.startsWith(FIRMENBUCH_NS_PREFIX) ? el.ns : null);
        return ` ${ns === null ? a.name : `${prefixOf(ns)}:${a.name}`}="${escapeXml(a.value)}"`;
      })
      .join('');
    const hasElements = el.children.some((c) => typeof c !== 'string');
    // Whitespace between elements of a pretty-printed file is dropped: the service sends compact XML.
    const inner = el.children
      .map((c) => (typeof c === 'string' ? (hasElements && c.trim() === '' ? '' : escapeXml(c)) : write(c)))
      .join('');
    return inner === '' ? `<${tag}${attrs}/>` : `<${tag}${attrs}>${inner}</${tag}>`;
  };
  // Children first so every extra namespace is known when the root's declarations are written.
  const body = write(root);
  const rootTag = root.ns === null ? root.name : `${prefixOf(root.ns)}:${root.name}`;
  const declarations = namespaceDeclarations(prefixes) + [...extra.entries()].map(([ns, p]) => ` xmlns:${p}="${escapeXml(ns)}"`).join('');
  return body.replace(`<${rootTag}`, `<${rootTag}${declarations}`);
}

function setAttribute(el: XElement, name: string, value: (old: string) => string): void {
  for (const a of el.attrs) if (a.name === name) a.value = value(a.value);
}

function spaced(raw: string): string {
  try {
    return fnrSpaced(raw);
  } catch {
    return raw;
  }
}

/** The service spells the FN `12345 x` in AUSZUG and SUCHEURKUNDE, whatever the corpus file says. */
function respellFnrs(root: XElement): void {
  setAttribute(root, 'FNR', spaced);
  setAttribute(root, 'REQUEST_FNR', spaced);
  for (const hit of elementChildren(root).filter((c) => c.name === 'ERGEBNIS')) {
    for (const fnr of elementChildren(hit).filter((c) => c.name === 'FNR')) fnr.children = [spaced(textOf(fnr).trim())];
  }
}

// ---------------------------------------------------------------------------------------------------
// Faults

class SoapFault extends Error {
  constructor(
    readonly kind: SoapFaultKind,
    readonly reason: string,
    readonly validationErrors: string[] = [],
  ) {
    super(reason);
  }

  /** Schema faults blame the sender; everything else is reported by the receiver, like the service does. */
  get senderFault(): boolean {
    return this.kind === 'validation';
  }
}

const businessFault = {
  invalidFnr: () => new SoapFault('invalidFnr', 'Firmenbuchnummer ist ungültig! (max. 6 Ziffern plus Prüfzeichen)'),
  futureDate: () => new SoapFault('futureDate', 'Stichtag darf nicht in der Zukunft sein'),
  unknownFnr: (fnr: string) => new SoapFault('unknownFnr', `Zur Firmenbuchnummer ${fnr} ist keine Firma eingetragen`),
  invalidKey: () => new SoapFault('invalidKey', 'Der Parameter "KEY" ist ungültig'),
  invalidDateRange: () => new SoapFault('invalidDateRange', 'BIS-Datum darf nicht vor dem VON-Datum liegen'),
  dateWindow: () => new SoapFault('dateWindowExceeded', 'Der Zeitraum darf 7 Tage nicht überschreiten'),
  searchArea: () => new SoapFault('invalidSearchArea', 'Der Suchbereich ist ungültig!'),
  searchCriteria: () =>
    new SoapFault('invalidSearchCriteria', 'Die Suche mit "*" ist nur in Kombination mit RECHTSFORM oder ORTNR möglich'),
  accessDenied: () => new SoapFault('accessDenied', 'Zugriff nicht erlaubt'),
  internal: () => new SoapFault('internal', 'Interner Fehler'),
};

function faultEnvelope(version: SoapVersion, fault: SoapFault): string {
  const detail = fault.validationErrors
    .map((m) => `<spring-ws:ValidationError xmlns:spring-ws="${SPRING_WS_NS}">${escapeXml(m)}</spring-ws:ValidationError>`)
    .join('');
  const reason = escapeXml(fault.reason);
  if (version === '1.1') {
    const code = fault.senderFault ? 'SOAP-ENV:Client' : 'SOAP-ENV:Server';
    return (
      `<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP_11_ENVELOPE_NS}"><SOAP-ENV:Header/><SOAP-ENV:Body>` +
      `<SOAP-ENV:Fault><faultcode>${code}</faultcode><faultstring xml:lang="en">${reason}</faultstring>` +
      `${detail ? `<detail>${detail}</detail>` : ''}</SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>`
    );
  }
  const code = fault.senderFault ? 'env:Sender' : 'env:Receiver';
  return (
    `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="${SOAP_12_ENVELOPE_NS}"><env:Header/><env:Body>` +
    `<env:Fault><env:Code><env:Value>${code}</env:Value></env:Code><env:Reason><env:Text xml:lang="en">${reason}</env:Text></env:Reason>` +
    `${detail ? `<env:Detail>${detail}</env:Detail>` : ''}</env:Fault></env:Body></env:Envelope>`
  );
}

// ---------------------------------------------------------------------------------------------------
// Request schemas (xs:sequence of the request XSDs): validated like Spring-WS's payload validator

type ValueType = 'string' | 'date' | 'boolean' | 'integer';

interface Particle {
  /** More than one name = xs:choice. */
  names: string[];
  optional?: boolean;
  type?: ValueType;
}

const REQUEST_SCHEMAS: Readonly<Record<FirmenbuchOperation, readonly Particle[]>> = {
  auszug: [{ names: ['FNR'] }, { names: ['STICHTAG'], type: 'date' }, { names: ['UMFANG'] }],
  sucheFirma: [
    { names: ['FIRMENWORTLAUT'] },
    { names: ['EXAKTESUCHE'], type: 'boolean' },
    { names: ['SUCHBEREICH'], type: 'integer' },
    { names: ['GERICHT'] },
    { names: ['RECHTSFORM'] },
    { names: ['RECHTSEIGENSCHAFT'] },
    { names: ['ORTNR'] },
  ],
  sucheUrkunde: [{ names: ['FNR', 'AZ'] }],
  urkunde: [{ names: ['KEY'] }, { names: ['STICHTAG'], optional: true, type: 'date' }],
  veraenderungenFirma: [
    { names: ['VON'], type: 'date' },
    { names: ['BIS'], type: 'date' },
    { names: ['GERICHT'], optional: true },
    { names: ['RECHTSFORM'], optional: true },
    { names: ['ARTDERVERAENDERUNG'], optional: true },
  ],
  veraenderungenUrkunde: [{ names: ['VON'], type: 'date' }, { names: ['BIS'], type: 'date' }],
};

function expectedList(particles: readonly Particle[], from: number, ns: string): string {
  const names: string[] = [];
  for (const p of particles.slice(from)) {
    names.push(...p.names);
    if (!p.optional) break;
  }
  return `'{${names.map((n) => `"${ns}":${n}`).join(', ')}}'`;
}

function validationFault(...messages: string[]): SoapFault {
  return new SoapFault('validation', 'Validation error', messages);
}

function isValidDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(value);
  if (!m) return false;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.getUTCDate() === Number(m[3]);
}

const TYPE_CHECKS: Readonly<Record<ValueType, (v: string) => boolean>> = {
  string: () => true,
  date: isValidDate,
  boolean: (v) => ['true', 'false', '1', '0'].includes(v),
  integer: (v) => /^[+-]?\d+$/.test(v),
};

/** Checks element order, presence and simple types; returns the children's texts by local name. */
function validateRequest(root: XElement, particles: readonly Particle[]): Map<string, string> {
  const ns = root.ns ?? '';
  const children = elementChildren(root);
  const values = new Map<string, string>();
  let next = 0;
  let pending = 0;
  for (let p = 0; p < particles.length; p++) {
    const particle = particles[p]!;
    const child = children[next];
    if (child && child.ns === root.ns && particle.names.includes(child.name)) {
      const value = textOf(child).trim();
      const type = particle.type ?? 'string';
      if (!TYPE_CHECKS[type](value)) {
        throw validationFault(
          `cvc-datatype-valid.1.2.1: '${value}' is not a valid value for '${type}'.`,
          `cvc-type.3.1.3: The value '${value}' of element '${child.qname}' is not valid.`,
        );
      }
      values.set(child.name, value);
      next++;
      pending = p + 1;
      continue;
    }
    if (particle.optional) continue;
    throw child
      ? validationFault(`cvc-complex-type.2.4.a: Invalid content was found starting with element '${child.qname}'. One of ${expectedList(particles, pending, ns)} is expected.`)
      : validationFault(`cvc-complex-type.2.4.b: The content of element '${root.qname}' is not complete. One of ${expectedList(particles, pending, ns)} is expected.`);
  }
  const extra = children[next];
  if (extra) {
    throw pending < particles.length
      ? validationFault(`cvc-complex-type.2.4.a: Invalid content was found starting with element '${extra.qname}'. One of ${expectedList(particles, pending, ns)} is expected.`)
      : validationFault(`cvc-complex-type.2.4.d: Invalid content was found starting with element '${extra.qname}'. No child element is expected at this point.`);
  }
  return values;
}

// ---------------------------------------------------------------------------------------------------
// Operations

interface Reply {
  status: number;
  body: string;
}

interface Context {
  corpus: FirmenbuchCorpus;
  version: SoapVersion;
  today: string;
  writer(operation: FirmenbuchOperation): ResponseXml;
  stored(cacheKey: string, xml: string, operation: FirmenbuchOperation): string;
}

/** Request FN: up to 6 digits (leading zeros allowed), optional space, the right check letter. */
function requestFnr(raw: string): string {
  const m = /^(\d{1,6})\s?([a-zA-Z])$/.exec(raw.trim());
  if (!m) throw businessFault.invalidFnr();
  const digits = Number(m[1]);
  if (fnrCheckLetter(digits) !== m[2]!.toLowerCase()) throw businessFault.invalidFnr();
  return `${digits}${m[2]!.toLowerCase()}`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

function auszug(ctx: Context, values: Map<string, string>): string {
  const fnr = requestFnr(values.get('FNR') ?? '');
  if ((values.get('STICHTAG') ?? '').slice(0, 10) > ctx.today) throw businessFault.futureDate();
  const company = ctx.corpus.companies.get(fnr);
  if (!company) throw businessFault.unknownFnr(fnr);
  return ctx.stored(`auszug:${fnr}`, company.auszugXml, 'auszug');
}

function sucheUrkunde(ctx: Context, values: Map<string, string>): string {
  const az = values.get('AZ');
  if (az !== undefined) {
    const wanted = az.replace(/\s+/g, ' ').trim();
    const hits = [...ctx.corpus.documents.values()].map((d) => d.listing).filter((l) => l.az?.replace(/\s+/g, ' ').trim() === wanted);
    return soapEnvelope(ctx.version, sucheUrkundeResponseRoot(ctx.writer('sucheUrkunde'), { az }, hits));
  }
  const fnr = requestFnr(values.get('FNR') ?? '');
  const company = ctx.corpus.companies.get(fnr);
  if (!company?.documentsXml) return soapEnvelope(ctx.version, sucheUrkundeResponseRoot(ctx.writer('sucheUrkunde'), { fnr }, []));
  return ctx.stored(`urkunden:${fnr}`, company.documentsXml, 'sucheUrkunde');
}

/** KEY = FNR_AZ_ZNR_PNR_FKEN_UNR_DKZ_URKID_TYPE: METADATEN repeats its segments. */
function keySegments(key: string): { znr: string; pnr: string; fken: string; unr: string; dkz: string; urkid: string } {
  const [, , znr = '', pnr = '', fken = '', unr = '', dkz = '', urkid = ''] = key.split('_');
  return { znr, pnr, fken, unr, dkz, urkid };
}

/** The first document-feed entry per KEY, built once per corpus (a scan per request grew with the corpus). */
const feedEntries = new WeakMap<FirmenbuchCorpus, Map<string, DocumentChange>>();

/** METADATEN/VON (the version entered the archive): the date the document feed lists it, else the filing date. */
function archivedOn(corpus: FirmenbuchCorpus, listing: DocumentListing): string | null {
  let byKey = feedEntries.get(corpus);
  if (!byKey) {
    byKey = new Map();
    for (const c of corpus.documentChanges) if (!byKey.has(c.key)) byKey.set(c.key, c);
    feedEntries.set(corpus, byKey);
  }
  return byKey.get(listing.key)?.executedOn ?? listing.filedOn;
}

async function urkunde(ctx: Context, values: Map<string, string>): Promise<string> {
  const key = values.get('KEY') ?? '';
  const document = ctx.corpus.documents.get(key);
  const bytes = document ? await ctx.corpus.readDocument(key) : null;
  if (!document || !bytes) throw businessFault.invalidKey();
  const l = document.listing;
  const s = keySegments(key);
  const w = ctx.writer('urkunde');
  const metadata = w.el(
    'METADATEN',
    null,
    w.text('KEY', key),
    w.text('URKID', s.urkid),
    w.text('FNR', fnrSpaced(document.fnr)),
    w.text('AZ', l.az),
    w.codeText('DOKUMENTART', l.documentType),
    w.text('DOKUMENTENDATUM', l.documentDate),
    w.text('ZNR', s.znr),
    w.text('PNR', s.pnr),
    w.text('FKEN', s.fken),
    w.text('UNR', s.unr),
    w.text('DKZ', s.dkz),
    w.text('VNR', l.vnr),
    w.text('BEMERKUNG', l.remark),
    w.text('STICHTAG', l.balanceSheetDate),
    w.text('GKL', l.sizeClass),
    w.text('VON', archivedOn(ctx.corpus, l)),
    w.text('OEFFENTLICH', 'true'),
  );
  // Base64 has no characters to escape: the (possibly many MB) content is inserted as is.
  const content = `<${w.prefix}:CONTENT>${bytes.toString('base64')}</${w.prefix}:CONTENT>`;
  const dokument = w.el('DOKUMENT', null, w.text('CONTENTTYPE', l.contentType), w.text('DATEIENDUNG', l.fileExtension), content);
  return soapEnvelope(ctx.version, w.root({ STICHTAG: ctx.today }, metadata, dokument));
}

function checkWindow(von: string, bis: string): void {
  if (bis < von) throw businessFault.invalidDateRange();
  // "7 Tage": VON..BIS inclusive may span at most seven calendar days (what changeWindows produces).
  if (daysBetween(von, bis) > 6) throw businessFault.dateWindow();
}

const GENERIC_CHANGE_KINDS = new Set(['Neueintragung', 'Änderung', 'Löschung']);

/** Unfiltered, the feed lists the three generic kinds; ARTDERVERAENDERUNG selects one typed kind. */
function changeMatches(ctx: Context, c: CompanyChange, values: Map<string, string>): boolean {
  const kind = values.get('ARTDERVERAENDERUNG') || null;
  if (kind ? c.kindText !== kind : !GENERIC_CHANGE_KINDS.has(c.kindText)) return false;
  const company = ctx.corpus.companies.get(c.fnr);
  const court = values.get('GERICHT') || null;
  const legalForm = values.get('RECHTSFORM') || null;
  if (court && company?.extract.court?.code !== court) return false;
  return !legalForm || company?.extract.legalForm?.code === legalForm;
}

function inWindow(date: string | null, von: string, bis: string): boolean {
  return date !== null && date >= von.slice(0, 10) && date <= bis.slice(0, 10);
}

function veraenderungenFirma(ctx: Context, values: Map<string, string>): string {
  const von = values.get('VON')!;
  const bis = values.get('BIS')!;
  checkWindow(von, bis);
  const changes = ctx.corpus.companyChanges.filter((c) => inWindow(c.executedOn, von, bis) && changeMatches(ctx, c, values));
  const filter = { von, bis, gericht: values.get('GERICHT'), rechtsform: values.get('RECHTSFORM'), artDerVeraenderung: values.get('ARTDERVERAENDERUNG') };
  return soapEnvelope(ctx.version, veraenderungenFirmaResponseRoot(ctx.writer('veraenderungenFirma'), filter, changes));
}

function veraenderungenUrkunde(ctx: Context, values: Map<string, string>): string {
  const von = values.get('VON')!;
  const bis = values.get('BIS')!;
  checkWindow(von, bis);
  const changes = ctx.corpus.documentChanges.filter((c) => inWindow(c.executedOn, von, bis));
  return soapEnvelope(ctx.version, veraenderungenUrkundeResponseRoot(ctx.writer('veraenderungenUrkunde'), { von, bis }, changes));
}

// --- SUCHEFIRMA ----------------------------------------------------------------------------------------

interface SearchEntry {
  company: CorpusCompany;
  lines: string[];
  /** "" registered, "gelöscht", "historisch" (hit on a former name). */
  status: string;
  normalised: string;
  folded: string;
}

/** Whitespace collapsed: what EXAKTESUCHE=true compares (case and umlauts significant). */
function normaliseName(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

const UMLAUTS: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

/** EXAKTESUCHE=false: case-insensitive, umlauts folded (ä = ae), other accents and punctuation ignored. */
function foldName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[äöüß]/g, (c) => UMLAUTS[c] ?? c)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9*]+/g, ' ')
    .trim();
}

function searchEntries(corpus: FirmenbuchCorpus): SearchEntry[] {
  const entries: SearchEntry[] = [];
  const add = (company: CorpusCompany, lines: string[], status: string) => {
    const name = lines.join(' ');
    entries.push({ company, lines, status, normalised: normaliseName(name), folded: foldName(name) });
  };
  for (const company of corpus.companies.values()) {
    add(company, company.extract.nameLines, company.extract.status === 'deleted' ? 'gelöscht' : '');
    for (const former of company.extract.formerNames) add(company, former.lines, 'historisch');
  }
  return entries.sort((a, b) => a.folded.localeCompare(b.folded) || a.company.fnr.localeCompare(b.company.fnr));
}

/** `*` at the start = the term may sit anywhere in the name; otherwise the name must start with it. */
function nameMatcher(term: string, exact: boolean): (entry: SearchEntry) => boolean {
  const anywhere = term.trimStart().startsWith('*');
  const core = term.replace(/\*/g, ' ');
  const needle = exact ? normaliseName(core) : foldName(core);
  return (entry) => {
    const name = exact ? entry.normalised : entry.folded;
    return anywhere ? name.includes(needle) : name.startsWith(needle);
  };
}

/** SUCHBEREICH: 1 registered+deleted, 2 historical names, 3 everything, 4 registered only, 5/6 drafts/rejections (none here). */
function areaMatches(area: number, entry: SearchEntry): boolean {
  switch (area) {
    case 1:
      return entry.status !== 'historisch';
    case 2:
      return entry.status === 'historisch';
    case 3:
      return true;
    case 4:
      return entry.status === '';
    default:
      return false;
  }
}

function sucheFirma(ctx: Context, values: Map<string, string>, entries: () => SearchEntry[]): string {
  const area = Number(values.get('SUCHBEREICH'));
  if (!Number.isInteger(area) || area < 1 || area > 6) throw businessFault.searchArea();
  const term = values.get('FIRMENWORTLAUT') ?? '';
  const court = values.get('GERICHT') ?? '';
  const legalForm = values.get('RECHTSFORM') ?? '';
  const characteristic = (values.get('RECHTSEIGENSCHAFT') ?? '').toLowerCase();
  const ortnr = values.get('ORTNR') ?? '';
  if (term.replace(/\*/g, '').trim() === '' && legalForm === '' && ortnr === '') throw businessFault.searchCriteria();
  const exact = ['true', '1'].includes(values.get('EXAKTESUCHE') ?? '');
  const matchesName = nameMatcher(term, exact);
  const hits = entries()
    .filter(
      (e) =>
        areaMatches(area, e) &&
        (court === '' || e.company.extract.court?.code === court) &&
        (legalForm === '' || e.company.extract.legalForm?.code === legalForm) &&
        (characteristic === '' || e.company.legalCharacteristic?.toLowerCase() === characteristic) &&
        (ortnr === '' || (e.company.extract.municipalityCode ?? '').startsWith(ortnr)) &&
        matchesName(e),
    )
    // Exactly 1000 hits at most and no paging, like the service: the caller has to narrow the search.
    .slice(0, SUCHEFIRMA_MAX_HITS);
  const w = ctx.writer('sucheFirma');
  const hitXml = hits.map((h) => {
    const x = h.company.extract;
    const courtCode = x.court?.code ?? null;
    return w.el(
      'ERGEBNIS',
      null,
      w.text('FNR', fnrPlain(h.company.fnr)),
      w.text('STATUS', h.status),
      ...h.lines.map((l) => w.text('NAME', l)),
      w.text('SITZ', x.seat),
      w.codeText('RECHTSFORM', x.legalForm ? { code: x.legalForm.code, text: x.legalForm.text ?? LEGAL_FORMS[x.legalForm.code] ?? null } : null),
      w.text('RECHTSEIGENSCHAFT', h.company.legalCharacteristic ?? ''),
      w.codeText('GERICHT', courtCode ? { code: courtCode, text: x.court?.text ?? FIRMENBUCH_COURTS[courtCode] ?? null } : null),
    );
  });
  const echo = {
    REQUEST_EXAKTESUCHE: values.get('EXAKTESUCHE'),
    REQUEST_FIRMENWORTLAUT: term,
    REQUEST_GERICHT: court,
    REQUEST_ORTNR: ortnr,
    REQUEST_RECHTSEIGENSCHAFT: values.get('RECHTSEIGENSCHAFT'),
    REQUEST_RECHTSFORM: legalForm,
    REQUEST_SUCHBEREICH: values.get('SUCHBEREICH'),
  };
  return soapEnvelope(ctx.version, w.root(echo, ...hitXml));
}

// ---------------------------------------------------------------------------------------------------
// Injected faults

class FaultPlan {
  private random: Random;

  constructor(readonly options: FaultOptions = {}) {
    this.random = seededRandom(options.seed ?? 1);
  }

  /** One draw per dispatched request (when the operation is eligible), compared with the cumulative rates. */
  draw(operation: FirmenbuchOperation): FaultKind | null {
    const o = this.options;
    if (o.only && !o.only.includes(operation)) return null;
    const r = this.random();
    let edge = 0;
    for (const [kind, rate] of [['429', o.rate429], ['500', o.rate500], ['timeout', o.rateTimeout], ['truncated', o.rateTruncated], ['cutoff', o.rateCutOff]] as const) {
      edge += rate ?? 0;
      if (r < edge) return kind;
    }
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// HTTP

const OPERATION_BY_REQUEST = new Map<string, FirmenbuchOperation>(
  OPERATIONS.map((op) => [`${FIRMENBUCH_OPERATIONS[op].requestNamespace} ${FIRMENBUCH_OPERATIONS[op].requestRoot}`, op]),
);
const OPERATION_PATHS = new Set(OPERATIONS.map((op) => `${FAKE_BASE_PATH}/${FIRMENBUCH_OPERATIONS[op].path}`));

function contentType(version: SoapVersion): string {
  return version === '1.2' ? 'application/soap+xml;charset=utf-8' : 'text/xml;charset=utf-8';
}

class RequestTooLarge extends Error {}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) throw new RequestTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function emptyStats(): FakeFirmenbuchStats {
  return {
    requests: Object.fromEntries(OPERATIONS.map((op) => [op, 0])) as Record<FirmenbuchOperation, number>,
    faults: { '429': 0, '500': 0, timeout: 0, truncated: 0, cutoff: 0 },
    soapFaults: {},
  };
}

interface ParsedRequest {
  version: SoapVersion;
  root: XElement | null;
}

/** Null when the body is no SOAP envelope at all (SOAP forbids a DTD, so one is refused too). */
function parseRequest(text: string): ParsedRequest | null {
  if (/<!DOCTYPE/i.test(text)) return null;
  // The one-pass reader checks and reads the usual request; anything else goes through the validator.
  const fast = parseXmlOrderedFast(text);
  if (!fast && XMLValidator.validate(text) !== true) return null;
  const envelope = parseTree(text, fast);
  const body = envelope ? soapBodyChild(envelope) : null;
  return body ? { version: body.version, root: body.child } : null;
}

class FakeServer {
  readonly stats = emptyStats();
  private faults: FaultPlan;
  private readonly held = new Set<NodeJS.Timeout>();
  private readonly storedTrees = new Map<string, XElement>();
  private searchIndex: SearchEntry[] | null = null;
  private lastPrefix = '';

  constructor(
    readonly corpus: FirmenbuchCorpus,
    private readonly options: FakeFirmenbuchOptions,
  ) {
    this.faults = new FaultPlan(options.faults);
  }

  setFaults(faults: FaultOptions | undefined): void {
    this.faults = new FaultPlan(faults);
  }

  /** Fresh prefixes for every response, and never the same prefix for the root twice in a row. */
  private writer(operation: FirmenbuchOperation): ResponseXml {
    let w = new ResponseXml(operation, Math.random);
    while (w.prefix === this.lastPrefix) w = new ResponseXml(operation, Math.random);
    this.lastPrefix = w.prefix;
    return w;
  }

  private freshPrefixes(namespace: string): Map<string, string> {
    let prefixes = namespacePrefixes(Math.random);
    while (prefixes.get(namespace) === this.lastPrefix) prefixes = namespacePrefixes(Math.random);
    this.lastPrefix = prefixes.get(namespace) ?? '';
    return prefixes;
  }

  /** A stored response, parsed once, sent with new prefixes in the request's SOAP version. */
  private stored(version: SoapVersion, cacheKey: string, xml: string, operation: FirmenbuchOperation): string {
    let root = this.storedTrees.get(cacheKey);
    if (!root) {
      const envelope = parseTree(xml);
      root = (envelope && soapBodyChild(envelope)?.child) ?? undefined;
      if (!root) throw businessFault.internal();
      respellFnrs(root);
      this.storedTrees.set(cacheKey, root);
    }
    const prefixes = this.freshPrefixes(FIRMENBUCH_OPERATIONS[operation].responseNamespace);
    return soapEnvelope(version, serializeWithPrefixes(root, prefixes));
  }

  private today(): string {
    return this.options.today ?? new Date().toISOString().slice(0, 10);
  }

  private async answer(operation: FirmenbuchOperation, version: SoapVersion, root: XElement): Promise<Reply> {
    const ctx: Context = {
      corpus: this.corpus,
      version,
      today: this.today(),
      writer: (op) => this.writer(op),
      stored: (key, xml, op) => this.stored(version, key, xml, op),
    };
    try {
      const values = validateRequest(root, REQUEST_SCHEMAS[operation]);
      const body = await this.dispatch(operation, ctx, values);
      return { status: 200, body };
    } catch (err) {
      if (!(err instanceof SoapFault)) throw err;
      return this.faultReply(version, err);
    }
  }

  private dispatch(operation: FirmenbuchOperation, ctx: Context, values: Map<string, string>): string | Promise<string> {
    switch (operation) {
      case 'auszug':
        return auszug(ctx, values);
      case 'sucheFirma':
        return sucheFirma(ctx, values, () => (this.searchIndex ??= searchEntries(this.corpus)));
      case 'sucheUrkunde':
        return sucheUrkunde(ctx, values);
      case 'urkunde':
        return urkunde(ctx, values);
      case 'veraenderungenFirma':
        return veraenderungenFirma(ctx, values);
      case 'veraenderungenUrkunde':
        return veraenderungenUrkunde(ctx, values);
    }
  }

  private faultReply(version: SoapVersion, fault: SoapFault): Reply {
    this.stats.soapFaults[fault.kind] = (this.stats.soapFaults[fault.kind] ?? 0) + 1;
    return { status: 500, body: faultEnvelope(version, fault) };
  }

  private isEndpoint(url: string | undefined): boolean {
    const pathname = new URL(url ?? '/', 'http://fake').pathname.replace(/\/+$/, '');
    return pathname === FAKE_BASE_PATH || OPERATION_PATHS.has(pathname);
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!this.isEndpoint(req.url)) return this.plain(res, 404, 'Not Found');
    if (req.method !== 'POST') return this.plain(res, 405, 'Method Not Allowed', { Allow: 'POST' });
    if (this.options.apiKey !== undefined && req.headers['x-api-key'] !== this.options.apiKey) return this.plain(res, 401, 'Unauthorized');
    let text: string;
    try {
      text = await readBody(req);
    } catch (err) {
      if (err instanceof RequestTooLarge) return this.plain(res, 413, 'Payload Too Large');
      throw err;
    }
    const request = parseRequest(text);
    if (!request) {
      const fault = new SoapFault('validation', 'Could not access envelope: Unable to create envelope from given source');
      return this.send(res, this.faultReply('1.1', fault), '1.1');
    }
    const { version, root } = request;
    if (!root) return this.send(res, this.faultReply(version, validationFault('SOAP Body is empty')), version);
    const operation = OPERATION_BY_REQUEST.get(`${root.ns ?? ''} ${root.name}`);
    if (!operation) {
      if (root.ns === WERTETABELLEN_REQUEST_NS) return this.send(res, this.faultReply(version, businessFault.accessDenied()), version);
      return this.plain(res, 404, 'No endpoint mapping found');
    }
    this.stats.requests[operation]++;
    const injected = this.faults.draw(operation);
    if (injected) this.stats.faults[injected]++;
    if (injected === '429') return this.plain(res, 429, 'Too Many Requests', { 'Retry-After': String(this.faults.options.retryAfterSeconds ?? 1) });
    if (injected === '500') return this.send(res, this.faultReply(version, businessFault.internal()), version);
    if (injected === 'timeout') return this.hold(req, this.faults.options.timeoutMs ?? 30_000);
    const reply = await this.answer(operation, version, root);
    if (injected === 'truncated') return this.truncate(res, reply, version);
    if (injected === 'cutoff') return this.cutOff(res, reply, version);
    return this.send(res, reply, version);
  }

  private plain(res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'Content-Type': 'text/plain;charset=utf-8', ...headers });
    res.end(text);
  }

  private send(res: http.ServerResponse, reply: Reply, version: SoapVersion): void {
    const body = Buffer.from(reply.body, 'utf8');
    res.writeHead(reply.status, { 'Content-Type': contentType(version), 'Content-Length': body.length });
    res.end(body);
  }

  /** Full Content-Length, half the body, then the socket is destroyed: the client sees a network error. */
  private truncate(res: http.ServerResponse, reply: Reply, version: SoapVersion): void {
    const body = Buffer.from(reply.body, 'utf8');
    res.writeHead(reply.status, { 'Content-Type': contentType(version), 'Content-Length': body.length });
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
  }

  /** Chunked, so nothing announces the length: half the body, then a clean end of the response. */
  private cutOff(res: http.ServerResponse, reply: Reply, version: SoapVersion): void {
    const body = Buffer.from(reply.body, 'utf8');
    res.writeHead(reply.status, { 'Content-Type': contentType(version) });
    res.end(body.subarray(0, Math.floor(body.length / 2)));
  }

  /** Never answers: the connection is closed after `ms` (or earlier, when the client gives up). */
  private hold(req: http.IncomingMessage, ms: number): void {
    const timer = setTimeout(() => {
      this.held.delete(timer);
      req.socket.destroy();
    }, ms);
    this.held.add(timer);
    req.socket.once('close', () => {
      clearTimeout(timer);
      this.held.delete(timer);
    });
  }

  releaseHeld(): void {
    for (const timer of this.held) clearTimeout(timer);
    this.held.clear();
  }
}

/** Starts the fake on `host:port` (default 127.0.0.1, a free port) and resolves once it listens. */
/** The corpus with every change date moved so that the latest falls on `endOn`. */
function changesEndingOn(corpus: FirmenbuchCorpus, endOn: string): FirmenbuchCorpus {
  const dates = [...corpus.companyChanges, ...corpus.documentChanges].map((c) => c.executedOn).filter((d): d is string => d !== null);
  if (dates.length === 0) return corpus;
  const latest = dates.reduce((a, b) => (a > b ? a : b));
  const shift = daysBetween(latest, endOn);
  const move = <T extends { executedOn: string | null }>(c: T): T => (c.executedOn === null ? c : { ...c, executedOn: addDays(c.executedOn.slice(0, 10), shift) });
  return { ...corpus, companyChanges: corpus.companyChanges.map(move), documentChanges: corpus.documentChanges.map(move) };
}

export async function startFakeFirmenbuch(options: FakeFirmenbuchOptions): Promise<FakeFirmenbuch> {
  const loaded = typeof options.corpus === 'string' ? await loadFirmenbuchCorpus(options.corpus) : options.corpus;
  const corpus = options.changesEndOn ? changesEndingOn(loaded, options.changesEndOn) : loaded;
  const fake = new FakeServer(corpus, options);
  const server = http.createServer((req, res) => {
    fake.handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'Content-Type': 'text/plain;charset=utf-8' });
      res.end(`fake Firmenbuch failed: ${(err as Error).message}`);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${FAKE_BASE_PATH}`,
    corpus,
    stats: fake.stats,
    setFaults: (faults) => fake.setFaults(faults),
    close: () =>
      new Promise<void>((resolve, reject) => {
        fake.releaseHeld();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
