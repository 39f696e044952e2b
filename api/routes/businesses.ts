// Company search endpoints: the screener (GET /businesses), its count, name autocomplete, similar
// companies and batch name resolution. Route pipeline: validate -> search backend -> presenter.
import Router from '@koa/router';
import { z } from 'zod';
import { autocompleteNames, resolveBand, resolveNames } from '../../indexer/search/nameSearch.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import { findSimilar } from '../../indexer/search/similarCompanies.js';
import type { Sql } from '../../runtime/db.js';
import { SCREENER_BASE_FIELDS, parseScreenerFields } from '../../schemas/screenerFields.js';
import { screenerFilterShape } from '../../schemas/screenerParameters.js';
import { notFound, validationFailed } from '../errors.js';
import { bodyOf } from '../middleware/requestBody.js';
import { bodyBuffers } from '../presenters/bodyBuffers.js';
import { presentNameHit, presentResolvedName, presentSimilar } from '../presenters/businesses.js';
import { pageEnvelopeJson, presentPage } from '../presenters/envelope.js';
import { screenerQueryFrom } from '../screener/screenerQuery.js';
import { pagingShape, parseQuery, pathText, queryBoolean } from '../validation.js';

/** `fields=name,city,guv.Umsatzerloese`: the parts of each row the answer carries (schemas/screenerFields.ts). */
const fieldsParameter = z.string().transform((text, ctx) => {
  const parsed = parseScreenerFields(text);
  if ('fields' in parsed) return parsed.fields;
  ctx.addIssue({
    code: 'custom',
    message: 'empty' in parsed
      ? 'must name at least one field, for example fields=name,city,guv.Umsatzerloese'
      : `unknown field${parsed.unknown.length > 1 ? 's' : ''} ${parsed.unknown.join(', ')}: names are fnr, ${SCREENER_BASE_FIELDS.join(', ')}, keyFigures, documentDate or a figure such as guv.Umsatzerloese, bilanz.BilanzSumme, employees`,
  });
  return z.NEVER;
}).meta({
  description: 'Comma-separated parts of each row to return; without it, whole rows. fnr is always returned. Names: ' +
    `${['fnr', ...SCREENER_BASE_FIELDS].map((n) => `\`${n}\``).join(', ')}, \`keyFigures\` (every figure), \`documentDate\` ` +
    '(keyFigures with its documentDate only), and any figure parameter base (`guv.Umsatzerloese`, `bilanz.BilanzSumme`, `employees`, ...; ' +
    'see GET /keyfigures). Any figure or documentDate keeps `keyFigures` with its `documentDate` and the chosen figures under their JSON keys ' +
    '(`umsatzerloese`), null for a company without a filing. The export\'s `columns` use the same names for the same columns. An unknown name is a 400 naming it.',
  example: 'name,city,guv.Umsatzerloese,employees',
});

export const screenerQuery = z.object({ ...screenerFilterShape, ...pagingShape(), countOnly: queryBoolean.optional()
    .meta({ description: '`true`: answer `data: []` with the true totalRecords and totalPages, no rows (default `false`).' }), fields: fieldsParameter.optional() });
export const countQuery = z.object(screenerFilterShape);
export const namesQuery = z.object({
  search: z.string({ error: 'is required: the start of a company name (current or former) or a company number (fnr) to find' })
    .trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters')
    .meta({ description: 'What the user typed so far: the start of a current or former company name (any word of it), or a company number or its start (`FN 30435 h`, `30435`).', example: 'mueller bau' }),
  ...pagingShape(),
});
export const similarQuery = z.object(pagingShape());
export const resolveNamesBody = z.object({
  names: z.array(z.string().max(500, 'must be at most 500 characters')).min(1, 'must hold at least one name').max(1000, 'must hold at most 1000 names'),
}).strict();


export function businessesRouter(deps: { sql: Sql; search: SearchBackend }): Router {
  const { sql, search } = deps;
  const router = new Router();

  router.get('/businesses', async (ctx) => {
    const q = parseQuery(screenerQuery, ctx.query);
    const query = await screenerQueryFrom(sql, q, { page: q.page, pageSize: q.pageSize });
    // The body comes as JSON bytes: a page of 1000 is 1.5 MB, and the columns backend writes it directly.
    const envelope = (total: number) => pageEnvelopeJson(q.page, q.pageSize, total);
    const result = await search.screener(query, { countOnly: q.countOnly ?? false, envelope, allocate: (size) => bodyBuffers.take(ctx, size), fields: q.fields });
    ctx.type = 'application/json';
    ctx.body = result.json();
  });

  router.get('/businesses/count', async (ctx) => {
    const q = parseQuery(countQuery, ctx.query);
    ctx.body = { count: await search.count(await screenerQueryFrom(sql, q, { page: 1, pageSize: 1 })) };
  });

  router.get('/businesses/names', async (ctx) => {
    const q = parseQuery(namesQuery, ctx.query);
    // totalRecords counts all candidates up to the cap, not just those ranked for this page.
    const { hits, total } = await autocompleteNames(sql, q.search, q.page * q.pageSize, search.names);
    const page = hits.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
    ctx.body = presentPage(page.map(presentNameHit), q.page, q.pageSize, total);
  });

  router.post('/businesses/resolve-names', async (ctx) => {
    const parsed = resolveNamesBody.safeParse(bodyOf(ctx));
    if (!parsed.success) {
      throw validationFailed(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'body', [i.message]])));
    }
    // One set of statements for the whole batch (resolveNames), not a lookup per name.
    const candidates = await resolveNames(sql, parsed.data.names, 5);
    ctx.body = parsed.data.names.map((name, i) => {
      const hits = candidates[i]!;
      return presentResolvedName(name, hits, resolveBand(hits[0]));
    });
  });

  router.get('/businesses/:fnr/similar', async (ctx) => {
    const q = parseQuery(similarQuery, ctx.query);
    const fnr = pathText(ctx.params, 'fnr');
    const result = await findSimilar(sql, fnr, { page: q.page, pageSize: q.pageSize });
    if (!result) throw notFound(`No company has the register number ${fnr}.`);
    ctx.body = presentPage(result.rows.map(presentSimilar), q.page, q.pageSize, result.total);
  });

  return router;
}

