// GISA V2 in its XML style (`POST {GISA_URL}/xml/{Method}`, body `<{Method}Input>`): the request
// bodies, and the answers as prefix-free trees plus their Returncode and coded messages.
//
// Why the XML style and not SOAP: one URL per method and a plain body, so there is no SOAPAction or
// envelope version to get right against a WCF service whose WSDL names an internal host anyway.
// The service is WCF: members are serialised in ordinal order inside `schemas.datacontract.org`
// namespaces whose prefixes vary, empty values come as `i:nil="true"`; answers are read by local name.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { UnrecoverableInputError } from '../jobs/errors.js';
import { childElement, childElements, childText, type XmlElement } from '../firmenbuch/soapResponse.js';

export { childElement, childElements, childText, elementText, attribute, type XmlElement } from '../firmenbuch/soapResponse.js';

export const GISA_SERVICE_NS = 'http://schemas.datacontract.org/2004/07/GISA.Public.Service.V2';
export const GISA_ENTITY_NS = 'http://schemas.datacontract.org/2004/07/GISA.Public.Entities.V2';
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

export const GISA_METHODS = [
  'SearchPersonJur', 'SearchPersonNat', 'GetGewerbeV2', 'GetKatalogGewerbeschluessel', 'GetKatalogGewerbeart',
  'StartGISAAuszug', 'GetAuszugStatus', 'GetAuszug', 'GetApikeyInfo',
] as const;
export type GisaMethod = (typeof GISA_METHODS)[number];

/** The output element's name: both searches answer `SearchPersonOutput`. */
export function outputName(method: GisaMethod): string {
  return method.startsWith('SearchPerson') ? 'SearchPersonOutput' : `${method}Output`;
}

export const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Ordinal order, as the DataContractSerializer writes and expects members without an explicit Order. */
const ordinal = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `<{Method}Input>` with the key and the fields (null/undefined fields are left out), members in ordinal order. */
export function buildInput(method: GisaMethod, apiKey: string, fields: Record<string, string | boolean | number | null | undefined>): string {
  const members: Record<string, string> = { Apikey: apiKey };
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    // The service's booleans in search inputs are `t`/`f` strings (GISA-V2 §SearchPerson*).
    members[name] = typeof value === 'boolean' ? (value ? 't' : 'f') : String(value);
  }
  const body = Object.keys(members).sort(ordinal).map((name) => `<${name}>${escapeXml(members[name]!)}</${name}>`).join('');
  return `<?xml version="1.0" encoding="utf-8"?><${method}Input xmlns="${GISA_SERVICE_NS}">${body}</${method}Input>`;
}

// ---------------------------------------------------------------------------------------------------
// Answers

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The extract PDF is one large base64 node: kept as raw text.
  stopNodes: ['*.Auszug'],
});

export interface GisaMessage {
  code: string;
  text: string | null;
  /** Meldungsart: F error, W warning, I information. */
  kind: string | null;
}

export interface GisaAnswer {
  root: XmlElement;
  returncode: string | null;
  messages: GisaMessage[];
}

/** A complete answer that does not read as the method's output: never fixed by asking again. */
export class GisaResponseParseError extends UnrecoverableInputError {}

/** Returncode=ERROR with coded messages: what the codes mean decides retry or failure (gisaClient.ts). */
export class GisaContentError extends UnrecoverableInputError {
  constructor(readonly method: GisaMethod, readonly messages: GisaMessage[], rawInput?: string) {
    super(`GISA ${method} answered ERROR: ${messages.map((m) => `${m.code} ${m.text ?? ''}`.trim()).join('; ') || 'no message'}`, rawInput);
  }

  get codes(): string[] {
    return this.messages.map((m) => m.code);
  }
}

/** Code 1000: the GISA-Zahl is unknown (or invalid). */
export class GisaNotFoundError extends GisaContentError {}

export function readMessages(root: XmlElement): GisaMessage[] {
  return childElements(childElement(root, 'MeldungListe'), 'Meldung').map((m) => ({
    code: childText(m, 'Code') ?? '',
    text: childText(m, 'Beschreibung'),
    kind: childText(m, 'Meldungsart'),
  }));
}

/** The parser's own refusals (elements nested too deep, say) are unreadable input like any other: retrying brings the same. */
function parseTree(method: GisaMethod, body: string, text: string): Record<string, unknown> {
  try {
    return parser.parse(body) as Record<string, unknown>;
  } catch (err) {
    throw new GisaResponseParseError(`GISA ${method} answer cannot be read: ${(err as Error).message}`, text);
  }
}

/** Parses an answer's text into its output element; throws GisaResponseParseError when it is not one. */
export function parseAnswer(method: GisaMethod, text: string): GisaAnswer {
  const body = text.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE/i.test(body) || XMLValidator.validate(body) !== true) {
    throw new GisaResponseParseError(`GISA ${method} answer is not well-formed XML`, text);
  }
  const doc = parseTree(method, body, text);
  const name = outputName(method);
  const root = doc[name] as XmlElement | string | undefined;
  if (root === undefined) {
    const found = Object.keys(doc).find((k) => !k.startsWith('?')) ?? '(none)';
    throw new GisaResponseParseError(`GISA ${method} answered <${found}>, expected <${name}>`, text);
  }
  const element = typeof root === 'string' ? {} : root;
  return { root: element, returncode: childText(element, 'Returncode'), messages: readMessages(element) };
}
