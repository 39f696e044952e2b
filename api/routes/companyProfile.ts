// GET /businesses/{fnr}: the full company profile. Route pipeline: validate -> operation
// (api/operations/companyProfile.ts) -> write, with ETag and 304 (conditionalGet).
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';
import { conditionalGet } from '../middleware/conditionalGet.js';
import { getCompanyProfile } from '../operations/companyProfile.js';
import { noQuery, parseQuery, pathText } from '../validation.js';

export function companyProfileRouter(sql: Sql): Router {
  const router = new Router();
  router.get('/businesses/:fnr', conditionalGet('profile'), async (ctx) => {
    parseQuery(noQuery, ctx.query);
    ctx.body = await getCompanyProfile(sql, pathText(ctx.params, 'fnr'));
  });
  return router;
}
