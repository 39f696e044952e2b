// Identifier rules shared by every adapter and the API (docs/contract/api-decisions.md "Identifiers").

const CHECK_LETTERS = 'abdfghikmpstvwxyz';

/** The Firmenbuch check letter for the numeric part of an FN: `"abdfghikmpstvwxyz"[N mod 17]`. */
export function fnrCheckLetter(numericPart: number): string {
  return CHECK_LETTERS.charAt(numericPart % 17);
}

export interface CanonicalFnr {
  /** Canonical form: digits without leading zeros plus the lower-case check letter (`30435h`). */
  fnr: string;
  /** False when the check letter does not match the digits: kept as given, reported as a warning. */
  checkLetterValid: boolean;
}

const UPSTREAM_FNR = /^(?:FN)?\s*0*(\d{1,6})\s*([a-zA-Z])$/i;

/**
 * Normalises the spellings found upstream (`030435h`, `30435 h`, `FN 30435 H`, `436634I`) to the
 * canonical form. Returns null when the value is not an FN at all.
 */
export function canonicalFnr(raw: string | null | undefined): CanonicalFnr | null {
  if (raw == null) return null;
  const m = UPSTREAM_FNR.exec(raw.trim());
  if (!m) return null;
  const digits = String(Number(m[1]));
  const letter = m[2]!.toLowerCase();
  return { fnr: digits + letter, checkLetterValid: fnrCheckLetter(Number(digits)) === letter };
}

/**
 * The `fnr` query filter of the API: trimmed, spaces and leading zeros removed, case never folded, so
 * `034853 f` matches `34853f` and `34853F` matches nothing.
 */
export function fnrFilterValue(raw: string): string {
  return raw.trim().replace(/\s+/g, '').replace(/^0+(?=\d)/, '');
}

/** Pads an FN's digits to six places, as the first segment of a document KEY does (`030435`). */
export function fnrDigitsPadded(fnr: string): string {
  return fnr.replace(/[a-z]$/i, '').padStart(6, '0');
}

function personIdPart(value: string | null | undefined): string {
  const cleaned = (value ?? '').trim().toLowerCase().replace(/\s+/g, '-');
  return cleaned === '' ? 'x' : cleaned;
}

/**
 * Synthetic person id `firstname-lastname-birthdate` (lower case, inner spaces become hyphens,
 * birthdate `yyyy-mm-dd`, `x` for any part the register does not give). Umlauts are kept.
 */
export function personId(firstName: string | null | undefined, lastName: string | null | undefined, birthDate: string | null | undefined): string {
  return `${personIdPart(firstName)}-${personIdPart(lastName)}-${birthDate ? birthDate : 'x'}`;
}

// person_id_fold() (migration 0026) maps these letters to their base letter.
const FOLD_FROM = 'äáàâãåāăąéèêëēėęěíìîïīįöóòôõøōőüúùûūůűųýÿçćčďđłñńňŕřśšşťţźžż';
const FOLD_TO = 'aaaaaaaaaeeeeeeeeiiiiiioooooooouuuuuuuuyycccddlnnnrrsssttzzz';
const UMLAUT: Record<string, string> = { a: 'ä', o: 'ö', u: 'ü' };

/**
 * The spellings of a person id that person_id_fold() (migration 0026) maps to the same key, as courts
 * and registers write them: each a/o/u as itself, with `e` or as umlaut (`mueller`, `müller`, `muller`),
 * `ss` or `ß`, an accented letter with or without its accent. For index lookups of ids stored as given;
 * callers compare the fold as well. With more than `max` spellings, plain vowels stay as written.
 */
export function personIdSpellings(id: string, max = 512): string[] {
  const lower = id.normalize('NFC').toLowerCase();
  const slots = (plainVowels: boolean): string[][] => {
    const out: string[][] = [];
    for (let i = 0; i < lower.length; i++) {
      const c = lower[i]!;
      const next = lower[i + 1];
      const base = FOLD_TO[FOLD_FROM.indexOf(c)] ?? c;
      if ('aou'.includes(base) && (c !== base || next === 'e' || plainVowels)) {
        if (c === base && next === 'e') i++;
        out.push([base, `${base}e`, UMLAUT[base]!]);
      } else if (c === 'ß' || (c === 's' && next === 's')) {
        if (c === 's') i++;
        out.push(['ss', 'ß']);
      } else out.push(c === base ? [c] : [c, base]);
    }
    return out;
  };
  const combos = (parts: string[][]) => parts.reduce((n, p) => n * p.length, 1);
  let parts = slots(true);
  if (combos(parts) > max) parts = slots(false);
  let spellings = [''];
  for (const choices of parts) {
    spellings = spellings.flatMap((s) => choices.map((c) => s + c));
    if (spellings.length > max) return [lower];
  }
  return [...new Set([lower, ...spellings])];
}

/** Register dates come as `YYYYMMDD` or ISO `YYYY-MM-DD` (optionally with a time); both give `YYYY-MM-DD`. */
export function registerDate(raw: string | null | undefined): string | null {
  if (raw == null) return null;
  const v = raw.trim();
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (!m) m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(v);
  if (!m) {
    const de = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(v);
    if (!de) return null;
    m = [v, de[3]!, de[2]!.padStart(2, '0'), de[1]!.padStart(2, '0')] as unknown as RegExpExecArray;
  }
  const [, y, mo, d] = m;
  const date = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(d)) return null;
  return `${y}-${mo}-${d}`;
}
