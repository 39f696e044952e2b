// Catalogue endpoints: codes the other endpoints use, resolved to names. All searchable and paged.
// Route pipeline: validate -> operation (api/operations/catalogues.ts, keyFigures.ts) -> write.
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';
import { conditionalGet } from '../middleware/conditionalGet.js';
import {
  catalogueQuery, listAssignmentFunctions, listCities, listCourts, listLegalForms, listLocations, listOenaceClasses, listZipCodes, oenaceQuery,
} from '../operations/catalogues.js';
import { keyFigurePage, keyFigureQuery } from '../operations/keyFigures.js';
import { parseQuery } from '../validation.js';

export function catalogueRouter(sql: Sql): Router {
  const router = new Router();
  // Every route here is a catalogue: ETag, 304 and Cache-Control (api/middleware/conditionalGet.ts).
  const cached = conditionalGet('catalogue');

  router.get('/oenace', cached, async (ctx) => {
    ctx.body = await listOenaceClasses(sql, parseQuery(oenaceQuery, ctx.query));
  });
  router.get('/legalforms', cached, async (ctx) => {
    ctx.body = await listLegalForms(sql, parseQuery(catalogueQuery, ctx.query));
  });
  router.get('/courts', cached, async (ctx) => {
    ctx.body = await listCourts(sql, parseQuery(catalogueQuery, ctx.query));
  });
  router.get('/assignmentfunctions', cached, async (ctx) => {
    ctx.body = await listAssignmentFunctions(sql, parseQuery(catalogueQuery, ctx.query));
  });
  // The 47 screener figures with their sign as filed (keyFigures.ts); from memory, no query.
  router.get('/keyfigures', cached, (ctx) => {
    ctx.body = keyFigurePage(parseQuery(keyFigureQuery, ctx.query));
  });
  // Cities are municipalities (Gemeinden) with the zip codes that serve them.
  router.get('/addresses/cities', cached, async (ctx) => {
    ctx.body = await listCities(sql, parseQuery(catalogueQuery, ctx.query));
  });
  router.get('/addresses/zipcodes', cached, async (ctx) => {
    ctx.body = await listZipCodes(sql, parseQuery(catalogueQuery, ctx.query));
  });
  router.get('/addresses/locations', cached, async (ctx) => {
    ctx.body = await listLocations(sql, parseQuery(catalogueQuery, ctx.query));
  });

  return router;
}
