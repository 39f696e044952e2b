// The top k of a selection for a page sorted by a figure: a bounded heap and the loops that feed it.
import type { FnrColumn } from './fnrColumn.js';

/**
 * The k first (key, row) pairs in (key, fnr) order: a max-heap on the last kept pair, with the keys
 * beside the rows, so comparing two entries reads no column.
 */
export class TopByKey {
  private readonly keys: Float64Array;
  private readonly rows: Int32Array;
  size = 0;
  constructor(readonly k: number, private readonly fnrs: FnrColumn) {
    this.keys = new Float64Array(k);
    this.rows = new Int32Array(k);
  }
  /** The last kept key (the heap's root); meaningful once size === k. */
  get lastKey(): number {
    return this.keys[0]!;
  }
  private after(ka: number, ra: number, kb: number, rb: number): boolean {
    return ka === kb ? this.fnrs.compare(ra, rb) > 0 : ka > kb;
  }
  offer(key: number, row: number): void {
    const { keys, rows } = this;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.after(key, row, keys[parent]!, rows[parent]!)) break;
        keys[i] = keys[parent]!;
        rows[i] = rows[parent]!;
        i = parent;
      }
      keys[i] = key;
      rows[i] = row;
      return;
    }
    if (!this.after(keys[0]!, rows[0]!, key, row)) return;
    // Replace the root and sift down.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const c = r < this.size && this.after(keys[r]!, rows[r]!, keys[l]!, rows[l]!) ? r : l;
      if (!this.after(keys[c]!, rows[c]!, key, row)) break;
      keys[i] = keys[c]!;
      rows[i] = rows[c]!;
      i = c;
    }
    keys[i] = key;
    rows[i] = row;
  }
  sortedRows(): number[] {
    const order = Array.from({ length: this.size }, (_, i) => i);
    const { keys, rows, fnrs } = this;
    order.sort((a, b) => (keys[a] === keys[b] ? fnrs.compare(rows[a]!, rows[b]!) : keys[a]! - keys[b]!));
    return order.map((i) => rows[i]!);
  }
}

/**
 * Offers the selected rows to `best` keyed by value x sign (ascending keys are the screener's order);
 * rows without a value go to `without` until `best` is full. Once k are kept, a row whose key is
 * strictly after the last kept is dropped without asking the heap (ties go by fnr there), which is
 * the fate of nearly every row of a wide selection.
 */
export function offerAll(sel: Int32Array, count: number, slotOf: Int32Array, sortColumn: Float64Array, sign: number, best: TopByKey, without: number[]): void {
  let full = false;
  let last = Number.NaN;
  const k = best.k;
  for (let i = 0; i < count; i++) {
    const row = sel[i]!;
    const slot = slotOf[row]!;
    const v = slot >= 0 ? sortColumn[slot]! : Number.NaN;
    if (v !== v) {
      if (!full) without.push(row);
      continue;
    }
    const key = v * sign;
    if (full && key > last) continue;
    best.offer(key, row);
    if (!full) full = best.size === k;
    if (full) last = best.lastKey;
  }
}

/** offerAll for a selection of figure slots: the value is read directly, the row only when offered. */
export function offerSlots(sel: Int32Array, count: number, slotRow: Int32Array, sortColumn: Float64Array, sign: number, best: TopByKey, without: number[]): void {
  let full = false;
  let last = Number.NaN;
  const k = best.k;
  for (let i = 0; i < count; i++) {
    const slot = sel[i]!;
    const v = sortColumn[slot]!;
    if (v !== v) {
      if (!full) without.push(slotRow[slot]!);
      continue;
    }
    const key = v * sign;
    if (full && key > last) continue;
    best.offer(key, slotRow[slot]!);
    if (!full) full = best.size === k;
    if (full) last = best.lastKey;
  }
}
