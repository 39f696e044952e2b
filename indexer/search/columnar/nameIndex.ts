// The autocomplete's exact and prefix bands in memory, beside the screener columns: the two orders the
// read model's btrees give those bands (nameSearch.ts), over the normalised names as bytes.
//   by name: (name_norm in byte order, fnr)            -> prefix band and its size: a range
//   by core: (core_norm, is_active DESC, name_norm, fnr) -> exact band: the start of a range
// and, for the autocomplete's total when the prefix band alone does not reach the cap, the word starts
// of every name (after the first) and of every former name, by the text from there: a word-prefix or
// former-name match is a range there, where Postgres rechecks thousands of rows of a common word
// ("Haas F"). A keystroke's bands cost Postgres CPU and a round trip; here they are two binary
// searches (docs/search.md). Answers are the rows those statements read, in the same order, so the
// ranking that follows is the same code either way (test/integration/nameIndex.test.ts compares both).
//
// Normalised names are ASCII ([a-z0-9 ], search_norm()); a name with any other character makes the
// index decline (`usable` false) and autocomplete reads Postgres, as it does for a query term outside
// ASCII. Pure data structure: the screener columns feed it.
import { grownTo } from './typedArrays.js';

/** What a band row needs besides the row number (the columns hold names, cities and fnrs). */
export interface NameBandHit {
  row: number;
  band: 'exact' | 'prefix';
  /** 1 for exact; pg_trgm similarity(name_norm, core) as float4, for prefix hits. */
  score: number;
}

const encoder = new TextEncoder();

/**
 * pg_trgm's trigrams of normalised text ([a-z0-9 ] bytes in [from, to)): each word padded with two
 * blanks before and one after, each trigram as a 24-bit number, written to `out` sorted and without
 * duplicates. Answers how many. `out` must hold 2 * (to - from) + 1.
 */
function trigramCodes(bytes: Uint8Array, from: number, to: number, out: Int32Array): number {
  let n = 0;
  for (let i = from; i < to; ) {
    while (i < to && bytes[i] === 0x20) i++;
    const wordStart = i;
    while (i < to && bytes[i] !== 0x20) i++;
    if (i === wordStart) continue;
    let a = 0x20;
    let b = 0x20;
    for (let k = wordStart; k <= i; k++) {
      const c = k < i ? bytes[k]! : 0x20;
      out[n++] = (a << 16) | (b << 8) | c;
      a = b;
      b = c;
    }
  }
  if (n < 2) return n;
  out.subarray(0, n).sort();
  let unique = 1;
  for (let k = 1; k < n; k++) if (out[k] !== out[unique - 1]) out[unique++] = out[k]!;
  return unique;
}

/** Shared entries of two sorted sets of trigram codes. */
function sharedCodes(a: Int32Array, na: number, b: Int32Array, nb: number): number {
  let shared = 0;
  for (let i = 0, j = 0; i < na && j < nb; ) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      shared++;
      i++;
      j++;
    }
  }
  return shared;
}

/** pg_trgm's similarity from trigram counts: divided in float4 as pg_trgm does (equal scores here are equal there). */
const similarityOf = (shared: number, na: number, nb: number) => (na === 0 || nb === 0 ? 0 : Math.fround(shared / (na + nb - shared)));

/** pg_trgm's similarity() of two normalised texts ([a-z0-9 ]). */
export function trigramSimilarity(a: string, b: string): number {
  const ba = Buffer.from(a, 'latin1');
  const bb = Buffer.from(b, 'latin1');
  const ta = new Int32Array(2 * ba.length + 1);
  const tb = new Int32Array(2 * bb.length + 1);
  const na = trigramCodes(ba, 0, ba.length, ta);
  const nb = trigramCodes(bb, 0, bb.length, tb);
  return similarityOf(sharedCodes(ta, na, tb, nb), na, nb);
}

const isAscii = (s: string) => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
};

export class NameIndex {
  /** Normalised names as ASCII bytes, one after another; a changed name is appended (compacted when half is garbage). */
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  private garbage = 0;
  private start = new Int32Array(0);
  private end = new Int32Array(0);
  /** Where the row's core ends (core_norm is a prefix of name_norm). */
  private coreEnd = new Int32Array(0);
  /** Where the row's former names end: they follow the name, each after a '|'. */
  private formerEnd = new Int32Array(0);
  /** Rows set without their former names: the word-start count declines while there are any. */
  private readonly formerUnknownRows = new Set<number>();
  private active = new Uint8Array(0);
  private rows = 0;
  /** The orders over rows 0..ordered-1; rows changed since are in `changed` until flush(). */
  private byName: Int32Array = new Int32Array(0);
  private byCore: Int32Array = new Int32Array(0);
  /**
   * Word starts as row * WORD_SPAN + offset in the row's bytes, by the text from there: in names (after
   * the first word), in former names. Rows whose bytes run past WORD_SPAN have none here: they are few,
   * and candidateCount() reads them one by one.
   */
  private nameWords: Uint32Array = new Uint32Array(0);
  private formerWords: Uint32Array = new Uint32Array(0);
  private readonly longRows = new Set<number>();
  private ordered = 0;
  private changed: number[] = [];
  private changedMark = new Uint8Array(0);
  private nonAscii = 0;
  /** Counts changes, so a sort that paused can tell whether keys changed under it. */
  private generation = 0;
  /** Where scanWordStarts() writes next. */
  private nameCursor = 0;
  private formerCursor = 0;
  private readonly nonAsciiRows = new Set<number>();

  /**
   * `compareFnr(a, b)`: two rows in fnr order, the tie-breaker of both orders (the screener columns'
   * FnrColumn). `expectedRows` sizes the arrays once (a load's doubling copies would raise the
   * process's peak memory).
   */
  constructor(private readonly compareFnr: (a: number, b: number) => number, expectedRows = 0) {
    if (expectedRows > 0) {
      this.grow(expectedRows);
      this.bytes = new Uint8Array(expectedRows * BYTES_PER_ROW);
    }
  }

  /** False while a stored name is not ASCII: then the caller asks Postgres. */
  get usable(): boolean {
    return this.nonAscii === 0;
  }

  private grow(rows: number) {
    if (rows > MAX_ROWS) throw new Error(`name index: ${rows} rows do not fit its word codes (at most ${MAX_ROWS})`);
    const capacity = Math.max(rows, Math.ceil(this.start.length * 1.5), 1024);
    const grown = <T extends Int32Array | Uint8Array>(a: T): T => grownTo(a, capacity);
    this.start = grown(this.start);
    this.end = grown(this.end);
    this.coreEnd = grown(this.coreEnd);
    this.formerEnd = grown(this.formerEnd);
    this.active = grown(this.active);
    this.changedMark = grown(this.changedMark);
  }

  /**
   * Sets row `row`'s normalised name, core, flag and former names (normalised, joined by '|'; undefined
   * when not known: then the word-start count declines). Rows come dense from 0, as the columns number them.
   */
  set(row: number, nameNorm: string, coreNorm: string, isActive: boolean, formerNorms?: string): void {
    if (row >= this.start.length) this.grow(row + 1);
    const known = row < this.rows;
    const stored = formerNorms ? `${nameNorm}|${formerNorms}` : nameNorm;
    if (formerNorms === undefined) this.formerUnknownRows.add(row);
    else this.formerUnknownRows.delete(row);
    if (known && this.active[row] === (isActive ? 1 : 0) && this.coreEnd[row]! - this.start[row]! === coreNorm.length &&
        this.end[row]! - this.start[row]! === nameNorm.length && !this.nonAsciiRows.has(row) && this.sameBytes(row, stored)) return;
    this.generation++;
    const ascii = isAscii(stored) && coreNorm.length <= nameNorm.length && nameNorm.startsWith(coreNorm) && !nameNorm.includes('|');
    if (!ascii && !this.nonAsciiRows.has(row)) {
      this.nonAsciiRows.add(row);
      this.nonAscii++;
    } else if (ascii && this.nonAsciiRows.delete(row)) this.nonAscii--;
    if (stored.length > WORD_SPAN) this.longRows.add(row);
    else this.longRows.delete(row);
    // Compaction first: it still copies the row's old bytes, which only then become garbage.
    if (this.used + stored.length > this.bytes.length) this.compactOrGrow(stored.length);
    if (known) this.garbage += this.formerEnd[row]! - this.start[row]!;
    const { written } = encoder.encodeInto(ascii ? stored : '', this.bytes.subarray(this.used));
    this.start[row] = this.used;
    this.end[row] = this.used + (ascii ? nameNorm.length : 0);
    this.coreEnd[row] = this.used + (ascii ? coreNorm.length : 0);
    this.formerEnd[row] = this.used + written;
    this.used += written;
    this.active[row] = isActive ? 1 : 0;
    if (!known) this.rows = row + 1;
    if (this.changedMark[row] === 0) {
      this.changedMark[row] = 1;
      this.changed.push(row);
    }
  }

  private sameBytes(row: number, stored: string): boolean {
    const s = this.start[row]!;
    if (this.formerEnd[row]! - s !== stored.length) return false;
    for (let i = 0; i < stored.length; i++) if (this.bytes[s + i] !== stored.charCodeAt(i)) return false;
    return true;
  }

  private compactOrGrow(extra: number) {
    const live = this.used - this.garbage;
    const size = Math.max(1 << 16, (live + extra) * 2);
    const next = new Uint8Array(this.garbage > this.used / 2 ? Math.max(size, this.bytes.length) : Math.max(size, Math.ceil(this.bytes.length * 1.5)));
    let at = 0;
    for (let row = 0; row < this.rows; row++) {
      const s = this.start[row]!;
      const len = this.formerEnd[row]! - s;
      const name = this.end[row]! - s;
      const core = this.coreEnd[row]! - s;
      next.set(this.bytes.subarray(s, s + len), at);
      this.start[row] = at;
      this.end[row] = at + name;
      this.coreEnd[row] = at + core;
      this.formerEnd[row] = at + len;
      at += len;
    }
    this.bytes = next;
    this.used = at;
    this.garbage = 0;
  }

  /** Byte order of two stored ranges, the shorter first on a shared prefix (memcmp, as `~<~`). */
  private compareRanges(as: number, ae: number, bs: number, be: number): number {
    const bytes = this.bytes;
    const n = Math.min(ae - as, be - bs);
    for (let i = 0; i < n; i++) {
      const d = bytes[as + i]! - bytes[bs + i]!;
      if (d !== 0) return d;
    }
    return ae - as - (be - bs);
  }

  private readonly byNameOrder = (a: number, b: number) =>
    this.compareRanges(this.start[a]!, this.end[a]!, this.start[b]!, this.end[b]!) || this.compareFnr(a, b);

  private readonly byCoreOrder = (a: number, b: number) =>
    this.compareRanges(this.start[a]!, this.coreEnd[a]!, this.start[b]!, this.coreEnd[b]!) ||
    this.active[b]! - this.active[a]! ||
    this.compareRanges(this.start[a]!, this.end[a]!, this.start[b]!, this.end[b]!) ||
    this.compareFnr(a, b);

  /** Word starts by the text from there to the end of the row's bytes (a query never holds the '|' between names). */
  private readonly byWordOrder = (a: number, b: number) => {
    const ra = a >>> WORD_BITS;
    const rb = b >>> WORD_BITS;
    return this.compareRanges(this.start[ra]! + (a & WORD_MASK), this.formerEnd[ra]!, this.start[rb]! + (b & WORD_MASK), this.formerEnd[rb]!) || a - b;
  };

  /**
   * Counts (no targets) or writes, from the cursors on, the word starts of rows [from, to) as codes:
   * in `names` those after the name's first word, in `formers` every word start of the former names.
   * Long rows (see longRows) have none unless `evenIfLong` (then their codes need a Float64Array).
   * Inline rather than a callback per word start, since a load scans ~16M bytes.
   */
  private scanWordStarts<T extends Uint32Array | Float64Array>(from: number, to: number, names: T | null, formers: T | null, evenIfLong = false): void {
    const bytes = this.bytes;
    const long = this.longRows.size > 0 && !evenIfLong ? this.longRows : null;
    let n = this.nameCursor;
    let f = this.formerCursor;
    for (let row = from; row < to; row++) {
      if (long?.has(row)) continue;
      const s = this.start[row]!;
      const nameEnd = this.end[row]!;
      const end = this.formerEnd[row]!;
      const base = row * WORD_SPAN - s;
      for (let p = s + 1; p < end; p++) {
        const c = bytes[p]!;
        const before = bytes[p - 1]!;
        if (c === 0x20 || c === 0x7c || (before !== 0x20 && before !== 0x7c)) continue;
        if (p < nameEnd) {
          if (names) names[n] = base + p;
          n++;
        } else if (p > nameEnd) {
          if (formers) formers[f] = base + p;
          f++;
        }
      }
    }
    this.nameCursor = n;
    this.formerCursor = f;
  }

  /** The word starts `scan` finds (through scanWordStarts), counted first so each list is one exact-size array. */
  private collectWordStarts<T extends Uint32Array | Float64Array>(Typed: new (n: number) => T, scan: (names: T | null, formers: T | null) => void): { names: T; formers: T } {
    this.nameCursor = this.formerCursor = 0;
    scan(null, null);
    const names = new Typed(this.nameCursor);
    const formers = new Typed(this.formerCursor);
    this.nameCursor = this.formerCursor = 0;
    scan(names, formers);
    return { names, formers };
  }

  /** Every row's word starts. */
  private allWordStarts(): { names: Uint32Array; formers: Uint32Array } {
    return this.collectWordStarts(Uint32Array, (names, formers) => this.scanWordStarts(0, this.rows, names, formers));
  }

  /** allWordStarts() in slices of SCAN_ROWS rows, pausing between them. */
  private async allWordStartsInSlices(pause: () => Promise<void>): Promise<{ names: Uint32Array; formers: Uint32Array }> {
    const rows = this.rows;
    const pass = async (names: Uint32Array | null, formers: Uint32Array | null) => {
      this.nameCursor = this.formerCursor = 0;
      for (let from = 0; from < rows; from += SCAN_ROWS) {
        this.scanWordStarts(from, Math.min(rows, from + SCAN_ROWS), names, formers);
        await pause();
      }
    };
    await pass(null, null);
    const names = new Uint32Array(this.nameCursor);
    const formers = new Uint32Array(this.formerCursor);
    await pass(names, formers);
    return { names, formers };
  }

  /** Changed rows waiting to be put in order. */
  get pending(): number {
    return this.changed.length;
  }

  /**
   * Puts changed rows in both orders: a full sort when many changed (a load), else each changed row
   * is taken out and merged back at its binary-searched place (O(rows) copying, no comparisons).
   */
  flush(): void {
    if (this.changed.length === 0) return;
    const changed = Int32Array.from(this.changed);
    this.changed = [];
    for (const row of changed) this.changedMark[row] = 0;
    if (changed.length * 8 > this.rows || this.ordered === 0) {
      const all = new Int32Array(this.rows);
      for (let i = 0; i < all.length; i++) all[i] = i;
      this.byName = all.slice().sort(this.byNameOrder);
      this.byCore = all.sort(this.byCoreOrder);
      const words = this.allWordStarts();
      this.nameWords = words.names.sort(this.byWordOrder);
      this.formerWords = words.formers.sort(this.byWordOrder);
    } else {
      this.byName = this.merge(this.byName, changed, changed, 0, this.byNameOrder);
      this.byCore = this.merge(this.byCore, changed, changed, 0, this.byCoreOrder);
      const words = this.collectWordStarts(Uint32Array, (names, formers) => {
        for (const row of changed) this.scanWordStarts(row, row + 1, names, formers);
      });
      this.nameWords = this.merge(this.nameWords, changed, words.names, WORD_BITS, this.byWordOrder);
      this.formerWords = this.merge(this.formerWords, changed, words.formers, WORD_BITS, this.byWordOrder);
    }
    this.ordered = this.rows;
  }

  /**
   * flush() in slices of a few milliseconds, with `pause()` between them: a load's full sort of every
   * name takes seconds of comparisons, which must not hold up the requests a reload runs beside.
   */
  async flushInSlices(pause: () => Promise<void>): Promise<void> {
    if (this.changed.length * 8 <= this.rows && this.ordered > 0) return this.flush();
    // A set() while the sort pauses changes keys it compares: then the orders are not trusted, and
    // sorted again (a load owns its index, so this does not happen there).
    for (let generation = -1; generation !== this.generation; ) {
      generation = this.generation;
      for (const row of this.changed) this.changedMark[row] = 0;
      this.changed = [];
      const rows = this.rows;
      const all = new Int32Array(rows);
      for (let i = 0; i < rows; i++) all[i] = i;
      const byName = await sortInSlices(all.slice(), this.byNameOrder, pause);
      const byCore = await sortInSlices(all, this.byCoreOrder, pause);
      const words = await this.allWordStartsInSlices(pause);
      const nameWords = await sortInSlices(words.names, this.byWordOrder, pause);
      const formerWords = await sortInSlices(words.formers, this.byWordOrder, pause);
      this.byName = byName;
      this.byCore = byCore;
      this.nameWords = nameWords;
      this.formerWords = formerWords;
      this.ordered = rows;
    }
  }

  /**
   * `order` without the entries of the changed rows (an entry's row: entry >>> `rowShift`), with
   * `incoming` (the changed rows' entries now) merged in at their places. In place where the array
   * behind `order` has room (orders are views with some spare capacity): the entries are filtered
   * forwards, then the incoming ones merged backwards, each kept block moved once by copyWithin: with
   * fresh arrays per order, a single rename copied every order.
   */
  private merge<T extends Int32Array | Uint32Array>(order: T, changed: Int32Array, incoming: T, rowShift: number, compare: (a: number, b: number) => number): T {
    const mark = this.changedMark;
    for (const row of changed) mark[row] = 1;
    let n = 0;
    for (let i = 0; i < order.length; i++) {
      const entry = order[i]!;
      if (mark[entry >>> rowShift] === 0) order[n++] = entry;
    }
    for (const row of changed) mark[row] = 0;
    const k = incoming.length;
    const length = n + k;
    // All of the array behind the view, or a larger one.
    const capacity = (order.buffer.byteLength - order.byteOffset) / order.BYTES_PER_ELEMENT;
    let target: T;
    if (capacity >= length) target = new (order.constructor as new (b: ArrayBufferLike, at: number, n: number) => T)(order.buffer, order.byteOffset, capacity);
    else {
      target = new (order.constructor as new (n: number) => T)(Math.ceil(length * 1.05) + 1024);
      target.set(order.subarray(0, n) as never);
    }
    const sorted = incoming.slice().sort(compare);
    // Backwards: the last incoming entry goes after every kept one that sorts before it.
    let high = n;
    for (let j = k - 1; j >= 0; j--) {
      const entry = sorted[j]!;
      let low = 0;
      let top = high;
      while (low < top) {
        const mid = (low + top) >>> 1;
        if (compare(target[mid]!, entry) < 0) low = mid + 1;
        else top = mid;
      }
      target.copyWithin(low + j + 1, low, high);
      target[low + j] = entry;
      high = low;
    }
    return target.subarray(0, length) as T;
  }

  /** Compares a row's stored range [s, e) with the query bytes. */
  private compareToQuery(s: number, e: number, q: Uint8Array): number {
    return this.compareRanges(s, e, this.used, this.used + q.length);
  }

  /** First position in `order` whose key (the row's range through `endOf`) is >= q. */
  private lowerBound(order: Int32Array, endOf: Int32Array, q: Uint8Array): number {
    let low = 0;
    let high = order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const row = order[mid]!;
      if (this.compareToQuery(this.start[row]!, endOf[row]!, q) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** First position in a word-start order whose text from there is >= q. */
  private lowerBoundWord(order: Uint32Array, q: Uint8Array): number {
    let low = 0;
    let high = order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const code = order[mid]!;
      const row = code >>> WORD_BITS;
      if (this.compareToQuery(this.start[row]! + (code & WORD_MASK), this.formerEnd[row]!, q) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * The autocomplete's total for `core` up to `cap`, as nameSearch.ts counts it in Postgres: companies
   * whose name starts with the core, or (cores of `minWordCore`+ characters) has it at a later word
   * start, or whose former name has it at any word start, as a set. Null when the index cannot answer
   * (also while a row's former names are not known).
   */
  candidateCount(core: string, cap: number, minWordCore: number): number | null {
    if (!this.usable || this.formerUnknownRows.size > 0 || core === '') return null;
    this.flush();
    const q = this.stage(core);
    if (!q) return null;
    const rows = new Set<number>();
    for (let i = this.lowerBound(this.byName, this.end, q); i < this.byName.length && rows.size < cap; i++) {
      const row = this.byName[i]!;
      const s = this.start[row]!;
      if (this.compareToQuery(s, Math.min(this.end[row]!, s + q.length), q) !== 0) break;
      rows.add(row);
    }
    const words = core.length >= minWordCore;
    const scan = (order: Uint32Array) => {
      for (let i = this.lowerBoundWord(order, q); i < order.length && rows.size < cap; i++) {
        const code = order[i]!;
        const row = code >>> WORD_BITS;
        const s = this.start[row]! + (code & WORD_MASK);
        if (this.compareToQuery(s, Math.min(this.formerEnd[row]!, s + q.length), q) !== 0) break;
        rows.add(row);
      }
    };
    if (words) scan(this.nameWords);
    scan(this.formerWords);
    // Rows too long for the word orders, one by one.
    for (const row of this.longRows) {
      if (rows.size >= cap) break;
      if (!rows.has(row) && this.hasWordStart(row, q, words)) rows.add(row);
    }
    return Math.min(cap, rows.size);
  }

  /** Whether the query starts at a word of the row's name after the first (with `inName`) or of a former name. */
  private hasWordStart(row: number, q: Uint8Array, inName: boolean): boolean {
    // Float64 codes: a long row's offsets run past WORD_SPAN.
    const words = this.collectWordStarts(Float64Array, (names, formers) => this.scanWordStarts(row, row + 1, names, formers, true));
    const startsHere = (code: number) => {
      const s = this.start[row]! + (code - row * WORD_SPAN);
      return this.compareToQuery(s, Math.min(this.formerEnd[row]!, s + q.length), q) === 0;
    };
    return (inName && words.names.some(startsHere)) || words.formers.some(startsHere);
  }

  /** The query's bytes, put after the used part of `bytes` so comparisons read one array. */
  private stage(text: string): Uint8Array | null {
    if (!isAscii(text)) return null;
    if (this.used + text.length + 1 > this.bytes.length) this.compactOrGrow(text.length + 1);
    const q = this.bytes.subarray(this.used, this.used + text.length);
    encoder.encodeInto(text, q);
    return q;
  }

  private readonly scratches = [new Int32Array(256), new Int32Array(256)];
  /** Reusable trigram buffers (0: the query's, 1: a row's) of at least `size`. */
  private scratch(which: 0 | 1, size: number): Int32Array {
    if (this.scratches[which]!.length < size) this.scratches[which] = new Int32Array(size * 2);
    return this.scratches[which]!;
  }

  /** The normalised name of a row. */
  nameNormOf(row: number): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.start[row]!, this.end[row]! - this.start[row]!).toString('latin1');
  }

  /**
   * The exact band (core_norm = core: the first `limit` in (active first, name, fnr) order) and the prefix
   * band (name_norm starting with core: the first `prefixLimit` in (name, fnr) order, with their
   * similarity to the core) and the prefix band's size up to `cap`. Null when the index cannot answer.
   */
  exactAndPrefix(core: string, limit: number, prefixLimit: number, cap: number): { hits: NameBandHit[]; prefixTotal: number } | null {
    if (!this.usable || core === '') return null;
    this.flush();
    const q = this.stage(core);
    if (!q) return null;
    const hits: NameBandHit[] = [];
    for (let i = this.lowerBound(this.byCore, this.coreEnd, q); i < this.byCore.length && hits.length < limit; i++) {
      const row = this.byCore[i]!;
      if (this.compareToQuery(this.start[row]!, this.coreEnd[row]!, q) !== 0) break;
      hits.push({ row, band: 'exact', score: 1 });
    }
    const first = this.lowerBound(this.byName, this.end, q);
    // Rows starting with the query: a range; its end is the first row whose first q.length bytes sort after q.
    let low = first;
    let high = this.byName.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const row = this.byName[mid]!;
      const s = this.start[row]!;
      if (this.compareToQuery(s, Math.min(this.end[row]!, s + q.length), q) <= 0) low = mid + 1;
      else high = mid;
    }
    const prefixTotal = Math.min(cap, low - first);
    // The query's trigrams once, then each row's from its bytes (no string per row).
    const queryCodes = this.scratch(0, 2 * q.length + 1);
    const queryCount = trigramCodes(this.bytes, this.used, this.used + q.length, queryCodes);
    for (let i = first; i < low && i - first < prefixLimit; i++) {
      const row = this.byName[i]!;
      const s = this.start[row]!;
      const e = this.end[row]!;
      const codes = this.scratch(1, 2 * (e - s) + 1);
      const count = trigramCodes(this.bytes, s, e, codes);
      hits.push({ row, band: 'prefix', score: similarityOf(sharedCodes(codes, count, queryCodes, queryCount), count, queryCount) });
    }
    return { hits, prefixTotal };
  }
}

/**
 * A word start's code: row * WORD_SPAN + its offset in the row's bytes, a uint32: 4M rows (the register
 * has under 1M companies) of up to 1024 bytes of name and former names (rows beyond are rare: several
 * long former names).
 */
const WORD_BITS = 10;
const WORD_SPAN = 1 << WORD_BITS;
const WORD_MASK = WORD_SPAN - 1;
/** Bytes a row's name and former names take on average (rounded up), to size the bytes once. */
const BYTES_PER_ROW = 32;

/** Rows whose word starts a load scans between pauses (a short slice of the event loop). */
const SCAN_ROWS = 65_536;
/** Rows the word codes hold (uint32 of row * WORD_SPAN). */
const MAX_ROWS = 2 ** (32 - WORD_BITS);

/** Rows sorted per slice, and merged pairwise, this many elements between pauses. */
const SLICE = 16_384;

/** A bottom-up merge sort that pauses every SLICE elements of work; answers the sorted array. */
async function sortInSlices<T extends Int32Array | Uint32Array>(values: T, compare: (a: number, b: number) => number, pause: () => Promise<void>): Promise<T> {
  const n = values.length;
  for (let from = 0; from < n; from += SLICE) {
    values.subarray(from, Math.min(n, from + SLICE)).sort(compare);
    await pause();
  }
  let source: T = values;
  let target: T = new (values.constructor as new (n: number) => T)(n);
  for (let width = SLICE; width < n; width *= 2) {
    let work = 0;
    for (let low = 0; low < n; low += 2 * width) {
      const mid = Math.min(n, low + width);
      const high = Math.min(n, low + 2 * width);
      let i = low;
      let j = mid;
      for (let k = low; k < high; k++) {
        target[k] = i < mid && (j >= high || compare(source[i]!, source[j]!) <= 0) ? source[i++]! : source[j++]!;
        if (++work === SLICE) {
          work = 0;
          await pause();
        }
      }
    }
    [source, target] = [target, source];
  }
  return source;
}
