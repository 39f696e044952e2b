// Links a record of another register (a BMF listing, a court notice's debtor) to a company, with the
// evidence and a confidence (api-decisions.md): by the FN the record gives (unless the FN's company
// bears a clearly other name), else by its normalised name (current or former) plus its address, else
// by name alone. Only links at ASSERT_CONFIDENCE or above are asserted and may set a flag; weaker ones
// are kept as candidates for review. The scores are in docs/linking.md.
import type { Sql } from '../../runtime/db.js';
import { canonicalFnr } from '../../schemas/identifiers.js';

export const LINK_EVIDENCE = ['register-fn', 'name-address', 'name', 'manual'] as const;
export type LinkEvidence = (typeof LINK_EVIDENCE)[number];

/** Links at or above this confidence are asserted (set hasEdikt, isScheinunternehmen); below, candidates only. */
export const ASSERT_CONFIDENCE = 0.9;

/** What a record says about the company it names. */
export interface LinkSubject {
  /** The FN in any spelling the source uses (`FN 12345 x`, `012345X`); null when none. */
  fnr?: string | null;
  /** The whole name (a court notice's split name joined). */
  name: string;
  zipCode?: string | null;
  /** Street and house number as one text (`Hauptplatz 3`, `Quellenstraße 145/2`). */
  street?: string | null;
}

export interface LinkCandidate {
  fnr: string;
  name: string;
  evidence: LinkEvidence;
  confidence: number;
}

export interface CompanyLink {
  /** The asserted company; null when no link reaches ASSERT_CONFIDENCE. */
  fnr: string | null;
  evidence: LinkEvidence | null;
  confidence: number | null;
  /** Links below the threshold, best first (at most MAX_CANDIDATES): for review, never a flag. */
  candidates: LinkCandidate[];
  /**
   * `fnr-check-letter`: the given FN's check letter does not fit its digits, so it links nothing;
   * `fnr-name-mismatch`: the FN's company bears a clearly other name, so the FN is only a candidate.
   */
  warnings: string[];
}

/** A company the name lookup found, with one of its current addresses (normalised by the caller or the query). */
export interface CompanyMatch {
  fnr: string;
  name: string;
  status: string;
  /** search_norm(name) and search_core() of it, as the database computes them. */
  norm: string;
  core: string;
  zipCode: string | null;
  street: string | null;
  /** Matched by a name the company bore before (the register keeps its name history). */
  former?: boolean;
}

const MAX_CANDIDATES = 5;

const SCORE = {
  registerFn: 1,
  nameAddressStreet: 0.98,
  nameAddress: 0.93,
  nameAddressOtherStreet: 0.85,
  nameUnique: 0.6,
  nameOther: 0.4,
  /** A former name: with zip code and street just asserted; with the zip code alone, for review. */
  formerAddressStreet: 0.9,
  formerAddress: 0.8,
  /** The FN the record gives, when its company bears a clearly other name. */
  fnrOtherName: 0.5,
  /** Caps: a company that no longer exists, another legal form, several equally good matches, a former name another company bears now. */
  deleted: 0.7,
  otherForm: 0.6,
  ambiguous: 0.6,
  formerNameTaken: 0.6,
} as const;

// Legal-form spellings after search_norm(), longest first, each with one key: "ges m b h" and
// "gesellschaft mit beschraenkter haftung" are both a GmbH; a GmbH and a KG of one name are two companies.
const FORM_SPELLINGS: ReadonlyArray<readonly [string, string]> = [
  ['gesellschaft mit beschraenkter haftung', 'gmbh'], ['gesellschaft m b h', 'gmbh'], ['gesellschaft mbh', 'gmbh'],
  ['kommanditgesellschaft', 'kg'], ['aktiengesellschaft', 'ag'], ['offene gesellschaft', 'og'], ['reg gen m b h', 'gen'],
  ['privatstiftung', 'pst'], ['ges m b h', 'gmbh'], ['ges mbh', 'gmbh'], ['g m b h', 'gmbh'], ['gesmbh', 'gmbh'], ['gmbh', 'gmbh'],
  ['egen', 'gen'], ['vvag', 'vvag'], ['e u', 'eu'], ['oeg', 'og'], ['keg', 'kg'], ['ohg', 'og'], ['co', 'co'],
  ['ag', 'ag'], ['kg', 'kg'], ['og', 'og'], ['eu', 'eu'], ['se', 'se'],
];

/**
 * The legal form of a normalised name, from what search_core() stripped (`norm` minus `core`):
 * `gmbh co kg` for "GmbH & Co KG", null when the name carries none.
 */
export function legalFormKey(norm: string, core: string): string | null {
  let rest = norm.startsWith(core) ? norm.slice(core.length).trim() : '';
  const keys: string[] = [];
  while (rest !== '') {
    const hit = FORM_SPELLINGS.find(([spelling]) => rest === spelling || rest.startsWith(`${spelling} `));
    if (!hit) return keys.length > 0 ? keys.join(' ') : null;
    keys.push(hit[1]);
    rest = rest.slice(hit[0].length).trim();
  }
  return keys.length > 0 ? keys.join(' ') : null;
}

/** Street and the leading number of the house number, folded: `Quellenstraße 145/2` and `Quellenstr. 145` are both `quellenstr145`. */
export function streetKey(street: string | null | undefined): string | null {
  if (!street) return null;
  const folded = street
    .toLowerCase()
    .replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss')
    .normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .replace(/strasse\b|str\b\.?/g, 'str');
  const m = /^(.*?)(\d+)/.exec(folded);
  const key = (m ? m[1]! + m[2]! : folded).replace(/[^a-z0-9]/g, '');
  return key === '' ? null : key;
}

/** A subject as the scorer sees it: its name normalised by the database, its FN read. */
export interface ScoredSubject {
  norm: string;
  core: string;
  zipCode: string | null;
  street: string | null;
}

const formsDiffer = (a: string | null, b: string | null) => a !== null && b !== null && a !== b;

function candidateScore(subject: ScoredSubject, form: string | null, match: CompanyMatch): LinkCandidate {
  const sameZip = subject.zipCode !== null && match.zipCode !== null && subject.zipCode === match.zipCode;
  let evidence: LinkEvidence = 'name';
  let confidence: number;
  if (sameZip) {
    evidence = 'name-address';
    const [a, b] = [streetKey(subject.street), streetKey(match.street)];
    confidence = a === null || b === null ? SCORE.nameAddress : a === b ? SCORE.nameAddressStreet : SCORE.nameAddressOtherStreet;
    // A former name needs the whole address: the name may have gone to a successor at the same seat.
    if (match.former) confidence = confidence === SCORE.nameAddressStreet ? SCORE.formerAddressStreet : Math.min(confidence, SCORE.formerAddress);
  } else {
    confidence = SCORE.nameOther;
  }
  if (formsDiffer(form, legalFormKey(match.norm, match.core))) confidence = Math.min(confidence, SCORE.otherForm);
  if (match.status !== 'active') confidence = Math.min(confidence, SCORE.deleted);
  return { fnr: match.fnr, name: match.name, evidence, confidence };
}

/**
 * Scores the companies whose name core equals the subject's (pure: the lookup is linkCompanies').
 * A company found at several current addresses counts once, at its best.
 */
export function scoreMatches(subject: ScoredSubject, matches: CompanyMatch[]): CompanyLink {
  const form = legalFormKey(subject.norm, subject.core);
  const relevant = subject.core === '' ? [] : matches.filter((m) => m.core === subject.core);
  // A company that bears the name now (of a compatible form): a former name of another one is no evidence.
  const nameTaken = relevant.some((m) => !m.former && !formsDiffer(form, legalFormKey(m.norm, m.core)));
  const best = new Map<string, LinkCandidate>();
  for (const match of relevant) {
    const scored = candidateScore(subject, form, match);
    if (match.former && nameTaken) scored.confidence = Math.min(scored.confidence, SCORE.formerNameTaken);
    const prior = best.get(scored.fnr);
    if (!prior || scored.confidence > prior.confidence) best.set(scored.fnr, scored);
  }
  const scored = [...best.values()];
  // Name alone: better when one active company of that name and form exists in the whole register.
  const sameName = scored.filter((c) => c.evidence === 'name' && c.confidence === SCORE.nameOther);
  if (sameName.length === 1 && scored.length === 1 && !relevant.some((m) => m.former)) sameName[0]!.confidence = SCORE.nameUnique;
  // Two companies of that name at that zip code: only the street can tell which one is meant.
  if (scored.filter((c) => c.evidence === 'name-address').length > 1) {
    for (const c of scored) if (c.confidence >= ASSERT_CONFIDENCE && c.confidence < SCORE.nameAddressStreet) c.confidence = SCORE.nameAddressOtherStreet;
  }
  // Two companies that fit equally well: asserting either would be a guess.
  const top = scored.filter((c) => c.confidence >= ASSERT_CONFIDENCE);
  if (top.length > 1) for (const c of top) c.confidence = SCORE.ambiguous;
  scored.sort((a, b) => b.confidence - a.confidence || (a.fnr < b.fnr ? -1 : 1));
  const [first] = scored;
  const asserted = first && first.confidence >= ASSERT_CONFIDENCE ? first : null;
  return {
    fnr: asserted?.fnr ?? null,
    evidence: asserted?.evidence ?? null,
    confidence: asserted?.confidence ?? null,
    candidates: scored.filter((c) => c !== asserted).slice(0, MAX_CANDIDATES),
    warnings: [],
  };
}

/** A company an FN names, with its current and former names (normalised by the database). */
interface FnrCompany {
  fnr: string;
  name: string;
  names: Array<{ norm: string; core: string }>;
}

// Words of a name core that say little about which company it is.
const WEAK_WORDS = new Set(['und', 'der', 'die', 'das', 'des', 'fuer', 'von', 'zum', 'zur', 'the', 'and', 'of']);
const words = (core: string) => core.split(' ').filter((w) => w.length >= 3 && !WEAK_WORDS.has(w));
const sameWord = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 5 && (a.includes(b) || b.includes(a)));

/**
 * Whether a name clearly is not this one: another legal form, or fewer than half of the shorter name's
 * words shared (`Großglockner Brauerei` is not `Großglockner Spedition`). A name too short to tell
 * (no word of three letters) never clearly disagrees.
 */
export function namesDisagree(a: { norm: string; core: string }, b: { norm: string; core: string }): boolean {
  if (formsDiffer(legalFormKey(a.norm, a.core), legalFormKey(b.norm, b.core))) return true;
  const [wa, wb] = [words(a.core), words(b.core)];
  if (wa.length === 0 || wb.length === 0) return false;
  const shared = wa.filter((w) => wb.some((v) => sameWord(w, v))).length;
  return shared * 2 <= Math.min(wa.length, wb.length);
}

/**
 * The FN link, when the subject's FN is readable and its check letter fits: asserted unless the FN's
 * company bears (and bore) only names that clearly are not the subject's. A company this register does
 * not hold yet cannot contradict the record, so its FN is asserted.
 */
function fnrLink(subject: LinkSubject, name: { norm: string; core: string } | null, companies: Map<string, FnrCompany>): CompanyLink | null {
  const fnr = canonicalFnr(subject.fnr);
  if (!fnr) return null;
  if (!fnr.checkLetterValid) return { fnr: null, evidence: null, confidence: null, candidates: [], warnings: ['fnr-check-letter'] };
  const company = companies.get(fnr.fnr);
  if (company && name && name.core !== '' && company.names.every((n) => namesDisagree(name, n))) {
    return { fnr: null, evidence: null, confidence: null, candidates: [{ fnr: fnr.fnr, name: company.name, evidence: 'register-fn', confidence: SCORE.fnrOtherName }], warnings: ['fnr-name-mismatch'] };
  }
  return { fnr: fnr.fnr, evidence: 'register-fn', confidence: SCORE.registerFn, candidates: [], warnings: [] };
}

/** The companies of these FNs with every name they bore. */
async function fnrCompanies(sql: Sql, fnrs: string[]): Promise<Map<string, FnrCompany>> {
  if (fnrs.length === 0) return new Map();
  const rows = await sql<FnrCompany[]>`
    SELECT c.fnr, c.name, jsonb_agg(jsonb_build_object('norm', x.norm, 'core', search_core(x.norm))) AS names
      FROM company c
     CROSS JOIN LATERAL (SELECT search_norm(c.name) AS norm UNION SELECT search_norm(n.name) FROM company_name n WHERE n.fnr = c.fnr) x
     WHERE c.fnr = ANY(${fnrs}::text[]) AND x.norm IS NOT NULL
     GROUP BY c.fnr, c.name`;
  return new Map(rows.map((r) => [r.fnr, r]));
}

/** Smallest string above every string that starts with `prefix` (byte order, as text_pattern_ops sorts). */
function prefixEnd(prefix: string): string {
  const points = [...prefix];
  const last = points.pop()!.codePointAt(0)!;
  return points.join('') + String.fromCodePoint(last + 1);
}

/**
 * How the first word of a name may start in lower case, umlauts written out or not (`oetztaler`,
 * `ötztaler`): former names are found through the company_name_lower index by these prefixes, then
 * compared by their core. Null when the word is too short to narrow the search.
 */
export function formerNamePrefixes(name: string): string[] | null {
  const word = /^[\p{L}\p{N}]+/u.exec(name.trim().toLowerCase())?.[0];
  if (!word || word.length < 3) return null;
  const folded = word.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss');
  const unfolded = folded.replace(/ae/g, 'ä').replace(/oe/g, 'ö').replace(/ue/g, 'ü');
  return [...new Set([word, folded, unfolded, unfolded.replace(/ss/g, 'ß')])];
}

const NO_MATCH: CompanyLink = { fnr: null, evidence: null, confidence: null, candidates: [], warnings: [] };

/**
 * Links each subject (same order out as in). Names are normalised by the database; a subject with a
 * valid FN is checked against its company's names (by key); the others are matched by the core of
 * their name through the company_name_core index (migration 0022), and those still unlinked by former
 * names through company_name_lower (the first word's spellings as prefixes, then the core).
 */
export async function linkCompanies(sql: Sql, subjects: LinkSubject[]): Promise<CompanyLink[]> {
  if (subjects.length === 0) return [];
  const norms = await sql<{ i: number; norm: string | null; core: string | null }[]>`
    SELECT (q.i - 1)::int AS i, search_norm(q.name) AS norm, search_core(search_norm(q.name)) AS core
      FROM unnest(${subjects.map((s) => s.name)}::text[]) WITH ORDINALITY AS q(name, i)`;
  const normOf = new Map(norms.map((n) => [n.i, n.core ? { norm: n.norm ?? '', core: n.core } : null]));
  const validFnrs = subjects.map((s) => canonicalFnr(s.fnr)).filter((f) => f?.checkLetterValid).map((f) => f!.fnr);
  const companies = await fnrCompanies(sql, [...new Set(validFnrs)]);
  const links: Array<CompanyLink | null> = subjects.map((s, i) => fnrLink(s, normOf.get(i) ?? null, companies));
  const byName = subjects.map((s, i) => ({ s, i })).filter(({ i }) => links[i]?.fnr == null);
  const cores = [...new Set(byName.map(({ i }) => normOf.get(i)?.core).filter((c): c is string => !!c))];
  const matches = cores.length === 0 ? [] : await sql<CompanyMatch[]>`
    SELECT c.fnr, c.name, c.status, search_norm(c.name) AS norm, s.core, a.zip_code,
           coalesce(nullif(concat_ws(' ', a.street, a.house_number), ''), a.line) AS street, false AS former
      FROM unnest(${cores}::text[]) AS s(core)
      JOIN company c ON search_core(search_norm(c.name)) = s.core
      LEFT JOIN company_address a ON a.fnr = c.fnr AND a.is_current`;
  const byCore = new Map<string, CompanyMatch[]>();
  const add = (rows: CompanyMatch[]) => {
    for (const m of rows) byCore.set(m.core, [...(byCore.get(m.core) ?? []), m]);
  };
  add(matches);
  const scoredSubject = (s: LinkSubject, n: { norm: string; core: string }): ScoredSubject => ({ norm: n.norm, core: n.core, zipCode: s.zipCode?.trim() || null, street: s.street ?? null });
  // Former names, in a second lookup only for the subjects their current names leave unlinked (most are linked by then).
  const unlinked = byName.filter(({ s, i }) => {
    const n = normOf.get(i);
    return n && scoreMatches(scoredSubject(s, n), byCore.get(n.core) ?? []).fnr === null;
  });
  const prefixes = [...new Set(unlinked.flatMap(({ s }) => formerNamePrefixes(s.name) ?? []))];
  const formerCores = [...new Set(unlinked.map(({ i }) => normOf.get(i)!.core))];
  if (prefixes.length > 0) {
    add(await sql<CompanyMatch[]>`
      SELECT c.fnr, f.name, c.status, search_norm(f.name) AS norm, search_core(search_norm(f.name)) AS core, a.zip_code,
             coalesce(nullif(concat_ws(' ', a.street, a.house_number), ''), a.line) AS street, true AS former
        FROM unnest(${prefixes}::text[], ${prefixes.map(prefixEnd)}::text[]) AS p(prefix, prefix_end)
        JOIN company_name f ON lower(f.name) ~>=~ p.prefix AND lower(f.name) ~<~ p.prefix_end AND NOT f.is_current
        JOIN company c ON c.fnr = f.fnr
        LEFT JOIN company_address a ON a.fnr = c.fnr AND a.is_current
       WHERE search_core(search_norm(f.name)) = ANY(${formerCores}::text[])`);
  }
  for (const { s, i } of byName) {
    const n = normOf.get(i);
    const scored = n ? scoreMatches(scoredSubject(s, n), byCore.get(n.core) ?? []) : NO_MATCH;
    // The FN that did not fit the name stays a candidate for review.
    const fnrCandidates = links[i]?.candidates ?? [];
    const candidates = [...scored.candidates.filter((c) => !fnrCandidates.some((f) => f.fnr === c.fnr) && c.fnr !== scored.fnr), ...fnrCandidates]
      .sort((a, b) => b.confidence - a.confidence || (a.fnr < b.fnr ? -1 : 1)).slice(0, MAX_CANDIDATES);
    links[i] = { ...scored, candidates, warnings: [...(links[i]?.warnings ?? []), ...scored.warnings] };
  }
  return links as CompanyLink[];
}
