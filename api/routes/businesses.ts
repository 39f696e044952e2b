// Company search endpoints: the screener (GET /businesses), its count, name autocomplete, similar
// companies and batch name resolution. Route pipeline: validate -> operation (api/operations/companies.ts) -> write.
import Router from '@koa/router';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import type { Sql } from '../../runtime/db.js';
import { bodyOf } from '../middleware/requestBody.js';
import {
  autocompleteCompanyNames, countCompanies, countQuery, findSimilarCompanies, namesQuery, parseResolveNames, resolveCompanyNames,
  screenerQuery, searchCompanies, similarQuery,
} from '../operations/companies.js';
import { bodyBuffers } from '../presenters/bodyBuffers.js';
import { parseQuery, pathText } from '../validation.js';

export function businessesRouter(deps: { sql: Sql; search: SearchBackend }): Router {
  const { sql } = deps;
  const router = new Router();

  router.get('/businesses', async (ctx) => {
    const q = parseQuery(screenerQuery, ctx.query);
    // The body comes as JSON bytes: a page of 1000 is 1.5 MB, and the columns backend writes it directly.
    const result = await searchCompanies(deps, q, (size) => bodyBuffers.take(ctx, size));
    ctx.type = 'application/json';
    ctx.body = result.json();
  });

  router.get('/businesses/count', async (ctx) => {
    ctx.body = await countCompanies(deps, parseQuery(countQuery, ctx.query));
  });

  router.get('/businesses/names', async (ctx) => {
    ctx.body = await autocompleteCompanyNames(deps, parseQuery(namesQuery, ctx.query));
  });

  router.post('/businesses/resolve-names', async (ctx) => {
    ctx.body = await resolveCompanyNames(sql, parseResolveNames(bodyOf(ctx)));
  });

  router.get('/businesses/:fnr/similar', async (ctx) => {
    const q = parseQuery(similarQuery, ctx.query);
    ctx.body = await findSimilarCompanies(sql, pathText(ctx.params, 'fnr'), q);
  });

  return router;
}
