// The screener columns' fnrs as numbers: each reads back as stored, and rows compare in JS string
// order (the order the columns break ties in, which the Postgres cross-checks hold), keyed or not.
import { describe, expect, it } from 'vitest';
import { FnrColumn, fnrKey } from '../../indexer/search/columnar/fnrColumn.js';
import { rng } from '../../bench/syntheticCompanies.js';

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe('FnrColumn', () => {
  it('keys canonical fnrs in string order, a shorter prefix first', () => {
    const ordered = ['0a', '1', '1a', '10a', '100000a', '19z', '1a', '2', '9a', '999999z'].sort(byString);
    const keys = ordered.map(fnrKey);
    for (const k of keys) expect(Number.isSafeInteger(k)).toBe(true);
    for (let i = 1; i < keys.length; i++) expect(sign(keys[i]! - keys[i - 1]!), `${ordered[i - 1]} < ${ordered[i]}`).toBe(byString(ordered[i]!, ordered[i - 1]!));
    expect(fnrKey('1a')).toBeLessThan(fnrKey('1aa'));
    expect(fnrKey('10a')).toBeLessThan(fnrKey('1a'));
  });

  it('leaves what does not fit the key unkeyed: too long, non-ASCII, a NUL', () => {
    for (const odd of ['12345678', 'ä1', '1\u0000a', '1234567890abc']) expect(fnrKey(odd), odd).toBeNaN();
    expect(fnrKey('1234567')).not.toBeNaN();
  });

  it('reads every fnr back and compares rows as their strings compare, keyed and unkeyed mixed', () => {
    const r = rng(5);
    const letters = 'abdfghikmpstvwxyz';
    const fnrs: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const digits = String(1 + Math.floor(r() * 10 ** (1 + Math.floor(r() * 6))));
      const u = r();
      // Mostly canonical; some upper-case, spaced, long and non-ASCII ones, as a stray upstream value could be.
      fnrs.push(u < 0.9 ? digits + letters[Math.floor(r() * 17)]! : u < 0.93 ? `${digits}X` : u < 0.96 ? `${digits} a` : u < 0.98 ? `${digits}00000000a` : `${digits}ö`);
    }
    const column = new FnrColumn(4); // grows as rows are set
    fnrs.forEach((f, row) => column.set(row, f));
    // A row set again takes its new value, from keyed to unkeyed and back.
    column.set(7, '123456789b');
    fnrs[7] = '123456789b';
    column.set(8, '42h');
    fnrs[8] = '42h';
    fnrs.forEach((f, row) => expect(column.get(row)).toBe(f));
    for (let i = 0; i < 20_000; i++) {
      const a = Math.floor(r() * fnrs.length);
      const b = Math.floor(r() * fnrs.length);
      expect(sign(column.compare(a, b)), `${fnrs[a]} vs ${fnrs[b]}`).toBe(byString(fnrs[a]!, fnrs[b]!));
      expect(sign(column.compareTo(a, fnrs[b]!, fnrKey(fnrs[b]!))), `${fnrs[a]} vs ${fnrs[b]}`).toBe(byString(fnrs[a]!, fnrs[b]!));
    }
  });
});
