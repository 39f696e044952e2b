// Links a record of another register (a BMF listing, a court notice's debtor) to a company, with the
// evidence and a confidence (api-decisions.md): by the FN the record gives, else by its normalised
// name plus its address, else by name alone. Only links at ASSERT_CONFIDENCE or above are asserted and
// may set a flag; weaker ones are kept as candidates for review. The scores are in docs/linking.md.
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
  /** `fnr-check-letter`: the given FN's check letter does not fit its digits, so it links nothing. */
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
}

const MAX_CANDIDATES = 5;

const SCORE = {
  registerFn: 1,
  nameAddressStreet: 0.98,
  nameAddress: 0.93,
  nameAddressOtherStreet: 0.85,
  nameUnique: 0.6,
  nameOther: 0.4,
  /** Caps: a company that no longer exists, another legal form, or several equally good matches. */
  deleted: 0.7,
  otherForm: 0.6,
  ambiguous: 0.6,
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

function candidateScore(subject: ScoredSubject, form: string | null, match: CompanyMatch): LinkCandidate {
  const sameZip = subject.zipCode !== null && match.zipCode !== null && subject.zipCode === match.zipCode;
  let evidence: LinkEvidence = 'name';
  let confidence: number;
  if (sameZip) {
    evidence = 'name-address';
    const [a, b] = [streetKey(subject.street), streetKey(match.street)];
    confidence = a === null || b === null ? SCORE.nameAddress : a === b ? SCORE.nameAddressStreet : SCORE.nameAddressOtherStreet;
  } else {
    confidence = SCORE.nameOther;
  }
  const matchForm = legalFormKey(match.norm, match.core);
  if (form !== null && matchForm !== null && form !== matchForm) confidence = Math.min(confidence, SCORE.otherForm);
  if (match.status !== 'active') confidence = Math.min(confidence, SCORE.deleted);
  return { fnr: match.fnr, name: match.name, evidence, confidence };
}

/**
 * Scores the companies whose name core equals the subject's (pure: the lookup is linkCompanies').
 * A company found at several current addresses counts once, at its best.
 */
export function scoreMatches(subject: ScoredSubject, matches: CompanyMatch[]): CompanyLink {
  const form = legalFormKey(subject.norm, subject.core);
  const best = new Map<string, LinkCandidate>();
  for (const match of matches) {
    if (match.core !== subject.core || subject.core === '') continue;
    const scored = candidateScore(subject, form, match);
    const prior = best.get(scored.fnr);
    if (!prior || scored.confidence > prior.confidence) best.set(scored.fnr, scored);
  }
  const scored = [...best.values()];
  // Name alone: better when one active company of that name and form exists in the whole register.
  const sameName = scored.filter((c) => c.evidence === 'name' && c.confidence === SCORE.nameOther);
  if (sameName.length === 1 && scored.length === 1) sameName[0]!.confidence = SCORE.nameUnique;
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

/** The FN link, when the subject's FN is readable and its check letter fits. */
function fnrLink(subject: LinkSubject): CompanyLink | null {
  const fnr = canonicalFnr(subject.fnr);
  if (!fnr) return null;
  if (!fnr.checkLetterValid) return { fnr: null, evidence: null, confidence: null, candidates: [], warnings: ['fnr-check-letter'] };
  return { fnr: fnr.fnr, evidence: 'register-fn', confidence: SCORE.registerFn, candidates: [], warnings: [] };
}

/**
 * Links each subject (same order out as in). Subjects with a valid FN need no lookup; the others are
 * matched by name in one statement through the company_name_core index (migration 0022).
 */
export async function linkCompanies(sql: Sql, subjects: LinkSubject[]): Promise<CompanyLink[]> {
  const links: Array<CompanyLink | null> = subjects.map(fnrLink);
  const byName = subjects.map((s, i) => ({ s, i })).filter(({ i }) => links[i]?.fnr == null);
  if (byName.length === 0) return links as CompanyLink[];
  const norms = await sql<{ i: number; norm: string | null; core: string | null }[]>`
    SELECT (q.i - 1)::int AS i, search_norm(q.name) AS norm, search_core(search_norm(q.name)) AS core
      FROM unnest(${byName.map(({ s }) => s.name)}::text[]) WITH ORDINALITY AS q(name, i)`;
  const cores = [...new Set(norms.map((n) => n.core).filter((c): c is string => !!c))];
  const matches = cores.length === 0 ? [] : await sql<CompanyMatch[]>`
    SELECT c.fnr, c.name, c.status, search_norm(c.name) AS norm, s.core, a.zip_code,
           coalesce(nullif(concat_ws(' ', a.street, a.house_number), ''), a.line) AS street
      FROM unnest(${cores}::text[]) AS s(core)
      JOIN company c ON search_core(search_norm(c.name)) = s.core
      LEFT JOIN company_address a ON a.fnr = c.fnr AND a.is_current`;
  const byCore = new Map<string, CompanyMatch[]>();
  for (const m of matches) byCore.set(m.core, [...(byCore.get(m.core) ?? []), m]);
  const normOf = new Map(norms.map((n) => [n.i, n]));
  byName.forEach(({ s, i }, k) => {
    const n = normOf.get(k)!;
    const scored = n.core
      ? scoreMatches({ norm: n.norm ?? '', core: n.core, zipCode: s.zipCode?.trim() || null, street: s.street ?? null }, byCore.get(n.core) ?? [])
      : { fnr: null, evidence: null, confidence: null, candidates: [], warnings: [] };
    links[i] = { ...scored, warnings: [...(links[i]?.warnings ?? []), ...scored.warnings] };
  });
  return links as CompanyLink[];
}
