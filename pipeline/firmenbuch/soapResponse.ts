// Turns a Firmenbuch HVD SOAP response into a prefix-free element tree, or a typed error.
//
// The service declares every namespace on the response root with arbitrary `nsN` prefixes that differ
// between operations, and answers in SOAP 1.1 or 1.2 depending on how it was called. So the Body's first
// child is identified by local name + namespace URI (resolved from the xmlns declarations), never by its
// prefix, and the content below it is read by local names only.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { UnrecoverableInputError } from '../jobs/errors.js';
import { parseXmlFast, type FastXmlProfile } from './fastXml.js';
import {
  FIRMENBUCH_OPERATIONS,
  SOAP_11_ENVELOPE_NS,
  SOAP_12_ENVELOPE_NS,
  type FirmenbuchOperation,
  type SoapVersion,
} from './soapEnvelope.js';

// ---------------------------------------------------------------------------------------------------
// Prefix-free element tree

/** An element: child elements by local name, attributes as `@_NAME` (prefix removed), text as `#text`. */
export interface XmlElement {
  readonly [name: string]: XmlContent | undefined;
}
export type XmlContent = string | XmlElement | ReadonlyArray<string | XmlElement>;

const ATTR = '@_';
const TEXT = '#text';

/**
 * Elements that may repeat (maxOccurs > 1) in any of the six response schemas or in SOAP faults. Parsed
 * as arrays even when only one occurs, so a one-line name and a two-line name have the same shape. Names
 * are local names and shared across schemas (e.g. TEXT is single inside CODE/TEXT pairs), so the
 * accessors below accept both shapes anyway.
 */
const REPEATING = new Set([
  // AUSZUG_V2
  'FUN', 'ZWL', 'PER', 'VOLLZ', 'IDENT', 'EUID',
  'FI_DKZ02', 'FI_DKZ03', 'FI_DKZ04', 'FI_DKZ05', 'FI_DKZ06', 'FI_DKZ07', 'FI_DKZ09', 'FI_DKZ14', 'FI_DKZ15',
  'FI_DKZ16', 'FI_DKZ17', 'FI_DKZ20', 'FI_DKZ21', 'FI_DKZ22', 'FI_DKZ25', 'FI_DKZ30', 'FI_DKZ31', 'FI_DKZ32',
  'FI_DKZ33', 'FI_DKZ34', 'FI_DKZ40', 'FI_DKZ41', 'FI_DKZ42', 'FI_DKZ43', 'FI_DKZ44', 'FI_DKZ45',
  'ZW_DKZ02', 'ZW_DKZ03', 'ZW_DKZ04', 'ZW_DKZ05', 'ZW_DKZ06', 'ZW_DKZ09', 'ZW_DKZ17',
  'FU_DKZ10', 'FU_DKZ11', 'FU_DKZ12',
  'PE_DKZ02', 'PE_DKZ03', 'PE_DKZ06', 'PE_DKZ09', 'PE_STAAT', 'STAATSBUERGERSCHAFT',
  'RECHTSTATSACHE', 'RTS_DKZ50', 'MULTI', 'RTS',
  'BEZEICHNUNG', 'STELLE', 'TEXT', 'ZAHLBAR', 'REVJJJJ', 'TXTVERTR', 'VERTRETUNGSBEFUGTNURFUER',
  'NAME_FORMATIERT', 'AUSL_HG', 'AUSL_SITZ', 'AUSL_FN', 'ANTRAGSTEXT',
  // SUCHEFIRMA / SUCHEURKUNDE / VERAENDERUNGEN*
  'ERGEBNIS', 'NAME', 'VERAENDERUNG', 'DETAIL',
  // faults: several Reason texts (one per language), several validation messages
  'Text', 'ValidationError',
]);

/** Base64 documents can be tens of MB: kept as raw text, skipping entity processing, which is far faster. */
const STOP_NODES = ['*.CONTENT'];

/** The same tree shape for the one-pass reader (fastXml.ts). */
const FAST_PROFILE: FastXmlProfile = { arrays: REPEATING, stopNodes: new Set(['CONTENT']) };

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  textNodeName: TEXT,
  // "001" (VNR), "030435" and "0070711322495" must keep their leading zeros.
  parseTagValue: false,
  parseAttributeValue: false,
  // Drops the space padding of PNR/FKEN ("  A", "GF ") and whitespace between pretty-printed elements.
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  stopNodes: STOP_NODES,
  isArray: (name: string, _jPath: unknown, _isLeaf: boolean, isAttribute: boolean) => !isAttribute && REPEATING.has(name),
});

/** All occurrences of a child element, in document order. Text-only children become `{ '#text': … }`. */
export function childElements(parent: XmlElement | null | undefined, name: string): XmlElement[] {
  const value = parent?.[name];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? (value as ReadonlyArray<string | XmlElement>) : [value as string | XmlElement];
  return list.map((item) => (typeof item === 'string' ? { [TEXT]: item } : item));
}

export function childElement(parent: XmlElement | null | undefined, name: string): XmlElement | null {
  return childElements(parent, name)[0] ?? null;
}

/** An element's own text, trimmed; null when empty or `xsi:nil="true"`. */
export function elementText(element: XmlElement | null | undefined): string | null {
  if (!element || attribute(element, 'nil') === 'true') return null;
  const value = element[TEXT];
  const text = typeof value === 'string' ? value.trim() : '';
  return text === '' ? null : text;
}

/** Text of the first child with that name (null when absent or empty). */
export function childText(parent: XmlElement | null | undefined, name: string): string | null {
  return elementText(childElement(parent, name));
}

/** Non-empty texts of all children with that name (multi-line names, ANTRAGSTEXT, …). */
export function childTexts(parent: XmlElement | null | undefined, name: string): string[] {
  return childElements(parent, name)
    .map(elementText)
    .filter((t): t is string => t !== null);
}

/**
 * Attribute by local name. The schemas say attributes are namespace-qualified (`ns6:FNR`), but recorded
 * responses also carry unqualified ones (`STICHTAG` on URKUNDERESPONSE); with prefixes removed both read
 * the same. Values arrive trimmed (trimValues): the space padding of PNR (`"  A"`) is already gone.
 */
export function attribute(element: XmlElement | null | undefined, name: string): string | null {
  const value = element?.[ATTR + name];
  return typeof value === 'string' ? value : null;
}

// ---------------------------------------------------------------------------------------------------
// Errors

export type FirmenbuchFaultKind =
  | 'validation'
  | 'invalidFnr'
  | 'futureDate'
  | 'invalidKey'
  | 'invalidDateRange'
  | 'dateWindowExceeded'
  | 'invalidSearchArea'
  | 'invalidSearchCriteria'
  | 'accessDenied'
  | 'other';

/** Known German fault texts (HVD-PDF, AF, FO) mapped to a kind callers can act on. */
const FAULT_KINDS: ReadonlyArray<readonly [RegExp, FirmenbuchFaultKind]> = [
  [/Firmenbuchnummer ist ungültig/i, 'invalidFnr'],
  [/Stichtag darf nicht in der Zukunft/i, 'futureDate'],
  [/Parameter "?KEY"? ist ungültig/i, 'invalidKey'],
  [/BIS-Datum darf nicht vor dem VON-Datum/i, 'invalidDateRange'],
  [/Zeitraum darf .*nicht überschreiten/i, 'dateWindowExceeded'],
  [/Suchbereich ist ungültig/i, 'invalidSearchArea'],
  [/darf nicht leer sein|nur in Kombination mit/i, 'invalidSearchCriteria'],
  [/Zugriff nicht erlaubt/i, 'accessDenied'],
];

export interface FirmenbuchFaultDetails {
  soapVersion: SoapVersion;
  /** Local part of the fault code: `Receiver`/`Sender` (1.2) or `Client`/`Server` (1.1). */
  code: string | null;
  /** SOAP 1.2 Subcode value, local part. */
  subcode: string | null;
  /** The fault text as sent (German for business faults; "Validation error" for schema faults). */
  reason: string;
  /** Spring-WS `detail/ValidationError` messages, e.g. `cvc-complex-type.2.4.a: Invalid content.` */
  validationErrors: string[];
}

/**
 * The service answered with a SOAP fault: the request itself was refused, so retrying it changes
 * nothing. The client turns an unclassified fault (kind `other`, an internal error of the service)
 * into a transport fault, which is retried.
 */
export class FirmenbuchFaultError extends UnrecoverableInputError implements FirmenbuchFaultDetails {
  readonly soapVersion: SoapVersion;
  readonly code: string | null;
  readonly subcode: string | null;
  readonly reason: string;
  readonly validationErrors: string[];
  readonly kind: FirmenbuchFaultKind;

  constructor(details: FirmenbuchFaultDetails) {
    super(details.reason);
    this.soapVersion = details.soapVersion;
    this.code = details.code;
    this.subcode = details.subcode;
    this.reason = details.reason;
    this.validationErrors = details.validationErrors;
    this.kind = classifyFault(details);
  }
}

function classifyFault(details: FirmenbuchFaultDetails): FirmenbuchFaultKind {
  if (details.validationErrors.length > 0 || /^Validation error$/i.test(details.reason)) return 'validation';
  return FAULT_KINDS.find(([pattern]) => pattern.test(details.reason))?.[1] ?? 'other';
}

export type FirmenbuchParseErrorKind = 'notXml' | 'notSoap' | 'emptyBody' | 'unexpectedRoot' | 'unexpectedContent';

/** A complete response that cannot be read (not XML, not a SOAP envelope, unknown root): unrecoverable. */
export class FirmenbuchResponseParseError extends UnrecoverableInputError {
  readonly kind: FirmenbuchParseErrorKind;
  /** The start of the response, for logs. */
  readonly excerpt: string;

  constructor(kind: FirmenbuchParseErrorKind, message: string, xml = '') {
    super(message, xml || undefined);
    this.kind = kind;
    this.excerpt = xml.slice(0, 200);
  }
}

// ---------------------------------------------------------------------------------------------------
// Locating the Body's first child by namespace

interface QualifiedName {
  localName: string;
  namespace: string | null;
}

interface BodyChild extends QualifiedName {
  soapVersion: SoapVersion;
}

// One markup construct at a time; text between them is skipped by the search. Attribute values are
// matched as quoted strings so a `>` inside them does not end the tag.
const MARKUP =
  /<(\/)?([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/)?>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<!DOCTYPE/g;
const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

type Scope = ReadonlyMap<string, string>;

function declareNamespaces(parent: Scope, attributes: string): Scope {
  let scope: Map<string, string> | null = null;
  for (const m of attributes.matchAll(ATTRIBUTE)) {
    const name = m[1]!;
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    scope ??= new Map(parent);
    scope.set(name === 'xmlns' ? '' : name.slice(6), m[2] ?? m[3] ?? '');
  }
  return scope ?? parent;
}

function resolve(qname: string, scope: Scope): QualifiedName {
  const colon = qname.indexOf(':');
  const prefix = colon < 0 ? '' : qname.slice(0, colon);
  return { localName: colon < 0 ? qname : qname.slice(colon + 1), namespace: scope.get(prefix) ?? null };
}

function envelopeVersion(name: QualifiedName): SoapVersion | null {
  if (name.localName !== 'Envelope') return null;
  if (name.namespace === SOAP_12_ENVELOPE_NS) return '1.2';
  if (name.namespace === SOAP_11_ENVELOPE_NS) return '1.1';
  return null;
}

/**
 * Walks the start/end tags up to the first element inside soap:Body, tracking xmlns scopes. It stops
 * there, so a multi-MB document body is never scanned. Assumes the XML was validated before.
 */
function findBodyChild(xml: string): BodyChild {
  const stack: Array<{ name: QualifiedName; scope: Scope }> = [];
  let soapVersion: SoapVersion | null = null;
  MARKUP.lastIndex = 0;
  for (let m = MARKUP.exec(xml); m; m = MARKUP.exec(xml)) {
    if (m[0] === '<!DOCTYPE') throw new FirmenbuchResponseParseError('notSoap', 'SOAP messages must not contain a DTD', xml);
    if (m[2] === undefined) continue; // comment, PI, CDATA
    if (m[1]) {
      stack.pop();
      continue;
    }
    const scope = declareNamespaces(stack.at(-1)?.scope ?? new Map(), m[3] ?? '');
    const name = resolve(m[2], scope);
    if (stack.length === 0) {
      soapVersion = envelopeVersion(name);
      if (!soapVersion) throw new FirmenbuchResponseParseError('notSoap', `root element is not a SOAP envelope: ${m[2]}`, xml);
    } else if (stack.length === 2 && isBody(stack[1]!.name, soapVersion!)) {
      return { ...name, soapVersion: soapVersion! };
    }
    if (!m[4]) stack.push({ name, scope });
  }
  throw new FirmenbuchResponseParseError('emptyBody', 'SOAP Body is missing or empty', xml);
}

function isBody(name: QualifiedName, version: SoapVersion): boolean {
  return name.localName === 'Body' && name.namespace === (version === '1.2' ? SOAP_12_ENVELOPE_NS : SOAP_11_ENVELOPE_NS);
}

// ---------------------------------------------------------------------------------------------------
// Faults

/** QName text content (`env:Receiver`) -> local part. */
function localPart(qname: string | null): string | null {
  return qname === null ? null : qname.slice(qname.indexOf(':') + 1);
}

/** German text preferred; the service labels it xml:lang="en" anyway, so fall back to the first text. */
function reasonText(texts: XmlElement[]): string | null {
  const german = texts.find((t) => attribute(t, 'lang')?.toLowerCase().startsWith('de'));
  return elementText(german ?? texts[0]);
}

function validationErrors(detail: XmlElement | null): string[] {
  return childTexts(detail, 'ValidationError');
}

function faultError(fault: XmlElement, soapVersion: SoapVersion): FirmenbuchFaultError {
  if (soapVersion === '1.2') {
    const code = childElement(fault, 'Code');
    return new FirmenbuchFaultError({
      soapVersion,
      code: localPart(childText(code, 'Value')),
      subcode: localPart(childText(childElement(code, 'Subcode'), 'Value')),
      reason: reasonText(childElements(childElement(fault, 'Reason'), 'Text')) ?? 'SOAP fault without reason',
      validationErrors: validationErrors(childElement(fault, 'Detail')),
    });
  }
  return new FirmenbuchFaultError({
    soapVersion,
    code: localPart(childText(fault, 'faultcode')),
    subcode: null,
    reason: childText(fault, 'faultstring') ?? 'SOAP fault without faultstring',
    validationErrors: validationErrors(childElement(fault, 'detail')),
  });
}

// ---------------------------------------------------------------------------------------------------
// Entry point

export interface FirmenbuchResponse {
  operation: FirmenbuchOperation;
  soapVersion: SoapVersion;
  /** The response root (e.g. AUSZUG_V2_RESPONSE) without prefixes; attributes as `@_NAME`. */
  root: XmlElement;
}

const OPERATION_BY_ROOT = new Map<string, FirmenbuchOperation>(
  (Object.entries(FIRMENBUCH_OPERATIONS) as Array<[FirmenbuchOperation, (typeof FIRMENBUCH_OPERATIONS)[FirmenbuchOperation]]>).map(
    ([operation, names]) => [`${names.responseNamespace} ${names.responseRoot}`, operation],
  ),
);

function validateXml(xml: string): void {
  if (!xml.trimStart().startsWith('<')) throw new FirmenbuchResponseParseError('notXml', 'response is not XML', xml);
  // Anywhere in the document, not only before the envelope: the parser would read its entities.
  if (/<!DOCTYPE/i.test(xml)) throw new FirmenbuchResponseParseError('notSoap', 'SOAP messages must not contain a DTD', xml);
  const result = XMLValidator.validate(xml);
  if (result !== true) {
    const { msg, line, col } = result.err;
    throw new FirmenbuchResponseParseError('notXml', `response is not well-formed XML (line ${line}, col ${col}): ${msg}`, xml);
  }
}

/** The parser's own refusals (elements nested too deep, say) are unreadable input like any other. */
function parseTree(text: string): XmlElement {
  try {
    return parser.parse(text) as XmlElement;
  } catch (err) {
    throw new FirmenbuchResponseParseError('notXml', `response cannot be read: ${(err as Error).message}`, text);
  }
}

function bodyChild(tree: XmlElement, child: BodyChild): XmlElement | null {
  const body = childElement(childElement(tree, 'Envelope'), 'Body');
  return childElement(body, child.localName);
}

/**
 * Parses a response envelope. Throws FirmenbuchFaultError for SOAP faults and
 * FirmenbuchResponseParseError for anything that is not a readable Firmenbuch response.
 */
export function parseSoapResponse(xml: string): FirmenbuchResponse {
  const text = xml.replace(/^\uFEFF/, '').trimStart();
  // One pass checks and reads the usual response; anything outside its subset (or malformed) takes the
  // validator and fast-xml-parser, which decide as before.
  const fast = text.startsWith('<') ? (parseXmlFast(text, FAST_PROFILE) as XmlElement | null) : null;
  let child: BodyChild;
  let tree: XmlElement;
  if (fast) {
    child = findBodyChild(text);
    tree = fast;
  } else {
    validateXml(text);
    child = findBodyChild(text);
    tree = parseTree(text);
  }
  const root = bodyChild(tree, child);
  if (!root) throw new FirmenbuchResponseParseError('unexpectedContent', `Body child ${child.localName} could not be read`, text);
  const envNs = child.soapVersion === '1.2' ? SOAP_12_ENVELOPE_NS : SOAP_11_ENVELOPE_NS;
  if (child.localName === 'Fault' && child.namespace === envNs) throw faultError(root, child.soapVersion);
  const operation = OPERATION_BY_ROOT.get(`${child.namespace ?? ''} ${child.localName}`);
  if (!operation) {
    throw new FirmenbuchResponseParseError(
      'unexpectedRoot',
      `unexpected response element {${child.namespace ?? ''}}${child.localName}`,
      text,
    );
  }
  return { operation, soapVersion: child.soapVersion, root };
}
