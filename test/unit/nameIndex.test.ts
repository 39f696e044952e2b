// The name index against a brute-force reading of the two bands it stands in for (nameSearch.ts):
// exact = core equal, ordered (active first, name, fnr); prefix = name starting with the core, ordered
// (name, fnr); on random names with duplicates, across renames, flag changes and new rows.
import { describe, expect, it } from 'vitest';
import { NameIndex, trigramSimilarity } from '../../indexer/search/columnar/nameIndex.js';

interface Entry {
  fnr: string;
  name: string;
  core: string;
  active: boolean;
  formers?: string[];
}

const byBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function bruteForce(entries: Entry[], core: string, limit: number, prefixLimit: number, cap: number) {
  const exact = entries
    .map((e, row) => ({ e, row }))
    .filter(({ e }) => e.core === core)
    .sort((a, b) => Number(b.e.active) - Number(a.e.active) || byBytes(a.e.name, b.e.name) || byBytes(a.e.fnr, b.e.fnr))
    .slice(0, limit)
    .map(({ row }) => row);
  const prefixAll = entries
    .map((e, row) => ({ e, row }))
    .filter(({ e }) => e.name.startsWith(core))
    .sort((a, b) => byBytes(a.e.name, b.e.name) || byBytes(a.e.fnr, b.e.fnr));
  return { exact, prefix: prefixAll.slice(0, prefixLimit).map(({ row }) => row), total: Math.min(cap, prefixAll.length) };
}

/** The autocomplete total as countNameCandidates' statement defines it: name LIKE 'core%', name LIKE '% core%' (3+ characters), a former name LIKE 'core%' or '% core%'. */
function bruteForceCount(entries: Entry[], core: string, cap: number): number {
  const n = entries.filter(
    (e) => e.name.startsWith(core) || (core.length >= 3 && e.name.includes(` ${core}`)) || (e.formers ?? []).some((f) => f.startsWith(core) || f.includes(` ${core}`)),
  ).length;
  return Math.min(cap, n);
}

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['a', 'ab', 'bau', 'baeckerei', 'bau holz', 'mueller', 'mueller bau', 'muell', 'holz', 'z', 'zz', 'x1', '12'];
const SUFFIXES = ['', ' gmbh', ' ag', ' kg', ' gmbh co kg'];

function randomEntry(r: () => number, fnr: string): Entry {
  const words = 1 + Math.floor(r() * 3);
  const core = Array.from({ length: words }, () => WORDS[Math.floor(r() * WORDS.length)]!).join(' ');
  const suffix = SUFFIXES[Math.floor(r() * SUFFIXES.length)]!;
  const formers = r() < 0.2 ? Array.from({ length: 1 + Math.floor(r() * 2) }, () => WORDS[Math.floor(r() * WORDS.length)]! + SUFFIXES[Math.floor(r() * SUFFIXES.length)]!) : [];
  return { fnr, name: core + suffix, core, active: r() < 0.7, formers };
}

function check(index: NameIndex, entries: Entry[], r: () => number) {
  const terms = new Set<string>(['a', 'b', 'bau', 'bau h', 'mueller bau', 'z', 'zz', '1', 'x', 'q', 'muell', 'mueller bau g', '']);
  for (const e of entries.slice(0, 40)) {
    terms.add(e.core);
    terms.add(e.name.slice(0, 1 + Math.floor(r() * e.name.length)));
  }
  for (const term of terms) {
    const limit = 1 + Math.floor(r() * 12);
    const cap = 1 + Math.floor(r() * 60);
    const got = index.exactAndPrefix(term, limit, limit * 2, cap);
    if (term === '') {
      expect(got).toBeNull();
      continue;
    }
    const want = bruteForce(entries, term, limit, limit * 2, cap);
    expect(got, term).not.toBeNull();
    expect(got!.hits.filter((h) => h.band === 'exact').map((h) => h.row), `exact ${term}`).toEqual(want.exact);
    expect(got!.hits.filter((h) => h.band === 'prefix').map((h) => h.row), `prefix ${term}`).toEqual(want.prefix);
    expect(got!.prefixTotal, `total ${term}`).toBe(want.total);
    for (const h of got!.hits) expect(h.score).toBe(h.band === 'exact' ? 1 : trigramSimilarity(entries[h.row]!.name, term));
    expect(index.candidateCount(term, cap, 3), `count ${term}`).toBe(bruteForceCount(entries, term, cap));
  }
}

/** The tie-breaker the screener columns give the index: two rows in fnr order. */
const byFnr = (fnrs: string[]) => (a: number, b: number) => (fnrs[a]! < fnrs[b]! ? -1 : fnrs[a]! > fnrs[b]! ? 1 : 0);

describe('NameIndex', () => {
  it('answers the exact and prefix bands as the read model orders them, across renames, flag changes and new rows', () => {
    const r = random(42);
    const fnrs: string[] = [];
    const entries: Entry[] = [];
    const index = new NameIndex(byFnr(fnrs));
    const put = (row: number, e: Entry) => {
      entries[row] = e;
      fnrs[row] = e.fnr;
      index.set(row, e.name, e.core, e.active, (e.formers ?? []).join('|'));
    };
    // Fnrs not in row order, so the tie-breaker is not the row number.
    for (let row = 0; row < 2000; row++) put(row, randomEntry(r, `${(row * 7919) % 2000}x`));
    check(index, entries, r);
    // A few changes: merged into the orders one by one.
    for (let step = 0; step < 5; step++) {
      for (let k = 0; k < 20; k++) {
        const row = Math.floor(r() * entries.length);
        const e = entries[row]!;
        if (r() < 0.5) put(row, { ...e, active: !e.active });
        else put(row, { ...randomEntry(r, e.fnr) });
      }
      for (let k = 0; k < 5; k++) put(entries.length, randomEntry(r, `${entries.length}n`));
      expect(index.pending).toBeGreaterThan(0);
      check(index, entries, r);
      expect(index.pending).toBe(0);
    }
    // Many changes at once: sorted anew.
    for (let row = 0; row < entries.length; row += 3) put(row, randomEntry(r, entries[row]!.fnr));
    check(index, entries, r);
  });

  it('sorts a load in slices, pausing between them, into the same orders', async () => {
    const r = random(99);
    const fnrs: string[] = [];
    const entries: Entry[] = [];
    const index = new NameIndex(byFnr(fnrs));
    // More rows than one slice (16k), and an odd count, so runs of every width are merged.
    for (let row = 0; row < 40_001; row++) {
      entries[row] = randomEntry(r, `${(row * 104729) % 40_001}f`);
      fnrs[row] = entries[row]!.fnr;
      index.set(row, entries[row]!.name, entries[row]!.core, entries[row]!.active, (entries[row]!.formers ?? []).join('|'));
    }
    let pauses = 0;
    await index.flushInSlices(async () => {
      pauses++;
      // Keys changing while the sort pauses: the orders are sorted again, not left half right.
      if (pauses === 3 || pauses === 9) {
        const row = pauses * 1000;
        entries[row] = { ...entries[row]!, name: `aa umbenannt ${pauses}`, core: `aa umbenannt ${pauses}`, formers: ['dh x'] };
        index.set(row, entries[row]!.name, entries[row]!.core, entries[row]!.active, 'dh x');
      }
    });
    expect(index.pending).toBe(0);
    expect(pauses).toBeGreaterThan(6);
    check(index, entries, r);
    for (const term of ['aa', 'dh', 'd', 'umbenannt']) expect(index.candidateCount(term, 100_000, 3), term).toBe(bruteForceCount(entries, term, 100_000));
  });

  it('counts word starts of names and former names longer than the word orders take', () => {
    const r = random(21);
    const fnrs: string[] = [];
    const entries: Entry[] = [];
    const index = new NameIndex(byFnr(fnrs));
    for (let row = 0; row < 300; row++) {
      const e = randomEntry(r, `${row}l`);
      // Every tenth row past 1024 bytes, through its name or its former names.
      if (row % 10 === 0) e.formers = [...(e.formers ?? []), `${'lang '.repeat(210)}bau holz`];
      if (row % 10 === 5) e.name = e.core = `${'weit '.repeat(210)}mueller bau`;
      // Past 256 bytes but within the word codes: word starts at offsets over 255.
      if (row % 10 === 7) e.formers = [...(e.formers ?? []), `${'mittel '.repeat(80)}holz bau`];
      entries[row] = e;
      fnrs[row] = e.fnr;
      index.set(row, e.name, e.core, e.active, (e.formers ?? []).join('|'));
    }
    check(index, entries, r);
    for (const term of ['bau holz', 'bau h', 'mueller bau', 'lang', 'weit weit', 'ba', 'holz bau', 'mittel', 'mittel holz']) {
      expect(index.candidateCount(term, 1000, 3), term).toBe(bruteForceCount(entries, term, 1000));
    }
  });

  it('keeps answering after the name bytes are compacted', () => {
    const fnrs: string[] = [];
    const index = new NameIndex(byFnr(fnrs));
    const entries: Entry[] = [];
    for (let row = 0; row < 50; row++) {
      fnrs[row] = `${row}a`;
      entries[row] = { fnr: fnrs[row]!, name: `firma ${row}`, core: `firma ${row}`, active: true };
      index.set(row, entries[row]!.name, entries[row]!.core, true, '');
    }
    // Renames far beyond the first buffer: old bytes become garbage and are compacted away, with the
    // orders built in between (merges after a compaction) and queries staging their bytes meanwhile.
    const r = random(7);
    for (let round = 0; round < 400; round++) {
      const row = round % 50;
      const name = `umbenannt ${round} ${'x'.repeat(200)}`;
      entries[row] = { ...entries[row]!, name, core: name };
      index.set(row, name, name, true, '');
      if (round % 37 === 0) check(index, entries, r);
    }
    check(index, entries, r);
    expect(index.nameNormOf(49)).toBe(entries[49]!.name);
  });

  it('declines while a name is not ASCII, and for a term that is not', () => {
    const index = new NameIndex(byFnr(['1a', '2b']));
    index.set(0, 'mueller', 'mueller', true);
    expect(index.exactAndPrefix('m', 5, 10, 200)).not.toBeNull();
    expect(index.exactAndPrefix('mü', 5, 10, 200)).toBeNull();
    index.set(1, 'müller', 'müller', true);
    expect(index.usable).toBe(false);
    expect(index.candidateCount('m', 200, 3)).toBeNull();
    expect(index.exactAndPrefix('m', 5, 10, 200)).toBeNull();
    index.set(1, 'mueller x', 'mueller x', true);
    expect(index.usable).toBe(true);
    // A non-ASCII name replaced by one whose bytes equal what was stored for it (none).
    index.set(1, 'ä', 'ä', true);
    index.set(1, '', '', true);
    expect(index.usable).toBe(true);
    index.set(1, 'mueller x', 'mueller x', true);
    // Former names not given: no totals from here.
    expect(index.candidateCount('m', 200, 3)).toBeNull();
    index.set(0, 'mueller', 'mueller', true, '');
    index.set(1, 'mueller x', 'mueller x', true, 'alt x');
    expect(index.candidateCount('x', 200, 3)).toBe(1);
    expect(index.exactAndPrefix('mueller', 5, 10, 200)!.hits.map((h) => [h.row, h.band])).toEqual([[0, 'exact'], [0, 'prefix'], [1, 'prefix']]);
  });
});

/** pg_trgm's definition, spelt out: words padded '  w ', trigrams as a set, shared over all. */
function referenceSimilarity(a: string, b: string): number {
  const trigrams = (text: string) => {
    const set = new Set<string>();
    for (const word of text.split(' ').filter((w) => w !== '')) for (let i = 0; i + 3 <= word.length + 3; i++) set.add(`  ${word} `.slice(i, i + 3));
    return set;
  };
  const ta = trigrams(a);
  const tb = trigrams(b);
  if (ta.size === 0 || tb.size === 0) return 0;
  const shared = [...ta].filter((t) => tb.has(t)).length;
  return Math.fround(shared / (ta.size + tb.size - shared));
}

describe('trigramSimilarity', () => {
  it('agrees with the set definition on random texts', () => {
    const r = random(5);
    const alphabet = 'aab b0 z9  ';
    const text = () => Array.from({ length: Math.floor(r() * 14) }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    for (let i = 0; i < 2000; i++) {
      const a = text();
      const b = text();
      expect(trigramSimilarity(a, b), `${a}|${b}`).toBe(referenceSimilarity(a, b));
    }
  });

  it('counts pg_trgm trigrams: words padded, duplicates once, float4 division', () => {
    // "ab": {"  a"," ab","ab "} ; "abc": {"  a"," ab","abc","bc "}: 2 shared of 5.
    expect(trigramSimilarity('ab', 'abc')).toBe(Math.fround(2 / 5));
    expect(trigramSimilarity('mueller bau', 'mueller bau')).toBe(1);
    expect(trigramSimilarity('aaaa', 'aa')).toBe(Math.fround(3 / 4));
    expect(trigramSimilarity('', 'x')).toBe(0);
  });
});
