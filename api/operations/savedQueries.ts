// Saved-query operations (Abfragen), account-bound: list newest first, save (de-duplicated by
// canonical filters, `updateId` pins the record being edited), get, delete, delete all. Another
// account's id is a 404, never a 403: ids of other accounts are not confirmed to exist.
import { z } from 'zod';
import type { Sql } from '../../runtime/db.js';
import { notFound, validationFailed } from '../errors.js';
import { presentSavedQuery } from '../presenters/accountRecords.js';
import { canonicalFilters } from '../screener/filters.js';
import { deleteAllSavedQueries, deleteSavedQuery, getSavedQuery, listSavedQueries, saveQuery } from '../stores/savedQueries.js';
import { parseBody } from '../validation.js';

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

export type SaveQueryInput = ReturnType<typeof parseSaveQuery>;

/** The body of POST /queries, its filters in canonical form; a 400 naming every problem. */
export function parseSaveQuery(body: unknown) {
  const input = parseBody(SaveQuery, body);
  const { filters, canonical, errors } = canonicalFilters(input.filters);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  return { ...input, filters, canonical };
}

/** GET /queries. */
export async function listAccountQueries(sql: Sql, accountId: string) {
  return (await listSavedQueries(sql, accountId)).map(presentSavedQuery);
}

/** POST /queries. */
export async function saveAccountQuery(sql: Sql, accountId: string, input: SaveQueryInput) {
  const saved = await saveQuery(sql, { accountId, ...input });
  if (!saved) throw notFound(`You have no saved query ${input.updateId}.`);
  return presentSavedQuery(saved);
}

/** GET /queries/{id}. */
export async function getAccountQuery(sql: Sql, accountId: string, id: string) {
  const saved = await getSavedQuery(sql, accountId, id);
  if (!saved) throw notFound(`You have no saved query ${id}.`);
  return presentSavedQuery(saved);
}

/** DELETE /queries/{id}. */
export async function deleteAccountQuery(sql: Sql, accountId: string, id: string): Promise<void> {
  if (!(await deleteSavedQuery(sql, accountId, id))) throw notFound(`You have no saved query ${id}.`);
}

/** DELETE /queries/all. */
export async function deleteAllAccountQueries(sql: Sql, accountId: string): Promise<void> {
  await deleteAllSavedQueries(sql, accountId);
}
