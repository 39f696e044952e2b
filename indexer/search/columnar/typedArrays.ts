// Growing the columns' typed arrays.

/** A copy of `a` with room for `capacity` elements; the new ones set to `fill` when given (else 0). */
export function grownTo<T extends Int32Array | Uint32Array | Uint8Array | Float64Array>(a: T, capacity: number, fill?: number): T {
  const b = new (a.constructor as new (n: number) => T)(capacity);
  b.set(a);
  if (fill !== undefined) b.fill(fill, a.length);
  return b;
}
