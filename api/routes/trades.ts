// The trade register (GISA): the trade catalogue (GET /trades), the licences of one trade
// (/trades/{tradeKey}/licenses) and of one company (/trades/company/{fnr}), and the signed extract as
// PDF (/trades/documents/{gisaZahl}), fetched through the pipeline under GISA's extract quota.
// Route pipeline: validate -> query -> presenter (api/presenters/licences.ts).
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { countedPage } from '../../runtime/countedPage.js';
import type { Sql } from '../../runtime/db.js';
import type { TradeExtractSource } from '../../runtime/tradeExtractSource.js';
import { notFound } from '../errors.js';
import { presentPage } from '../presenters/envelope.js';
import { LICENCE_CATALOGUE_JOIN, licenceJson, LICENCE_ORDER, presentLicence, type LicenceRow } from '../presenters/licences.js';
import { pagingShape, parseQuery, pathText, queryBoolean } from '../validation.js';

export const GISA_UNAVAILABLE = 'GISA aktuell nicht verfügbar';
export const EXTRACT_PENDING = 'Der Gewerbeauszug wird erstellt; bitte später erneut anfragen';
/** How long a request waits for an extract job before answering 503 (the job goes on). */
export const EXTRACT_WAIT_MS = 25_000;

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
export const extractQuery = z.object({
  language: z.enum(['de', 'en'], { error: 'must be de or en' }).default('de').meta({ description: 'Language of the extract: `de` (default) or `en`.' }),
  historical: queryBoolean.default(false).meta({ description: '`true`: the historical extract, with the licence\'s past states; default `false`.' }),
});
const tradeKeyPath = z.string().regex(/^\d{1,6}$/);
const gisaZahlPath = z.string().regex(/^\d{1,10}$/);

/** Word similarity from which a catalogue name counts as a fuzzy hit (pg_trgm). */
const FUZZY_MIN = 0.45;

function plainText(ctx: Context, status: number, text: string, retryAfterSeconds: number): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('Retry-After', String(retryAfterSeconds));
  ctx.body = text;
}

export function tradesRouter(deps: { sql: Sql; extracts: TradeExtractSource; extractWaitMs?: number }): Router {
  const { sql } = deps;
  const router = new Router();

  // Ranked like the name autocomplete: key or exact name, name prefix, word prefix, fuzzy (typos);
  // umlaut spellings fold (search_norm: ä = ae).
  router.get('/trades', async (ctx) => {
    const q = parseQuery(tradesQuery, ctx.query);
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
    ctx.body = presentPage(rows.map((r) => ({ tradeKey: r.tradeKey, name: r.name, kind: r.kind, licenseCount: Number(r.licenseCount) })), q.page, q.pageSize, total);
  });

  router.get('/trades/company/:fnr', async (ctx) => {
    const fnr = pathText(ctx.params, 'fnr');
    const q = parseQuery(companyLicensesQuery, ctx.query);
    const [company] = await sql<{ total: number; known: boolean }[]>`
      SELECT (SELECT count(*)::int FROM trade_license WHERE fnr = ${fnr}) AS total, EXISTS (SELECT 1 FROM company WHERE fnr = ${fnr}) AS known`;
    if (!company!.known && company!.total === 0) throw notFound(`No company has the register number ${fnr}.`);
    const rows = await sql<{ licence: LicenceRow }[]>`
      SELECT ${licenceJson(sql)} AS licence FROM trade_license t ${sql.unsafe(LICENCE_CATALOGUE_JOIN)} WHERE t.fnr = ${fnr}
       ORDER BY ${sql.unsafe(LICENCE_ORDER)} LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`;
    ctx.body = presentPage(rows.map((r) => presentLicence(r.licence)), q.page, q.pageSize, company!.total);
  });

  router.get('/trades/documents/:gisaZahl', async (ctx) => {
    const gisaZahl = pathText(ctx.params, 'gisaZahl');
    const q = parseQuery(extractQuery, ctx.query);
    const [known] = gisaZahlPath.safeParse(gisaZahl).success ? await sql`SELECT 1 FROM trade_license WHERE gisa_zahl = ${gisaZahl}` : [];
    if (!known) throw notFound(`No trade licence has the GISA-Zahl ${gisaZahl}.`);
    let answer;
    try {
      answer = await deps.extracts.extract({ gisaZahl, language: q.language, historical: q.historical }, deps.extractWaitMs ?? EXTRACT_WAIT_MS);
    } catch {
      return plainText(ctx, 503, GISA_UNAVAILABLE, 60);
    }
    if (answer.kind === 'unknown') throw notFound(`GISA knows no trade licence with the GISA-Zahl ${gisaZahl}.`);
    if (answer.kind === 'pending') return plainText(ctx, 503, EXTRACT_PENDING, answer.retryAfterSeconds);
    if (answer.kind === 'unavailable') return plainText(ctx, 503, GISA_UNAVAILABLE, answer.retryAfterSeconds);
    ctx.status = 200;
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `attachment; filename="GISA-${gisaZahl}-${q.language}${q.historical ? '-historisch' : ''}.pdf"`);
    ctx.body = answer.content;
  });

  router.get('/trades/:tradeKey/licenses', async (ctx) => {
    const tradeKey = pathText(ctx.params, 'tradeKey');
    const q = parseQuery(tradeLicensesQuery, ctx.query);
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
    ctx.body = presentPage(rows.map((r) => presentLicence(r.licence)), q.page, q.pageSize, total);
  });

  return router;
}
