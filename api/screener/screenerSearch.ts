// What saved-query exports need from the screener: the fnrs of a filter set's matches, in screener
// order, one page at a time. The screener proper (issue 4, indexer/search) replaces the simple
// Postgres version below through createApp's `screener` dependency.
//
// The simple version reads the source tables directly (no read model), so it is correct but not
// fast: every filter of the screener is supported, at the level of plain SQL:
//   search (name contains, case-insensitive), fnr (exact, canonical), city (case-insensitive),
//   zipCode, courtCode, legalFormCode (exact), oenaceCode (the code or any below it), gisaLicenseKey
//   (an active licence of that trade), active, isScheinunternehmen, and <figure>_gte / _lte over the
//   filing with the latest documentDate (a figure that filing does not report never matches);
//   orderBy any figure (nulls last) with orderByDescending; otherwise by name, then fnr.
import type { Sql } from '../../runtime/db.js';
import { FIGURE_BY_PARAM, figureJsonKey } from '../../schemas/keyFigures.js';
import type { CanonicalFilters } from './filters.js';

export interface ScreenerPage {
  /** Matches of the page, in screener order. */
  fnrs: string[];
  /** All matches. */
  total: number;
}

export interface ScreenerSearch {
  search(filters: CanonicalFilters, paging: { page: number; pageSize: number }): Promise<ScreenerPage>;
}

type Fragment = ReturnType<Sql>;

/** `%term%` for ILIKE, with the pattern characters of the term escaped. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function figureValue(sql: Sql, param: string): Fragment {
  const figure = FIGURE_BY_PARAM.get(param);
  if (!figure) throw new Error(`not a figure: ${param}`);
  return sql`(latest.figures ->> ${figureJsonKey(figure)})::numeric`;
}

function rangeConditions(sql: Sql, filters: CanonicalFilters): Fragment[] {
  const conditions: Fragment[] = [];
  for (const [name, value] of Object.entries(filters)) {
    const range = /^(.+)_(gte|lte)$/.exec(name);
    if (!range || typeof value !== 'number') continue;
    const column = figureValue(sql, range[1]!);
    conditions.push(range[2] === 'gte' ? sql`${column} >= ${value}` : sql`${column} <= ${value}`);
  }
  return conditions;
}

function conditions(sql: Sql, f: CanonicalFilters): Fragment[] {
  const text = (name: string) => (typeof f[name] === 'string' ? (f[name] as string) : undefined);
  const flag = (name: string) => (typeof f[name] === 'boolean' ? (f[name] as boolean) : undefined);
  const list: Fragment[] = [];
  const search = text('search');
  if (search) list.push(sql`c.name ILIKE ${containsPattern(search)}`);
  if (text('fnr')) list.push(sql`c.fnr = ${text('fnr')!}`);
  if (text('city')) list.push(sql`lower(address.city) = lower(${text('city')!})`);
  if (text('zipCode')) list.push(sql`address.zip_code = ${text('zipCode')!}`);
  if (text('courtCode')) list.push(sql`c.court_code = ${text('courtCode')!}`);
  if (text('legalFormCode')) list.push(sql`c.legal_form_code = ${text('legalFormCode')!}`);
  const oenace = text('oenaceCode');
  if (oenace) {
    list.push(sql`EXISTS (SELECT 1 FROM company_oenace o WHERE o.fnr = c.fnr AND (o.code = ${oenace} OR o.code LIKE ${oenace.replace(/[\\%_]/g, '') + '%'}))`);
  }
  const trade = text('gisaLicenseKey');
  if (trade) list.push(sql`EXISTS (SELECT 1 FROM trade_license t WHERE t.fnr = c.fnr AND t.trade_key = ${trade} AND t.ended_on IS NULL)`);
  const active = flag('active');
  if (active !== undefined) list.push(sql`(c.status = 'active') = ${active}`);
  const bogus = flag('isScheinunternehmen');
  if (bogus !== undefined) {
    list.push(sql`EXISTS (SELECT 1 FROM bogus_company_listing b WHERE b.fnr = c.fnr AND b.removed_at IS NULL) = ${bogus}`);
  }
  return [...list, ...rangeConditions(sql, f)];
}

function ordering(sql: Sql, f: CanonicalFilters): Fragment {
  if (typeof f.orderBy !== 'string') return sql`c.name, c.fnr`;
  const column = figureValue(sql, f.orderBy);
  return f.orderByDescending === true ? sql`${column} DESC NULLS LAST, c.fnr` : sql`${column} ASC NULLS LAST, c.fnr`;
}

function where(sql: Sql, list: Fragment[]): Fragment {
  if (list.length === 0) return sql``;
  return list.slice(1).reduce((acc, condition) => sql`${acc} AND ${condition}`, sql`WHERE ${list[0]!}`);
}

export function createPostgresScreener(sql: Sql): ScreenerSearch {
  return {
    async search(filters, { page, pageSize }) {
      const rows = await sql<{ fnr: string; total: number }[]>`
        SELECT c.fnr, count(*) OVER () AS total
          FROM company c
          LEFT JOIN LATERAL (
            SELECT a.city, a.zip_code FROM company_address a
             WHERE a.fnr = c.fnr AND a.is_current ORDER BY a.position LIMIT 1
          ) address ON true
          LEFT JOIN LATERAL (
            SELECT x.figures FROM annual_account x
             WHERE x.fnr = c.fnr ORDER BY x.document_date DESC NULLS LAST, x.document_key LIMIT 1
          ) latest ON true
         ${where(sql, conditions(sql, filters))}
         ORDER BY ${ordering(sql, filters)}
         LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
      return { fnrs: rows.map((r) => r.fnr), total: rows[0]?.total ?? 0 };
    },
  };
}
