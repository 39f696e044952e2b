// Trade-register operations (GISA): the trade catalogue (GET /trades), the licences of one trade
// (GET /trades/{tradeKey}/licenses) and of one company (GET /trades/company/{fnr}).
import { z } from 'zod';
import { countedPage } from '../../runtime/countedPage.js';
import type { Sql } from '../../runtime/db.js';
import { notFound } from '../errors.js';
import { presentPage } from '../presenters/envelope.js';
import { LICENCE_CATALOGUE_JOIN, licenceJson, LICENCE_ORDER, presentLicence, type LicenceRow } from '../presenters/licences.js';
import { pagingShape, queryBoolean } from '../validation.js';

export const tradesQuery = z.object({
  search: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional()
    .meta({ description: 'A trade key or (part of) a trade name; umlaut spellings fold (ä = ae), near spellings are found last.', example: 'baumeister' }),
  kind: z.string().trim().min(1, 'must not be empty').max(50, 'must be at most 50 characters').optional()
    .meta({ description: 'Kind of trade, case-insensitive: `reglementiert` or `frei`.', example: 'reglementiert' }),
  ...pagingShape(),
});
export const tradeLicensesQuery = z.object({
  active: queryBoolean.optional().meta({ description: '`true`: licences not ended (dormant ones included); `false`: ended ones. Without it: both.' }),
  zipCode: z.string().trim().regex(/^\d{4}$/, 'must be a four-digit zip code').optional()
    .meta({ description: 'Licences at a location with this zip code.', example: '3002' }),
  ...pagingShape(),
});
export const companyLicensesQuery = z.object({ ...pagingShape() });
const tradeKeyPath = z.string().regex(/^\d{1,6}$/);

/** Word similarity from which a catalogue name counts as a fuzzy hit (pg_trgm). */
const FUZZY_MIN = 0.45;

export type TradesInput = z.infer<typeof tradesQuery>;
export type TradeLicensesInput = z.infer<typeof tradeLicensesQuery>;
export type CompanyLicensesInput = z.infer<typeof companyLicensesQuery>;

/**
 * GET /trades, ranked like the name autocomplete: key or exact name, name prefix, word prefix, fuzzy
 * (typos); umlaut spellings fold (search_norm: ä = ae).
 */
export async function listTrades(sql: Sql, q: TradesInput) {
  const { rows, total } = await countedPage((limit, offset) => sql<{ tradeKey: string; name: string; kind: string | null; licenseCount: number; totalRecords: number }[]>`
    WITH term AS (SELECT search_norm(${q.search ?? ''}) AS t, ${q.search ?? ''}::text AS raw),
    ranked AS (
      SELECT tr.trade_key, tr.name, tr.kind, coalesce(c.total, 0) AS license_count, n.norm,
             CASE WHEN term.t = '' THEN 0
                  WHEN tr.trade_key = term.raw OR n.norm = term.t THEN 0
                  WHEN n.norm LIKE term.t || '%' OR tr.trade_key LIKE term.raw || '%' THEN 1
                  WHEN ' ' || n.norm LIKE '% ' || term.t || '%' THEN 2
                  WHEN word_similarity(term.t, n.norm) >= ${FUZZY_MIN} THEN 3 END AS band,
             CASE WHEN term.t = '' THEN 0 ELSE word_similarity(term.t, n.norm) END AS score
        FROM trade tr CROSS JOIN term
        CROSS JOIN LATERAL (SELECT search_norm(tr.name) AS norm) n
        LEFT JOIN trade_license_count c ON c.trade_key = tr.trade_key
       WHERE ${q.kind ? sql`lower(tr.kind) = lower(${q.kind})` : sql`true`})
    SELECT trade_key, name, kind, license_count, count(*) OVER () AS total_records
      FROM ranked WHERE band IS NOT NULL
     ORDER BY band, score DESC, trade_key
     LIMIT ${limit} OFFSET ${offset}`, q);
  return presentPage(rows.map((r) => ({ tradeKey: r.tradeKey, name: r.name, kind: r.kind, licenseCount: Number(r.licenseCount) })), q.page, q.pageSize, total);
}

/** GET /trades/company/{fnr}: 404 when the company is unknown and holds no licence. */
export async function listCompanyLicenses(sql: Sql, fnr: string, q: CompanyLicensesInput) {
  const [company] = await sql<{ total: number; known: boolean }[]>`
    SELECT (SELECT count(*)::int FROM trade_license WHERE fnr = ${fnr}) AS total, EXISTS (SELECT 1 FROM company WHERE fnr = ${fnr}) AS known`;
  if (!company!.known && company!.total === 0) throw notFound(`No company has the register number ${fnr}.`);
  const rows = await sql<{ licence: LicenceRow }[]>`
    SELECT ${licenceJson(sql)} AS licence FROM trade_license t ${sql.unsafe(LICENCE_CATALOGUE_JOIN)} WHERE t.fnr = ${fnr}
     ORDER BY ${sql.unsafe(LICENCE_ORDER)} LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`;
  return presentPage(rows.map((r) => presentLicence(r.licence)), q.page, q.pageSize, company!.total);
}

/** GET /trades/{tradeKey}/licenses: 404 for a trade key that names no trade. */
export async function listTradeLicenses(sql: Sql, tradeKey: string, q: TradeLicensesInput) {
  if (!tradeKeyPath.safeParse(tradeKey).success) throw notFound(`No trade has the key ${tradeKey}.`);
  const filter = sql`t.trade_key = ${tradeKey}
    ${q.active === true ? sql`AND t.ended_on IS NULL` : q.active === false ? sql`AND t.ended_on IS NOT NULL` : sql``}
    ${q.zipCode ? sql`AND t.zip_code = ${q.zipCode}` : sql``}`;
  // One round trip: whether the trade exists, its totals, and the page. The page's GISA-Zahlen are
  // skipped to on the index alone (index-only scan) and only the page's rows are read from the table
  // (as one plain query the planner walked the whole table in key order). Totals of the whole trade
  // come from the counts the store keeps; a zip code is counted on its index range.
  const [trade] = await sql<{ total: number; active: number; zipTotal: number | null; licences: LicenceRow[] | null }[]>`
    SELECT coalesce(c.total, 0) AS total, coalesce(c.active, 0) AS active,
           ${q.zipCode ? sql`(SELECT count(*)::int FROM trade_license t WHERE ${filter})` : sql`NULL::int`} AS zip_total,
           (SELECT json_agg(${licenceJson(sql)} ORDER BY t.gisa_zahl)
              FROM (SELECT t.gisa_zahl FROM trade_license t WHERE ${filter} ORDER BY t.gisa_zahl LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}) page
              JOIN trade_license t USING (gisa_zahl) ${sql.unsafe(LICENCE_CATALOGUE_JOIN)}) AS licences
      FROM trade known LEFT JOIN trade_license_count c ON c.trade_key = known.trade_key
     WHERE known.trade_key = ${tradeKey}`;
  if (!trade) throw notFound(`No trade has the key ${tradeKey}.`);
  const total = trade.zipTotal ?? (q.active === true ? trade.active : q.active === false ? trade.total - trade.active : trade.total);
  const rows = (trade.licences ?? []).map((licence) => ({ licence }));
  return presentPage(rows.map((r) => presentLicence(r.licence)), q.page, q.pageSize, total);
}
