// Writes JSON text straight into bytes, for answers assembled from stored pieces rather than objects
// (the screener columns' pages: 1000 rows of 47 figures). Numbers print as JSON.stringify prints them;
// most figures are cents, which are written digit by digit instead of through Number#toString
// (faster, and no string to encode afterwards).
//
// The fast path relies on one fact: a value that is exactly some whole number of cents below 10^13
// has that decimal as its shortest round-trip form, which is what Number#toString prints.

/** The longest number text: String(-Number.MIN_VALUE) and the like. */
export const MAX_NUMBER_BYTES = 32;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonWriter {
  private buf: Buffer;
  /** Bytes written so far; loops writing after reserve() move it themselves. */
  pos = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Bytes that are already JSON (a piece, a name). */
  raw(bytes: Uint8Array, start = 0, end = bytes.length): this {
    const n = end - start;
    this.ensure(n);
    const buf = this.buf;
    let pos = this.pos;
    if (n < 64) for (let i = start; i < end; i++) buf[pos++] = bytes[i]!;
    else {
      buf.set(bytes.subarray(start, end), pos);
      pos += n;
    }
    this.pos = pos;
    return this;
  }

  /** JSON punctuation or other text known to be plain ASCII JSON. */
  ascii(text: string): this {
    this.ensure(text.length);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < text.length; i++) buf[pos++] = text.charCodeAt(i);
    this.pos = pos;
    return this;
  }

  /** A JSON string literal; plain printable ASCII is copied, anything else goes through JSON.stringify. */
  string(value: string): this {
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === QUOTE || c === BACKSLASH) {
        const encoded = Buffer.from(JSON.stringify(value), 'utf8');
        return this.raw(encoded);
      }
    }
    this.ensure(value.length + 2);
    this.buf[this.pos++] = QUOTE;
    this.ascii(value);
    this.buf[this.pos++] = QUOTE;
    return this;
  }

  /** A number as JSON.stringify would write it (null for NaN and the infinities). */
  number(v: number): this {
    this.ensure(MAX_NUMBER_BYTES);
    this.pos = writeNumber(this.buf, this.pos, v);
    return this;
  }

  /**
   * Room for `n` more bytes, for loops that write through writeNumber/copyBytes themselves and then
   * set `pos` (a method call per piece costs more than the piece).
   */
  reserve(n: number): Buffer {
    this.ensure(n);
    return this.buf;
  }

  /** Starts over, keeping the buffer (a writer reused as scratch). */
  reset(): void {
    this.pos = 0;
  }

  /** The bytes written so far copied into a buffer from `allocate` (default a fresh one) of their size. */
  copyOut(allocate: (size: number) => Buffer = (size) => Buffer.allocUnsafe(size)): Buffer {
    const out = allocate(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }

  /** A copy of the bytes written from `start` on (to keep, e.g. in a cache). */
  copyFrom(start: number): Buffer {
    return Buffer.from(this.buf.subarray(start, this.pos));
  }

  /** The bytes written so far (a view, valid until the next write). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

const NULL = Buffer.from('null');
const digits = new Uint8Array(24);

/** `src` into `buf` at `pos`; returns the new end. The caller has reserved the room. */
export function copyBytes(buf: Uint8Array, pos: number, src: Uint8Array): number {
  for (let i = 0; i < src.length; i++) buf[pos++] = src[i]!;
  return pos;
}

/**
 * A number as JSON.stringify would write it (null for NaN and the infinities), into `buf` at `pos` (room for
 * MAX_NUMBER_BYTES reserved); returns the new end.
 */
export function writeNumber(buf: Uint8Array, pos: number, v: number): number {
  if (!Number.isFinite(v)) return copyBytes(buf, pos, NULL); // NaN and the infinities, as JSON.stringify
  const cents = Math.round(v * 100);
  // A value that is exactly some whole number of cents below 10^13 has that decimal as its shortest
  // round-trip form (15 or fewer significant digits name one double each), which is what toString
  // prints; every other value takes toString itself.
  if (cents / 100 !== v || cents >= 1e15 || cents <= -1e15) {
    const text = String(v);
    for (let i = 0; i < text.length; i++) buf[pos++] = text.charCodeAt(i);
    return pos;
  }
  if (cents === 0) {
    buf[pos++] = 0x30; // also -0, which JSON prints as 0
    return pos;
  }
  let x = cents;
  if (x < 0) {
    buf[pos++] = 0x2d;
    x = -x;
  }
  const whole = Math.floor(x / 100);
  const fraction = (x - whole * 100) | 0;
  // Digits in int32 arithmetic: the whole part in two halves below 10^8.
  let t = 0;
  const high = Math.floor(whole / 1e8);
  let low = (whole - high * 1e8) | 0;
  if (high > 0) {
    for (let k = 0; k < 8; k++) {
      const q = (low / 10) | 0;
      digits[t++] = 0x30 + low - q * 10;
      low = q;
    }
    let h = high | 0;
    do {
      const q = (h / 10) | 0;
      digits[t++] = 0x30 + h - q * 10;
      h = q;
    } while (h > 0);
  } else {
    do {
      const q = (low / 10) | 0;
      digits[t++] = 0x30 + low - q * 10;
      low = q;
    } while (low > 0);
  }
  while (t > 0) buf[pos++] = digits[--t]!;
  if (fraction !== 0) {
    const tens = (fraction / 10) | 0;
    const ones = fraction - tens * 10;
    buf[pos++] = 0x2e;
    buf[pos++] = 0x30 + tens;
    if (ones !== 0) buf[pos++] = 0x30 + ones;
  }
  return pos;
}
