// From the screener's parameters to the search backends' ScreenerQuery, for GET /businesses, its count
// and saved-query exports alike: a saved query exports exactly the companies, in exactly the order,
// that GET /businesses answers for the same filters.
import { oenaceEdv, toScreenerQuery } from '../../indexer/search/screenerFilters.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import type { Sql } from '../../runtime/db.js';
import { screenerFilters, type CanonicalFilters, type ScreenerFilterInput, type ScreenerQuery } from '../../schemas/screenerParameters.js';
import { validationFailed } from '../errors.js';
import { filterParams } from './filters.js';

/** Resolves an ÖNACE code in any spelling (with or without section letter) to its EDV path, or 400. */
async function resolveOenace(sql: Sql, code: string | undefined): Promise<string | undefined> {
  if (code === undefined) return undefined;
  const edv = oenaceEdv(code);
  const [row] = await sql<{ edvCode: string }[]>`
    SELECT edv_code FROM oenace_class
     WHERE version = '2008' AND (edv_code = ${edv} OR regexp_replace(edv_code, '^[A-Z]', '') = ${edv})
     ORDER BY level LIMIT 1`;
  if (!row) throw validationFailed({ oenaceCode: [`no ÖNACE 2008 class has the code ${code}`] });
  return row.edvCode;
}

export async function screenerQueryFrom(sql: Sql, input: ScreenerFilterInput, paging: { page: number; pageSize: number }): Promise<ScreenerQuery> {
  return toScreenerQuery(input, paging, await resolveOenace(sql, input.oenaceCode));
}

/**
 * The first `limit` matches of a saved filter set, in screener order. Filters saved before a rule got
 * stricter can fail today's validation: a 400 naming them, keyed like the saved record's fields.
 */
export async function savedQueryMatches(sql: Sql, search: SearchBackend, filters: CanonicalFilters, limit: number): Promise<string[]> {
  const parsed = screenerFilters.strict().safeParse(filterParams(filters));
  if (!parsed.success) {
    throw validationFailed(Object.fromEntries(parsed.error.issues.map((i) => [`filters.${i.path.join('.')}`, [`(saved) ${i.message}`]])));
  }
  const result = await search.screener(await screenerQueryFrom(sql, parsed.data, { page: 1, pageSize: limit }));
  return result.fnrs;
}
