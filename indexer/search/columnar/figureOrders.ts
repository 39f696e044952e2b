// Per-figure sort orders for the screener columns: the figure slots holding a value, ascending by
// (value, fnr). With one, a range is a binary search and a contiguous run of slots instead of a scan of
// every slot, and a page sorted by the figure is the first k selected slots met walking the order
// instead of a top-k heap over the whole selection. Pure functions over typed arrays, so each loop
// stays monomorphic.

/** Reused buffers of the radix sort (one sort at a time: the columns are used synchronously). */
export class RadixScratch {
  hi = new Uint32Array(0);
  lo = new Uint32Array(0);
  other = new Int32Array(0);
  readonly counts = new Int32Array(65_537);
  private readonly f64 = new Float64Array(1);
  private readonly u32 = new Uint32Array(this.f64.buffer);

  ensure(slots: number, entries: number): void {
    if (this.hi.length < slots) {
      this.hi = new Uint32Array(slots);
      this.lo = new Uint32Array(slots);
    }
    if (this.other.length < entries) this.other = new Int32Array(entries);
  }

  /** The double's bits as an unsigned key in the double's order (IEEE 754: flip negatives, set the sign of positives). */
  keyOf(value: number, slot: number): void {
    this.f64[0] = value === 0 ? 0 : value; // -0 sorts with 0, as it compares
    let lo = this.u32[0]!;
    let hi = this.u32[1]!;
    if (hi & 0x80000000) {
      hi = ~hi >>> 0;
      lo = ~lo >>> 0;
    } else hi = (hi | 0x80000000) >>> 0;
    this.hi[slot] = hi;
    this.lo[slot] = lo;
  }
}

/**
 * The slots of `candidates` (given in fnr order) that hold a value in `column`, ascending by value;
 * equal values keep the candidates' order, so ties come by fnr, as Postgres orders them. A stable LSD
 * radix sort over the doubles' 64 bits in four 16-bit passes, much faster than a comparison sort.
 */
export function sortedByValue(column: Float64Array, candidates: Int32Array, scratch: RadixScratch): Int32Array {
  let m = 0;
  scratch.ensure(column.length, candidates.length);
  let src = new Int32Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const slot = candidates[i]!;
    const v = column[slot]!;
    if (v !== v) continue;
    src[m++] = slot;
    scratch.keyOf(v, slot);
  }
  src = src.subarray(0, m);
  let dst = scratch.other.subarray(0, m);
  const counts = scratch.counts;
  for (let pass = 0; pass < 4; pass++) {
    const keys = pass < 2 ? scratch.lo : scratch.hi;
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let i = 0; i < m; i++) counts[((keys[src[i]!]! >>> shift) & 0xffff) + 1]!++;
    // A pass where every key has the same digit would only copy: skip it.
    if (counts[((keys[src[0] ?? 0]! >>> shift) & 0xffff) + 1] === m) continue;
    for (let d = 0; d < 65_536; d++) counts[d + 1]! += counts[d]!;
    for (let i = 0; i < m; i++) {
      const slot = src[i]!;
      dst[counts[(keys[slot]! >>> shift) & 0xffff]!++] = slot;
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  return src.slice(); // exactly sized, and off the scratch buffers
}

/** The first position in `order` whose value is >= x (or > x with `strict`). */
export function boundOf(order: Int32Array, column: Float64Array, x: number, strict: boolean): number {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const v = column[order[mid]!]!;
    if (v < x || (strict && v === x)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Selected slots (marks[slot] === mark) met walking `order` upwards, as rows, until `out` holds k:
 * ascending by value, ties by fnr.
 */
export function walkUp(order: Int32Array, marks: Uint32Array, mark: number, slotRow: Int32Array, k: number, out: number[]): void {
  for (let i = 0; i < order.length && out.length < k; i++) {
    const slot = order[i]!;
    if (marks[slot] === mark) out.push(slotRow[slot]!);
  }
}

/** walkUp downwards: descending by value, but ties still by fnr (each run of equal values read upwards). */
export function walkDown(order: Int32Array, column: Float64Array, marks: Uint32Array, mark: number, slotRow: Int32Array, k: number, out: number[]): void {
  let i = order.length - 1;
  while (i >= 0 && out.length < k) {
    const v = column[order[i]!]!;
    let start = i;
    while (start > 0 && column[order[start - 1]!] === v) start--;
    for (let t = start; t <= i && out.length < k; t++) {
      const slot = order[t]!;
      if (marks[slot] === mark) out.push(slotRow[slot]!);
    }
    i = start - 1;
  }
}
