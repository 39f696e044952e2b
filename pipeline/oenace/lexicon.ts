// The curated lexicon (pipeline/oenace/lexicon/*.csv, described in its README) compiled for matching:
// modes (what a company does with a thing: make, trade, rent, ...), domains (the things, each with
// the ÖNACE code per mode) and activities (phrases that name an activity on their own). Every code is
// checked against the ÖNACE 2008 catalogue; a class with one subclass may be written as the class.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { CONJUNCTIONS, fold } from './text.js';

export const LEXICON_DIR = fileURLToPath(new URL('./lexicon/', import.meta.url));
const CATALOGUE_FILE = fileURLToPath(new URL('../catalogues/data/oenace2008_bilingual.csv', import.meta.url));

/** One alternative of a term: a substring, optionally anchored at a word start (^) or end ($). */
export interface Alternative {
  text: string;
  start: boolean;
  end: boolean;
  /** Phrase id in the classifier's scanner (set when the classifier is built). */
  id: number;
}

/** A term matches when any of its alternatives occurs in the clause. */
export type Term = Alternative[];

export interface Pattern {
  /** All must match. */
  all: Term[];
  /** None may match. */
  none: Term[];
}

export const MODES = [
  'make', 'trade', 'retail', 'online', 'agency', 'sell', 'repair', 'rent', 'manage', 'broker', 'acquire', 'develop',
  'build', 'install', 'operate', 'transport', 'advise', 'clean', 'teach', 'publish',
] as const;
export type Mode = (typeof MODES)[number];

/** Modes of one family give one code per domain: "Einzelhandel" is trade and retail, and retail wins. */
export const FAMILY: Record<Mode, string> = {
  make: 'make', trade: 'trade', retail: 'trade', online: 'trade', agency: 'trade', sell: 'trade', repair: 'repair', rent: 'rent',
  manage: 'manage', broker: 'broker', acquire: 'acquire', develop: 'develop', build: 'build', install: 'install',
  operate: 'operate', transport: 'transport', advise: 'advise', clean: 'clean', teach: 'teach', publish: 'publish',
};

/** Within a family, the more specific mode first. */
export const PRECEDENCE: Mode[] = ['online', 'retail', 'sell', 'agency', 'trade'];

export interface ModeDef {
  mode: Mode;
  term: Term;
}

export interface DomainKey {
  /** Modes that must all be present; empty for `default` (used when no mode is present). */
  modes: Mode[];
  code: string;
  weight: number;
}

export interface DomainDef {
  name: string;
  term: Term;
  exclude: Term[];
  keys: DomainKey[];
  /** Several families may each give a code ("Herstellung und Vertrieb"); otherwise the first key that fits wins. */
  multi: boolean;
  /** Goods sold mainly in shops: the compound "Xhandel" names the retail trade ("Buchhandel"). */
  shop: boolean;
}

export interface ActivityDef {
  code: string;
  pattern: Pattern;
  weight: number;
}

export interface CatalogueClass {
  code: string;
  level: number;
  titleDe: string;
  shortTitleDe: string;
}

export interface Lexicon {
  modes: ModeDef[];
  domains: DomainDef[];
  activities: ActivityDef[];
  /** The code a mode gives when nothing else in the text explains it ("Handel" alone). */
  generic: Array<{ mode: Mode; code: string; weight: number }>;
  /** Level-5 subclasses by code. */
  subclasses: Map<string, CatalogueClass>;
  /** Every word the lexicon and the catalogue titles use (for abbreviations and elisions). */
  vocabulary: Set<string>;
}

type Row = Record<string, string>;

function readCsv(path: string): Row[] {
  return parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true, comment: '#', trim: true }) as Row[];
}

export class LexiconError extends Error {}

export function compileTerm(source: string): Term {
  return source.split('|').map((raw) => {
    // Clause text has no hyphens (they split words) and spaces for underscores.
    const a = fold(raw.trim()).replace(/[_-]/g, ' ');
    const start = a.startsWith('^');
    const end = a.endsWith('$');
    const text = a.slice(start ? 1 : 0, end ? -1 : undefined);
    if (!text) throw new LexiconError(`empty alternative in "${source}"`);
    // Clauses end at conjunctions, so a term spanning one could never match.
    if (text.split(' ').some((w) => CONJUNCTIONS.has(w))) throw new LexiconError(`"${raw}" spans a conjunction`);
    return { text, start, end, id: -1 };
  });
}

export function compilePattern(source: string): Pattern {
  const all: Term[] = [];
  const none: Term[] = [];
  for (const group of source.trim().split(/\s+/)) {
    if (group.startsWith('!')) none.push(compileTerm(group.slice(1)));
    else all.push(compileTerm(group));
  }
  if (all.length === 0) throw new LexiconError(`pattern "${source}" requires nothing`);
  return { all, none };
}

function loadCatalogue(): Map<string, CatalogueClass> {
  const classes = new Map<string, CatalogueClass>();
  for (const r of readCsv(CATALOGUE_FILE)) {
    classes.set(r.code!, { code: r.code!, level: Number(r.level), titleDe: r.title_de!, shortTitleDe: r.short_title_de ?? '' });
  }
  return classes;
}

/** A lexicon code as a level-5 subclass: the subclass itself, or the class when it has exactly one. */
function subclassOf(code: string, catalogue: Map<string, CatalogueClass>, where: string): string {
  const known = catalogue.get(code);
  if (known?.level === 5) return code;
  if (known?.level === 4) {
    const children = ['0', '1', '2', '3', '4', '5', '9'].map((d) => catalogue.get(`${code}-${d}`)).filter((c) => c !== undefined);
    if (children.length === 1) return children[0]!.code;
    throw new LexiconError(`${where}: ${code} has ${children.length} subclasses, name one`);
  }
  throw new LexiconError(`${where}: ${code} is not an ÖNACE 2008 class or subclass`);
}

function weightOf(raw: string | undefined, where: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const w = Number(raw);
  if (!(w > 0 && w <= 1)) throw new LexiconError(`${where}: weight ${raw} is not in (0, 1]`);
  return w;
}

function parseKeys(source: string, weight: number, catalogue: Map<string, CatalogueClass>, where: string): DomainKey[] {
  return source.split(';').map((entry) => {
    const [lhs, rhs] = entry.split('=').map((s) => s.trim());
    if (!lhs || !rhs) throw new LexiconError(`${where}: bad key "${entry}"`);
    const [code, w] = rhs.split('@');
    const modes = lhs === 'default' ? [] : lhs.split('+').map((m) => {
      if (!(MODES as readonly string[]).includes(m)) throw new LexiconError(`${where}: unknown mode ${m}`);
      return m as Mode;
    });
    return { modes, code: subclassOf(code!.trim(), catalogue, where), weight: weightOf(w, where, weight) };
  });
}

function termWords(term: Term, into: Set<string>): void {
  for (const a of term) for (const w of a.text.split(' ')) if (w) into.add(w);
}

export function loadLexicon(dir = LEXICON_DIR): Lexicon {
  const subclasses = new Map<string, CatalogueClass>();
  const catalogue = loadCatalogue();
  for (const c of catalogue.values()) if (c.level === 5) subclasses.set(c.code, c);
  const vocabulary = new Set<string>();

  const generic: Lexicon['generic'] = [];
  const modes = readCsv(`${dir}modes.csv`).map((r, i) => {
    const where = `modes.csv row ${i + 2}`;
    const mode = r.mode as Mode;
    if (!(MODES as readonly string[]).includes(mode)) throw new LexiconError(`${where}: unknown mode ${mode}`);
    const term = compileTerm(r.terms!);
    termWords(term, vocabulary);
    if (r.generic && !generic.some((g) => g.mode === mode)) {
      const [code, w] = r.generic.split('@');
      generic.push({ mode, code: subclassOf(code!.trim(), catalogue, where), weight: weightOf(w, where, 0.5) });
    }
    return { mode, term };
  });

  const domains = readCsv(`${dir}domains.csv`).map((r, i) => {
    const where = `domains.csv row ${i + 2} (${r.domain})`;
    const term = compileTerm(r.terms!);
    termWords(term, vocabulary);
    return {
      name: r.domain!,
      term,
      exclude: r.exclude ? r.exclude.split(/\s+/).map(compileTerm) : [],
      keys: parseKeys(r.codes!, weightOf(r.weight, where, 0.9), catalogue, where),
      multi: r.multi === 'yes',
      shop: r.shop === 'yes',
    };
  });

  const activities = readCsv(`${dir}activities.csv`).map((r, i) => {
    const where = `activities.csv row ${i + 2}`;
    const pattern = compilePattern(r.pattern!);
    for (const t of pattern.all) termWords(t, vocabulary);
    return { code: subclassOf(r.code!, catalogue, where), pattern, weight: weightOf(r.weight, where, 0.9) };
  });

  for (const c of catalogue.values()) {
    for (const w of fold(c.titleDe).split(/[^a-z]+/)) if (w.length >= 3) vocabulary.add(w);
  }
  return { modes, domains, activities, generic, subclasses, vocabulary };
}
