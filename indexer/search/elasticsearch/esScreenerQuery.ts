// Builds the Elasticsearch search request for a ScreenerQuery. Pure, and unit-tested on the body it
// produces. Semantics mirror postgresScreenerQuery.ts exactly: filters only (no scoring), figures
// missing from a filing never match a range and sort last, ties broken by fnr.
import { figureColumn } from '../../../schemas/keyFigures.js';
import type { ScreenerQuery } from '../../../schemas/screenerParameters.js';
import { normaliseForSearch, RESULT_COLUMNS } from '../postgresScreenerQuery.js';

type Clause = Record<string, unknown>;

/** Wildcard syntax characters in a term are escaped so they match literally. */
function wildcardContains(term: string): string {
  return `*${term.replace(/[\\*?]/g, (c) => `\\${c}`)}*`;
}

/**
 * The screener's `search`: the Postgres backend matches `all_names_norm LIKE '%<search_norm(search)>%'`
 * (current and former names, ä = ae, punctuation folded to spaces). The same text is indexed here as a
 * wildcard field, so the same infix pattern finds the same companies. It is a filter clause: it scores
 * nothing and the sort stays the screener's own. (The analysed `name` fields, made for prefix and
 * fuzzy matching, would find more than Postgres here: "ller b", typos.)
 */
export function searchFilter(search: string): Clause {
  return { wildcard: { all_names_norm: { value: wildcardContains(normaliseForSearch(search)) } } };
}

export function buildEsFilter(q: ScreenerQuery): Clause[] {
  const filter: Clause[] = [];
  const term = (field: string, value: unknown) => filter.push({ term: { [field]: value } });
  if (q.search !== undefined) filter.push(searchFilter(q.search));
  if (q.fnr !== undefined) term('fnr', q.fnr);
  if (q.city !== undefined) term('city_norm', normaliseForSearch(q.city));
  if (q.zipCode !== undefined) term('zip_code', q.zipCode);
  if (q.courtCode !== undefined) term('court_code', q.courtCode);
  if (q.legalFormCode !== undefined) term('legal_form_code', q.legalFormCode);
  if (q.oenacePath !== undefined) term('oenace_paths', q.oenacePath);
  if (q.gisaLicenseKey !== undefined) term('trade_keys', q.gisaLicenseKey);
  if (q.active !== undefined) term('is_active', q.active);
  if (q.isScheinunternehmen !== undefined) term('is_scheinunternehmen', q.isScheinunternehmen);
  for (const range of q.ranges) {
    const bounds: Record<string, string> = {};
    if (range.gte !== undefined) bounds.gte = range.gte;
    if (range.lte !== undefined) bounds.lte = range.lte;
    filter.push({ range: { [figureColumn(range.figure)]: bounds } });
  }
  return filter;
}

export function buildEsSort(q: ScreenerQuery): Clause[] {
  if (q.orderByName) {
    const order = q.descending ? 'desc' : 'asc';
    return [{ name_norm: { order } }, { fnr: { order } }];
  }
  if (!q.orderBy) return [{ is_active: { order: 'desc' } }, { name_norm: { order: 'asc' } }, { fnr: { order: 'asc' } }];
  return [{ [figureColumn(q.orderBy)]: { order: q.descending ? 'desc' : 'asc', missing: '_last' } }, { fnr: { order: 'asc' } }];
}

export interface EsSearchRequest {
  index: string;
  query: Clause;
  sort?: Clause[];
  from?: number;
  size: number;
  track_total_hits: true;
  _source?: string[];
}

export function buildEsScreenerRequest(q: ScreenerQuery, index: string, options: { countOnly?: boolean } = {}): EsSearchRequest {
  const query = { bool: { filter: buildEsFilter(q) } };
  if (options.countOnly) return { index, query, size: 0, track_total_hits: true };
  return {
    index,
    query,
    sort: buildEsSort(q),
    from: (q.page - 1) * q.pageSize,
    size: q.pageSize,
    // Exact totals: the contract's totalRecords counts every match.
    track_total_hits: true,
    _source: RESULT_COLUMNS,
  };
}
