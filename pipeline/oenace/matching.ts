// Finding lexicon terms in a scanned clause, and the fuzzy fallback for misspelt words. A term is a
// substring (German compounds: "baustoffhandel" holds "baustoff" and "handel"), optionally anchored at
// a word start or end; the clause text starts and ends with a space, so anchors need no bounds checks.
import type { Alternative, Pattern, Term } from './lexicon.js';
import type { Scan } from './scanner.js';

export interface Hit {
  at: number;
  len: number;
}

function findAlternative(scan: Scan, a: Alternative): Hit | null {
  const starts = scan.positions.get(a.id);
  if (!starts) return null;
  const text = scan.text;
  for (const at of starts) {
    if ((!a.start || text.charCodeAt(at - 1) === 32) && (!a.end || text.charCodeAt(at + a.text.length) === 32)) {
      return { at, len: a.text.length };
    }
  }
  return null;
}

/** The longest alternative that occurs (earliest among equals). */
export function findTerm(scan: Scan, term: Term): Hit | null {
  let best: Hit | null = null;
  for (const a of term) {
    const hit = findAlternative(scan, a);
    if (hit && (!best || hit.len > best.len || (hit.len === best.len && hit.at < best.at))) best = hit;
  }
  return best;
}

/** The hits of every required term, or null when one is missing or an excluded term occurs. */
export function matchPattern(scan: Scan, pattern: Pattern): Hit[] | null {
  for (const t of pattern.none) if (findTerm(scan, t)) return null;
  const hits: Hit[] = [];
  for (const t of pattern.all) {
    const hit = findTerm(scan, t);
    if (!hit) return null;
    hits.push(hit);
  }
  return hits;
}

const rows = [new Int32Array(64), new Int32Array(64)];

/** Levenshtein distance, or limit + 1 as soon as it exceeds limit. */
export function boundedDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (b.length + 1 > rows[0]!.length) {
    rows[0] = new Int32Array(b.length + 1);
    rows[1] = new Int32Array(b.length + 1);
  }
  let prev = rows[0]!;
  let cur = rows[1]!;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/**
 * Corrects misspelt words against the lexicon's words: a word holding a lexicon word with one typo
 * (two from 10 letters) gets that part replaced ("unternehmensbertung" -> "unternehmensberatung").
 * Candidates are found through shared letter pairs, so only a handful are compared in full.
 */
export class Speller {
  private readonly words: string[];
  private readonly byTrigram = new Map<string, number[]>();

  constructor(vocabulary: Iterable<string>) {
    // Words of six letters and more: shorter ones have too many neighbours one typo away.
    this.words = [...new Set([...vocabulary].filter((w) => w.length >= 6 && /^[a-z]+$/.test(w)))].sort();
    this.words.forEach((w, id) => {
      for (const tg of new Set(trigrams(w))) {
        const list = this.byTrigram.get(tg);
        if (list) list.push(id);
        else this.byTrigram.set(tg, [id]);
      }
    });
  }

  /**
   * Whether the rest of the word around a corrected part is an ending or a known word: "immobilin" in
   * "immobilinverwaltung" may be corrected, "internat" in "internationale" may not become "internet".
   */
  private restIsWord(word: string, start: number, len: number): boolean {
    const parts = [word.slice(0, start), word.slice(start + len)];
    return parts.every((p) => p.length <= 3 || this.words.some((w) => w.length >= 4 && p.includes(w)));
  }

  /** Corrections already worked out (register texts repeat their words), bounded. */
  private readonly cache = new Map<string, string | null>();

  /** The word with its best correction applied, or null when none is close enough. */
  correct(word: string): string | null {
    const cached = this.cache.get(word);
    if (cached !== undefined) return cached;
    const result = this.work(word);
    if (this.cache.size >= 50_000) this.cache.clear();
    this.cache.set(word, result);
    return result;
  }

  private work(word: string): string | null {
    if (word.length < 6 || /[0-9]/.test(word)) return null;
    const shared = new Map<number, number>();
    let known = 0;
    for (const tg of new Set(trigrams(word))) for (const id of this.byTrigram.get(tg) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    let best: { word: string; distance: number; start: number; len: number } | null = null;
    for (const [id, count] of shared) {
      const w = this.words[id]!;
      const limit = w.length >= 10 ? 2 : 1;
      // A word of n letters has n - 2 letter triples; each edit breaks at most three of them.
      if (count < Math.max(1, w.length - 2 - 3 * limit) || w.length > word.length + limit) continue;
      if (word.includes(w)) {
        known = Math.max(known, w.length); // this part is spelt right
        continue;
      }
      for (let len = Math.max(3, w.length - limit); len <= Math.min(word.length, w.length + limit); len++) {
        for (let start = 0; start + len <= word.length; start++) {
          const d = boundedDistance(w, word.slice(start, start + len), limit);
          if (d <= limit && this.restIsWord(word, start, len) && (!best || d < best.distance || (d === best.distance && w.length > best.word.length))) {
            best = { word: w, distance: d, start, len };
          }
        }
      }
    }
    // A word mostly made of a known word ("handel") is spelt right, whatever its neighbours ("handy").
    if (!best || known >= 0.6 * word.length) return null;
    return word.slice(0, best.start) + best.word + word.slice(best.start + best.len);
  }
}

function trigrams(w: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 2 < w.length; i++) out.push(w.slice(i, i + 3));
  return out;
}
