// Company numbers in the autocomplete (GET /businesses/names): a term that reads as an fnr the way users
// type one ("FN 30435 h", "030435H", "30435", "304") finds that company, and every company whose
// number starts with the digits. Both are reads of the read model's primary key, never a scan.
import type { Sql } from '../../runtime/db.js';
import { fnrCheckLetter } from '../../schemas/identifiers.js';
import type { NameHit } from './nameSearch.js';

export interface FnrTerm {
  /** Digits without leading zeros. */
  digits: string;
  /** The check letter as typed (lower case), or null. */
  letter: string | null;
}

const FNR_LIKE = /^(?:fn\.?\s*)?(\d{1,10})\s*([a-z])?$/i;

/** The term as a company number or its prefix, or null when it does not read as one. */
export function fnrTerm(input: string): FnrTerm | null {
  const m = FNR_LIKE.exec(input.trim());
  if (!m) return null;
  const digits = m[1]!.replace(/^0+/, '');
  // Register numbers have at most six digits.
  if (digits === '' || digits.length > 6) return null;
  return { digits, letter: m[2]?.toLowerCase() ?? null };
}

/**
 * The upper end of the fnrs that start with `digits`: fnrs are digits and a lower-case letter, and
 * every such continuation sorts at or below eight z's, in byte order and in any collation that orders
 * digits before letters. An increment ('40:') would not do: locale collations skip punctuation.
 */
const upperEnd = (digits: string) => `${digits}zzzzzzzz`;

export interface FnrMatches {
  /** The exact number first (band `fnr`), then the others in fnr order (band `fnrPrefix`). */
  hits: NameHit[];
  /** How many companies the term names, up to `cap`. */
  total: number;
}

/**
 * With a check letter: that company only. Without: the company with exactly these digits (its
 * check letter computed), then those whose number continues them, in fnr order; `limit` at most.
 */
export async function fnrMatches(sql: Sql, term: FnrTerm, limit: number, cap: number): Promise<FnrMatches> {
  const exact = term.digits + (term.letter ?? fnrCheckLetter(Number(term.digits)));
  const rows = await sql<{ fnr: string; name: string; city: string | null; isActive: boolean; total: number }[]>`
    WITH total AS MATERIALIZED (
      SELECT count(*)::int AS n FROM (
        SELECT 1 FROM company_search
         WHERE ${term.letter === null
           ? sql`fnr >= ${term.digits} AND fnr <= ${upperEnd(term.digits)} AND starts_with(fnr, ${term.digits})`
           : sql`fnr = ${exact}`}
         LIMIT ${cap}) t)
    (SELECT fnr, name, city, is_active, (SELECT n FROM total) AS total FROM company_search WHERE fnr = ${exact})
    UNION ALL
    (SELECT fnr, name, city, is_active, (SELECT n FROM total) AS total FROM company_search
      WHERE ${term.letter === null} AND fnr >= ${term.digits} AND fnr <= ${upperEnd(term.digits)} AND starts_with(fnr, ${term.digits}) AND fnr <> ${exact}
      ORDER BY fnr LIMIT ${limit})`;
  const hits = rows.slice(0, limit).map((r): NameHit => ({
    fnr: r.fnr, name: r.name, city: r.city, isActive: r.isActive,
    band: r.fnr === exact ? 'fnr' : 'fnrPrefix',
    // How much of the number the term gives.
    score: r.fnr === exact ? 1 : Math.round((term.digits.length / (r.fnr.length - 1)) * 1000) / 1000,
  }));
  // Every row carries the total; no row, no match.
  return { hits, total: rows[0]?.total ?? 0 };
}
