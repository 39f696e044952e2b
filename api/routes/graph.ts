// GET /graph: holdings and functions as typed edges around one company or person.
// Route pipeline: validate -> operation (api/operations/graph.ts) -> write.
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';
import { getGraph, graphQuery } from '../operations/graph.js';
import { parseQuery } from '../validation.js';

export function graphRouter(sql: Sql): Router {
  const router = new Router();
  router.get('/graph', async (ctx) => {
    ctx.body = await getGraph(sql, parseQuery(graphQuery, ctx.query));
  });
  return router;
}
