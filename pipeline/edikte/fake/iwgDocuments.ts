// Writes edicts in the IWG interface's own format (IBM Domino Access Services JSON) from a spec, and
// the parse result a spec must give, independently of the parser: the corpus generator, the fake
// upstream, the benchmark and the tests build their edicts here. Quirks the real interface shows are
// switched on per spec (README of fixtures/corpus/edikte lists them).
import { createHash } from 'node:crypto';
import type { NoticeBlock, ParsedNotice } from '../../../schemas/courtNoticeRecords.js';
import { personId } from '../../../schemas/identifiers.js';

export type EdictQuirk =
  /** Dates as Domino date-time items: local midnight in Vienna as a UTC instant (`2026-10-04T22:00:00Z`). */
  | 'instantDates'
  /** Debtor fields only as `Schuldner_Ori_*` (never changed since the first publication). */
  | 'oriOnly'
  /** Umlauts, ß and € in the Bausteine as named entities (`&uuml;`). */
  | 'namedEntities'
  /** Bausteine as a multipart item with a base64 text/html part instead of the richtext shape. */
  | 'multipart'
  /** Single values written as one-element arrays. */
  | 'arrayScalars';

export interface EdictSpec {
  /** `@unid`: 32 hex digits. */
  unid: string;
  courtCode: string;
  courtName: string;
  stateCode: string;
  /** Gerichtsabteilung (3 digits), Gattungszeichen, number, two-digit year, running number of the edict. */
  ga: string;
  gattung: string;
  number: number;
  year: number;
  seq: number;
  proceeding: { code: string; text: string };
  debtor: {
    type: 'J' | 'N';
    /** The whole name the parse must give. */
    name: string;
    /** Vorname and Name as the clerk filled them (a company name cut anywhere between words). */
    split: [string, string];
    title?: string;
    street?: string;
    zipCode?: string;
    city?: string;
    country?: string;
    fnrRaw?: string;
    /** What the parse must make of fnrRaw: the canonical FN, or null (absent, unreadable, wrong check letter). */
    fnr?: string | null;
    birthDate?: string;
  };
  /** Publication dates (ISO), oldest first. */
  published: string[];
  openedOn?: string;
  blocks: NoticeBlock[];
  /** Whether a closing block is among the blocks (the expected isOpen is its negation). */
  closed: boolean;
  /** `@modified` (ISO instant). */
  modified: string;
  quirks?: EdictQuirk[];
  /** Warnings the parse must give. */
  warnings?: string[];
}

export interface DeletionSpec {
  unid: string;
  ediktId: string;
  aktenzeichen: string;
  deletedAt: string;
}

export const IWG_BASE_PATH = '/edikte/id/idiwg8.nsf/api/data';

/** `458015S0001225001`: court, Gerichtsabteilung, Gattung, number (5), year (2), running number (3). */
export function azKeyOf(s: Pick<EdictSpec, 'courtCode' | 'ga' | 'gattung' | 'number' | 'year' | 'seq'>): string {
  return `${s.courtCode}${s.ga}${s.gattung}${String(s.number).padStart(5, '0')}${String(s.year % 100).padStart(2, '0')}${String(s.seq).padStart(3, '0')}`;
}

/** `458 015 S 00012/25`. */
export function aktenzeichenOf(s: Pick<EdictSpec, 'courtCode' | 'ga' | 'gattung' | 'number' | 'year'>): string {
  return `${s.courtCode} ${s.ga} ${s.gattung} ${String(s.number).padStart(5, '0')}/${String(s.year % 100).padStart(2, '0')}`;
}

/** A stable @unid from any text (the generators derive them from the case). */
export function unidOf(seed: string): string {
  return createHash('md5').update(seed).digest('hex').toUpperCase();
}

const de = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;

const VIENNA_HOUR = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Vienna', hour: '2-digit', hourCycle: 'h23', day: '2-digit' });

/** Midnight in Vienna of `iso` as a UTC instant: 23:00Z the day before in winter, 22:00Z in summer. */
export function viennaMidnight(iso: string): string {
  for (const offset of [1, 2]) {
    const at = new Date(Date.parse(`${iso}T00:00:00Z`) - offset * 3_600_000);
    const parts = Object.fromEntries(VIENNA_HOUR.formatToParts(at).map((p) => [p.type, p.value]));
    if (parts.hour === '00' && Number(parts.day) === Number(iso.slice(8, 10))) return at.toISOString().replace('.000Z', 'Z');
  }
  throw new Error(`no Vienna midnight for ${iso}`);
}

const NAMED: Record<string, string> = { ä: '&auml;', ö: '&ouml;', ü: '&uuml;', Ä: '&Auml;', Ö: '&Ouml;', Ü: '&Uuml;', ß: '&szlig;', '€': '&euro;', '§': '&sect;' };

/** Block content as the rich text holds it: markup characters escaped, line breaks as `&lt;br&gt;`. */
function encodeContent(text: string, named: boolean): string {
  let out = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  if (named) out = out.replace(/[äöüÄÖÜß€§]/g, (c) => NAMED[c]!);
  return out.replace(/\n/g, '&lt;br&gt;');
}

export function bausteineData(spec: Pick<EdictSpec, 'blocks' | 'quirks'>): string {
  const named = spec.quirks?.includes('namedEntities') ?? false;
  return spec.blocks
    .map((b) => `${b.publishedOn ? de(b.publishedOn) : ''}~${encodeContent(b.name ?? '', named)}~${encodeContent(b.text ?? '', named)}~${b.decidedOn ? de(b.decidedOn) : ''}`)
    .join('<br />\r\n');
}

/** The document `documents/unid/{unid}?multipart=false` answers for a spec (fields absent when empty, as Domino does). */
export function iwgDocument(spec: EdictSpec): Record<string, unknown> {
  const q = new Set(spec.quirks ?? []);
  const date = (iso: string) => (q.has('instantDates') ? viennaMidnight(iso) : iso);
  const one = (v: string) => (q.has('arrayScalars') ? [v] : v);
  const azKey = azKeyOf(spec);
  const d = spec.debtor;
  const debtorStem = q.has('oriOnly') ? 'Schuldner_Ori_' : 'Schuldner_Akt_';
  const debtor: Record<string, unknown> = {};
  const put = (field: string, value: string | undefined) => {
    if (value !== undefined && value !== '') debtor[debtorStem + field] = one(value);
  };
  put('Type', d.type);
  put('Titel', d.title);
  put('Vorname', d.split[0]);
  put('Name', d.split[1]);
  put('StrNr', d.street);
  put('PLZ', d.zipCode);
  put('Ort', d.city);
  put('Staat', d.country);
  put('FBNr', d.fnrRaw);
  if (d.birthDate) put('GebDat', date(d.birthDate));
  const data = bausteineData(spec);
  const bausteine = q.has('multipart')
    ? { type: 'multipart', content: [{ contentType: 'text/html; charset=UTF-8', contentTransferEncoding: 'base64', data: Buffer.from(data, 'utf8').toString('base64') }] }
    : { type: 'richtext', contentType: 'text/html', data };
  const published = spec.published.map(date);
  const decided = [...new Set(spec.blocks.map((b) => b.decidedOn).filter((x): x is string => !!x))].map(date);
  return {
    '@href': `${IWG_BASE_PATH}/documents/unid/${spec.unid}`,
    '@unid': spec.unid,
    '@noteid': (parseInt(spec.unid.slice(0, 6), 16) % 0xfffff).toString(16).toUpperCase(),
    '@created': spec.published[0] ? `${spec.published[0]}T07:30:00Z` : spec.modified,
    '@modified': spec.modified,
    '@authors': ['CN=Edikte Server/O=Justiz'],
    '@form': 'Edikt',
    Aktenzeichen: one(aktenzeichenOf(spec)),
    AZKey: azKey,
    AZ: String(spec.number).padStart(5, '0'),
    Gericht: one(spec.courtName),
    Gericht_Code: spec.courtCode,
    Gerichtshofsprengel_Code: spec.courtCode,
    Bundesland_Code: spec.stateCode,
    GA: spec.ga,
    GZ: spec.gattung,
    Jahr: String(2000 + (spec.year % 100)),
    PZ: 'abdfghikmpstvwxyz'.charAt(spec.number % 17),
    Verfahrenskurztext: spec.proceeding.code,
    Verfahrenstext: spec.proceeding.text,
    ...debtor,
    SchuldnerSuchfeld: `${d.split[1]} ${d.split[0]}`.trim(),
    Dat_Ori_Bekanntmachung: published[0],
    ...(published.length > 1 ? { Dat_Akt_Bekanntmachung: published[published.length - 1] } : {}),
    Dat_Alle_Bekanntmachung: published,
    ...(decided.length > 0 ? { Dat_Alle_Beschluss: decided } : {}),
    ...(spec.openedOn ? { Dat_Alle_Eroeffnung: [date(spec.openedOn)], Dat_Akt_Eroeffnung: date(spec.openedOn) } : {}),
    Bausteine: bausteine,
  };
}

/** JSON as Domino writes it: compact, with `/` escaped as `\/`. */
export function dominoJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}

/** A `Loeschung` document of the Deletions view (key fields and the deletion instant only). */
export function deletionDocument(spec: DeletionSpec): Record<string, unknown> {
  const m = /^(\d{3})(\d{3})([A-Z]{1,3})(\d{5})(\d{2})(\d{3})$/.exec(spec.ediktId);
  return {
    '@unid': spec.unid,
    '@form': 'Loeschung',
    Aktenzeichen: spec.aktenzeichen,
    AZKey: spec.ediktId,
    Gericht_Code: m?.[1] ?? '',
    GA: m?.[2] ?? '',
    GZ: m?.[3] ?? '',
    AZ: m?.[4] ?? '',
    Jahr: m ? String(2000 + Number(m[5])) : '',
    PZ: m ? 'abdfghikmpstvwxyz'.charAt(Number(m[4]) % 17) : '',
    EN: 0,
    Dat_Loeschung: spec.deletedAt,
  };
}

/** What parseNoticeDocument must return for a spec's document. */
export function expectedNotice(spec: EdictSpec): ParsedNotice {
  const d = spec.debtor;
  const natural = d.type === 'N';
  const address = d.street || d.zipCode || d.city || d.country
    ? { street: d.street ?? null, zipCode: d.zipCode ?? null, city: d.city ?? null, country: d.country ?? null }
    : null;
  return {
    ediktId: azKeyOf(spec),
    unid: spec.unid,
    modifiedAt: new Date(spec.modified).toISOString(),
    aktenzeichen: aktenzeichenOf(spec),
    court: { code: spec.courtCode, name: spec.courtName },
    stateCode: spec.stateCode,
    proceeding: { code: spec.proceeding.code, text: spec.proceeding.text },
    debtor: {
      type: d.type,
      name: d.name,
      firstName: natural ? d.split[0] : null,
      lastName: natural ? d.split[1] : null,
      title: d.title ?? null,
      address,
      fnrRaw: d.fnrRaw ?? null,
      fnr: d.fnr ?? null,
      birthDate: natural ? (d.birthDate ?? null) : null,
      personId: natural && d.birthDate ? personId(d.split[0], d.split[1], d.birthDate) : null,
    },
    firstPublishedOn: spec.published[0] ?? null,
    lastPublishedOn: spec.published[spec.published.length - 1] ?? null,
    openedOn: spec.openedOn ?? null,
    blocks: spec.blocks.map((b) => ({ publishedOn: b.publishedOn, name: b.name, text: b.text, decidedOn: b.decidedOn })),
    isOpen: !spec.closed,
    warnings: spec.warnings ?? [],
  };
}
