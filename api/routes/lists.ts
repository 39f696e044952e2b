// Company lists (Listen), account-bound. Route pipeline: validate -> operation
// (api/operations/lists.ts, whose request schemas are also the OpenAPI document's) -> write.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Sql } from '../../runtime/db.js';
import { bodyOf } from '../middleware/requestBody.js';
import {
  changeListMembers, CreateList, createAccountList, deleteAccountList, getAccountList, listAccountLists, ListMembers, UpdateList,
  updateAccountList,
} from '../operations/lists.js';
import { requireAccount } from '../requestState.js';
import { idParams, noQuery, parseBody, parseParams, parseQuery } from '../validation.js';

async function changeMembers(ctx: Context, sql: Sql, change: 'add' | 'remove'): Promise<void> {
  const accountId = requireAccount(ctx);
  const { id } = parseParams(idParams, ctx.params);
  ctx.body = await changeListMembers(sql, accountId, id, change, parseBody(ListMembers, bodyOf(ctx)));
}

export function listRouter(sql: Sql): Router {
  const router = new Router();

  router.get('/lists', async (ctx) => {
    parseQuery(noQuery, ctx.query);
    ctx.body = await listAccountLists(sql, requireAccount(ctx));
  });

  router.post('/lists', async (ctx) => {
    const accountId = requireAccount(ctx);
    ctx.body = await createAccountList(sql, accountId, parseBody(CreateList, bodyOf(ctx)));
  });

  router.get('/lists/:id', async (ctx) => {
    parseQuery(noQuery, ctx.query);
    const accountId = requireAccount(ctx);
    ctx.body = await getAccountList(sql, accountId, parseParams(idParams, ctx.params).id);
  });

  router.patch('/lists/:id', async (ctx) => {
    const accountId = requireAccount(ctx);
    const { id } = parseParams(idParams, ctx.params);
    ctx.body = await updateAccountList(sql, accountId, id, parseBody(UpdateList, bodyOf(ctx)));
  });

  router.delete('/lists/:id', async (ctx) => {
    const accountId = requireAccount(ctx);
    await deleteAccountList(sql, accountId, parseParams(idParams, ctx.params).id);
    ctx.status = 204;
  });

  router.post('/lists/:id/add', (ctx) => changeMembers(ctx, sql, 'add'));
  router.post('/lists/:id/remove', (ctx) => changeMembers(ctx, sql, 'remove'));

  return router;
}
