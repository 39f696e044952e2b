// An in-memory columnar copy of the screener's filter, sort and result fields, kept beside the Postgres
// read model in the API process. Exact totals over the whole register are a slow scan in Postgres and
// a cheap one over typed arrays (docs/search.md), and the page is written as JSON text from here
// (rowJson.ts), with no database round trip.
//
// Exactness: figures are numerics in Postgres and doubles here. A decimal with at most 15 significant
// digits maps to a distinct double, and rounding is monotonic, so comparisons and order agree with
// Postgres for such values. A figure holding any value with more digits is marked inexact, and a
// threshold with more digits is refused too: such queries go to Postgres (supports() says no).
//
// Pure data structure: no I/O. columnSync.ts loads and follows it. Its parts: the attribute
// dictionaries (columnDictionaries.ts), the scan loops (scanKernels.ts), the top-k heap of a sorted
// page (topByKey.ts), the figure orders (figureOrders.ts) and the result rows as JSON (rowJson.ts).
import { KEY_FIGURES, type KeyFigureDefinition } from '../../../schemas/keyFigures.js';
import { MIN_WORD_CORE, coreName, type NameBandRows } from '../nameSearch.js';
import { normaliseForSearch } from '../postgresScreenerQuery.js';
import type { ScreenerQuery } from '../../../schemas/screenerParameters.js';
import type { ScreenerFields } from '../../../schemas/screenerFields.js';
import { Dictionary, SetDictionary } from './columnDictionaries.js';
import { RadixScratch, boundOf, sortedByValue, walkDown, walkUp } from './figureOrders.js';
import { FnrColumn, fnrKey } from './fnrColumn.js';
import { NameIndex } from './nameIndex.js';
import { ACTIVE, EDIKT, FILING, SCHEIN } from './rowFlags.js';
import { RowJson } from './rowJson.js';
import {
  collectAll, collectEqual, collectFlags, collectRange, keepEqual, keepEqualBySlot, keepFlags, keepFlagsBySlot, keepMasked, keepMaskedBySlot,
  keepRange, markRows, markSlots,
} from './scanKernels.js';
import { TopByKey, offerAll, offerSlots } from './topByKey.js';
import { grownTo } from './typedArrays.js';

export { SET_SEPARATOR } from './columnDictionaries.js';

/**
 * One read-model row as the columns need it; figures in KEY_FIGURES order, decimal strings or null,
 * or as one comma-separated text (a null is an empty field, no figure at all is null) as the loader
 * reads them: parsed in place, so a load of 640k rows does not make 640k arrays of garbage.
 */
export interface ColumnRow {
  fnr: string;
  cityNorm: string | null;
  zipCode: string | null;
  courtCode: string | null;
  legalFormCode: string | null;
  /**
   * As an array, or as the loader reads it: one text of the members joined by SET_SEPARATOR in the
   * read model's canonical (sorted) order, so the set's key needs no array and no sort.
   */
  oenacePaths: string[] | string;
  tradeKeys: string[] | string;
  isActive: boolean;
  isScheinunternehmen: boolean;
  figures: Array<string | null> | string | null;
  // What a result row shows besides the above.
  name: string;
  /** The read model's name_norm and core_norm; computed from `name` (as search_norm and search_core do) when absent. */
  nameNorm?: string;
  coreNorm?: string;
  /** The read model's former_names_norm joined by '|' ('' for none); absent, the name index counts no totals. */
  formerNorm?: string;
  legalFormText: string | null;
  courtText: string | null;
  city: string | null;
  hasEdikt: boolean;
  /** The company has a latest filing (then keyFigures is an object, even if every figure is null). */
  hasFiling: boolean;
  /** YYYY-MM-DD */
  documentDate: string | null;
}

export interface ColumnAnswer {
  total: number;
  /** The page's fnrs in screener order (empty for countOnly, or when the query has no figure sort). */
  fnrs: string[];
  /** The same page as row numbers, for json(). */
  rows: number[];
}

const FIGURE_INDEX = new Map<KeyFigureDefinition, number>(KEY_FIGURES.map((f, i) => [f, i]));
const MAX_EXACT_DIGITS = 15;

/** Significant digits of a decimal string ("-0012.500" -> 3). */
export function significantDigits(decimal: string): number {
  const digits = decimal.replace(/^[-+]/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length;
}

/** The loader's delimited figures as values; null when every field is empty (no figure at all). */
function splitFigures(text: string): Array<string | null> | null {
  if (text.length < KEY_FIGURES.length) return null; // only the commas
  return text.split(',').map((v) => (v === '' ? null : v));
}

export class ScreenerColumns {
  private size = 0;
  private capacity: number;
  private readonly fnrs: FnrColumn;
  /**
   * Rows 0..sortedRows-1 hold ascending fnrs (the loader reads in that order), found by binary search;
   * rows added out of order later are in `laterRows`. A Map of every fnr would cost far more memory.
   */
  private sortedRows = 0;
  private readonly laterRows = new Map<string, number>();
  private city: Int32Array;
  private zip: Int32Array;
  private court: Int32Array;
  private legalForm: Int32Array;
  private oenace: Int32Array;
  private trades: Int32Array;
  private flags: Uint8Array;
  /** Names and presented values as JSON, and recent rows whole (rowJson.ts). */
  private readonly rowJson: RowJson;
  /** Row -> slot in the figure columns, -1 when the company has no filing (most have none). */
  private slotOf: Int32Array;
  private slotRow: Int32Array;
  private slots = 0;
  private figureCapacity: number;
  private readonly figures: Float64Array[];
  private readonly inexact = new Uint8Array(KEY_FIGURES.length);
  private readonly cities = new Dictionary();
  private readonly zips = new Dictionary();
  private readonly courts = new Dictionary();
  private readonly legalForms = new Dictionary();
  private readonly oenaceSets = new SetDictionary();
  private readonly tradeSets = new SetDictionary();
  /** The selection of the running query (see select()). */
  private selected = new Int32Array(0);
  /**
   * Per figure, its slots with a value ascending by (value, fnr) (figureOrders.ts); null once a value
   * of that figure changed, until rebuildOrders() runs. Queries on a figure without one scan instead.
   */
  private readonly orders: Array<Int32Array | null> = KEY_FIGURES.map(() => null);
  /** All figure slots in fnr order, the radix sort's input; null after a row or slot is added. */
  private slotsByFnr: Int32Array | null = null;
  private readonly radix = new RadixScratch();
  /** marks[slot] === mark while the slot is in the running query's selection (the order walk). */
  private marks = new Uint32Array(0);
  private mark = 0;
  /** The autocomplete's exact and prefix bands over the same rows (nameIndex.ts). */
  private readonly nameIndex: NameIndex;
  /** How a figure-sorted page is ordered: by the figure's order when it is cheaper ('auto'), or forced (tests). */
  orderStrategy: 'auto' | 'heap' | 'walk' = 'auto';

  /**
   * `expectedFigureRows`: companies with a filing, so the figure columns are allocated once.
   * `rowJsonCapacity`: rows kept as JSON (a row with figures is large: the capacity bounds their memory).
   */
  constructor(expectedRows = 1024, expectedFigureRows = Math.ceil(expectedRows / 2), rowJsonCapacity = 10_000) {
    this.capacity = Math.max(16, expectedRows);
    this.fnrs = new FnrColumn(this.capacity);
    this.nameIndex = new NameIndex((a, b) => this.fnrs.compare(a, b), this.capacity);
    this.city = new Int32Array(this.capacity);
    this.zip = new Int32Array(this.capacity);
    this.court = new Int32Array(this.capacity);
    this.legalForm = new Int32Array(this.capacity);
    this.oenace = new Int32Array(this.capacity);
    this.trades = new Int32Array(this.capacity);
    this.flags = new Uint8Array(this.capacity);
    this.rowJson = new RowJson(this.capacity, rowJsonCapacity);
    this.slotOf = new Int32Array(this.capacity).fill(-1);
    this.figureCapacity = Math.max(16, expectedFigureRows);
    this.slotRow = new Int32Array(this.figureCapacity).fill(-1);
    this.figures = KEY_FIGURES.map(() => new Float64Array(this.figureCapacity).fill(Number.NaN));
  }

  get rows(): number {
    return this.size;
  }

  /** Companies holding figures (the only ones with a slot in the figure columns). */
  get rowsWithFigures(): number {
    let n = 0;
    for (let slot = 0; slot < this.slots; slot++) if (this.slotRow[slot]! >= 0) n++;
    return n;
  }

  private growRows() {
    const grow = <T extends Int32Array | Uint8Array>(a: T, fill?: number): T => grownTo(a, this.capacity * 2, fill);
    this.city = grow(this.city);
    this.zip = grow(this.zip);
    this.court = grow(this.court);
    this.legalForm = grow(this.legalForm);
    this.oenace = grow(this.oenace);
    this.trades = grow(this.trades);
    this.flags = grow(this.flags);
    this.slotOf = grow(this.slotOf, -1);
    this.rowJson.grow(this.capacity * 2);
    this.capacity *= 2;
  }

  private growSlots() {
    const next = this.figureCapacity * 2;
    const rows = new Int32Array(next).fill(-1);
    rows.set(this.slotRow);
    this.slotRow = rows;
    for (let f = 0; f < this.figures.length; f++) {
      const column = new Float64Array(next).fill(Number.NaN);
      column.set(this.figures[f]!);
      this.figures[f] = column;
    }
    this.figureCapacity = next;
  }

  private rowOf(fnr: string, key: number): number | undefined {
    let low = 0;
    let high = this.sortedRows - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const order = this.fnrs.compareTo(mid, fnr, key);
      if (order === 0) return mid;
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return this.laterRows.get(fnr);
  }

  /** Inserts or replaces a company's row. */
  upsert(r: ColumnRow): void {
    const key = fnrKey(r.fnr);
    let row = this.rowOf(r.fnr, key);
    if (row === undefined) {
      if (this.size === this.capacity) this.growRows();
      row = this.size++;
      this.fnrs.set(row, r.fnr);
      this.slotsByFnr = null;
      if (this.sortedRows === row && (row === 0 || this.fnrs.compareTo(row - 1, r.fnr, key) < 0)) this.sortedRows++;
      else this.laterRows.set(r.fnr, row);
    } else this.rowJson.forget(row);
    this.city[row] = this.cities.intern(r.cityNorm);
    this.zip[row] = this.zips.intern(r.zipCode);
    this.court[row] = this.courts.intern(r.courtCode);
    this.legalForm[row] = this.legalForms.intern(r.legalFormCode);
    this.oenace[row] = this.oenaceSets.intern(r.oenacePaths);
    this.trades[row] = this.tradeSets.intern(r.tradeKeys);
    this.flags[row] = (r.isActive ? ACTIVE : 0) | (r.isScheinunternehmen ? SCHEIN : 0) | (r.hasEdikt ? EDIKT : 0) | (r.hasFiling ? FILING : 0);
    this.rowJson.set(row, r);
    const nameNorm = r.nameNorm ?? normaliseForSearch(r.name);
    this.nameIndex.set(row, nameNorm, r.coreNorm ?? (coreName(nameNorm) || nameNorm), r.isActive, r.formerNorm ?? undefined);

    const figures = typeof r.figures === 'string' ? splitFigures(r.figures) : r.figures;
    const hasFigures = figures !== null && figures.some((v) => v !== null);
    let slot = this.slotOf[row]!;
    if (!hasFigures) {
      // A slot freed in the middle stays empty (NaN figures, no row): scans skip it. Rows rarely lose
      // their filings, so compacting is not worth it.
      if (slot >= 0) {
        for (let f = 0; f < KEY_FIGURES.length; f++) {
          if (this.figures[f]![slot] === this.figures[f]![slot]) this.orders[f] = null;
          this.figures[f]![slot] = Number.NaN;
        }
        this.slotRow[slot] = -1;
        this.slotOf[row] = -1;
        this.slotsByFnr = null;
      }
      return;
    }
    if (slot < 0) {
      if (this.slots === this.figureCapacity) this.growSlots();
      slot = this.slots++;
      this.slotOf[row] = slot;
      this.slotRow[slot] = row;
      this.slotsByFnr = null;
    }
    for (let f = 0; f < KEY_FIGURES.length; f++) {
      const value = figures[f] ?? null;
      const column = this.figures[f]!;
      const before = column[slot]!;
      if (value === null) {
        column[slot] = Number.NaN;
        if (before === before) this.orders[f] = null;
      } else {
        const number = Number(value);
        column[slot] = number === 0 ? 0 : number; // no -0: it would sort apart from 0 in the orders
        if (before !== number) this.orders[f] = null;
        // Beyond double precision, or beyond its range (1e400 is Infinity here): Postgres answers.
        if ((value.length > MAX_EXACT_DIGITS && significantDigits(value) > MAX_EXACT_DIGITS) || !Number.isFinite(number)) this.inexact[f] = 1;
      }
    }
  }

  /** Figures whose order is missing (never built, or a value changed since). */
  get staleOrders(): number {
    return this.orders.filter((o) => o === null).length;
  }

  /**
   * Builds up to `maxFigures` missing figure orders; answers how many are still missing. Callers
   * spread the work over event-loop turns, since each order sorts the figure's slots.
   */
  rebuildOrders(maxFigures = Infinity): number {
    let built = 0;
    for (let f = 0; f < this.orders.length && built < maxFigures; f++) {
      if (this.orders[f] !== null) continue;
      this.slotsByFnr ??= this.figureSlotsByFnr();
      this.orders[f] = sortedByValue(this.figures[f]!.subarray(0, this.slots), this.slotsByFnr, this.radix);
      built++;
    }
    return this.staleOrders;
  }

  /** Every row holding a figure slot, in fnr order, as its slot: the loaded rows merged with later ones. */
  private figureSlotsByFnr(): Int32Array {
    const later = [...this.laterRows.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, row]) => row);
    const out = new Int32Array(this.slots);
    let n = 0;
    const take = (row: number) => {
      const slot = this.slotOf[row]!;
      if (slot >= 0) out[n++] = slot;
    };
    let l = 0;
    for (let row = 0; row < this.sortedRows; row++) {
      while (l < later.length && this.fnrs.compare(later[l]!, row) < 0) take(later[l++]!);
      take(row);
    }
    while (l < later.length) take(later[l++]!);
    return out.subarray(0, n);
  }

  /** Whether this query is answered exactly here (else it goes to Postgres). */
  supports(q: ScreenerQuery): boolean {
    if (q.search !== undefined || q.fnr !== undefined) return false;
    const figureOk = (f: KeyFigureDefinition) => this.inexact[FIGURE_INDEX.get(f)!] === 0;
    if (q.orderBy && !figureOk(q.orderBy)) return false;
    return q.ranges.every((r) => figureOk(r.figure)
      && (r.gte === undefined || significantDigits(r.gte) <= MAX_EXACT_DIGITS)
      && (r.lte === undefined || significantDigits(r.lte) <= MAX_EXACT_DIGITS));
  }

  /**
   * The non-figure filters as equality tests on row columns, plus set-membership masks; null when a
   * filter value occurs nowhere (then nothing matches).
   */
  private attributeFilters(q: ScreenerQuery): { equal: Array<[Int32Array, number]>; masks: Array<[Int32Array, Uint8Array]>; flagMask: number; flagWant: number } | null {
    const equal: Array<[Int32Array, number]> = [];
    const want = (value: string | undefined, dictionary: Dictionary, column: Int32Array) => {
      if (value === undefined) return true;
      const id = dictionary.find(value);
      equal.push([column, id]);
      return id >= 0;
    };
    if (!want(q.city === undefined ? undefined : normaliseForSearch(q.city), this.cities, this.city)) return null;
    if (!want(q.zipCode, this.zips, this.zip)) return null;
    if (!want(q.courtCode, this.courts, this.court)) return null;
    if (!want(q.legalFormCode, this.legalForms, this.legalForm)) return null;
    const masks: Array<[Int32Array, Uint8Array]> = [];
    if (q.oenacePath !== undefined) masks.push([this.oenace, this.oenaceSets.containing(q.oenacePath)]);
    if (q.gisaLicenseKey !== undefined) masks.push([this.trades, this.tradeSets.containing(q.gisaLicenseKey)]);
    const flagMask = (q.active === undefined ? 0 : ACTIVE) | (q.isScheinunternehmen === undefined ? 0 : SCHEIN);
    const flagWant = (q.active ? ACTIVE : 0) | (q.isScheinunternehmen ? SCHEIN : 0);
    return { equal, masks, flagMask, flagWant };
  }

  /** A selection buffer of at least n entries (reused: queries run one at a time, synchronously). */
  private selection(n: number): Int32Array {
    if (this.selected.length < n) this.selected = new Int32Array(Math.max(n, this.selected.length * 2, 1024));
    return this.selected;
  }

  /**
   * The companies matching a supported query, in `selected[0..n)` (in no particular order: the page's
   * order comes from the sort): figure slots when the query has ranges (`slots` true; the sort reads a
   * slot's value without a lookup), rows otherwise. The loops are branch-free (a candidate is written, then kept by adding its test's 0 or
   * 1 to the count): on figures the tests pass or fail at random, and mispredicted branches made them
   * several times slower.
   */
  private select(q: ScreenerQuery, countOnly = false): { n: number; slots: boolean } {
    const filters = this.attributeFilters(q);
    if (filters === null) return { n: 0, slots: false };
    let n: number;
    let sel: Int32Array;
    if (q.ranges.length > 0) {
      // A range never matches a company without figures: scan the figure slots only, the most
      // selective range first (counted exactly by two binary searches in the figure's order, or
      // estimated on a sample without one). A missing bound is infinite; a null figure is NaN, which
      // fails both comparisons, as a null fails them in SQL. Freed slots are all NaN. The first range is
      // collected by a scan, so its slots come in ascending order and the later filters read the
      // columns sequentially (on the order's run of slots, in value order, every filter loop
      // cache-missed) - unless nothing else filters and query() will walk the page from
      // the sort figure's order, which reads the selection only to mark it: then the run is copied.
      const sampleStep = Math.max(1, Math.floor(this.slots / 512));
      const ranges = q.ranges.map((r) => {
        const f = FIGURE_INDEX.get(r.figure)!;
        const column = this.figures[f]!;
        const order = this.orders[f] ?? null;
        const low = r.gte === undefined ? -Infinity : Number(r.gte);
        const high = r.lte === undefined ? Infinity : Number(r.lte);
        if (order) {
          const from = boundOf(order, column, low, false);
          const to = boundOf(order, column, high, true);
          return { column, low, high, order, from, to, passing: (Math.max(0, to - from) / this.slots) * Math.ceil(this.slots / sampleStep) };
        }
        let passing = 0;
        for (let slot = 0; slot < this.slots; slot += sampleStep) passing += +(column[slot]! >= low) & +(column[slot]! <= high);
        return { column, low, high, order, from: 0, to: 0, passing };
      }).sort((a, b) => a.passing - b.passing);
      const first = ranges[0]!;
      const alone = ranges.length === 1 && filters.equal.length === 0 && filters.masks.length === 0 && filters.flagMask === 0;
      // A single range and nothing else: its count is the order's run.
      if (first.order && alone && countOnly) return { n: Math.max(0, first.to - first.from), slots: true };
      sel = this.selection(this.slots);
      // Alone, the range's run is the whole selection: the same inputs query() decides the walk with.
      const run = Math.max(0, first.to - first.from);
      const walk = alone && first.order && !countOnly && q.orderBy !== undefined ? this.sortRun(q) : null;
      if (walk && this.walkPays(walk.to - walk.from, run, Math.min(q.page * q.pageSize, run))) {
        n = run;
        sel.set(first.order!.subarray(first.from, first.from + n));
      } else n = collectRange(first.column, first.low, first.high, this.slots, sel);
      for (let i = 1; i < ranges.length; i++) n = keepRange(ranges[i]!.column, ranges[i]!.low, ranges[i]!.high, sel, n);
      // Attributes through the slot's row. A freed slot (row -1) never gets here: its figures are NaN.
      const slotRow = this.slotRow;
      for (const [column, id] of filters.equal) n = keepEqualBySlot(column, id, slotRow, sel, n);
      for (const [column, mask] of filters.masks) n = keepMaskedBySlot(column, mask, slotRow, sel, n);
      if (filters.flagMask !== 0) n = keepFlagsBySlot(this.flags, filters.flagMask, filters.flagWant, slotRow, sel, n);
      return { n, slots: true };
    } else {
      sel = this.selection(this.size);
      const [first, ...rest] = filters.equal;
      let flagsDone = false;
      if (first) n = collectEqual(first[0], first[1], this.size, sel);
      else if (filters.flagMask !== 0) {
        // "active=true" alone is common: one pass over the flags, not all rows and then the flags.
        n = collectFlags(this.flags, filters.flagMask, filters.flagWant, this.size, sel);
        flagsDone = true;
      } else n = collectAll(this.size, sel);
      for (const [column, id] of rest) n = keepEqual(column, id, sel, n);
      for (const [column, mask] of filters.masks) n = keepMasked(column, mask, sel, n);
      if (filters.flagMask !== 0 && !flagsDone) n = keepFlags(this.flags, filters.flagMask, filters.flagWant, sel, n);
    }
    return { n, slots: false };
  }

  /**
   * Total and page order of a supported query. With a figure sort the page holds the fnrs of rows
   * offset..offset+pageSize: companies with the figure by value (ties by fnr), then those without it
   * by fnr, as the Postgres query orders them. Without a sort only the total is answered.
   */
  query(q: ScreenerQuery, options: { countOnly?: boolean } = {}): ColumnAnswer {
    const { n: total, slots } = this.select(q, options.countOnly === true || q.orderBy === undefined);
    const offset = (q.page - 1) * q.pageSize;
    // Past the last match a page is empty; and the heap never needs more than every match (a deep
    // page number must not size it: page 10^7 of 1000 would ask for 10^10 entries).
    if (options.countOnly || q.orderBy === undefined || offset >= total) return { total, fnrs: [], rows: [] };
    const k = Math.min(q.page * q.pageSize, total);
    const sel = this.selected;
    const slotOf = this.slotOf;
    const fnrs = this.fnrs;
    const sortColumn = this.figures[FIGURE_INDEX.get(q.orderBy!)!]!;
    // Companies without the sort figure come after all with it, so they are only ordered (by fnr) when
    // fewer than k have it: collect them now, choose among them at the end.
    const withoutValue: number[] = [];
    let ordered: number[];
    const walk = this.sortRun(q);
    if (walk && this.walkPays(walk.to - walk.from, total, k)) {
      ordered = this.walkOrder(walk.order.subarray(walk.from, walk.to), sortColumn, sel, total, slots, q.descending, k);
      if (ordered.length < k) {
        for (let i = 0; i < total; i++) {
          const row = slots ? this.slotRow[sel[i]!]! : sel[i]!;
          const slot = slotOf[row]!;
          if (slot < 0 || sortColumn[slot] !== sortColumn[slot]) withoutValue.push(row);
        }
      }
    } else {
      const withValue = new TopByKey(k, fnrs);
      if (slots) offerSlots(sel, total, this.slotRow, sortColumn, q.descending ? -1 : 1, withValue, withoutValue);
      else offerAll(sel, total, slotOf, sortColumn, q.descending ? -1 : 1, withValue, withoutValue);
      ordered = withValue.sortedRows();
    }
    const missing = k - ordered.length;
    if (missing > 0 && withoutValue.length > 0) {
      // The same heap with one key for all: it orders them by fnr.
      const last = new TopByKey(Math.min(missing, withoutValue.length), fnrs);
      for (const row of withoutValue) last.offer(0, row);
      ordered = ordered.concat(last.sortedRows()); // not push(...): a deep page can hold more rows than a call takes arguments
    }
    const rows = ordered.slice(offset, offset + q.pageSize);
    return { total, fnrs: rows.map((row) => fnrs.get(row)), rows };
  }

  /**
   * The part of the sort figure's order a walk reads: all of it, or the run of a range on the sort
   * figure (outside it nothing is selected). Null without an order (or without a sort).
   */
  private sortRun(q: ScreenerQuery): { order: Int32Array; from: number; to: number } | null {
    if (q.orderBy === undefined) return null;
    const f = FIGURE_INDEX.get(q.orderBy)!;
    const order = this.orders[f];
    if (!order) return null;
    const column = this.figures[f]!;
    const range = q.ranges.find((r) => r.figure === q.orderBy);
    const from = range?.gte !== undefined ? boundOf(order, column, Number(range.gte), false) : 0;
    const to = range?.lte !== undefined ? boundOf(order, column, Number(range.lte), true) : order.length;
    return { order, from, to: Math.max(from, to) };
  }

  /**
   * Walking the sort figure's order costs about k x (its length / the selection) steps plus marking
   * the selection; the heap costs a pass over the selection. Walk when that is cheaper.
   */
  private walkPays(orderLength: number, selected: number, k: number): boolean {
    if (this.orderStrategy !== 'auto') return this.orderStrategy === 'walk';
    return k * orderLength <= selected * selected;
  }

  /** The first k selected rows with a value, in the sort figure's order (ties by fnr). */
  private walkOrder(order: Int32Array, column: Float64Array, sel: Int32Array, n: number, slots: boolean, descending: boolean, k: number): number[] {
    if (this.marks.length < this.figureCapacity) this.marks = new Uint32Array(this.figureCapacity);
    const marks = this.marks;
    if (++this.mark === 0xffffffff) {
      marks.fill(0);
      this.mark = 1;
    }
    const mark = this.mark;
    if (slots) markSlots(sel, n, marks, mark);
    else markRows(sel, n, this.slotOf, marks, mark);
    const out: number[] = [];
    if (descending) walkDown(order, column, marks, mark, this.slotRow, k, out);
    else walkUp(order, marks, mark, this.slotRow, k, out);
    return out;
  }

  /**
   * The autocomplete's exact and prefix bands for one core, as nameSearch.ts reads them from Postgres
   * (same rows, same order, same scores); null when the name index cannot answer (see NameIndex).
   */
  nameBands(core: string, limit: number, prefixLimit: number, cap: number): NameBandRows | null {
    const answer = this.nameIndex.exactAndPrefix(core, limit, prefixLimit, cap);
    if (!answer) return null;
    return {
      prefixTotal: answer.prefixTotal,
      rows: answer.hits.map((h) => ({
        fnr: this.fnrs.get(h.row),
        name: this.rowJson.nameOf(h.row),
        city: this.rowJson.cityOf(h.row),
        isActive: (this.flags[h.row]! & ACTIVE) !== 0,
        band: h.band,
        score: h.score,
      })),
    };
  }

  /** The autocomplete's total for a core up to `cap` (NameIndex.candidateCount); null when the index cannot answer. */
  nameCount(core: string, cap: number): number | null {
    return this.nameIndex.candidateCount(core, cap, MIN_WORD_CORE);
  }

  /** Puts renamed and new companies in the name index's orders now (a sync step does, so queries need not). */
  flushNames(): void {
    this.nameIndex.flush();
  }

  /** flushNames() for a load: the full sort in slices, pausing between them. */
  flushNamesInSlices(pause: () => Promise<void>): Promise<void> {
    return this.nameIndex.flushInSlices(pause);
  }

  /** The rows as the API presents them: one JSON array, UTF-8 (schemas/screenerRecords.ts); only `fields` when given. */
  json(rows: number[], before = '', after = '', allocate?: (size: number) => Buffer, fields?: ScreenerFields): Buffer {
    return this.rowJson.json({ fnrs: this.fnrs, flags: this.flags, slotOf: this.slotOf, figures: this.figures }, rows, before, after, allocate, fields);
  }
}
