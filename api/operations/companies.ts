// Company search operations: the screener (GET /businesses), its count, name autocomplete, batch name
// resolution and similar companies. Each takes input validated with the schemas below (the routes'
// and the MCP tools' alike) and returns what the API presents; the caller writes it (api/routes/businesses.ts
// as JSON bytes, api/mcp/ as structured content).
import { z } from 'zod';
import { autocompleteNames, resolveBand, resolveNames } from '../../indexer/search/nameSearch.js';
import type { ScreenerResult, SearchBackend } from '../../indexer/search/searchBackend.js';
import { findSimilar } from '../../indexer/search/similarCompanies.js';
import type { Sql } from '../../runtime/db.js';
import { SCREENER_BASE_FIELDS, parseScreenerFields } from '../../schemas/screenerFields.js';
import { screenerFilterShape } from '../../schemas/screenerParameters.js';
import { notFound, validationFailed } from '../errors.js';
import { presentNameHit, presentResolvedName, presentSimilar } from '../presenters/businesses.js';
import { pageEnvelopeJson, presentPage } from '../presenters/envelope.js';
import { screenerQueryFrom } from '../screener/screenerQuery.js';
import { pagingShape, queryBoolean } from '../validation.js';

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

export type ScreenerInput = z.infer<typeof screenerQuery>;
export type CountInput = z.infer<typeof countQuery>;
export type NamesInput = z.infer<typeof namesQuery>;
export type SimilarInput = z.infer<typeof similarQuery>;

export interface SearchDeps {
  sql: Sql;
  search: SearchBackend;
}

/**
 * GET /businesses: one page of the screener. The result offers the rows both ways: json() is the
 * whole answer as bytes (in `allocate`'s buffer, the route's reusable body buffers), screenerPage()
 * the same page as objects.
 */
export async function searchCompanies(deps: SearchDeps, q: ScreenerInput, allocate?: (size: number) => Buffer): Promise<ScreenerResult> {
  const query = await screenerQueryFrom(deps.sql, q, { page: q.page, pageSize: q.pageSize });
  const envelope = (total: number) => pageEnvelopeJson(q.page, q.pageSize, total);
  return deps.search.screener(query, { countOnly: q.countOnly ?? false, envelope, allocate, fields: q.fields });
}

/**
 * searchCompanies' page as the list envelope of objects (what its json() holds). Its rows are read
 * from the backend's JSON only when something reads `data` (a serializer does): a caller that writes
 * json() itself never parses the page back. `rowCount` (not enumerable, no serializer sees it) says
 * how many rows `data` holds without reading them.
 */
export function screenerPage(result: ScreenerResult, q: ScreenerInput) {
  let rows: ReturnType<ScreenerResult['presented']> | undefined;
  const page = presentPage<ReturnType<ScreenerResult['presented']>[number]>([], q.page, q.pageSize, result.total);
  Object.defineProperty(page, 'data', { enumerable: true, get: () => (rows ??= result.presented()) });
  return Object.defineProperty(page, 'rowCount', { value: result.fnrs.length }) as typeof page & { readonly rowCount?: number };
}

/** GET /businesses/count. */
export async function countCompanies(deps: SearchDeps, q: CountInput): Promise<{ count: number }> {
  return { count: await deps.search.count(await screenerQueryFrom(deps.sql, q, { page: 1, pageSize: 1 })) };
}

/** GET /businesses/names: totalRecords counts all candidates up to the cap, not just those ranked for this page. */
export async function autocompleteCompanyNames(deps: SearchDeps, q: NamesInput) {
  const { hits, total } = await autocompleteNames(deps.sql, q.search, q.page * q.pageSize, deps.search.names);
  const page = hits.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
  return presentPage(page.map(presentNameHit), q.page, q.pageSize, total);
}

/** The body of POST /businesses/resolve-names, or a 400 naming each problem. */
export function parseResolveNames(body: unknown): z.infer<typeof resolveNamesBody> {
  const parsed = resolveNamesBody.safeParse(body);
  if (!parsed.success) {
    throw validationFailed(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'body', [i.message]])));
  }
  return parsed.data;
}

/** POST /businesses/resolve-names: one set of statements for the whole batch (resolveNames), not a lookup per name. */
export async function resolveCompanyNames(sql: Sql, input: z.infer<typeof resolveNamesBody>) {
  const candidates = await resolveNames(sql, input.names, 5);
  return input.names.map((name, i) => {
    const hits = candidates[i]!;
    return presentResolvedName(name, hits, resolveBand(hits[0]));
  });
}

/** GET /businesses/{fnr}/similar; 404 for an unknown company. */
export async function findSimilarCompanies(sql: Sql, fnr: string, q: SimilarInput) {
  const result = await findSimilar(sql, fnr, { page: q.page, pageSize: q.pageSize });
  if (!result) throw notFound(`No company has the register number ${fnr}.`);
  return presentPage(result.rows.map(presentSimilar), q.page, q.pageSize, result.total);
}
