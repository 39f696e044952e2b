// Request envelopes for the six Firmenbuch HVD operations (no network code).
// Element names, order and namespaces follow the official request XSDs: the service validates every
// request against them (xs:sequence), so a missing or misplaced child is a Spring-WS "Validation error".

import type { ArtDerVeraenderung } from '../../schemas/firmenbuchRecords.js';
import { canonicalFnr, registerDate } from '../../schemas/identifiers.js';

export type SoapVersion = '1.1' | '1.2';

export type FirmenbuchOperation =
  | 'auszug'
  | 'sucheFirma'
  | 'sucheUrkunde'
  | 'urkunde'
  | 'veraenderungenFirma'
  | 'veraenderungenUrkunde';

export const SOAP_11_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP_12_ENVELOPE_NS = 'http://www.w3.org/2003/05/soap-envelope';

const FB = 'ns://firmenbuch.justiz.gv.at/Abfrage';

export interface OperationNames {
  requestRoot: string;
  requestNamespace: string;
  responseRoot: string;
  responseNamespace: string;
  /** Path segment AF found for per-operation SOAP 1.1 endpoints (`{base}/auszug_v2`). */
  path: string;
}

/** Root element names and namespaces per operation (note: "Urkunde" singular in the namespaces). */
export const FIRMENBUCH_OPERATIONS: Readonly<Record<FirmenbuchOperation, OperationNames>> = {
  auszug: {
    requestRoot: 'AUSZUG_V2_REQUEST',
    requestNamespace: `${FB}/v2/AuszugRequest`,
    responseRoot: 'AUSZUG_V2_RESPONSE',
    responseNamespace: `${FB}/v2/AuszugResponse`,
    path: 'auszug_v2',
  },
  sucheFirma: {
    requestRoot: 'SUCHEFIRMAREQUEST',
    requestNamespace: `${FB}/SucheFirmaRequest`,
    responseRoot: 'SUCHEFIRMARESPONSE',
    responseNamespace: `${FB}/SucheFirmaResponse`,
    path: 'sucheFirma',
  },
  sucheUrkunde: {
    requestRoot: 'SUCHEURKUNDEREQUEST',
    requestNamespace: `${FB}/SucheUrkundeRequest`,
    responseRoot: 'SUCHEURKUNDERESPONSE',
    responseNamespace: `${FB}/SucheUrkundeResponse`,
    path: 'sucheUrkunde',
  },
  urkunde: {
    requestRoot: 'URKUNDEREQUEST',
    requestNamespace: `${FB}/UrkundeRequest`,
    responseRoot: 'URKUNDERESPONSE',
    responseNamespace: `${FB}/UrkundeResponse`,
    path: 'urkunde',
  },
  veraenderungenFirma: {
    requestRoot: 'VERAENDERUNGENFIRMAREQUEST',
    requestNamespace: `${FB}/VeraenderungenFirmaRequest`,
    responseRoot: 'VERAENDERUNGENFIRMARESPONSE',
    responseNamespace: `${FB}/VeraenderungenFirmaResponse`,
    path: 'veraenderungenFirma',
  },
  veraenderungenUrkunde: {
    requestRoot: 'VERAENDERUNGENURKUNDEREQUEST',
    requestNamespace: `${FB}/VeraenderungenUrkundeRequest`,
    responseRoot: 'VERAENDERUNGENURKUNDERESPONSE',
    responseNamespace: `${FB}/VeraenderungenUrkundeResponse`,
    path: 'veraenderungenUrkunden',
  },
};

export const AUSZUG_REQUEST_NS = FIRMENBUCH_OPERATIONS.auszug.requestNamespace;
export const AUSZUG_RESPONSE_NS = FIRMENBUCH_OPERATIONS.auszug.responseNamespace;
export const SUCHE_FIRMA_REQUEST_NS = FIRMENBUCH_OPERATIONS.sucheFirma.requestNamespace;
export const SUCHE_FIRMA_RESPONSE_NS = FIRMENBUCH_OPERATIONS.sucheFirma.responseNamespace;
export const SUCHE_URKUNDE_REQUEST_NS = FIRMENBUCH_OPERATIONS.sucheUrkunde.requestNamespace;
export const SUCHE_URKUNDE_RESPONSE_NS = FIRMENBUCH_OPERATIONS.sucheUrkunde.responseNamespace;
export const URKUNDE_REQUEST_NS = FIRMENBUCH_OPERATIONS.urkunde.requestNamespace;
export const URKUNDE_RESPONSE_NS = FIRMENBUCH_OPERATIONS.urkunde.responseNamespace;
export const VERAENDERUNGEN_FIRMA_REQUEST_NS = FIRMENBUCH_OPERATIONS.veraenderungenFirma.requestNamespace;
export const VERAENDERUNGEN_FIRMA_RESPONSE_NS = FIRMENBUCH_OPERATIONS.veraenderungenFirma.responseNamespace;
export const VERAENDERUNGEN_URKUNDE_REQUEST_NS = FIRMENBUCH_OPERATIONS.veraenderungenUrkunde.requestNamespace;
export const VERAENDERUNGEN_URKUNDE_RESPONSE_NS = FIRMENBUCH_OPERATIONS.veraenderungenUrkunde.responseNamespace;

export interface SoapRequest {
  operation: FirmenbuchOperation;
  soapVersion: SoapVersion;
  /** Complete envelope, UTF-8 XML text. */
  body: string;
  headers: Record<string, string>;
}

export interface EnvelopeOptions {
  /** SOAP 1.2 is what the official spec documents; SOAP 1.1 is what AF verified on the per-operation paths. */
  soapVersion?: SoapVersion;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for element content (also safe inside attribute values). */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] ?? ch);
}

/** Content-Type (and for 1.1 the empty SOAPAction the service expects) per SOAP version. */
export function soapHeaders(version: SoapVersion): Record<string, string> {
  return version === '1.2'
    ? { 'Content-Type': 'application/soap+xml;charset=UTF-8' }
    : { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""' };
}

type ChildValue = string | number | boolean;

/** Children in the order given: the order is the schema's xs:sequence and must not change. */
function buildEnvelope(operation: FirmenbuchOperation, children: ReadonlyArray<readonly [string, ChildValue]>, options: EnvelopeOptions): SoapRequest {
  const soapVersion = options.soapVersion ?? '1.2';
  const envNs = soapVersion === '1.2' ? SOAP_12_ENVELOPE_NS : SOAP_11_ENVELOPE_NS;
  const { requestRoot, requestNamespace } = FIRMENBUCH_OPERATIONS[operation];
  const inner = children.map(([name, value]) => childElement(name, String(value))).join('');
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soap:Envelope xmlns:soap="${envNs}"><soap:Header/><soap:Body>` +
    `<fb:${requestRoot} xmlns:fb="${escapeXml(requestNamespace)}">${inner}</fb:${requestRoot}>` +
    '</soap:Body></soap:Envelope>';
  return { operation, soapVersion, body, headers: soapHeaders(soapVersion) };
}

function childElement(name: string, value: string): string {
  return value === '' ? `<fb:${name}/>` : `<fb:${name}>${escapeXml(value)}</fb:${name}>`;
}

/** Normalises an FN for a request (`030435h`, `30435 h` -> `30435h`); throws on values that are no FN. */
function requestFnr(raw: string): string {
  const fnr = canonicalFnr(raw);
  if (!fnr) throw new RangeError(`not a Firmenbuchnummer: ${JSON.stringify(raw)}`);
  return fnr.fnr;
}

/** xs:date (`YYYY-MM-DD`); also accepts `YYYYMMDD` so callers can pass register dates through. */
function requestDate(raw: string, field: string): string {
  const date = registerDate(raw);
  if (!date) throw new RangeError(`${field} is not a date: ${JSON.stringify(raw)}`);
  return date;
}

export interface AuszugParams {
  fnr: string;
  /** Extract as of this date; the service rejects dates in the future. */
  stichtag: string;
  /** The HVD tier serves only "Kurzinformation" (XSD note "JustizOnline-HVD nur Kurzinformation"). */
  umfang?: 'Kurzinformation' | 'aktueller Auszug' | 'historischer Auszug';
}

export function buildAuszugRequest(params: AuszugParams, options: EnvelopeOptions = {}): SoapRequest {
  return buildEnvelope(
    'auszug',
    [
      ['FNR', requestFnr(params.fnr)],
      ['STICHTAG', requestDate(params.stichtag, 'STICHTAG')],
      ['UMFANG', params.umfang ?? 'Kurzinformation'],
    ],
    options,
  );
}

export interface SucheFirmaParams {
  /** `*` at the start and/or end searches for a part of the name. */
  firmenwortlaut: string;
  /** false = phonetic search. */
  exakteSuche?: boolean;
  /** 1 registered+deleted (default), 2 historical names, 3 all, 4 registered names, 5 drafts, 6 rejected. */
  suchbereich?: 1 | 2 | 3 | 4 | 5 | 6;
  gericht?: string;
  rechtsform?: string;
  rechtseigenschaft?: string;
  /** Statistik-Austria code: 1 digit Bundesland, 3 digits Bezirk, 5 digits Gemeinde. */
  ortnr?: string;
}

/** All seven children are sent, empty ones as empty elements: omitting one is a validation fault. */
export function buildSucheFirmaRequest(params: SucheFirmaParams, options: EnvelopeOptions = {}): SoapRequest {
  return buildEnvelope(
    'sucheFirma',
    [
      ['FIRMENWORTLAUT', params.firmenwortlaut],
      ['EXAKTESUCHE', params.exakteSuche ?? false],
      ['SUCHBEREICH', params.suchbereich ?? 1],
      ['GERICHT', params.gericht ?? ''],
      ['RECHTSFORM', params.rechtsform ?? ''],
      ['RECHTSEIGENSCHAFT', params.rechtseigenschaft ?? ''],
      ['ORTNR', params.ortnr ?? ''],
    ],
    options,
  );
}

/** The schema is a choice: exactly one FNR or one Aktenzeichen per call. */
export type SucheUrkundeParams = { fnr: string; az?: never } | { az: string; fnr?: never };

export function buildSucheUrkundeRequest(params: SucheUrkundeParams, options: EnvelopeOptions = {}): SoapRequest {
  const child: readonly [string, string] = params.fnr !== undefined ? ['FNR', requestFnr(params.fnr)] : ['AZ', params.az];
  return buildEnvelope('sucheUrkunde', [child], options);
}

export interface UrkundeParams {
  /** Opaque document KEY from SUCHEURKUNDE or VERAENDERUNGENURKUNDE. */
  key: string;
}

/** STICHTAG exists in the schema but is internal-only, so it is never sent. */
export function buildUrkundeRequest(params: UrkundeParams, options: EnvelopeOptions = {}): SoapRequest {
  return buildEnvelope('urkunde', [['KEY', params.key]], options);
}

export interface VeraenderungenFirmaParams {
  von: string;
  /** The service rejects windows longer than 7 days and BIS before VON. */
  bis: string;
  gericht?: string;
  rechtsform?: string;
  artDerVeraenderung?: ArtDerVeraenderung;
}

/** Optional filters are left out when not given ("nicht vorhanden oder leer" = all changes). */
export function buildVeraenderungenFirmaRequest(params: VeraenderungenFirmaParams, options: EnvelopeOptions = {}): SoapRequest {
  const children: Array<readonly [string, string]> = [
    ['VON', requestDate(params.von, 'VON')],
    ['BIS', requestDate(params.bis, 'BIS')],
  ];
  if (params.gericht) children.push(['GERICHT', params.gericht]);
  if (params.rechtsform) children.push(['RECHTSFORM', params.rechtsform]);
  if (params.artDerVeraenderung) children.push(['ARTDERVERAENDERUNG', params.artDerVeraenderung]);
  return buildEnvelope('veraenderungenFirma', children, options);
}

export interface VeraenderungenUrkundeParams {
  von: string;
  bis: string;
}

export function buildVeraenderungenUrkundeRequest(params: VeraenderungenUrkundeParams, options: EnvelopeOptions = {}): SoapRequest {
  return buildEnvelope(
    'veraenderungenUrkunde',
    [
      ['VON', requestDate(params.von, 'VON')],
      ['BIS', requestDate(params.bis, 'BIS')],
    ],
    options,
  );
}
