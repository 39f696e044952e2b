// What a screener result row shows, kept as JSON: names as string literals, the presented values
// (legal form, court, city, zip code, document date) as interned pieces, and recent rows whole. A page
// is written from these bytes and the figure columns (schemas/screenerRecords.ts), with no database
// round trip.
import { KEY_FIGURES } from '../../../schemas/keyFigures.js';
import { JsonWriter } from '../../../schemas/jsonWriter.js';
import type { ScreenerFields } from '../../../schemas/screenerFields.js';
import {
  codeAndTextJson, flagsJson, writeKeyFigures, writeScreenerRowHead, writeSomeKeyFigures, writeSparseRowHead, type ScreenerRowPieces, type SparseRowPieces,
} from '../../../schemas/screenerRecords.js';
import type { FnrColumn } from './fnrColumn.js';
import { ACTIVE, EDIKT, FILING, SCHEIN } from './rowFlags.js';
import { gather } from './scanKernels.js';
import type { ColumnRow } from './screenerColumns.js';
import { grownTo } from './typedArrays.js';

/**
 * Interns the JSON of presented values (legal form, court, city, ...), kept as bytes. Looked up by
 * the raw values (one Map per kind of piece), so a row's JSON is only written the first time.
 */
class JsonPieces {
  private readonly ids = new Map<string, number>();
  readonly bytes: Uint8Array[] = [];
  /** The id of the piece `json()` writes, found by `key` (the raw values; unique per kind). */
  intern(key: string, json: () => string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.bytes.length;
      this.ids.set(key, id);
      this.bytes.push(Buffer.from(json(), 'utf8'));
    }
    return id;
  }
}

/** A lookup key for nullable raw values: null and '' differ, and no value contains U+0000. */
const keyOf = (kind: string, a: string | null, b: string | null = null) => `${kind}\u0000${a ?? '\u0001'}\u0000${b ?? '\u0001'}`;

const utf8 = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** The flags' JSON by their low three bits. */
const FLAGS_JSON = Array.from({ length: 8 }, (_, bits) => flagsJson((bits & ACTIVE) !== 0, (bits & SCHEIN) !== 0, (bits & EDIKT) !== 0));

/** The columns json() reads besides its own: they belong to ScreenerColumns, which replaces them as it grows. */
export interface RowJsonSource {
  fnrs: FnrColumn;
  flags: Uint8Array;
  /** Row -> slot in the figure columns, -1 without figures. */
  slotOf: Int32Array;
  figures: Float64Array[];
}

export class RowJson {
  /**
   * Names as JSON string literals in UTF-8, one after another; row -> its range. As bytes they take
   * much less memory than JS strings. A renamed company's new name is appended (the old bytes
   * stay until the next load).
   */
  private names: Uint8Array;
  private namesUsed = 0;
  private nameStart: Int32Array;
  private nameEnd: Int32Array;
  /** Row -> id of its piece in `pieces` (legal form, court, city, zip code, document date). */
  private legalFormPiece: Int32Array;
  private courtPiece: Int32Array;
  private cityPiece: Int32Array;
  private zipPiece: Int32Array;
  private datePiece: Int32Array;
  private readonly pieces = new JsonPieces();
  /**
   * Rows as JSON, for the rows pages keep showing (the largest companies top most figure-sorted
   * pages): a cached row is copied instead of written, which is far cheaper for a 1000-row page of
   * well-known rows. An upsert drops its row; the oldest entries go first beyond the capacity.
   */
  private readonly rowJson = new Map<number, Buffer>();
  /** json()'s scratch: the writer and the gathered figures. */
  private readonly writer = new JsonWriter(64 * 1024);
  private gatherScratch = new Float64Array(0);
  /** Buffer views for ScreenerColumns.nameBands(): the names' bytes (re-made when they grow), cities by piece id. */
  private namesView: Buffer | null = null;
  private readonly cityTexts = new Map<number, string | null>();

  /** Room for `capacity` rows, `rowJsonCapacity` of them kept whole (see ScreenerColumns' constructor). */
  constructor(capacity: number, private readonly rowJsonCapacity: number) {
    this.legalFormPiece = new Int32Array(capacity);
    this.courtPiece = new Int32Array(capacity);
    this.cityPiece = new Int32Array(capacity);
    this.zipPiece = new Int32Array(capacity);
    this.datePiece = new Int32Array(capacity);
    this.nameStart = new Int32Array(capacity);
    this.nameEnd = new Int32Array(capacity);
    this.names = new Uint8Array(capacity * 40);
  }

  /** Room for `capacity` rows. */
  grow(capacity: number): void {
    this.legalFormPiece = grownTo(this.legalFormPiece, capacity);
    this.courtPiece = grownTo(this.courtPiece, capacity);
    this.cityPiece = grownTo(this.cityPiece, capacity);
    this.zipPiece = grownTo(this.zipPiece, capacity);
    this.datePiece = grownTo(this.datePiece, capacity);
    this.nameStart = grownTo(this.nameStart, capacity);
    this.nameEnd = grownTo(this.nameEnd, capacity);
  }

  /** Drops a row's cached JSON (its values are about to change). */
  forget(row: number): void {
    this.rowJson.delete(row);
  }

  /** Stores what a row shows. */
  set(row: number, r: ColumnRow): void {
    this.storeName(row, r.name);
    const pieces = this.pieces;
    this.legalFormPiece[row] = pieces.intern(keyOf('l', r.legalFormCode, r.legalFormText), () => codeAndTextJson(r.legalFormCode, r.legalFormText));
    this.courtPiece[row] = pieces.intern(keyOf('c', r.courtCode, r.courtText), () => codeAndTextJson(r.courtCode, r.courtText));
    this.cityPiece[row] = pieces.intern(keyOf('t', r.city), () => JSON.stringify(r.city));
    this.zipPiece[row] = pieces.intern(keyOf('z', r.zipCode), () => JSON.stringify(r.zipCode));
    this.datePiece[row] = pieces.intern(keyOf('d', r.documentDate), () => JSON.stringify(r.documentDate));
  }

  private storeName(row: number, name: string): void {
    const json = JSON.stringify(name);
    // At most 3 bytes per UTF-16 unit.
    if (this.namesUsed + json.length * 3 > this.names.length) {
      const grown = new Uint8Array(Math.max(this.names.length * 2, this.namesUsed + json.length * 3));
      grown.set(this.names.subarray(0, this.namesUsed));
      this.names = grown;
    }
    const { written } = utf8.encodeInto(json, this.names.subarray(this.namesUsed));
    this.nameStart[row] = this.namesUsed;
    this.nameEnd[row] = this.namesUsed + written;
    this.namesUsed += written;
  }

  /** A row's name, from its JSON literal's bytes. */
  nameOf(row: number): string {
    if (this.namesView?.buffer !== this.names.buffer) this.namesView = Buffer.from(this.names.buffer, this.names.byteOffset, this.names.byteLength);
    const start = this.nameStart[row]!;
    const end = this.nameEnd[row]!;
    // Without a backslash the literal is the name in quotes: no JSON.parse needed.
    const view = this.namesView;
    let escaped = false;
    for (let i = start; i < end && !escaped; i++) escaped = view[i] === 0x5c;
    return escaped ? (JSON.parse(view.toString('utf8', start, end)) as string) : view.toString('utf8', start + 1, end - 1);
  }

  /** A row's city, decoded once per distinct city piece. */
  cityOf(row: number): string | null {
    const piece = this.cityPiece[row]!;
    let city = this.cityTexts.get(piece);
    if (city === undefined) {
      city = JSON.parse(Buffer.from(this.pieces.bytes[piece]!).toString('utf8')) as string | null;
      this.cityTexts.set(piece, city);
    }
    return city;
  }

  /** The rows as the API presents them: one JSON array, UTF-8 (schemas/screenerRecords.ts); only `fields` when given. */
  json(source: RowJsonSource, rows: number[], before = '', after = '', allocate?: (size: number) => Buffer, fields?: ScreenerFields): Buffer {
    if (fields) return this.sparseJson(source, rows, before, after, allocate, fields);
    const { fnrs, flags: flagsColumn, slotOf, figures } = source;
    const pieces = this.pieces.bytes;
    const cache = this.rowJson;
    // Rows not in the cache get their figures gathered first, figure by figure: their slots are
    // scattered over 47 large columns, and a tight loop of independent loads overlaps the cache
    // misses that reading row by row would take one after another.
    // Looked up once: storing this page's rows may evict others of it.
    const cachedRows = rows.map((r) => cache.get(r));
    const missing = rows.filter((_, i) => cachedRows[i] === undefined);
    const n = missing.length;
    // Scratch kept between calls (rendering is synchronous), so a page allocates only its answer:
    // large off-heap allocations are what make V8 run full collections (see api/presenters/envelope.ts).
    if (this.gatherScratch.length < n * KEY_FIGURES.length) this.gatherScratch = new Float64Array(n * KEY_FIGURES.length);
    const gathered = KEY_FIGURES.map((_, f) => this.gatherScratch.subarray(f * n, (f + 1) * n));
    const slots = Int32Array.from(missing, (r) => slotOf[r]!);
    for (let f = 0; f < KEY_FIGURES.length; f++) gather(figures[f]!, slots, gathered[f]!);
    const w = this.writer;
    w.reset();
    w.ascii(before);
    const row: ScreenerRowPieces = { fnr: '', names: this.names, nameStart: 0, nameEnd: 0, legalForm: EMPTY, court: EMPTY, city: EMPTY, zipCode: EMPTY, flags: '' };
    w.ascii('[');
    for (let i = 0, g = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (i > 0) w.ascii(',');
      const cached = cachedRows[i];
      if (cached) {
        w.raw(cached);
        continue;
      }
      const start = w.pos;
      const flags = flagsColumn[r]!;
      this.piecesOf(row, r, fnrs);
      row.flags = FLAGS_JSON[flags & 7]!;
      writeScreenerRowHead(w, row);
      if ((flags & FILING) === 0) w.ascii('null');
      else writeKeyFigures(w, pieces[this.datePiece[r]!]!, gathered, g);
      g++;
      w.ascii('}');
      if (cache.size >= this.rowJsonCapacity) cache.delete(cache.keys().next().value!); // the oldest
      cache.set(r, w.copyFrom(start));
    }
    w.ascii(']').ascii(after);
    return w.copyOut(allocate);
  }

  /** Row `r`'s fnr, name range and interned pieces into `row` (the writers' scratch object). */
  private piecesOf(row: Omit<ScreenerRowPieces, 'flags'>, r: number, fnrs: FnrColumn): void {
    const pieces = this.pieces.bytes;
    row.fnr = fnrs.get(r);
    row.nameStart = this.nameStart[r]!;
    row.nameEnd = this.nameEnd[r]!;
    row.legalForm = pieces[this.legalFormPiece[r]!]!;
    row.court = pieces[this.courtPiece[r]!]!;
    row.city = pieces[this.cityPiece[r]!]!;
    row.zipCode = pieces[this.zipPiece[r]!]!;
  }

  /**
   * json() with `fields` (schemas/screenerFields.ts): only the chosen figures are gathered and written.
   * The whole-row cache is neither read nor filled: it holds full rows.
   */
  private sparseJson(source: RowJsonSource, rows: number[], before: string, after: string, allocate: ((size: number) => Buffer) | undefined, fields: ScreenerFields): Buffer {
    const { fnrs, flags: flagsColumn, slotOf, figures } = source;
    const pieces = this.pieces.bytes;
    const chosen = fields.figures;
    const n = rows.length;
    if (this.gatherScratch.length < n * chosen.length) this.gatherScratch = new Float64Array(n * chosen.length);
    const gathered = chosen.map((_, k) => this.gatherScratch.subarray(k * n, (k + 1) * n));
    if (chosen.length > 0) {
      const slots = Int32Array.from(rows, (r) => slotOf[r]!);
      for (let k = 0; k < chosen.length; k++) gather(figures[chosen[k]!]!, slots, gathered[k]!);
    }
    const w = this.writer;
    w.reset();
    w.ascii(before).ascii('[');
    const row: SparseRowPieces = {
      fnr: '', names: this.names, nameStart: 0, nameEnd: 0, legalForm: EMPTY, court: EMPTY, city: EMPTY, zipCode: EMPTY,
      isActive: false, isScheinunternehmen: false, hasEdikt: false,
    };
    for (let i = 0; i < n; i++) {
      const r = rows[i]!;
      if (i > 0) w.ascii(',');
      const flags = flagsColumn[r]!;
      this.piecesOf(row, r, fnrs);
      row.isActive = (flags & ACTIVE) !== 0;
      row.isScheinunternehmen = (flags & SCHEIN) !== 0;
      row.hasEdikt = (flags & EDIKT) !== 0;
      writeSparseRowHead(w, row, fields);
      if (fields.keyFigures) {
        if ((flags & FILING) === 0) w.ascii('null');
        else writeSomeKeyFigures(w, pieces[this.datePiece[r]!]!, chosen, gathered, i);
      }
      w.ascii('}');
    }
    w.ascii(']').ascii(after);
    return w.copyOut(allocate);
  }
}
