// Business-purpose text (Geschäftszweig) to the clauses the classifier reads: lower case, umlauts
// folded (ä -> ae, so either spelling matches), legal boilerplate and exceptions dropped, elided
// compounds restored ("Hoch- und Tiefbau" -> "hochbau und tiefbau"), abbreviations written out, then
// split into clauses at punctuation and conjunctions. Pure and deterministic.

export interface Token {
  /** Normalised form, the one lexicon terms match against. */
  norm: string;
  /** The word as the register wrote it (for evidence). */
  orig: string;
  /** Offset of `norm` in its clause's `text`. */
  at: number;
  /** The first part of an elided compound ("Hoch-" in "Hoch- und Tiefbau"): one thing with what follows. */
  elided?: boolean;
}

export interface Clause {
  /** Tokens joined by single spaces, with one space before and after (so anchors need no bounds checks). */
  text: string;
  tokens: Token[];
}

/** Sentences and clauses of legal boilerplate: permissions, branches, interests "with the same purpose". */
const BOILERPLATE: Array<[string[], RegExp]> = [
  [['berechtigt', 'befugt', 'ermaechtigt'], /[^.;]*\b(?:berechtigt|befugt|ermaechtigt)\b[^.;]*/g],
  [['die gesellschaft'], /\bdie gesellschaft (?:kann|darf)\b[^.;]*/g],
  [['zweck'], /[^.;,]*\b(?:gesellschaftszweck|unternehmenszweck)\w*\b[^.;]*/g],
  [['zusammenh'], /\b(?:sowie )?(?:alle|saemtliche|aller)\b[^.;,]{0,40}?\b(?:damit|hiermit|diesem|diesen)\b[^.;,]{0,40}?\bzusammenh\w*(?: stehenden)?(?: \w+)?/g],
  [['aehnlichem'], /\b(?:sowie )?(?:die )?beteiligung an (?:anderen )?unternehmen mit gleichem oder aehnlichem \w+/g],
  [['gegenstand', 'geschaeftszweig'], /\b(?:gegenstand des unternehmens|unternehmensgegenstand|geschaeftszweig) (?:ist|sind)\b/g],
  [['ausland'], /\bim (?:in|inland)- und ausland\b/g],
  [['im sinne'], /\bim sinne de[rs]\b[^.;,]*/g],
  [['gemaess'], /\bgemaess\b[^.;,]*/g],
  [['§'], /§+ ?[\d\w]+(?: abs\.? ?\d+)?(?: z\.? ?\d+)?/g],
  // Customers, not activities: "Vertrieb an den Fachhandel" sells to shops (wholesale), runs none.
  [[' an '], /\ban (?:den|die) (?:\w*handel|gastronomie|industrie|gewerbe)(?: und (?:den|die) (?:\w*handel|gastronomie|industrie|gewerbe))?\b|\ban (?:wiederverkaeufer|gewerbekunden|haendler)\w*/g],
];

/** An exception ("ausgenommen Bankgeschäfte", "mit Ausnahme der reglementierten ...") up to the end of its sentence. */
const EXCEPTION_KEYS = ['ausgenommen', 'ausser', 'ausnahme', 'exklusive', 'nicht jedoch'];
const EXCEPTION = /\b(?:ausgenommen|ausser|mit ausnahme|exklusive|nicht jedoch)\b[^.;]*/g;

/** Abbreviations (with or without the full stop) and the words they stand for. */
const ABBREVIATIONS: Record<string, string> = {
  hdl: 'handel', m: 'mit', u: 'und', v: 'von', bzw: 'beziehungsweise', insb: 'insbesondere', usw: 'und', etc: 'und',
  verw: 'verwaltung', verm: 'vermietung', immob: 'immobilien', untern: 'unternehmens', techn: 'technisches',
  dl: 'dienstleistungen', dienstl: 'dienstleistungen', rep: 'reparatur', inst: 'installation', gew: 'gewerbe',
  gh: 'grosshandel', eh: 'einzelhandel', erzg: 'erzeugung', dgl: 'dergleichen', ges: 'gesellschaft', sonst: 'sonstige', div: 'diverse', allg: 'allgemeine',
};

/** Word tails that an elided first part takes over ("Hoch-" + "...bau"), besides the lexicon's own terms. */
const COMMON_TAILS = [
  'bau', 'handel', 'waren', 'technik', 'verwaltung', 'vermietung', 'beratung', 'installation', 'arbeiten', 'dienstleistungen',
  'anlagen', 'reinigung', 'verarbeitung', 'erzeugung', 'herstellung', 'produkte', 'artikel', 'mittel', 'geraete', 'maschinen',
  'stoffe', 'bedarf', 'betrieb', 'gewerbe', 'wesen', 'planung', 'entwicklung', 'produktion', 'forschung', 'bildung', 'werk',
  'wirtschaft', 'transport', 'kauf', 'verkauf', 'export', 'leger', 'schmied', 'macher', 'schule', 'zentrum', 'wagen', 'obst',
  'ware', 'fahrzeuge', 'vertraege', 'installateur', 'tischlerei', 'schlosserei', 'spenglerei', 'service', 'versicherung',
];

const STEM_ENDINGS = ['en', 'er', 'es', 'n', 'e', 's'];

/** Lower case with umlauts and sharp s folded, other accents removed. */
export function fold(text: string): string {
  const folded = text.toLowerCase().replace(/[äöüß]/g, (c) => UMLAUTS[c]!);
  // Other accents (é, ç) are rare in register texts: decompose only when there are any.
  return /[\u0080-\uffff]/.test(folded) ? folded.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : folded;
}

const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

export function stem(word: string): string {
  for (const ending of STEM_ENDINGS) {
    if (word.length > ending.length + 3 && word.endsWith(ending)) return word.slice(0, -ending.length);
  }
  return word;
}

export class TextNormaliser {
  private readonly tails: Set<string>;
  /** Every word of the lexicon and the catalogue titles: a full stop after one ends a sentence. */
  private readonly known: Set<string>;
  /** Lexicon words an abbreviation may be completed to, longest first. */
  private readonly completions: string[];

  constructor(vocabulary: Iterable<string>) {
    this.tails = new Set(COMMON_TAILS);
    const words = new Set<string>();
    this.known = new Set();
    for (const w of vocabulary) {
      this.known.add(w);
      if (w.length >= 3) this.tails.add(stem(w));
      if (w.length >= 4) words.add(w);
    }
    for (const t of COMMON_TAILS) words.add(t);
    this.completions = [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  }

  /** The text's clauses, boilerplate removed. */
  clauses(text: string): Clause[] {
    let s = ` ${fold(text)} `;
    s = s.replace(/\s+/g, ' ');
    // "Im- und Export": the one elision whose tail is not a word of its own.
    s = s.replace(/\bim-\s*(?:,\s*)?(und|oder|&)\s+ex/g, 'import $1 ex');
    // Each pattern only where its key word occurs: the patterns scan back to the sentence start.
    for (const [keys, pattern] of BOILERPLATE) if (keys.some((k) => s.includes(k))) s = s.replace(pattern, ' ; ');
    if (EXCEPTION_KEYS.some((k) => s.includes(k))) s = s.replace(EXCEPTION, ' ; ');
    const words = this.words(s);
    // Evidence shows words as the register wrote them ("Baumeistergewerbe", not the folded form).
    const written = new Map<string, string>();
    for (const w of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
      const f = fold(w);
      if (!written.has(f)) written.set(f, w);
    }
    for (const w of words) if (w !== ';') w.orig = written.get(w.orig) ?? w.orig;
    return this.split(words);
  }

  /** Words and separators; elided first parts ("hoch-") completed from the next full word. */
  private words(s: string): Array<Token | ';'> {
    const out: Array<Token | ';'> = [];
    // A word (letters and digits, inner dots of numbers such as 3.500) with an optional elision hyphen
    // ("hoch- und") or full stop, or a separator. Other hyphens split ("kfz-werkstaette" -> two words).
    const re = /([a-z0-9]+(?:\.[0-9]+)*)(-(?=\s*(?:,|und\b|oder\b|bzw|sowie\b|&|\/))|\.(?![0-9]))?|[;:,()/&!?]/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(s)) !== null) {
      const word = m[1];
      if (word === undefined) {
        out.push(';');
        continue;
      }
      const suffix = m[2];
      const known = this.known.has(word);
      const expanded = !known ? ABBREVIATIONS[word] : undefined;
      if (suffix === '.') {
        // "Hdl." is an abbreviation, "Art." ends a sentence, "Gastgew." is a word cut short.
        if (expanded) out.push({ norm: expanded, orig: word, at: 0 });
        else if (known || /^[0-9]/.test(word)) out.push({ norm: word, orig: word, at: 0 }, ';');
        else out.push({ norm: this.complete(word), orig: word, at: 0 });
      } else if (suffix) {
        out.push({ norm: `${word}\u0001`, orig: word, at: 0 });
      } else {
        out.push({ norm: expanded ?? word, orig: word, at: 0 });
      }
    }
    this.completeElisions(out);
    return dropCompanyNames(out);
  }

  private completeElisions(out: Array<Token | ';'>): void {
    for (let i = 0; i < out.length; i++) {
      const t = out[i]!;
      if (t === ';' || !t.norm.endsWith('\u0001')) continue;
      const head = t.norm.slice(0, -1);
      let tail = '';
      for (let j = i + 1; j < Math.min(out.length, i + 12); j++) {
        const next = out[j]!;
        if (next === ';' || next.norm.endsWith('\u0001') || CONJUNCTIONS.has(next.norm)) continue;
        tail = this.tailOf(next.norm);
        break;
      }
      t.norm = head + tail;
      t.elided = true;
    }
  }

  /** The longest proper suffix of a compound that is a known word ("heizungsinstallationen" -> "installationen"). */
  private tailOf(word: string): string {
    for (let i = 2; i <= word.length - 3; i++) {
      const suffix = word.slice(i);
      if (this.tails.has(suffix) || this.tails.has(stem(suffix))) return suffix;
    }
    return '';
  }

  private readonly completed = new Map<string, string>();

  /** An abbreviation completed to a lexicon word it cuts short ("gastgew" -> "gastgewerbe", "transp" -> "transport"). */
  private complete(word: string): string {
    let full = this.completed.get(word);
    if (full === undefined) {
      full = this.completeUncached(word);
      if (this.completed.size >= 10_000) this.completed.clear();
      this.completed.set(word, full);
    }
    return full;
  }

  private completeUncached(word: string): string {
    for (const [abbr, full] of Object.entries(ABBREVIATIONS)) {
      if (abbr.length >= 2 && word.endsWith(abbr) && word.length > abbr.length + 2) return word.slice(0, -abbr.length) + full;
    }
    for (let cut = 0; cut <= word.length - 4 || cut === 0; cut++) {
      const part = word.slice(cut);
      if (part.length < 3) break;
      const full = this.completions.find((c) => c.length > part.length && c.startsWith(part));
      if (full) return word.slice(0, cut) + full;
    }
    return word;
  }

  private split(words: Array<Token | ';'>): Clause[] {
    const clauses: Clause[] = [];
    let current: Token[] = [];
    const flush = () => {
      if (current.length === 0) return;
      let text = ' ';
      for (const t of current) {
        t.at = text.length;
        text += `${t.norm} `;
      }
      clauses.push({ text, tokens: current });
      current = [];
    };
    let joined = false;
    for (const w of words) {
      const separator = w === ';' || CONJUNCTIONS.has(w.norm);
      // "Land- und forstwirtschaftliche Maschinen" names one thing: no clause ends after "Land-".
      if (separator && !joined) flush();
      if (!separator) current.push(w);
      joined = separator ? joined : Boolean(w.elided);
    }
    flush();
    return clauses;
  }
}

/** Words that join activities: a clause ends before them. */
export const CONJUNCTIONS = new Set(['und', 'sowie', 'oder', 'beziehungsweise', 'insbesondere', 'inkl', 'inklusive', 'einschliesslich', 'samt', 'bzw']);

/** Legal forms that end a company name ("der Alpen Bau GmbH & Co KG"). */
const LEGAL_FORMS = new Set(['gmbh', 'gesmbh', 'kg', 'og', 'ag', 'co', 'kommanditgesellschaft', 'se', 'eu', 'egen', 'kgaa']);
/** Words before a company name: a name runs from after one of them to its legal form. */
const NAME_START = new Set(['der', 'die', 'des', 'dem', 'den', 'bei', 'von', 'fuer', 'mit', 'an', 'als', 'einer', 'eines']);

/** Names of other companies say nothing about this one's business ("Geschäftsführung der Alpen Bau GmbH"). */
function dropCompanyNames(words: Array<Token | ';'>): Array<Token | ';'> {
  const drop = new Set<number>();
  words.forEach((w, i) => {
    if (w === ';' || !LEGAL_FORMS.has(w.norm)) return;
    drop.add(i);
    for (let j = i - 1; j >= 0 && j >= i - 5; j--) {
      const prev = words[j]!;
      if (prev === ';') continue;
      if (NAME_START.has(prev.norm) || LEGAL_FORMS.has(prev.norm)) break;
      drop.add(j);
    }
  });
  return drop.size === 0 ? words : words.filter((_, i) => !drop.has(i));
}
