// HVD SOAP responses as the service writes them: all 18 namespaces on the root with `nsN` prefixes
// shuffled per response, elements and attributes qualified by the response namespace, and the envelope.
import type { CodeText } from '../../../../schemas/firmenbuchRecords.js';
import { FIRMENBUCH_OPERATIONS, SOAP_11_ENVELOPE_NS, SOAP_12_ENVELOPE_NS, escapeXml, type FirmenbuchOperation, type SoapVersion } from '../../soapEnvelope.js';
import { shuffled, type Random } from './random.js';

const FB = 'ns://firmenbuch.justiz.gv.at/Abfrage';

/** The 18 namespaces every HVD response declares on its root (HVD-PDF examples, AF recordings). */
export const FIRMENBUCH_NAMESPACES: readonly string[] = [
  `${FB}/AuszugRequest`, `${FB}/AuszugResponse`, `${FB}/v1/AuszugRequest`, `${FB}/v1/AuszugResponse`,
  `${FB}/v2/AuszugRequest`, `${FB}/v2/AuszugResponse`, `${FB}/SucheFirmaRequest`, `${FB}/SucheFirmaResponse`,
  `${FB}/SucheUrkundeRequest`, `${FB}/SucheUrkundeResponse`, `${FB}/UrkundeRequest`, `${FB}/UrkundeResponse`,
  `${FB}/VeraenderungenFirmaRequest`, `${FB}/VeraenderungenFirmaResponse`, `${FB}/VeraenderungenUrkundeRequest`,
  `${FB}/VeraenderungenUrkundeResponse`, `${FB}/v2/FBWertetabellen`, `${FB}/v2/FBWertetabellenRequest`,
];

/** The XML Schema instance namespace, for `xsi:nil` and the legacy filings' root. */
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

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
