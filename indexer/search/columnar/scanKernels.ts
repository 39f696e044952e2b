// The screener columns' scan kernels: plain loops over typed arrays that select, mark and gather.
// A selection loop writes every candidate and keeps it by adding its test's 0 or 1 to the count
// (`sel[n] = x; n += test`: branch-free, see ScreenerColumns.select). One typed-array type per
// function, so each loop stays monomorphic.

/** column[slot] for each slot into `out`; NaN (null) for slot -1. */
export function gather(column: Float64Array, slots: Int32Array, out: Float64Array): void {
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    out[i] = slot >= 0 ? column[slot]! : Number.NaN;
  }
}

/** Marks a selection of figure slots for the order walk. */
export function markSlots(sel: Int32Array, n: number, marks: Uint32Array, mark: number): void {
  for (let i = 0; i < n; i++) marks[sel[i]!] = mark;
}

/** Marks the figure slots of a selection of rows (rows without figures have none). */
export function markRows(sel: Int32Array, n: number, slotOf: Int32Array, marks: Uint32Array, mark: number): void {
  for (let i = 0; i < n; i++) {
    const slot = slotOf[sel[i]!]!;
    if (slot >= 0) marks[slot] = mark;
  }
}

export function collectRange(column: Float64Array, low: number, high: number, slots: number, sel: Int32Array): number {
  let n = 0;
  for (let slot = 0; slot < slots; slot++) {
    const v = column[slot]!;
    sel[n] = slot;
    n += +(v >= low) & +(v <= high);
  }
  return n;
}

export function keepRange(column: Float64Array, low: number, high: number, sel: Int32Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const slot = sel[i]!;
    const v = column[slot]!;
    sel[n] = slot;
    n += +(v >= low) & +(v <= high);
  }
  return n;
}

export function keepEqualBySlot(column: Int32Array, id: number, slotRow: Int32Array, sel: Int32Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const slot = sel[i]!;
    sel[n] = slot;
    n += +(column[slotRow[slot]!] === id);
  }
  return n;
}

export function keepMaskedBySlot(column: Int32Array, mask: Uint8Array, slotRow: Int32Array, sel: Int32Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const slot = sel[i]!;
    sel[n] = slot;
    n += mask[column[slotRow[slot]!]!]!;
  }
  return n;
}

export function keepFlagsBySlot(flags: Uint8Array, flagMask: number, flagWant: number, slotRow: Int32Array, sel: Int32Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const slot = sel[i]!;
    sel[n] = slot;
    n += +((flags[slotRow[slot]!]! & flagMask) === flagWant);
  }
  return n;
}

export function collectAll(rows: number, sel: Int32Array): number {
  for (let row = 0; row < rows; row++) sel[row] = row;
  return rows;
}

export function collectFlags(flags: Uint8Array, flagMask: number, flagWant: number, rows: number, sel: Int32Array): number {
  let n = 0;
  for (let row = 0; row < rows; row++) {
    sel[n] = row;
    n += +((flags[row]! & flagMask) === flagWant);
  }
  return n;
}

export function collectEqual(column: Int32Array, id: number, rows: number, sel: Int32Array): number {
  let n = 0;
  for (let row = 0; row < rows; row++) {
    sel[n] = row;
    n += +(column[row] === id);
  }
  return n;
}

export function keepEqual(column: Int32Array, id: number, sel: Int32Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const row = sel[i]!;
    sel[n] = row;
    n += +(column[row] === id);
  }
  return n;
}

export function keepMasked(column: Int32Array, mask: Uint8Array, sel: Int32Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const row = sel[i]!;
    sel[n] = row;
    n += mask[column[row]!]!;
  }
  return n;
}

export function keepFlags(flags: Uint8Array, flagMask: number, flagWant: number, sel: Int32Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const row = sel[i]!;
    sel[n] = row;
    n += +((flags[row]! & flagMask) === flagWant);
  }
  return n;
}
