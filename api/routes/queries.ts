// Saved queries (Abfragen), account-bound: list newest first, save (de-duplicated by canonical
// filters, `updateId` pins the record being edited), get, delete, delete all. Another account's id
// is a 404, never a 403: ids of other accounts are not confirmed to exist.
// Route pipeline: validate -> store -> presenter. Request schemas here are also the OpenAPI document's (queries.docs.ts).
import Router from '@koa/router';
import { z } from 'zod';
import type { Sql } from '../../runtime/db.js';
import { notFound, validationFailed } from '../errors.js';
import { bodyOf } from '../middleware/requestBody.js';
import { presentSavedQuery } from '../presenters/accountRecords.js';
import { requireAccount } from '../requestState.js';
import { canonicalFilters } from '../screener/filters.js';
import { deleteAllSavedQueries, deleteSavedQuery, getSavedQuery, listSavedQueries, saveQuery } from '../stores/savedQueries.js';
import { idParams, noQuery, parseBody, parseParams, parseQuery } from '../validation.js';

const filterValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const SaveQuery = z
  .strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
    filters: z.record(z.string(), filterValue, { error: 'must be an object of screener parameters' }).meta({
      description:
        'Screener query parameters by their exact names (`city`, `guv.Umsatzerloese_gte`, `orderBy`, `orderByDescending`, ...), ' +
        'without `page`, `pageSize` and `countOnly`. Stored in canonical form: `fnr` normalised, numbers as numbers, ' +
        'booleans as booleans, empty values dropped, keys sorted. Unknown names are a 400 naming them.',
      example: { city: 'Wien', 'guv.Umsatzerloese_gte': 1000000, orderBy: 'guv.Umsatzerloese', orderByDescending: true },
    }),
    updateId: z.uuid({ error: 'must be the id of one of your saved queries' }).optional().meta({
      description:
        'Pins the record being edited: it takes the new filters and name and keeps its id. If the new filters equal another ' +
        'of your saved queries, that other record is folded into this one (deleted).',
    }),
  })
  .meta({ id: 'SaveQuery' });

function parseSaveQuery(body: unknown) {
  const input = parseBody(SaveQuery, body);
  const { filters, canonical, errors } = canonicalFilters(input.filters);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  return { ...input, filters, canonical };
}

export function queryRouter(sql: Sql): Router {
  const router = new Router();

  router.get('/queries', async (ctx) => {
    parseQuery(noQuery, ctx.query);
    const accountId = requireAccount(ctx);
    ctx.body = (await listSavedQueries(sql, accountId)).map(presentSavedQuery);
  });

  router.post('/queries', async (ctx) => {
    const accountId = requireAccount(ctx);
    const input = parseSaveQuery(bodyOf(ctx));
    const saved = await saveQuery(sql, { accountId, ...input });
    if (!saved) throw notFound(`You have no saved query ${input.updateId}.`);
    ctx.body = presentSavedQuery(saved);
  });

  // Registered before /queries/:id so that `all` is not taken for an id.
  router.delete('/queries/all', async (ctx) => {
    await deleteAllSavedQueries(sql, requireAccount(ctx));
    ctx.status = 204;
  });

  router.get('/queries/:id', async (ctx) => {
    parseQuery(noQuery, ctx.query);
    const accountId = requireAccount(ctx);
    const { id } = parseParams(idParams, ctx.params);
    const saved = await getSavedQuery(sql, accountId, id);
    if (!saved) throw notFound(`You have no saved query ${id}.`);
    ctx.body = presentSavedQuery(saved);
  });

  router.delete('/queries/:id', async (ctx) => {
    const accountId = requireAccount(ctx);
    const { id } = parseParams(idParams, ctx.params);
    if (!(await deleteSavedQuery(sql, accountId, id))) throw notFound(`You have no saved query ${id}.`);
    ctx.status = 204;
  });

  return router;
}
