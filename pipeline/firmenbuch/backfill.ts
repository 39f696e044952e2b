// Backfill of the whole register through SUCHEFIRMA, which has no paging and stops at exactly 1000
// hits: search name prefixes per legal form; a prefix that hits the cap is split into longer
// prefixes, and past MAX_PREFIX_LENGTH into the nine federal states (ORTNR 1..9). Every hit becomes a
// company job (deterministic id, so a company found twice is fetched once).

export const SEARCH_CAP = 1000;

/** The legal forms a full backfill walks (Firmenbuch RECHTSFORM codes). */
export const BACKFILL_LEGAL_FORMS = ['GES', 'AG', 'KG', 'OG', 'EU', 'GEN', 'PST', 'SE', 'SPA', 'VER'];
export const MAX_PREFIX_LENGTH = 8;

/** First characters of Austrian company names (upper case: the search is exact, names start capitalised). */
export const FIRST_CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ0123456789'];
/** Characters a longer prefix may continue with. */
export const NEXT_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyzäöüßABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ0123456789 .-&'];

export interface BackfillTask {
  legalForm: string;
  prefix: string;
  /** Statistik-Austria federal-state digit, once prefixes alone cannot get below the cap. */
  ortnr?: string;
}

/** The root tasks: every first character under every legal form. */
export function backfillRoots(legalForms: readonly string[]): BackfillTask[] {
  return legalForms.flatMap((legalForm) => FIRST_CHARACTERS.map((prefix) => ({ legalForm, prefix })));
}

/**
 * What to search next when a task hit the cap: longer prefixes, then the prefix per federal state.
 * Empty when even that cannot narrow it (the caller keeps the 1000 hits and reports the rest).
 */
export function splitCappedTask(task: BackfillTask): BackfillTask[] {
  if (task.prefix.length < MAX_PREFIX_LENGTH) return NEXT_CHARACTERS.map((c) => ({ ...task, prefix: task.prefix + c }));
  if (task.ortnr === undefined) return ['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((ortnr) => ({ ...task, ortnr }));
  return [];
}
