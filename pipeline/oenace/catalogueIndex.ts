// Fallback for clauses the lexicon does not know: the ÖNACE subclass whose catalogue title shares the
// rarest words with the clause (word stems, found inside compounds: "metallwarenfabrik" holds
// "metallwaren"). Scores are idf sums, so generic title words ("herstellung", "sonstige") count little.
import type { CatalogueClass } from './lexicon.js';
import { fold, stem } from './text.js';

/** Title words that say nothing about the activity. */
const STOPWORDS = new Set([
  'von', 'und', 'mit', 'fuer', 'ohne', 'aus', 'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'sowie', 'oder', 'nicht',
  'anderweitig', 'genannt', 'sonstige', 'sonstigen', 'sonstiger', 'sonst', 'a.n.g', 'ang', 'anderen', 'andere', 'arten',
  'aehnliche', 'aehnlichen', 'verbundene', 'verbundenen', 'taetigkeiten', 'erbringung', 'dienstleistungen', 'betrieb',
]);

export interface CatalogueMatch {
  code: string;
  score: number;
  words: string[];
}

export class CatalogueIndex {
  /** Stem -> subclasses whose title holds it. */
  private readonly byStem = new Map<string, string[]>();
  private readonly idf = new Map<string, number>();
  private readonly maxStem: number;

  constructor(subclasses: Iterable<CatalogueClass>) {
    const all = [...subclasses];
    for (const c of all) {
      const stems = new Set<string>();
      for (const w of fold(`${c.titleDe} ${c.shortTitleDe}`).split(/[^a-z]+/)) {
        if (w.length >= 5 && !STOPWORDS.has(w)) stems.add(stem(w));
      }
      for (const s of stems) {
        const list = this.byStem.get(s);
        if (list) list.push(c.code);
        else this.byStem.set(s, [c.code]);
      }
    }
    for (const [s, codes] of this.byStem) this.idf.set(s, Math.log(all.length / codes.length));
    this.maxStem = Math.max(...[...this.byStem.keys()].map((s) => s.length));
  }

  /** The best subclass for the words, or null when no title word occurs in them. */
  best(words: string[]): CatalogueMatch | null {
    const scores = new Map<string, { score: number; words: Set<string> }>();
    for (const word of words) {
      if (word.length < 4) continue;
      // Every stem found inside the word counts once for the word; longer stems first.
      const found = new Set<string>();
      for (let i = 0; i < word.length; i++) {
        for (let j = Math.min(word.length, i + this.maxStem); j >= i + 4; j--) {
          const s = word.slice(i, j);
          if (this.byStem.has(s)) found.add(s);
        }
      }
      for (const s of found) {
        for (const code of this.byStem.get(s)!) {
          const entry = scores.get(code) ?? { score: 0, words: new Set<string>() };
          entry.score += this.idf.get(s)!;
          entry.words.add(word);
          scores.set(code, entry);
        }
      }
    }
    let best: CatalogueMatch | null = null;
    for (const [code, { score, words: ws }] of scores) {
      if (!best || score > best.score || (score === best.score && code < best.code)) best = { code, score, words: [...ws] };
    }
    return best;
  }
}
