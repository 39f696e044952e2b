// Name lookup over the read model: autocomplete (GET /businesses/names) and batch resolution
// (POST /businesses/resolve-names). Ranking: exact > prefix > word prefix > former name > fuzzy,
// active before deleted. Umlaut spellings are folded by search_norm (ä = ae) and legal-form suffixes
// ("GmbH", "Ges.m.b.H.", "AG" ...) are stripped from both sides before comparing the core name.
//
// Every band is a btree or word-index lookup, never a trigram similarity scan (far too slow per name
// over the whole register; docs/search.md): the read model stores the core (core_norm =
// search_core(name_norm), migration 0011, equal to coreName() below), so
//   exact  = core_norm = core, read in answer order from the core index;
//   prefix = name_norm range scan ordered `USING ~<~` (the text_pattern_ops btree, sub-millisecond);
//   word / former = a GIN over the words of the names (exact words + the last word as a prefix), with
//            the LIKE as recheck;
//   fuzzy  = one edit (typo, dropped umlaut, missing space) leaves a third of the core intact at each
//            side: candidates share the first two thirds, the last two thirds (reverse(core_norm)
//            btree), or the first and the last third, within two characters of the length; plus the
//            cores the query would have with a misspelt or glued legal form ("gmh", "baugmbh").
//            Ranked by trigram similarity of the cores or the whole names.
// Batches (resolve-names) run each band as one statement for all names that still need it.
import type postgres from 'postgres';
import type { Sql } from '../../runtime/db.js';
import { fnrMatches, fnrTerm } from './fnrSearch.js';
import { normaliseForSearch } from './postgresScreenerQuery.js';

/**
 * Legal-form suffixes as they look after normalisation, longest first. search_core() in
 * schemas/sql/0011_search_core_name.sql holds the same list: change both.
 */
const LEGAL_FORM_SUFFIXES = [
  'gesellschaft mit beschraenkter haftung', 'gesellschaft m b h', 'gesellschaft mbh', 'ges m b h', 'gesmbh', 'ges mbh', 'g m b h',
  'gmbh', 'gmbh co kg', 'gmbh co', 'aktiengesellschaft', 'kommanditgesellschaft', 'offene gesellschaft', 'ag', 'kg', 'og', 'oeg',
  'keg', 'ohg', 'e u', 'eu', 'egen', 'reg gen m b h', 'privatstiftung', 'se', 'vvag',
].sort((a, b) => b.length - a.length);

/** The normalised name without a trailing legal-form suffix ("mueller bau gmbh" -> "mueller bau"). */
export function coreName(normalised: string): string {
  let core = normalised;
  for (let changed = true; changed; ) {
    changed = false;
    for (const suffix of LEGAL_FORM_SUFFIXES) {
      if (core.endsWith(` ${suffix}`)) {
        core = core.slice(0, -suffix.length - 1).trim();
        changed = true;
        break;
      }
    }
  }
  return core;
}

/**
 * `fnr` / `fnrPrefix`: the term is the company's number or its start (fnrSearch.ts, autocomplete only);
 * `formerExact`: a former name's core equals the term's (resolve-names only).
 */
export type MatchBand = 'fnr' | 'exact' | 'formerExact' | 'prefix' | 'fnrPrefix' | 'word' | 'former' | 'fuzzy';
const BAND_RANK: Record<MatchBand, number> = { fnr: 0, exact: 1, formerExact: 2, prefix: 3, fnrPrefix: 4, word: 5, former: 6, fuzzy: 7 };

export interface NameHit {
  fnr: string;
  name: string;
  city: string | null;
  isActive: boolean;
  band: MatchBand;
  /**
   * 0..1: 1 for an exact core match; otherwise trigram similarity of the normalised name and the
   * query's core (fuzzy: the higher of core-to-core and name-to-name similarity, and 1 for the core
   * behind a misspelt legal form).
   */
  score: number;
  /** The former name (as registered) that matched, for the former-name bands. */
  matchedName?: string;
}

/** Fuzzy candidates below this similarity are dropped (pg_trgm's default `%` threshold). */
const FUZZY_MIN_SCORE = 0.3;
/** Rows read per fuzzy route and direction: bounds a typo lookup to a few hundred index entries. */
const FUZZY_ROUTE_ROWS = 40;
/** Cores shorter than this get no fuzzy candidates (too unspecific). */
export const MIN_INFIX_CORE = 3;
/** The word band takes terms of any length: "Al" finds "Vorarlberger Alpenbank" as "Alpenb" does. */
export const MIN_WORD_CORE = 1;

/** Escapes LIKE's own characters. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The smallest string above every string that starts with `prefix` in byte order (`~<~`), so
 * `x ~>=~ prefix AND x ~<~ prefixUpperBound(prefix)` is `x LIKE 'prefix%'` with parameters the planner
 * can use as btree bounds, in a batch and in a generic plan (a `LIKE $1` pattern is no bound there, so
 * a cached plan scans the table). UTF-8 orders bytes as code points, so it is the prefix with its last
 * code point stepped (past the surrogates, which are no characters); trailing U+10FFFF, the last code
 * point, are dropped first. null when nothing is left: every string from `prefix` on starts with it.
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = [...prefix];
  for (let last = points.pop(); last !== undefined; last = points.pop()) {
    const next = last.codePointAt(0)! + 1;
    if (next <= 0x10ffff) return points.join('') + String.fromCodePoint(next === 0xd800 ? 0xe000 : next);
  }
  return null;
}

/** prefixUpperBound of a normalised core: [a-z0-9 ] only, so it always has one. */
const prefixEnd = (core: string): string => prefixUpperBound(core)!;

/** `column LIKE 'prefix%'` as the btree range of prefixUpperBound, for a column in byte order (text_pattern_ops). */
export function startsWith(sql: Sql, column: postgres.PendingQuery<postgres.Row[]>, prefix: string) {
  const end = prefixUpperBound(prefix);
  return end === null ? sql`${column} ~>=~ ${prefix}` : sql`(${column} ~>=~ ${prefix} AND ${column} ~<~ ${end})`;
}

const reverse = (s: string) => [...s].reverse().join('');

/**
 * A tsquery over the words of a name that every name containing `core` at a word start satisfies:
 * the complete words, and the last word as a prefix. A short last word is left out when other words
 * remain: 'o':* expands to thousands of words and makes the lookup slower than the recheck it saves.
 */
function wordsQuery(core: string): string {
  const words = core.split(' ');
  const last = words.pop()!;
  const terms = words.map((w) => `'${w}'`);
  if (last.length >= MIN_INFIX_CORE || terms.length === 0) terms.push(`'${last}':*`);
  return terms.join(' & ');
}

/** Compact spellings of the legal forms ("gesmbh" for "ges m b h"), for misspelt-suffix detection. */
const COMPACT_SUFFIXES = [...new Set(LEGAL_FORM_SUFFIXES.map((s) => s.replace(/ /g, '')))];
const LONGEST_SUFFIX = Math.max(...COMPACT_SUFFIXES.map((s) => s.length));

/** Levenshtein distance <= 1 (one insertion, deletion or substitution). */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * Cores the query would have if its legal form were misspelt ("mueller bau gmh", "... ges mb h") or
 * glued to the name ("mueller baugmbh"): coreName() leaves such a suffix in, and then the core is
 * several characters away from every stored one, out of reach of the one-edit routes.
 */
export function misspeltSuffixCores(norm: string, core: string): string[] {
  const found = new Set<string>();
  for (let p = Math.max(1, norm.length - LONGEST_SUFFIX - 2); p < norm.length; p++) {
    if (norm[p] === ' ') continue;
    const head = norm.slice(0, p).trim();
    const rest = norm.slice(p).replace(/ /g, '');
    // At a word start one edit is allowed; glued to the previous word only the exact spelling of a
    // suffix of 3+ letters ("fleischereiag" is left to the one-edit routes).
    const atWord = norm[p - 1] === ' ';
    if (!COMPACT_SUFFIXES.some((s) => (atWord ? withinOneEdit(rest, s) : rest === s && s.length >= 3))) continue;
    const alternative = coreName(head);
    if (alternative.length >= MIN_INFIX_CORE && alternative !== core) found.add(alternative);
  }
  return [...found];
}

interface Term {
  norm: string;
  core: string;
}

function termOf(input: string): Term | null {
  const norm = normaliseForSearch(input);
  if (norm === '') return null;
  return { norm, core: coreName(norm) || norm };
}

interface BandRow {
  i: number;
  fnr: string;
  name: string;
  city: string | null;
  isActive: boolean;
  band: MatchBand;
  score: number;
  /** Single-term exact and prefix reads only: the prefix band's size, counted up to MAX_NAME_CANDIDATES. */
  prefixTotal?: number;
}

/** Autocomplete answers at most this many candidates in all (a few pages of suggestions). */
export const MAX_NAME_CANDIDATES = 200;

/**
 * The prefix band's size up to `cap`, as one statement's text. In index order (USING ~<~), so the plan is
 * an index-only range read, never a bitmap scan of the range.
 */
const prefixCount = (sql: Sql, core: string, cap: number) => sql`
  SELECT count(*)::int AS n FROM (
    SELECT 1 FROM company_search WHERE ${startsWith(sql, sql`name_norm`, core)} ORDER BY name_norm USING ~<~ LIMIT ${sql.unsafe(String(cap))}) p`;

/** The exact and prefix bands of one core read from memory (the screener columns' name index). */
export interface NameBandRows {
  rows: Array<Omit<BandRow, 'i' | 'prefixTotal'>>;
  /** The prefix band's size up to the cap asked for. */
  prefixTotal: number;
}

/**
 * What the screener columns' name index answers for a single term without Postgres; null where it
 * cannot (not loaded, non-ASCII).
 */
export interface NameMemory {
  /**
   * `limit` exact rows in (active, name, fnr) order, `prefixLimit` prefix rows in (name, fnr) order
   * with similarity(name_norm, core), and the prefix band's size up to `cap`.
   */
  bands(core: string, limit: number, prefixLimit: number, cap: number): NameBandRows | null;
  /** The exact, prefix, word and former-name bands' companies as a set, counted up to `cap` (countNameCandidates' statement). */
  count(core: string, cap: number): number | null;
}

/**
 * Exact and prefix bands for every term: two index range reads per term. A single term (a keystroke)
 * gets scalar parameters and literal limits, so Postgres keeps one generic plan for the prepared
 * statement instead of planning every execution (planning cost more than executing).
 */
async function exactAndPrefix(sql: Sql, terms: Term[], limit: number, memory?: NameMemory): Promise<BandRow[]> {
  if (terms.length === 1 && memory) {
    const answer = memory.bands(terms[0]!.core, limit, limit * 2, MAX_NAME_CANDIDATES);
    if (answer) return answer.rows.map((r) => ({ i: 1, ...r, prefixTotal: answer.prefixTotal }));
  }
  const exactLimit = sql.unsafe(String(limit));
  const prefixLimit = sql.unsafe(String(limit * 2));
  if (terms.length === 1) {
    // With the prefix band's size up to the candidate cap, read index-only from the leaf pages the band
    // reads anyway: the autocomplete's total needs no second round trip for most keystrokes.
    const { core } = terms[0]!;
    return sql<BandRow[]>`
      WITH prefix_total AS MATERIALIZED (${prefixCount(sql, core, MAX_NAME_CANDIDATES)})
      (SELECT 1 AS i, fnr, name, city, is_active, 'exact' AS band, 1.0::float8 AS score, (SELECT n FROM prefix_total) AS prefix_total FROM company_search
        WHERE core_norm = ${core} AND length(core_norm) = ${core.length}
        ORDER BY is_active DESC, name_norm USING ~<~, fnr LIMIT ${exactLimit})
      UNION ALL
      (SELECT 1, fnr, name, city, is_active, 'prefix', similarity(name_norm, ${core})::float8, (SELECT n FROM prefix_total) FROM company_search
        WHERE ${startsWith(sql, sql`name_norm`, core)}
        ORDER BY name_norm USING ~<~, fnr LIMIT ${prefixLimit})`;
  }
  return sql<BandRow[]>`
    SELECT q.i::int AS i, h.fnr, h.name, h.city, h.is_active, h.band, h.score
      FROM unnest(${terms.map((t) => t.core)}::text[], ${terms.map((t) => prefixEnd(t.core))}::text[]) WITH ORDINALITY AS q(core, core_end, i)
     CROSS JOIN LATERAL (
       (SELECT fnr, name, city, is_active, 'exact' AS band, 1.0::float8 AS score FROM company_search
         WHERE core_norm = q.core AND length(core_norm) = length(q.core)
         ORDER BY is_active DESC, name_norm USING ~<~, fnr LIMIT ${exactLimit})
       UNION ALL
       (SELECT fnr, name, city, is_active, 'prefix', similarity(name_norm, q.core)::float8 FROM company_search
         WHERE name_norm ~>=~ q.core AND name_norm ~<~ q.core_end
         ORDER BY name_norm USING ~<~, fnr LIMIT ${prefixLimit})) h`;
}

/** The former name (as registered, the latest first) behind a former-name hit: the one `matches` accepts. */
function formerMatched(formerNames: string[] | null, matches: (norm: string) => boolean): string | undefined {
  return [...(formerNames ?? [])].reverse().find((n) => matches(normaliseForSearch(n)));
}

/** Rows of a statement whose former-name rows carry `former_names`, with the matching one as matchedName. */
function withMatchedFormer(rows: Array<BandRow & { formerNames: string[] | null }>, terms: Term[], exact: boolean): BandRow[] {
  return rows.map(({ formerNames, ...row }) => {
    if (row.band !== 'former' && row.band !== 'formerExact') return row;
    const { core } = terms[row.i - 1]!;
    const matchedName = formerMatched(formerNames, exact ? (n) => coreName(n) === core : (n) => n.startsWith(core) || n.includes(` ${core}`));
    return matchedName === undefined ? row : { ...row, matchedName };
  });
}

/** Word-prefix and former-name bands. */
async function wordAndFormer(sql: Sql, terms: Term[], limit: number): Promise<BandRow[]> {
  const rows = await sql<Array<BandRow & { formerNames: string[] | null }>>`
    SELECT q.i::int AS i, h.fnr, h.name, h.city, h.is_active, h.band, h.score, h.former_names
      FROM unnest(${terms.map((t) => t.core)}::text[], ${terms.map((t) => wordsQuery(t.core))}::text[],
                  ${terms.map((t) => `${likeEscape(t.core)}%`)}::text[], ${terms.map((t) => `% ${likeEscape(t.core)}%`)}::text[])
           WITH ORDINALITY AS q(core, words, prefix, word_prefix, i)
     CROSS JOIN LATERAL (
       (SELECT fnr, name, city, is_active, 'word' AS band, similarity(name_norm, q.core)::float8 AS score, NULL::text[] AS former_names FROM company_search
         WHERE array_to_tsvector(string_to_array(name_norm, ' ')) @@ q.words::tsquery AND name_norm LIKE q.word_prefix
         LIMIT ${limit * 2})
       UNION ALL
       (SELECT fnr, name, city, is_active, 'former', similarity(all_names_norm, q.core)::float8, former_names FROM company_search
         WHERE former_names_norm <> '{}' AND array_to_tsvector(string_to_array(all_names_norm, ' ')) @@ q.words::tsquery
           AND EXISTS (SELECT 1 FROM unnest(former_names_norm) f WHERE f LIKE q.prefix OR f LIKE q.word_prefix)
         LIMIT ${limit * 2})) h`;
  return withMatchedFormer(rows, terms, false);
}

/**
 * Former names whose core is the term's (resolve-names: an exact match on a former name is exact). Read
 * through the GIN over former_names_norm's elements: the core with each legal-form suffix (or none) are
 * the whole former names that can have it, so a lookup reads a few short posting lists; search_core()
 * (the SQL twin of coreName()) confirms. A former name with two suffixes in a row ("x gmbh kg") is left
 * to the former-name band. Through the names' word index instead, common words made each batch of 100
 * names several times slower.
 */
async function formerExact(sql: Sql, terms: Term[], limit: number): Promise<BandRow[]> {
  const spellings = terms.map((t) => [t.core, ...LEGAL_FORM_SUFFIXES.map((suffix) => `${t.core} ${suffix}`)].join('|'));
  const rows = await sql<Array<BandRow & { formerNames: string[] | null }>>`
    SELECT q.i::int AS i, h.fnr, h.name, h.city, h.is_active, 'formerExact' AS band, 1.0::float8 AS score, h.former_names
      FROM unnest(${terms.map((t) => t.core)}::text[], ${spellings}::text[]) WITH ORDINALITY AS q(core, spellings, i)
     CROSS JOIN LATERAL (
       SELECT fnr, name, city, is_active, former_names FROM company_search
        WHERE former_names_norm && string_to_array(q.spellings, '|')
          AND EXISTS (SELECT 1 FROM unnest(former_names_norm) f WHERE search_core(f) = q.core)
        ORDER BY is_active DESC, name_norm USING ~<~, fnr LIMIT ${limit}) h`;
  return withMatchedFormer(rows, terms, true);
}

/** Fuzzy band: one-edit candidates by thirds of the core plus misspelt-suffix cores, best `limit` per term. */
async function fuzzy(sql: Sql, terms: Term[], limit: number): Promise<BandRow[]> {
  const routes = terms.map((t) => {
    const q = t.core;
    const third = Math.floor(q.length / 3);
    const twoThirds = Math.floor((2 * q.length) / 3);
    const ab = q.slice(0, twoThirds);
    const bc = reverse(q.slice(third));
    const a = q.slice(0, third);
    const c = reverse(q.slice(twoThirds));
    return { ab, abEnd: prefixEnd(ab), bc, bcEnd: prefixEnd(bc), a, aEnd: prefixEnd(a), c, cEnd: prefixEnd(c) };
  });
  const alternatives = terms.flatMap((t, i) => misspeltSuffixCores(t.norm, t.core).map((core) => ({ i: i + 1, core })));
  const n = FUZZY_ROUTE_ROWS;
  return sql<BandRow[]>`
    WITH q AS (
      SELECT * FROM unnest(${terms.map((t) => t.core)}::text[], ${terms.map((t) => t.norm)}::text[],
                           ${routes.map((r) => r.ab)}::text[], ${routes.map((r) => r.abEnd)}::text[],
                           ${routes.map((r) => r.bc)}::text[], ${routes.map((r) => r.bcEnd)}::text[],
                           ${routes.map((r) => r.a)}::text[], ${routes.map((r) => r.aEnd)}::text[],
                           ${routes.map((r) => r.c)}::text[], ${routes.map((r) => r.cEnd)}::text[])
             WITH ORDINALITY AS q(core, norm, ab, ab_end, bc, bc_end, a, a_end, c, c_end, i)),
    candidate AS (
      SELECT q.i, h.* FROM q CROSS JOIN LATERAL (
        -- edit in the last third: same first two thirds, nearest in core order on both sides of the query
        (SELECT fnr, name, city, is_active, core_norm, name_norm, NULL::text AS alternative FROM company_search
          WHERE core_norm ~>=~ q.core AND core_norm ~<~ q.ab_end AND length(core_norm) BETWEEN length(q.core) - 2 AND length(q.core) + 2
          ORDER BY core_norm USING ~<~ LIMIT ${n})
        UNION ALL
        (SELECT fnr, name, city, is_active, core_norm, name_norm, NULL::text AS alternative FROM company_search
          WHERE core_norm ~<~ q.core AND core_norm ~>=~ q.ab AND length(core_norm) BETWEEN length(q.core) - 2 AND length(q.core) + 2
          ORDER BY core_norm USING ~>~ LIMIT ${n})
        UNION ALL
        -- edit in the first third: same last two thirds
        (SELECT fnr, name, city, is_active, core_norm, name_norm, NULL::text AS alternative FROM company_search
          WHERE reverse(core_norm) ~>=~ reverse(q.core) AND reverse(core_norm) ~<~ q.bc_end AND length(core_norm) BETWEEN length(q.core) - 2 AND length(q.core) + 2
          ORDER BY reverse(core_norm) USING ~<~ LIMIT ${n})
        UNION ALL
        (SELECT fnr, name, city, is_active, core_norm, name_norm, NULL::text AS alternative FROM company_search
          WHERE reverse(core_norm) ~<~ reverse(q.core) AND reverse(core_norm) ~>=~ q.bc AND length(core_norm) BETWEEN length(q.core) - 2 AND length(q.core) + 2
          ORDER BY reverse(core_norm) USING ~>~ LIMIT ${n})
        UNION ALL
        -- edit in the middle third: same first and last third (both checked in the reverse index)
        (SELECT fnr, name, city, is_active, core_norm, name_norm, NULL::text AS alternative FROM company_search
          WHERE core_norm ~>=~ q.a AND core_norm ~<~ q.a_end AND reverse(core_norm) ~>=~ q.c AND reverse(core_norm) ~<~ q.c_end
            AND length(core_norm) BETWEEN length(q.core) - 2 AND length(q.core) + 2
          LIMIT ${2 * n})) h
      UNION ALL
      SELECT m.i, h.* FROM unnest(${alternatives.map((x) => x.i)}::int[], ${alternatives.map((x) => x.core)}::text[]) AS m(i, core)
       CROSS JOIN LATERAL (
         SELECT fnr, name, city, is_active, core_norm, name_norm, m.core AS alternative FROM company_search
          WHERE core_norm = m.core AND length(core_norm) = length(m.core)
          ORDER BY is_active DESC, name_norm USING ~<~, fnr LIMIT ${limit}) h),
    scored AS (
      SELECT DISTINCT ON (c.i, c.fnr) c.i, c.fnr, c.name, c.city, c.is_active,
             greatest(similarity(c.core_norm, q.core), similarity(c.name_norm, q.norm), similarity(c.core_norm, c.alternative))::float8 AS score
        FROM candidate c JOIN q ON q.i = c.i
       ORDER BY c.i, c.fnr, score DESC)
    SELECT i::int AS i, fnr, name, city, is_active, 'fuzzy' AS band, score FROM (
      SELECT s.*, row_number() OVER (PARTITION BY s.i ORDER BY s.score DESC, s.fnr) AS rank FROM scored s WHERE s.score >= ${FUZZY_MIN_SCORE}) r
     WHERE rank <= ${limit}`;
}

/**
 * A band statement and how many terms one execution takes. The chunks keep the planner's estimate
 * below jit_above_cost (100000 by default): it prices each word lookup at thousands of rows, and JIT
 * compilation would cost more than the statement itself.
 */
interface Band {
  run: (sql: Sql, terms: Term[], limit: number, memory?: NameMemory) => Promise<BandRow[]>;
  chunk: number;
}
const EXACT_AND_PREFIX: Band = { run: exactAndPrefix, chunk: 250 };
const WORD_AND_FORMER: Band = { run: wordAndFormer, chunk: 8 };
const FORMER_EXACT: Band = { run: formerExact, chunk: 8 };
const FUZZY: Band = { run: fuzzy, chunk: 40 };

const byFnr = (a: NameHit, b: NameHit) => (a.fnr < b.fnr ? -1 : a.fnr > b.fnr ? 1 : 0);

// Ties end on the fnr, so an answer never depends on the order rows came in. Numbers that continue the
// term's digits stay in fnr order, the order their statement reads (and cuts) them in.
const byRank = (a: NameHit, b: NameHit) =>
  BAND_RANK[a.band] - BAND_RANK[b.band] || (a.band === 'fnrPrefix' ? byFnr(a, b) : 0) ||
  Number(b.isActive) - Number(a.isActive) || b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || byFnr(a, b);

/** Collects band rows per term; a company keeps its best band (a later band can rank higher: formerExact). */
class Collector {
  private readonly hits: NameHit[][];
  private readonly seen: Array<Map<string, number>>;
  readonly prefixTotals: Array<number | undefined>;
  constructor(size: number) {
    this.hits = Array.from({ length: size }, () => []);
    this.seen = Array.from({ length: size }, () => new Map());
    this.prefixTotals = Array.from({ length: size }, () => undefined);
  }
  add(positions: number[], rows: BandRow[]) {
    const ordered = [...rows].sort((a, b) => BAND_RANK[a.band] - BAND_RANK[b.band]);
    for (const { i, prefixTotal, ...hit } of ordered) {
      const at = positions[i - 1]!;
      if (prefixTotal !== undefined && prefixTotal !== null) this.prefixTotals[at] = prefixTotal;
      const known = this.seen[at]!.get(hit.fnr);
      if (known === undefined) {
        this.seen[at]!.set(hit.fnr, this.hits[at]!.length);
        this.hits[at]!.push(hit);
      } else if (BAND_RANK[hit.band] < BAND_RANK[this.hits[at]![known]!.band]) this.hits[at]![known] = hit;
    }
  }
  count(at: number) {
    return this.hits[at]!.length;
  }
  hasExact(at: number) {
    return this.hits[at]!.some((h) => h.band === 'exact');
  }
  result(limit: number) {
    return this.hits.map((h) => h.sort(byRank).slice(0, limit));
  }
}

/**
 * Candidates for each term, best first, at most `limit` each, in input order. With `fill`, every band
 * runs until a term has `limit` candidates (autocomplete pages through them); without, the word and
 * former bands only run for terms without an exact or prefix match, because they cannot change the
 * best candidate (resolve-names answers with the best one; its candidate list keeps the exact and
 * prefix matches). Fuzzy candidates only come when no other band found anything.
 */
async function findNamesFor(sql: Sql, inputs: string[], limit: number, fill: boolean): Promise<NameHit[][]> {
  return (await searchNames(sql, inputs, limit, fill)).hits;
}

/** findNamesFor, with each term's prefix-band size where the single-term read counted it. */
async function searchNames(sql: Sql, inputs: string[], limit: number, fill: boolean, memory?: NameMemory): Promise<{ hits: NameHit[][]; prefixTotals: Array<number | undefined> }> {
  const terms: Term[] = [];
  const termIndex = new Map<string, number>();
  const positionOf = inputs.map((input) => {
    const term = termOf(input);
    if (!term) return -1;
    let at = termIndex.get(term.norm);
    if (at === undefined) {
      at = terms.length;
      termIndex.set(term.norm, at);
      terms.push(term);
    }
    return at;
  });
  const found = new Collector(terms.length);
  const run = async (pick: (at: number) => boolean, band: Band) => {
    const positions = terms.map((_, at) => at).filter(pick);
    for (let from = 0; from < positions.length; from += band.chunk) {
      const chunk = positions.slice(from, from + band.chunk);
      found.add(chunk, await band.run(sql, chunk.map((at) => terms[at]!), limit, memory));
    }
  };
  await run(() => true, EXACT_AND_PREFIX);
  // Resolve-names only: autocomplete ranks former names after word prefixes (api-decisions.md).
  if (!fill) await run((at) => !found.hasExact(at), FORMER_EXACT);
  await run((at) => (fill ? found.count(at) < limit : found.count(at) === 0), WORD_AND_FORMER);
  await run((at) => found.count(at) === 0 && terms[at]!.core.length >= MIN_INFIX_CORE, FUZZY);
  const hits = found.result(limit);
  return {
    hits: positionOf.map((at) => (at < 0 ? [] : hits[at]!)),
    prefixTotals: positionOf.map((at) => (at < 0 ? undefined : found.prefixTotals[at])),
  };
}

/**
 * Candidates for one search term, best first, at most `limit`. The caller pages over them; autocomplete
 * needs no more than a few pages.
 */
export async function findNames(sql: Sql, term: string, limit: number): Promise<NameHit[]> {
  return (await findNamesFor(sql, [term], limit, true))[0]!;
}

/** countNameCandidates' statement for a cap: $1 core, $2 its length, $3 prefixEnd(core), $4 words?, $5 wordsQuery, $6 infix, $7 prefix pattern. */
function nameCandidatesCount(cap: number): string {
  const limit = String(Math.trunc(cap));
  return `
    SELECT count(*)::int AS n FROM (
      (SELECT fnr FROM company_search WHERE core_norm = $1 AND length(core_norm) = $2 LIMIT ${limit})
      UNION
      (SELECT fnr FROM company_search WHERE name_norm ~>=~ $1 AND name_norm ~<~ $3 LIMIT ${limit})
      UNION
      (SELECT fnr FROM company_search
        WHERE $4 AND array_to_tsvector(string_to_array(name_norm, ' ')) @@ $5::tsquery
          AND name_norm LIKE $6 LIMIT ${limit})
      UNION
      -- Former names, as the former-name band reads them.
      (SELECT fnr FROM company_search
        WHERE former_names_norm <> '{}' AND array_to_tsvector(string_to_array(all_names_norm, ' ')) @@ $5::tsquery
          AND EXISTS (SELECT 1 FROM unnest(former_names_norm) f WHERE f LIKE $7 OR f LIKE $6)
        LIMIT ${limit})) c`;
}

/**
 * How many candidates `term` has, up to `cap`, given the best `limit` found (`hits`, best first): the
 * autocomplete's totalRecords. Cheapest first: fewer hits than asked for are all there are; a prefix
 * band that alone reaches the cap is counted in its own index (index-only, no ranking); otherwise the
 * exact, prefix, word and former-name bands' companies are counted as a set (fnrs only, no
 * similarity). Fuzzy candidates only come when those bands are empty: then they are ranked up to the cap.
 */
export async function countNameCandidates(sql: Sql, term: string, hits: NameHit[], limit: number, cap: number, prefixTotal?: number, memory?: NameMemory): Promise<number> {
  if (hits.length < limit) return hits.length;
  if (limit >= cap) return cap;
  const t = termOf(term);
  if (!t) return 0;
  if (hits.every((h) => h.band === 'fuzzy')) return (await findNames(sql, term, cap)).length;
  const prefix = prefixTotal !== undefined && cap <= MAX_NAME_CANDIDATES ? prefixTotal : (await sql<{ n: number }[]>`${prefixCount(sql, t.core, cap)}`)[0]?.n ?? 0;
  if (prefix >= cap) return cap;
  const remembered = memory?.count(t.core, cap);
  if (remembered !== undefined && remembered !== null) return Math.min(cap, Math.max(remembered, hits.length));
  // Unprepared (sql.unsafe), so planned for this term: a prepared statement turns generic after five
  // executions, and its generic plan reads the word index for a common core ('gmbh'), several times
  // slower than walking the prefix index.
  const [row] = await sql.unsafe<{ n: number }[]>(nameCandidatesCount(cap), [
    t.core, t.core.length, prefixEnd(t.core), t.core.length >= MIN_WORD_CORE, wordsQuery(t.core),
    `% ${likeEscape(t.core)}%`, `${likeEscape(t.core)}%`,
  ]);
  return Math.min(cap, Math.max(row?.n ?? 0, hits.length));
}

/**
 * Autocomplete: the best `limit` candidates for `term` and how many there are in all, up to
 * MAX_NAME_CANDIDATES (the prefix band's size comes with the first read). With `memory` (the screener
 * columns' name index) the exact and prefix bands come from there; the other bands and totals the
 * prefix band does not settle still read Postgres.
 */
export async function autocompleteNames(sql: Sql, term: string, limit: number, memory?: NameMemory): Promise<{ hits: NameHit[]; total: number }> {
  const bounded = Math.min(limit, MAX_NAME_CANDIDATES);
  const number = fnrTerm(term);
  const [{ hits, prefixTotals }, byNumber] = await Promise.all([
    searchNames(sql, [term], bounded, true, memory),
    number ? fnrMatches(sql, number, bounded, MAX_NAME_CANDIDATES) : { hits: [], total: 0 },
  ]);
  const byName = hits[0]!;
  const nameTotal = await countNameCandidates(sql, term, byName, bounded, MAX_NAME_CANDIDATES, prefixTotals[0], memory);
  if (byNumber.hits.length === 0) return { hits: byName, total: nameTotal };
  // A company found both ways is listed once, in its better band, and counted once where both sides
  // were read completely (a name that starts with its own number's digits: rare, so an uncapped
  // total may count it twice).
  const merged = new Map<string, NameHit>();
  for (const hit of [...byNumber.hits, ...byName].sort(byRank)) if (!merged.has(hit.fnr)) merged.set(hit.fnr, hit);
  const both = byNumber.hits.length + byName.length - merged.size;
  const total = Math.min(MAX_NAME_CANDIDATES, Math.max(merged.size, byNumber.total + nameTotal - both));
  return { hits: [...merged.values()].slice(0, bounded), total };
}

/** Candidates (at most `limit`) for each of a batch of names, in input order; blank names get none. */
export async function resolveNames(sql: Sql, names: string[], limit: number): Promise<NameHit[][]> {
  return findNamesFor(sql, names, limit, false);
}

export type ResolveBand = 'exact' | 'probable' | 'review' | 'none';

/** The score as answered: three decimals. */
export const presentedScore = (score: number) => Math.round(score * 1000) / 1000;

/** Thresholds of the resolve-names labels on the answered score (documented in businesses.docs.ts). */
export const RESOLVE_THRESHOLDS = { probable: 0.8, review: 0.5 } as const;

/**
 * Match band of a resolve-names answer from the best candidate: `exact` when its core equals the
 * name's on the current or a former name, or its score as answered is 1 (a misspelt legal form over
 * an exact core); else by the answered score, so a client sees the same number the label came from.
 */
export function resolveBand(hit: NameHit | undefined): ResolveBand {
  if (!hit) return 'none';
  const score = presentedScore(hit.score);
  if (hit.band === 'exact' || hit.band === 'formerExact' || score >= 1) return 'exact';
  if (score >= RESOLVE_THRESHOLDS.probable) return 'probable';
  if (score >= RESOLVE_THRESHOLDS.review) return 'review';
  return 'none';
}
