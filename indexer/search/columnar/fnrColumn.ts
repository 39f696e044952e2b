// The columns' fnrs as numbers. As JS strings, one heap object per company, they were more than half of
// the API's heap by count, and every full collection marked each one (docs/memory.md); full collections
// come often under feed pages, whose socket buffers fill the old generation's headroom. As numbers
// they are one Float64Array that the collector does not look into, and ties compare as numbers.
//
// The key keeps JS string order (UTF-16 code units, so the order the columns have always used for
// ties): an fnr of at most 7 ASCII characters (canonical fnrs are up to six digits and a letter) is
// its character codes in base 128, padded with zeros at the end, so a shorter prefix sorts first and
// the key is exact in a double (128^7 < 2^53). Anything else (longer, non-ASCII, a NUL) keeps its
// string in a small map and compares as a string.

import { grownTo } from './typedArrays.js';

const MAX_CHARS = 7;
const BASE = 128;
/** BASE ** (MAX_CHARS - 1 - i) for each position. */
const PLACE = Array.from({ length: MAX_CHARS }, (_, i) => BASE ** (MAX_CHARS - 1 - i));

/** The order key of an fnr; NaN when it does not fit the key (then it compares as a string). */
export function fnrKey(fnr: string): number {
  if (fnr.length > MAX_CHARS) return Number.NaN;
  let key = 0;
  for (let i = 0; i < fnr.length; i++) {
    const c = fnr.charCodeAt(i);
    if (c === 0 || c >= BASE) return Number.NaN;
    key += c * PLACE[i]!;
  }
  return key;
}

function fnrOfKey(key: number): string {
  let out = '';
  for (let i = 0; i < MAX_CHARS; i++) {
    const c = Math.floor(key / PLACE[i]!) % BASE;
    if (c === 0) break;
    out += String.fromCharCode(c);
  }
  return out;
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Row -> fnr, growing as rows are set. */
export class FnrColumn {
  private keys: Float64Array;
  /** Rows whose fnr has no key (NaN in `keys`). */
  private readonly unkeyed = new Map<number, string>();

  constructor(capacity = 1024) {
    this.keys = new Float64Array(Math.max(16, capacity)).fill(Number.NaN);
  }

  set(row: number, fnr: string): void {
    if (row >= this.keys.length) this.keys = grownTo(this.keys, Math.max(this.keys.length * 2, row + 1), Number.NaN);
    const key = fnrKey(fnr);
    this.keys[row] = key;
    if (key === key) this.unkeyed.delete(row);
    else this.unkeyed.set(row, fnr);
  }

  get(row: number): string {
    const key = this.keys[row]!;
    return key === key ? fnrOfKey(key) : this.unkeyed.get(row)!;
  }

  /** Two rows in fnr order (negative: a first). */
  compare(a: number, b: number): number {
    const ka = this.keys[a]!;
    const kb = this.keys[b]!;
    if (ka === ka && kb === kb) return ka - kb;
    return compareStrings(this.get(a), this.get(b));
  }

  /** A row against an fnr (and its fnrKey, computed once by the caller), in fnr order. */
  compareTo(row: number, fnr: string, key: number): number {
    const k = this.keys[row]!;
    if (k === k && key === key) return k - key;
    return compareStrings(this.get(row), fnr);
  }
}
