// A screener hit and how the API presents it. Two renderers give the same JSON text: objects through
// presentScreenerRow (rows read from Postgres or Elasticsearch) and text pieces composed directly
// (the in-memory screener columns, which would otherwise build 1000 objects of 47 figures for a page
// and serialise them again). test/unit/screenerRecords.test.ts holds them to the same bytes.
import { presentKeyFigures } from './figureRecords.js';
import { MAX_NUMBER_BYTES, copyBytes, writeNumber, type JsonWriter } from './jsonWriter.js';
import { KEY_FIGURES, figureJsonKey } from './keyFigures.js';
import type { ScreenerFields } from './screenerFields.js';

/** One screener hit: the read model's row with the latest filing's figures (decimal strings). */
export interface ScreenerRow {
  fnr: string;
  name: string;
  legalFormCode: string | null;
  legalFormText: string | null;
  courtCode: string | null;
  courtText: string | null;
  city: string | null;
  zipCode: string | null;
  isActive: boolean;
  isScheinunternehmen: boolean;
  hasEdikt: boolean;
  documentKey: string | null;
  documentDate: string | null;
  /** JSON key -> decimal string, or null when the latest filing does not report it. */
  figures: Record<string, string | null>;
}

/** A coded value as presented (legal form, court): `{ code, text }`, or null without a code. */
export const codeAndText = (code: string | null, text: string | null) => (code ? { code, text } : null);

export function presentScreenerRow(row: ScreenerRow) {
  return {
    fnr: row.fnr,
    name: row.name,
    legalForm: codeAndText(row.legalFormCode, row.legalFormText),
    court: codeAndText(row.courtCode, row.courtText),
    city: row.city,
    zipCode: row.zipCode,
    isActive: row.isActive,
    isScheinunternehmen: row.isScheinunternehmen,
    hasEdikt: row.hasEdikt,
    // A company with a filing always has the object (figures it does not report are null), one without has null.
    keyFigures: row.documentKey ? presentKeyFigures(row.figures, row.documentDate) : null,
  };
}

export type PresentedScreenerRow = ReturnType<typeof presentScreenerRow>;

// ---------------------------------------------------------------------------------------------
// The same row as text pieces. Each piece is the JSON of one presented field (the caller keeps them
// interned: a few hundred legal forms, courts and cities serve 640k rows).

/** The legalForm or court piece. */
export const codeAndTextJson = (code: string | null, text: string | null): string => JSON.stringify(codeAndText(code, text));

/** `,"isActive":…,"isScheinunternehmen":…,"hasEdikt":…` */
export const flagsJson = (isActive: boolean, isScheinunternehmen: boolean, hasEdikt: boolean): string =>
  `,"isActive":${isActive},"isScheinunternehmen":${isScheinunternehmen},"hasEdikt":${hasEdikt}`;

// As bytes: copying them is several times faster than reading a string's characters.
const KEY_FIGURES_START = Buffer.from('{"documentDate":');
const FIGURE_PREFIXES = KEY_FIGURES.map((f) => Buffer.from(`,${JSON.stringify(figureJsonKey(f))}:`));
const FIGURE_NULLS = KEY_FIGURES.map((f) => Buffer.from(`,${JSON.stringify(figureJsonKey(f))}:null`));
/** The figures and the closing brace at most. */
const KEY_FIGURES_MAX_BYTES = FIGURE_PREFIXES.reduce((n, p) => n + p.length + MAX_NUMBER_BYTES, 1);

/**
 * The `keyFigures` object of a company with a filing: figures in KEY_FIGURES order from `columns` at
 * `slot` (NaN or slot -1: null). A double prints as JSON prints Number(decimal) of the value it was
 * parsed from, so the text equals presentKeyFigures'.
 */
export function writeKeyFigures(w: JsonWriter, documentDateJson: Uint8Array, columns: Float64Array[], slot: number): void {
  w.raw(KEY_FIGURES_START).raw(documentDateJson);
  const buf = w.reserve(KEY_FIGURES_MAX_BYTES);
  let pos = w.pos;
  for (let f = 0; f < FIGURE_PREFIXES.length; f++) {
    const v = slot < 0 ? Number.NaN : columns[f]![slot]!;
    if (v === v) pos = writeNumber(buf, copyBytes(buf, pos, FIGURE_PREFIXES[f]!), v);
    else pos = copyBytes(buf, pos, FIGURE_NULLS[f]!);
  }
  buf[pos++] = 0x7d; // }
  w.pos = pos;
}

/** The pieces of one presented row: JSON bytes each, the name as a range of a shared byte store. */
export interface ScreenerRowPieces {
  fnr: string;
  names: Uint8Array;
  nameStart: number;
  nameEnd: number;
  legalForm: Uint8Array;
  court: Uint8Array;
  city: Uint8Array;
  zipCode: Uint8Array;
  flags: string;
}

/** One presented row up to its keyFigures value, in presentScreenerRow's key order; the caller writes keyFigures and `}`. */
export function writeScreenerRowHead(w: JsonWriter, p: ScreenerRowPieces): void {
  w.ascii('{"fnr":').string(p.fnr).ascii(',"name":').raw(p.names, p.nameStart, p.nameEnd).ascii(',"legalForm":').raw(p.legalForm)
    .ascii(',"court":').raw(p.court).ascii(',"city":').raw(p.city).ascii(',"zipCode":').raw(p.zipCode).ascii(p.flags).ascii(',"keyFigures":');
}

// ---------------------------------------------------------------------------------------------
// Sparse rows (`fields=`, schemas/screenerFields.ts): the same pieces, only the chosen ones, keys in
// the order projectScreenerRow gives them.

/** The pieces of a sparse row: the flags as values, since any of them may be left out. */
export interface SparseRowPieces extends Omit<ScreenerRowPieces, 'flags'> {
  isActive: boolean;
  isScheinunternehmen: boolean;
  hasEdikt: boolean;
}

/** A sparse row up to its keyFigures value (`,"keyFigures":` written when chosen); the caller writes that value and `}`. */
export function writeSparseRowHead(w: JsonWriter, p: SparseRowPieces, fields: ScreenerFields): void {
  w.ascii('{"fnr":').string(p.fnr);
  const base = fields.base;
  if (base.has('name')) w.ascii(',"name":').raw(p.names, p.nameStart, p.nameEnd);
  if (base.has('legalForm')) w.ascii(',"legalForm":').raw(p.legalForm);
  if (base.has('court')) w.ascii(',"court":').raw(p.court);
  if (base.has('city')) w.ascii(',"city":').raw(p.city);
  if (base.has('zipCode')) w.ascii(',"zipCode":').raw(p.zipCode);
  if (base.has('isActive')) w.ascii(p.isActive ? ',"isActive":true' : ',"isActive":false');
  if (base.has('isScheinunternehmen')) w.ascii(p.isScheinunternehmen ? ',"isScheinunternehmen":true' : ',"isScheinunternehmen":false');
  if (base.has('hasEdikt')) w.ascii(p.hasEdikt ? ',"hasEdikt":true' : ',"hasEdikt":false');
  if (fields.keyFigures) w.ascii(',"keyFigures":');
}

/**
 * The `keyFigures` object with the chosen figures only: `figures` are indexes into KEY_FIGURES,
 * `columns[k]` holds figure `figures[k]` (NaN or slot -1: null).
 */
export function writeSomeKeyFigures(w: JsonWriter, documentDateJson: Uint8Array, figures: readonly number[], columns: Float64Array[], slot: number): void {
  w.raw(KEY_FIGURES_START).raw(documentDateJson);
  const buf = w.reserve(KEY_FIGURES_MAX_BYTES);
  let pos = w.pos;
  for (let k = 0; k < figures.length; k++) {
    const f = figures[k]!;
    const v = slot < 0 ? Number.NaN : columns[k]![slot]!;
    if (v === v) pos = writeNumber(buf, copyBytes(buf, pos, FIGURE_PREFIXES[f]!), v);
    else pos = copyBytes(buf, pos, FIGURE_NULLS[f]!);
  }
  buf[pos++] = 0x7d; // }
  w.pos = pos;
}
