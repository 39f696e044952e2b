// Saved queries (Abfragen), account-bound. Route pipeline: validate -> operation
// (api/operations/savedQueries.ts, whose request schema is also the OpenAPI document's) -> write.
import Router from '@koa/router';
import type { Sql } from '../../runtime/db.js';
import { bodyOf } from '../middleware/requestBody.js';
import {
  deleteAccountQuery, deleteAllAccountQueries, getAccountQuery, listAccountQueries, parseSaveQuery, saveAccountQuery,
} from '../operations/savedQueries.js';
import { requireAccount } from '../requestState.js';
import { idParams, noQuery, parseParams, parseQuery } from '../validation.js';

export function queryRouter(sql: Sql): Router {
  const router = new Router();

  router.get('/queries', async (ctx) => {
    parseQuery(noQuery, ctx.query);
    ctx.body = await listAccountQueries(sql, requireAccount(ctx));
  });

  router.post('/queries', async (ctx) => {
    const accountId = requireAccount(ctx);
    ctx.body = await saveAccountQuery(sql, accountId, parseSaveQuery(bodyOf(ctx)));
  });

  // Registered before /queries/:id so that `all` is not taken for an id.
  router.delete('/queries/all', async (ctx) => {
    await deleteAllAccountQueries(sql, requireAccount(ctx));
    ctx.status = 204;
  });

  router.get('/queries/:id', async (ctx) => {
    parseQuery(noQuery, ctx.query);
    const accountId = requireAccount(ctx);
    ctx.body = await getAccountQuery(sql, accountId, parseParams(idParams, ctx.params).id);
  });

  router.delete('/queries/:id', async (ctx) => {
    const accountId = requireAccount(ctx);
    await deleteAccountQuery(sql, accountId, parseParams(idParams, ctx.params).id);
    ctx.status = 204;
  });

  return router;
}
