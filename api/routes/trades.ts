// The trade register (GISA): the trade catalogue (GET /trades), the licences of one trade
// (/trades/{tradeKey}/licenses) and of one company (/trades/company/{fnr}), and the signed extract as
// PDF (/trades/documents/{gisaZahl}), fetched through the pipeline under GISA's extract quota.
// Route pipeline: validate -> operation (api/operations/trades.ts) -> write.
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Sql } from '../../runtime/db.js';
import type { TradeExtractSource } from '../../runtime/tradeExtractSource.js';
import { notFound } from '../errors.js';
import {
  companyLicensesQuery, listCompanyLicenses, listTradeLicenses, listTrades, tradeLicensesQuery, tradesQuery,
} from '../operations/trades.js';
import { parseQuery, pathText, queryBoolean } from '../validation.js';

export const GISA_UNAVAILABLE = 'GISA aktuell nicht verfügbar';
export const EXTRACT_PENDING = 'Der Gewerbeauszug wird erstellt; bitte später erneut anfragen';
/** How long a request waits for an extract job before answering 503 (the job goes on). */
export const EXTRACT_WAIT_MS = 25_000;

export const extractQuery = z.object({
  language: z.enum(['de', 'en'], { error: 'must be de or en' }).default('de').meta({ description: 'Language of the extract: `de` (default) or `en`.' }),
  historical: queryBoolean.default(false).meta({ description: '`true`: the historical extract, with the licence\'s past states; default `false`.' }),
});
const gisaZahlPath = z.string().regex(/^\d{1,10}$/);

function plainText(ctx: Context, status: number, text: string, retryAfterSeconds: number): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('Retry-After', String(retryAfterSeconds));
  ctx.body = text;
}

export function tradesRouter(deps: { sql: Sql; extracts: TradeExtractSource; extractWaitMs?: number }): Router {
  const { sql } = deps;
  const router = new Router();

  router.get('/trades', async (ctx) => {
    ctx.body = await listTrades(sql, parseQuery(tradesQuery, ctx.query));
  });

  router.get('/trades/company/:fnr', async (ctx) => {
    const fnr = pathText(ctx.params, 'fnr');
    ctx.body = await listCompanyLicenses(sql, fnr, parseQuery(companyLicensesQuery, ctx.query));
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
    ctx.body = await listTradeLicenses(sql, tradeKey, parseQuery(tradeLicensesQuery, ctx.query));
  });

  return router;
}
