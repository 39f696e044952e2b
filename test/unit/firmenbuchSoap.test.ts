import { isUnrecoverable } from '../../pipeline/jobs/errors.js';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
  AUSZUG_REQUEST_NS,
  SOAP_11_ENVELOPE_NS,
  SOAP_12_ENVELOPE_NS,
  SUCHE_FIRMA_REQUEST_NS,
  SUCHE_URKUNDE_REQUEST_NS,
  URKUNDE_REQUEST_NS,
  VERAENDERUNGEN_FIRMA_REQUEST_NS,
  VERAENDERUNGEN_URKUNDE_REQUEST_NS,
  buildAuszugRequest,
  buildSucheFirmaRequest,
  buildSucheUrkundeRequest,
  buildUrkundeRequest,
  buildVeraenderungenFirmaRequest,
  buildVeraenderungenUrkundeRequest,
  escapeXml,
  type SoapRequest,
} from '../../pipeline/firmenbuch/soapEnvelope.js';
import {
  FirmenbuchFaultError,
  FirmenbuchResponseParseError,
  childText,
  parseSoapResponse,
} from '../../pipeline/firmenbuch/soapResponse.js';
import { parseAuszug } from '../../pipeline/firmenbuch/extractParser.js';
import { parseXmlFast, parseXmlOrderedFast } from '../../pipeline/firmenbuch/fastXml.js';
import {
  parseSucheFirma,
  parseSucheUrkunde,
  parseUrkunde,
  parseVeraenderungenFirma,
  parseVeraenderungenUrkunde,
} from '../../pipeline/firmenbuch/registerParsers.js';

const FIXTURES = new URL('../../fixtures/firmenbuch/soap/', import.meta.url);
const fixture = (name: string): string => readFileSync(new URL(`${name}.xml`, FIXTURES), 'utf8');

// ---------------------------------------------------------------------------------------------------
// Reading a built envelope back, namespace-aware, to check names, order and namespaces structurally.

type Ordered = Array<Record<string, unknown>>;
const orderedParser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, parseTagValue: false, ignoreDeclaration: true });

interface RequestShape {
  envelopeNs: string;
  rootName: string;
  rootNs: string;
  children: Array<[string, string]>;
}

function tagOf(node: Record<string, unknown>): string {
  return Object.keys(node).find((k) => k !== ':@')!;
}

function requestShape(request: SoapRequest): RequestShape {
  expect(XMLValidator.validate(request.body)).toBe(true);
  const doc = orderedParser.parse(request.body) as Ordered;
  const envelope = doc[0]!;
  const envAttrs = envelope[':@'] as Record<string, string>;
  const body = (envelope[tagOf(envelope)] as Ordered).find((n) => tagOf(n) === 'soap:Body')!;
  const root = (body['soap:Body'] as Ordered)[0]!;
  const rootTag = tagOf(root);
  const rootAttrs = root[':@'] as Record<string, string>;
  const prefix = rootTag.split(':')[0]!;
  const children = (root[rootTag] as Ordered).map((child): [string, string] => {
    const tag = tagOf(child);
    expect(tag.startsWith(`${prefix}:`), `${tag} is qualified with the request namespace`).toBe(true);
    const content = child[tag] as Ordered;
    return [tag.slice(prefix.length + 1), content.length === 0 ? '' : String(content[0]!['#text'])];
  });
  return {
    envelopeNs: envAttrs['@_xmlns:soap']!,
    rootName: rootTag.slice(prefix.length + 1),
    rootNs: rootAttrs[`@_xmlns:${prefix}`]!,
    children,
  };
}

describe('request envelopes', () => {
  it('builds AUSZUG_V2_REQUEST as SOAP 1.2 by default, FN normalised, UMFANG Kurzinformation', () => {
    const request = buildAuszugRequest({ fnr: '030435 H', stichtag: '2025-03-03' });
    expect(request.soapVersion).toBe('1.2');
    expect(request.headers).toEqual({ 'Content-Type': 'application/soap+xml;charset=UTF-8' });
    expect(requestShape(request)).toEqual({
      envelopeNs: SOAP_12_ENVELOPE_NS,
      rootName: 'AUSZUG_V2_REQUEST',
      rootNs: AUSZUG_REQUEST_NS,
      children: [
        ['FNR', '30435h'],
        ['STICHTAG', '2025-03-03'],
        ['UMFANG', 'Kurzinformation'],
      ],
    });
    expect(AUSZUG_REQUEST_NS).toBe('ns://firmenbuch.justiz.gv.at/Abfrage/v2/AuszugRequest');
  });

  it('builds SOAP 1.1 with text/xml and an empty SOAPAction', () => {
    const request = buildAuszugRequest({ fnr: '5h', stichtag: '20250303' }, { soapVersion: '1.1' });
    expect(request.headers).toEqual({ 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""' });
    const shape = requestShape(request);
    expect(shape.envelopeNs).toBe(SOAP_11_ENVELOPE_NS);
    expect(shape.children).toEqual([
      ['FNR', '5h'],
      ['STICHTAG', '2025-03-03'],
      ['UMFANG', 'Kurzinformation'],
    ]);
  });

  it('sends all seven SUCHEFIRMA children in schema order, empty ones as empty elements', () => {
    const shape = requestShape(buildSucheFirmaRequest({ firmenwortlaut: 'Alpenblick*', rechtsform: 'GES' }));
    expect(shape.rootName).toBe('SUCHEFIRMAREQUEST');
    expect(shape.rootNs).toBe(SUCHE_FIRMA_REQUEST_NS);
    expect(shape.children).toEqual([
      ['FIRMENWORTLAUT', 'Alpenblick*'],
      ['EXAKTESUCHE', 'false'],
      ['SUCHBEREICH', '1'],
      ['GERICHT', ''],
      ['RECHTSFORM', 'GES'],
      ['RECHTSEIGENSCHAFT', ''],
      ['ORTNR', ''],
    ]);
  });

  it('builds SUCHEURKUNDE with either FNR or AZ, URKUNDE with KEY only', () => {
    expect(requestShape(buildSucheUrkundeRequest({ fnr: '123456 d' }))).toMatchObject({
      rootName: 'SUCHEURKUNDEREQUEST',
      rootNs: SUCHE_URKUNDE_REQUEST_NS,
      children: [['FNR', '123456d']],
    });
    expect(requestShape(buildSucheUrkundeRequest({ az: '458 020 Fr 871/24 f' })).children).toEqual([['AZ', '458 020 Fr 871/24 f']]);
    expect(requestShape(buildUrkundeRequest({ key: '123456_4580202400871_000___000_30_38123456_XML' }))).toMatchObject({
      rootName: 'URKUNDEREQUEST',
      rootNs: URKUNDE_REQUEST_NS,
      children: [['KEY', '123456_4580202400871_000___000_30_38123456_XML']],
    });
  });

  it('builds the change-feed requests with optional filters only when given, in schema order', () => {
    expect(requestShape(buildVeraenderungenFirmaRequest({ von: '2025-03-03', bis: '2025-03-07' }))).toMatchObject({
      rootName: 'VERAENDERUNGENFIRMAREQUEST',
      rootNs: VERAENDERUNGEN_FIRMA_REQUEST_NS,
      children: [
        ['VON', '2025-03-03'],
        ['BIS', '2025-03-07'],
      ],
    });
    const filtered = buildVeraenderungenFirmaRequest({
      von: '2025-03-03',
      bis: '2025-03-07',
      artDerVeraenderung: 'VERSCHMELZUNG',
      gericht: '458',
      rechtsform: 'GES',
    });
    expect(requestShape(filtered).children.map(([name]) => name)).toEqual(['VON', 'BIS', 'GERICHT', 'RECHTSFORM', 'ARTDERVERAENDERUNG']);
    expect(requestShape(buildVeraenderungenUrkundeRequest({ von: '2025-03-04', bis: '2025-03-04' }))).toMatchObject({
      rootName: 'VERAENDERUNGENURKUNDEREQUEST',
      rootNs: VERAENDERUNGEN_URKUNDE_REQUEST_NS,
      children: [
        ['VON', '2025-03-04'],
        ['BIS', '2025-03-04'],
      ],
    });
  });

  it('escapes XML text', () => {
    expect(escapeXml(`Huber & Gruber <OG> "x" 'y'`)).toBe('Huber &amp; Gruber &lt;OG&gt; &quot;x&quot; &apos;y&apos;');
    const request = buildSucheFirmaRequest({ firmenwortlaut: 'Huber & Gruber <OG>' });
    expect(request.body).toContain('Huber &amp; Gruber &lt;OG&gt;');
    expect(requestShape(request).children[0]).toEqual(['FIRMENWORTLAUT', 'Huber & Gruber <OG>']);
  });

  it('refuses values that are no FN or no date before anything is sent', () => {
    expect(() => buildAuszugRequest({ fnr: 'FN-ABC', stichtag: '2025-03-03' })).toThrow(RangeError);
    expect(() => buildAuszugRequest({ fnr: '5h', stichtag: '31.02.2025' })).toThrow(RangeError);
    expect(() => buildVeraenderungenUrkundeRequest({ von: 'gestern', bis: '2025-03-04' })).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------------

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('SOAP faults', () => {
  it('turns the SOAP 1.2 fault into FirmenbuchFaultError with the German text', () => {
    const error = caught(() => parseSoapResponse(fixture('fault-invalid-fnr')));
    expect(error).toBeInstanceOf(FirmenbuchFaultError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'FirmenbuchFaultError',
      message: 'Firmenbuchnummer ist ungültig! (max. 6 Ziffern plus Prüfzeichen)',
      reason: 'Firmenbuchnummer ist ungültig! (max. 6 Ziffern plus Prüfzeichen)',
      code: 'Receiver',
      soapVersion: '1.2',
      kind: 'invalidFnr',
      validationErrors: [],
    });
  });

  it('turns the Spring-WS SOAP 1.1 validation fault into a validation FirmenbuchFaultError', () => {
    const error = caught(() => parseSoapResponse(fixture('fault-validation'))) as FirmenbuchFaultError;
    expect(error).toBeInstanceOf(FirmenbuchFaultError);
    expect(error.soapVersion).toBe('1.1');
    expect(error.code).toBe('Client');
    expect(error.message).toBe('Validation error');
    expect(error.kind).toBe('validation');
    expect(error.validationErrors[0]).toMatch(/^cvc-complex-type\.2\.4\.a: Invalid content/);
  });

  it('recognises the 7-day window fault of the change feeds', () => {
    const error = caught(() => parseVeraenderungenFirma(fixture('fault-date-window'))) as FirmenbuchFaultError;
    expect(error).toBeInstanceOf(FirmenbuchFaultError);
    expect(error.message).toBe('Der Zeitraum darf 7 Tage nicht überschreiten');
    expect(error.kind).toBe('dateWindowExceeded');
  });

  it('classifies the other documented German fault texts', () => {
    const fault = (text: string) =>
      `<e:Envelope xmlns:e="${SOAP_12_ENVELOPE_NS}"><e:Body><e:Fault><e:Code><e:Value>e:Receiver</e:Value></e:Code>` +
      `<e:Reason><e:Text xml:lang="en">${escapeXml(text)}</e:Text></e:Reason></e:Fault></e:Body></e:Envelope>`;
    const kindOf = (text: string) => (caught(() => parseSoapResponse(fault(text))) as FirmenbuchFaultError).kind;
    expect(kindOf('Stichtag darf nicht in der Zukunft sein')).toBe('futureDate');
    expect(kindOf('Der Parameter "KEY" ist ungültig')).toBe('invalidKey');
    expect(kindOf('BIS-Datum darf nicht vor dem VON-Datum liegen')).toBe('invalidDateRange');
    expect(kindOf('Der Suchbereich ist ungültig!')).toBe('invalidSearchArea');
    expect(kindOf('Das Feld RECHTSFORM darf nicht leer sein')).toBe('invalidSearchCriteria');
    expect(kindOf('Zugriff nicht erlaubt')).toBe('accessDenied');
    expect(kindOf('Interner Fehler')).toBe('other');
  });

  it('prefers a German Reason text and reads the Subcode', () => {
    const xml =
      `<s:Envelope xmlns:s="${SOAP_12_ENVELOPE_NS}"><s:Body><s:Fault>` +
      '<s:Code><s:Value>s:Sender</s:Value><s:Subcode><s:Value xmlns:x="urn:x">x:BadInput</s:Value></s:Subcode></s:Code>' +
      '<s:Reason><s:Text xml:lang="en">Invalid search area</s:Text><s:Text xml:lang="de">Der Suchbereich ist ungültig!</s:Text></s:Reason>' +
      '</s:Fault></s:Body></s:Envelope>';
    expect(caught(() => parseSoapResponse(xml))).toMatchObject({
      code: 'Sender',
      subcode: 'BadInput',
      message: 'Der Suchbereich ist ungültig!',
      kind: 'invalidSearchArea',
    });
  });
});

describe('unreadable responses', () => {
  const parseError = (xml: string) => caught(() => parseSoapResponse(xml)) as FirmenbuchResponseParseError;

  it.each([
    ['plain text', 'Service Unavailable', 'notXml'],
    ['empty', '', 'notXml'],
    ['truncated', fixture('auszug-og-stelle').slice(0, 900), 'notXml'],
    ['an HTML error page', '<html><body><h1>502 Bad Gateway</h1></body></html>', 'notSoap'],
    ['a DTD', `<!DOCTYPE x [<!ENTITY a "b">]><e:Envelope xmlns:e="${SOAP_11_ENVELOPE_NS}"><e:Body/></e:Envelope>`, 'notSoap'],
    ['an empty Body', `<e:Envelope xmlns:e="${SOAP_11_ENVELOPE_NS}"><e:Header/><e:Body/></e:Envelope>`, 'emptyBody'],
  ])('rejects %s as FirmenbuchResponseParseError', (_label, xml, kind) => {
    const error = parseError(xml);
    expect(error).toBeInstanceOf(FirmenbuchResponseParseError);
    expect(error.name).toBe('FirmenbuchResponseParseError');
    expect(error.kind).toBe(kind);
    expect(isUnrecoverable(error)).toBe(true);
  });

  it('rejects a root with the right local name in the wrong namespace (v1 extract)', () => {
    const xml = fixture('auszug-og-stelle').replace(
      'xmlns:ns11="ns://firmenbuch.justiz.gv.at/Abfrage/v2/AuszugResponse"',
      'xmlns:ns11="ns://firmenbuch.justiz.gv.at/Abfrage/v1/AuszugResponse"',
    );
    const error = parseError(xml);
    expect(error.kind).toBe('unexpectedRoot');
    expect(error.message).toContain('{ns://firmenbuch.justiz.gv.at/Abfrage/v1/AuszugResponse}AUSZUG_V2_RESPONSE');
  });

  it('rejects a response of another operation where a specific one is expected', () => {
    expect(caught(() => parseAuszug(fixture('suchefirma')))).toMatchObject({ name: 'FirmenbuchResponseParseError', kind: 'unexpectedRoot' });
  });

  it('tolerates a byte-order mark and leading whitespace', () => {
    expect(parseSoapResponse(`\uFEFF\n  ${fixture('suchefirma')}`).operation).toBe('sucheFirma');
  });
});

// ---------------------------------------------------------------------------------------------------

const PARSERS = {
  auszug: parseAuszug,
  sucheFirma: parseSucheFirma,
  sucheUrkunde: parseSucheUrkunde,
  urkunde: parseUrkunde,
  veraenderungenFirma: parseVeraenderungenFirma,
  veraenderungenUrkunde: parseVeraenderungenUrkunde,
} as const;

const parseAny = (xml: string): unknown => PARSERS[parseSoapResponse(xml).operation](xml);

/** Renames every `nsN` prefix and the envelope prefix, as a different server instance might. */
function reprefix(xml: string): string {
  return xml
    .replace(/(<\/?|\s|xmlns:)ns(\d+)(?=[:=])/g, '$1zq$2x')
    .replace(/(<\/?|xmlns:)(SOAP-ENV|env|soap)(?=[:=])/g, '$1E');
}

/** Moves the response namespace to a default namespace declaration: no element prefix, unqualified attributes. */
function defaultNamespace(xml: string, prefix: string): string {
  return xml.replaceAll(`xmlns:${prefix}=`, 'xmlns=').replaceAll(`${prefix}:`, '');
}

describe('prefix independence', () => {
  const dataFixtures = [
    'auszug-gmbh-shareholders',
    'auszug-og-stelle',
    'auszug-deleted',
    'auszug-organisation-party',
    'suchefirma',
    'sucheurkunde',
    'urkunde-xml',
    'veraenderungenfirma',
    'veraenderungenfirma-verschmelzung',
    'veraenderungenfirma-funktion',
    'veraenderungenurkunde',
  ];

  it.each(dataFixtures)('%s parses identically with other prefixes', (name) => {
    const original = fixture(name);
    const renamed = reprefix(original);
    expect(renamed).not.toBe(original);
    expect(renamed).not.toMatch(/<ns\d+:/);
    expect(parseSoapResponse(renamed).operation).toBe(parseSoapResponse(original).operation);
    expect(parseAny(renamed)).toEqual(parseAny(original));
  });

  it('parses an extract in a default namespace with unqualified attributes identically', () => {
    const original = fixture('auszug-gmbh-shareholders');
    const prefix = /<(ns\d+):AUSZUG_V2_RESPONSE/.exec(original)![1]!;
    const unprefixed = defaultNamespace(original, prefix);
    expect(unprefixed).toContain(' FNR="123456 d"');
    expect(parseAuszug(unprefixed)).toEqual(parseAuszug(original));
  });

  it('dispatches by namespace URI, not by the prefix number other files use for other operations', () => {
    // ns14 is SucheFirmaResponse in the recorded responses; here it is bound to the extract namespace.
    const original = fixture('auszug-deleted');
    const prefix = /<(ns\d+):AUSZUG_V2_RESPONSE/.exec(original)![1]!;
    const swapped = original.replace(/xmlns:ns14="[^"]*"/, '').replaceAll(`${prefix}:`, 'ns14:').replace(`xmlns:${prefix}=`, 'xmlns:ns14=');
    expect(parseSoapResponse(swapped).operation).toBe('auszug');
    expect(parseAuszug(swapped)).toEqual(parseAuszug(original));
  });

  it('keeps leading zeros of codes and numbers', () => {
    const { root } = parseSoapResponse(fixture('sucheurkunde'));
    expect(root['@_REQUEST_FNR']).toBe('123456 d');
    expect(parseSucheFirma(fixture('suchefirma')).hits[3]!.court).toEqual({ code: '007', text: 'Handelsgericht Wien' });
    expect(parseAuszug(fixture('auszug-gmbh-shareholders')).registerEntries.map((e) => e.vnr)).toEqual(['001', '002', '003', '004']);
  });
});

// ---------------------------------------------------------------------------------------------------

function urkundeWithContent(content: string): string {
  return fixture('urkunde-xml').replace(/(<(ns\d+):CONTENT>)[^<]*(<\/\2:CONTENT>)/, (_m, open: string, _p: string, close: string) => open + content + close);
}

describe('large documents', () => {
  it('parses a 10 MB+ base64 CONTENT text node', () => {
    const bytes = randomBytes(8 * 1024 * 1024);
    const base64 = bytes.toString('base64');
    expect(base64.length).toBeGreaterThan(10 * 1024 * 1024);
    const xml = urkundeWithContent(base64);

    const started = Date.now();
    const document = parseUrkunde(xml);
    const elapsedMs = Date.now() - started;

    expect(document.content?.equals(bytes)).toBe(true);
    expect(document.sizeBytes).toBe(bytes.length);
    expect(document.metadata.key).toBe('123456_4580202400871_000___000_30_38123456_XML');
    // Generous bound: entity processing on the node would take seconds; raw text takes milliseconds.
    expect(elapsedMs).toBeLessThan(5000);
  });

  it('decodes base64 wrapped in lines, also with CR written as character references', () => {
    const bytes = randomBytes(3000);
    const lines = bytes.toString('base64').match(/.{1,76}/g)!;
    expect(parseUrkunde(urkundeWithContent(lines.join('\r\n'))).content?.equals(bytes)).toBe(true);
    expect(parseUrkunde(urkundeWithContent(lines.join('&#13;\n'))).content?.equals(bytes)).toBe(true);
  });

  it('exposes the raw response tree without prefixes', () => {
    const { root, soapVersion } = parseSoapResponse(fixture('urkunde-xml'));
    expect(soapVersion).toBe('1.1');
    // Unqualified STICHTAG attribute on URKUNDERESPONSE (as recorded) reads like a qualified one.
    expect(root['@_STICHTAG']).toBe('2025-03-03');
    expect(childText(root, 'METADATEN')).toBeNull();
    expect(Object.keys(root).some((k) => k.includes(':'))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------
// The one-pass reader (fastXml.ts) against the validator + fast-xml-parser it stands in for: whatever
// it accepts must be well-formed and read exactly (key order included) as fast-xml-parser reads it.

describe('one-pass XML reader', () => {
  const REPEATING = new Set(['FUN', 'PER', 'VOLLZ', 'EUID', 'BEZEICHNUNG', 'STELLE', 'TEXT', 'ERGEBNIS', 'NAME', 'Text']);
  const base = {
    removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: '@_', textNodeName: '#text', parseTagValue: false,
    parseAttributeValue: false, trimValues: true, ignoreDeclaration: true, ignorePiTags: true,
  };
  const profiles = [
    {
      profile: { arrays: REPEATING, stopNodes: new Set(['CONTENT']) },
      reference: new XMLParser({ ...base, stopNodes: ['*.CONTENT'], isArray: (n: string, _p: unknown, _l: boolean, a: boolean) => !a && REPEATING.has(n) }),
    },
    {
      profile: { arrays: true as const, stopNodes: new Set(['ANHANG']) },
      reference: new XMLParser({ ...base, jPath: false, stopNodes: ['*.ANHANG'], isArray: (_n: string, _p: unknown, _l: boolean, a: boolean) => !a }),
    },
  ];
  const ordered = new XMLParser({
    preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false,
    trimValues: false, ignoreDeclaration: true, ignorePiTags: true,
  });
  type OrderedNode = Record<string, unknown>;
  const fromReference = (node: OrderedNode): unknown => {
    if ('#text' in node) return String(node['#text']);
    const name = Object.keys(node).find((k) => k !== ':@')!;
    return { name, attrs: Object.entries((node[':@'] ?? {}) as Record<string, string>).flat(), children: ((node[name] ?? []) as OrderedNode[]).map(fromReference) };
  };

  /** Accepted documents are well-formed and read as fast-xml-parser reads them; returns whether it was accepted. */
  const check = (xml: string): boolean => {
    let accepted = false;
    for (const { profile, reference } of profiles) {
      const fast = parseXmlFast(xml, profile);
      if (fast === null) continue;
      accepted = true;
      expect(XMLValidator.validate(xml), xml.slice(0, 200)).toBe(true);
      expect(JSON.stringify(fast), xml.slice(0, 200)).toBe(JSON.stringify(reference.parse(xml)));
      expect(fast).toStrictEqual(reference.parse(xml));
    }
    const tree = parseXmlOrderedFast(xml);
    if (tree !== null) {
      expect(XMLValidator.validate(xml)).toBe(true);
      const root = (ordered.parse(xml) as OrderedNode[]).map(fromReference).find((n) => typeof n !== 'string');
      expect(tree, xml.slice(0, 200)).toStrictEqual(root);
    }
    return accepted;
  };

  const root = new URL('../../fixtures/', import.meta.url);
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.xml')).sort();
  const documents = files.map((f) => ({ file: f, xml: readFileSync(new URL(f, root), 'latin1') }));

  it('reads every fixture as fast-xml-parser does; only the malformed ones are left to it', () => {
    expect(documents.length).toBeGreaterThan(50);
    const left = documents.filter(({ xml }) => !check(xml)).map(({ file }) => file);
    expect(left.every((f) => f.includes('malformed'))).toBe(true);
  });

  it.each([
    ['entities', '<a b=" 1 &amp; 2 " c=\'&lt;x&gt;\'>x &amp; y &quot;&apos;</a>'],
    ['text around children and comments', '<a> x <b/> y <!-- c --> z </a>'],
    ['text joined across a comment', '<a>x<!--c-->y</a>'],
    ['repeated and single children', '<a><b>1</b>t<b>2</b><c x="1"/><TEXT>u</TEXT></a>'],
    ['namespaces and xml:lang', '<a xmlns="u" xmlns:p="v"><p:b p:x="1" xml:lang="de">t</p:b></a>'],
    ['stop nodes', '<a><CONTENT x="1">  AAAA </CONTENT><ANHANG/><p:CONTENT xmlns:p="q"></p:CONTENT></a>'],
    ['CRLF and a declaration', '<?xml version="1.0" encoding="UTF-8"?>\r\n<a>\r\n <b>1</b>\r\n</a>\r\n'],
    ['two prefixes for one attribute name', '<a p:x="1" q:x="2"/>'],
  ])('reads %s like fast-xml-parser', (_label, xml) => {
    expect(check(xml)).toBe(true);
  });

  it.each([
    ['a numeric character reference', '<a>&#228;</a>'],
    ['CDATA', '<a><![CDATA[x]]></a>'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>'],
    ['a repeated attribute', '<a x="1" x="2"/>'],
    ['a bare ampersand', '<a>a & b</a>'],
    ['mismatched tags', '<a><b></a></b>'],
    ['two roots', '<a/><a/>'],
    ['text after the root', '<a/>x'],
    ['markup inside a stop node', '<a><CONTENT><x/></CONTENT><ANHANG><x/></ANHANG></a>'],
    ['a prototype member as a name', '<a><constructor>1</constructor></a>'],
  ])('leaves %s to the validator and fast-xml-parser', (_label, xml) => {
    expect(check(xml)).toBe(false);
  });

  it('never accepts what the validator rejects, nor reads differently, under random edits', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pieces = ['<', '>', '/', '&', ';', '"', "'", '=', ' ', '\n', '\r', ':', '!', '?', '-', 'a', '&amp;', '&#1;', '<!--', '-->', '<![CDATA[', ']]>', '</', '/>', ' q:b="1"'];
    const small = documents.filter(({ xml }) => xml.length < 20_000);
    let accepted = 0;
    for (let n = 0; n < 600; n++) {
      let xml = small[Math.floor(random() * small.length)]!.xml;
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        const at = Math.floor(random() * xml.length);
        const op = random();
        if (op < 0.4) xml = xml.slice(0, at) + xml.slice(at + 1 + Math.floor(random() * 3));
        else if (op < 0.85) xml = xml.slice(0, at) + pieces[Math.floor(random() * pieces.length)]! + xml.slice(at);
        else xml = xml.slice(0, at);
      }
      if (check(xml)) accepted++;
    }
    expect(accepted).toBeGreaterThan(50);
  });
});
