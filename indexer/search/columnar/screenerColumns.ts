// An in-memory columnar copy of the screener's filter and sort fields, kept beside the Postgres read
// model in the API process. Exact totals over 640k companies are a scan in Postgres (tens to hundreds
// of ms for a wide range); over typed arrays the same scan costs a few ms, so the screener's count and
// its page order come from here and only the page's rows are read from Postgres (by fnr).
//
// Exactness: figures are numerics in Postgres and doubles here. A decimal with at most 15 significant
// digits maps to a distinct double, and rounding is monotonic, so comparisons and order agree with
// Postgres for such values. A figure holding any value with more digits is marked inexact, and a
// threshold with more digits is refused too: such queries go to Postgres (supports() says no).
//
// Pure data structure: no I/O. columnSync.ts loads and follows it.
import { KEY_FIGURES, type KeyFigureDefinition } from '../../../schemas/keyFigures.js';
import { normaliseForSearch } from '../postgresScreenerQuery.js';
import type { ScreenerQuery } from '../screenerFilters.js';

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
  oenacePaths: string[];
  tradeKeys: string[];
  isActive: boolean;
  isScheinunternehmen: boolean;
  figures: Array<string | null> | string | null;
}

export interface ColumnAnswer {
  total: number;
  /** The page's fnrs in screener order (empty for countOnly, or when the query has no figure sort). */
  fnrs: string[];
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

/** Interns strings to small integers; 0 stands for null. */
class Dictionary {
  private readonly ids = new Map<string, number>();
  intern(value: string | null): number {
    if (value === null) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(value, id);
    }
    return id;
  }
  /** The id of a value, or -1 when no row ever had it (then nothing can match). */
  find(value: string): number {
    return this.ids.get(value) ?? -1;
  }
}

/** Interns string sets (ÖNACE paths, trade keys): most companies share one of a few thousand sets. */
class SetDictionary {
  private readonly ids = new Map<string, number>();
  readonly sets: string[][] = [];
  intern(values: string[]): number {
    // Most companies have no set or a single member: their key is no new string.
    const key = values.length === 0 ? '' : values.length === 1 ? values[0]! : [...values].sort().join('\u0000');
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.sets.length;
      this.ids.set(key, id);
      this.sets.push(values);
    }
    return id;
  }
  /** Which set ids hold `value`. */
  containing(value: string): Uint8Array {
    const mask = new Uint8Array(this.sets.length);
    this.sets.forEach((set, id) => {
      if (set.includes(value)) mask[id] = 1;
    });
    return mask;
  }
}

/** The predicate of a query without attribute filters: the scans skip calling it. */
const ANY_ROW = (_row: number) => true;

const ACTIVE = 1;
const SCHEIN = 2;

/** A bounded selection of the best `k` rows under `before` (a max-heap on the worst kept row). */
function selectBest(k: number, before: (a: number, b: number) => number) {
  const heap: number[] = [];
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && before(heap[l]!, heap[worst]!) > 0) worst = l;
      if (r < heap.length && before(heap[r]!, heap[worst]!) > 0) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
      i = worst;
    }
  };
  return {
    /** The kept rows' worst sort value once k are kept (a cache the caller keeps current). */
    worstValue: Number.NaN,
    get full() {
      return k > 0 && heap.length === k;
    },
    worst: () => heap[0]!,
    offer(row: number) {
      if (k <= 0) return;
      if (heap.length < k) {
        heap.push(row);
        for (let i = heap.length - 1; i > 0; ) {
          const parent = (i - 1) >> 1;
          if (before(heap[i]!, heap[parent]!) <= 0) break;
          [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
          i = parent;
        }
      } else if (before(row, heap[0]!) < 0) {
        heap[0] = row;
        siftDown(0);
      }
    },
    sorted: () => heap.sort(before),
  };
}

export class ScreenerColumns {
  private size = 0;
  private capacity: number;
  private readonly fnrs: string[] = [];
  /**
   * Rows 0..sortedRows-1 hold ascending fnrs (the loader reads in that order), found by binary search;
   * rows added out of order later are in `laterRows`. A Map of all 640k fnrs would cost ~40 MB more.
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

  /** `expectedFigureRows`: companies with a filing, so the figure columns are allocated once. */
  constructor(expectedRows = 1024, expectedFigureRows = Math.ceil(expectedRows / 2)) {
    this.capacity = Math.max(16, expectedRows);
    this.city = new Int32Array(this.capacity);
    this.zip = new Int32Array(this.capacity);
    this.court = new Int32Array(this.capacity);
    this.legalForm = new Int32Array(this.capacity);
    this.oenace = new Int32Array(this.capacity);
    this.trades = new Int32Array(this.capacity);
    this.flags = new Uint8Array(this.capacity);
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
    const grow = <T extends Int32Array | Uint8Array>(a: T, fill?: number): T => {
      const b = new (a.constructor as new (n: number) => T)(this.capacity * 2);
      b.set(a);
      if (fill !== undefined) b.fill(fill, a.length);
      return b;
    };
    this.city = grow(this.city);
    this.zip = grow(this.zip);
    this.court = grow(this.court);
    this.legalForm = grow(this.legalForm);
    this.oenace = grow(this.oenace);
    this.trades = grow(this.trades);
    this.flags = grow(this.flags);
    this.slotOf = grow(this.slotOf, -1);
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

  private rowOf(fnr: string): number | undefined {
    let low = 0;
    let high = this.sortedRows - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = this.fnrs[mid]!;
      if (at === fnr) return mid;
      if (at < fnr) low = mid + 1;
      else high = mid - 1;
    }
    return this.laterRows.get(fnr);
  }

  /** Inserts or replaces a company's row. */
  upsert(r: ColumnRow): void {
    let row = this.rowOf(r.fnr);
    if (row === undefined) {
      if (this.size === this.capacity) this.growRows();
      row = this.size++;
      this.fnrs[row] = r.fnr;
      if (this.sortedRows === row && (row === 0 || this.fnrs[row - 1]! < r.fnr)) this.sortedRows++;
      else this.laterRows.set(r.fnr, row);
    }
    this.city[row] = this.cities.intern(r.cityNorm);
    this.zip[row] = this.zips.intern(r.zipCode);
    this.court[row] = this.courts.intern(r.courtCode);
    this.legalForm[row] = this.legalForms.intern(r.legalFormCode);
    this.oenace[row] = this.oenaceSets.intern(r.oenacePaths);
    this.trades[row] = this.tradeSets.intern(r.tradeKeys);
    this.flags[row] = (r.isActive ? ACTIVE : 0) | (r.isScheinunternehmen ? SCHEIN : 0);

    const figures = typeof r.figures === 'string' ? splitFigures(r.figures) : r.figures;
    const hasFigures = figures !== null && figures.some((v) => v !== null);
    let slot = this.slotOf[row]!;
    if (!hasFigures) {
      // A slot freed in the middle stays empty (NaN figures, no row): scans skip it. Rows rarely lose
      // their filings, so compacting is not worth it.
      if (slot >= 0) {
        for (const column of this.figures) column[slot] = Number.NaN;
        this.slotRow[slot] = -1;
        this.slotOf[row] = -1;
      }
      return;
    }
    if (slot < 0) {
      if (this.slots === this.figureCapacity) this.growSlots();
      slot = this.slots++;
      this.slotOf[row] = slot;
      this.slotRow[slot] = row;
    }
    for (let f = 0; f < KEY_FIGURES.length; f++) {
      const value = figures[f] ?? null;
      if (value === null) {
        this.figures[f]![slot] = Number.NaN;
      } else {
        this.figures[f]![slot] = Number(value);
        if (value.length > MAX_EXACT_DIGITS && significantDigits(value) > MAX_EXACT_DIGITS) this.inexact[f] = 1;
      }
    }
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
   * The non-figure filters as one predicate over a row; null when a filter value occurs nowhere (then
   * nothing matches). One closure with plain comparisons keeps the scan loop monomorphic.
   */
  private attributePredicate(q: ScreenerQuery): ((row: number) => boolean) | null {
    const id = (value: string | undefined, dictionary: Dictionary) => (value === undefined ? 0 : dictionary.find(value));
    const cityId = id(q.city === undefined ? undefined : normaliseForSearch(q.city), this.cities);
    const zipId = id(q.zipCode, this.zips);
    const courtId = id(q.courtCode, this.courts);
    const legalFormId = id(q.legalFormCode, this.legalForms);
    if (cityId < 0 || zipId < 0 || courtId < 0 || legalFormId < 0) return null;
    const oenaceMask = q.oenacePath === undefined ? null : this.oenaceSets.containing(q.oenacePath);
    const tradeMask = q.gisaLicenseKey === undefined ? null : this.tradeSets.containing(q.gisaLicenseKey);
    const flagMask = (q.active === undefined ? 0 : ACTIVE) | (q.isScheinunternehmen === undefined ? 0 : SCHEIN);
    const flagWant = (q.active ? ACTIVE : 0) | (q.isScheinunternehmen ? SCHEIN : 0);
    if (cityId === 0 && zipId === 0 && courtId === 0 && legalFormId === 0 && flagMask === 0 && oenaceMask === null && tradeMask === null) return ANY_ROW;
    const { city, zip, court, legalForm, oenace, trades, flags } = this;
    return (row) =>
      (cityId === 0 || city[row] === cityId)
      && (zipId === 0 || zip[row] === zipId)
      && (courtId === 0 || court[row] === courtId)
      && (legalFormId === 0 || legalForm[row] === legalFormId)
      && (flags[row]! & flagMask) === flagWant
      && (oenaceMask === null || oenaceMask[oenace[row]!] === 1)
      && (tradeMask === null || tradeMask[trades[row]!] === 1);
  }

  /**
   * Total and page order of a supported query. With a figure sort the page holds the fnrs of rows
   * offset..offset+pageSize: companies with the figure by value (ties by fnr), then those without it
   * by fnr, as the Postgres query orders them. Without a sort only the total is answered.
   */
  query(q: ScreenerQuery, options: { countOnly?: boolean } = {}): ColumnAnswer {
    const attributes = this.attributePredicate(q);
    if (attributes === null) return { total: 0, fnrs: [] };
    const slotOf = this.slotOf;
    const slotRow = this.slotRow;
    const wantPage = !options.countOnly && q.orderBy !== undefined;
    const k = wantPage ? q.page * q.pageSize : 0;
    const fnrs = this.fnrs;
    const byFnr = (a: number, b: number) => (fnrs[a]! < fnrs[b]! ? -1 : fnrs[a]! > fnrs[b]! ? 1 : 0);
    const sortColumn = q.orderBy ? this.figures[FIGURE_INDEX.get(q.orderBy)!]! : undefined;
    const sign = q.descending ? -1 : 1;
    const byValue = (a: number, b: number) => {
      const va = sortColumn![slotOf[a]!]!;
      const vb = sortColumn![slotOf[b]!]!;
      return va === vb ? byFnr(a, b) : va < vb ? -sign : sign;
    };
    const withValue = selectBest(k, byValue);
    // Companies without the sort figure come after all with it, so they are only ordered (by fnr) when
    // fewer than k have it: collect them now, choose among them at the end.
    let withoutValue = new Int32Array(k > 0 ? 1024 : 0);
    let withoutCount = 0;
    let total = 0;
    // The worst kept value once k rows are kept: a row strictly worse is dropped without asking the
    // heap (ties go by fnr there). Locals, not heap properties: this runs once per match.
    let full = false;
    let worst = Number.NaN;
    const consider = (row: number, slot: number) => {
      const v = slot >= 0 ? sortColumn![slot]! : Number.NaN;
      if (v === v) {
        if (full && (v - worst) * sign > 0) return;
        withValue.offer(row);
        full = withValue.full;
        if (full) worst = sortColumn![slotOf[withValue.worst()]!]!;
      } else {
        if (withoutCount === withoutValue.length) {
          const grown = new Int32Array(withoutValue.length * 2);
          grown.set(withoutValue);
          withoutValue = grown;
        }
        withoutValue[withoutCount++] = row;
      }
    };
    const anyRow = attributes === ANY_ROW;

    if (q.ranges.length > 0) {
      // A range never matches a company without figures: scan the figure slots only, the first range
      // in a tight loop over its column, the others by index. A missing bound is infinite; a null
      // figure is NaN, which fails both comparisons, as a null fails them in SQL.
      // The most selective range first (estimated on a sample of slots): the tight loop then rejects most.
      const sampleStep = Math.max(1, Math.floor(this.slots / 512));
      const estimated = q.ranges.map((r) => {
        const column = this.figures[FIGURE_INDEX.get(r.figure)!]!;
        const low = r.gte === undefined ? -Infinity : Number(r.gte);
        const high = r.lte === undefined ? Infinity : Number(r.lte);
        let passing = 0;
        for (let slot = 0; slot < this.slots; slot += sampleStep) if (column[slot]! >= low && column[slot]! <= high) passing++;
        return { column, low, high, passing };
      }).sort((a, b) => a.passing - b.passing);
      const columns = estimated.map((r) => r.column);
      const lows = estimated.map((r) => r.low);
      const highs = estimated.map((r) => r.high);
      const column = columns[0]!;
      const low = lows[0]!;
      const high = highs[0]!;
      const ranges = columns.length;
      scan: for (let slot = 0; slot < this.slots; slot++) {
        const v = column[slot]!;
        if (!(v >= low && v <= high)) continue;
        for (let i = 1; i < ranges; i++) {
          const w = columns[i]![slot]!;
          if (!(w >= lows[i]! && w <= highs[i]!)) continue scan;
        }
        const row = slotRow[slot]!;
        if (row < 0 || (!anyRow && !attributes(row))) continue;
        total++;
        if (k === 0) continue;
        // The common case once the page is full, decided here without a call.
        const s = sortColumn![slot]!;
        if (full && s === s && (s - worst) * sign > 0) continue;
        consider(row, slot);
      }
    } else {
      for (let row = 0; row < this.size; row++) {
        if (!anyRow && !attributes(row)) continue;
        total++;
        if (k > 0) consider(row, slotOf[row]!);
      }
    }
    if (k === 0) return { total, fnrs: [] };
    let ordered = withValue.sorted();
    const missing = k - ordered.length;
    if (missing > 0 && withoutCount > 0) {
      const last = selectBest(missing, byFnr);
      for (let i = 0; i < withoutCount; i++) last.offer(withoutValue[i]!);
      ordered = ordered.concat(last.sorted()); // not push(...): a deep page can hold more rows than a call takes arguments
    }
    const offset = (q.page - 1) * q.pageSize;
    return { total, fnrs: ordered.slice(offset, offset + q.pageSize).map((row) => fnrs[row]!) };
  }
}
