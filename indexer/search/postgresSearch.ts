// The Postgres search backend over the company_search read model.
import type { Sql } from '../../runtime/db.js';
import { figuresFromColumns } from '../../schemas/figureRecords.js';
import type { ScreenerQuery } from '../../schemas/screenerParameters.js';
import { buildCountQuery, buildPageQuery } from './postgresScreenerQuery.js';
import { resultFromRows, type ScreenerRow, type SearchBackend } from './searchBackend.js';


type RawRow = Record<string, unknown>;

/** A read-model row (camelCased columns) as a ScreenerRow. */
export function toScreenerRow(raw: RawRow): ScreenerRow {
  const documentDate = raw.documentDate as Date | string | null;
  return {
    fnr: raw.fnr as string,
    name: raw.name as string,
    legalFormCode: raw.legalFormCode as string | null,
    legalFormText: raw.legalFormText as string | null,
    courtCode: raw.courtCode as string | null,
    courtText: raw.courtText as string | null,
    city: raw.city as string | null,
    zipCode: raw.zipCode as string | null,
    isActive: raw.isActive as boolean,
    isScheinunternehmen: raw.isScheinunternehmen as boolean,
    hasEdikt: raw.hasEdikt as boolean,
    documentKey: raw.documentKey as string | null,
    documentDate: documentDate instanceof Date ? documentDate.toISOString().slice(0, 10) : documentDate,
    figures: figuresFromColumns(raw),
  };
}

/**
 * The exact number of matches, on `db` (a connection, or a transaction for a snapshot shared with a
 * page), in the read model's view or the named live table. Screener statements go through `unsafe`,
 * which does not prepare them: each is planned for its values. Prepared, they would turn generic after
 * five executions, and generic plans misjudge skewed filters (a search or a rare range; docs/search.md).
 */
export async function countMatches(db: Sql, query: ScreenerQuery, table?: string): Promise<number> {
  const { text, values } = buildCountQuery(query, table);
  const [row] = await db.unsafe<{ total: number }[]>(text, values as never[]);
  return row?.total ?? 0;
}

export function postgresSearch(sql: Sql): SearchBackend {
  return {
    name: 'postgres',
    count: (query) => countMatches(sql, query),
    screener: async (query, options = {}) => {
      if (options.countOnly) return resultFromRows([], await countMatches(sql, query), options);
      const page = buildPageQuery(query);
      // One snapshot for the page and its total (pipelined on one connection): read apart, an indexer
      // commit between them answered totalRecords 1 with an empty page.
      const [rows, total] = await sql.begin('isolation level repeatable read read only', (tx) => {
        const db = tx as unknown as Sql;
        return Promise.all([db.unsafe<RawRow[]>(page.text, page.values as never[]), countMatches(db, query)]);
      });
      return resultFromRows(rows.map(toScreenerRow), total, options);
    },
  };
}
