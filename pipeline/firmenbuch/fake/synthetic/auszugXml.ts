// AUSZUG_V2 responses from a company description (CompanySpec): its FIRMA, FUN, PER and VOLLZ groups.
import { createHash } from 'node:crypto';
import { fnrDigitsPadded } from '../../../../schemas/identifiers.js';
import type { CodeText } from '../../../../schemas/firmenbuchRecords.js';
import { FIRMENBUCH_COURTS, FUNCTION_TEXTS, LEGAL_FORMS } from './registerCodes.js';
import { aktenzeichen, fnrPadded, fnrPlain, fnrSpaced } from './registerKeys.js';
import { XSI, type Attrs, type ResponseXml } from './responseXml.js';

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
