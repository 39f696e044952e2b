// Company-list operations (Listen), account-bound: list oldest first, create (empty or with
// companies), get, patch (only carried fields; settings merged key by key, null removes a key), delete,
// add, remove. Membership follows the spec's state table (stores/lists.ts). An fnr that names no
// company is a 400 listing the unknown values, and nothing of that request is applied.
import { z } from 'zod';
import type { Sql } from '../../runtime/db.js';
import { fnrFilterValue } from '../../schemas/identifiers.js';
import { ApiError, notFound } from '../errors.js';
import { presentList } from '../presenters/accountRecords.js';
import {
  addMembers, createList, deleteList, getList, listLists, removeMembers, unknownCompanies, updateList, type CompanyListRow,
} from '../stores/lists.js';

export const MAX_FNRS_PER_REQUEST = 1000;

const name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const settings = z.record(z.string(), z.unknown(), { error: 'must be an object' }).meta({
  description: 'Free-form settings of the list (the dashboard stores its view options here).',
  example: { sortBy: 'name', columns: ['fnr', 'name', 'city'] },
});
const fnr = z.string({ error: 'must be a string' }).meta({
  description: 'Company number; trimmed, spaces and leading zeros removed (`034853 f` = `34853f`), case kept.',
  example: '34853f',
});

export const CreateList = z
  .strictObject({
    name,
    fnrs: z.array(fnr).max(MAX_FNRS_PER_REQUEST, `must hold at most ${MAX_FNRS_PER_REQUEST} companies`).optional(),
    settings: settings.optional(),
  })
  .meta({ id: 'CreateList' });

export const UpdateList = z
  .strictObject({
    name: name.optional(),
    settings: settings.optional().meta({ description: 'Merged key by key into the stored settings; a key set to null is removed.' }),
  })
  .meta({ id: 'UpdateList' });

export const ListMembers = z
  .strictObject({
    fnrs: z.array(fnr).min(1, 'must hold at least one company').max(MAX_FNRS_PER_REQUEST, `must hold at most ${MAX_FNRS_PER_REQUEST} companies`),
  })
  .meta({ id: 'ListMembers' });

/** Normalised, duplicates dropped (first occurrence kept, so the order is the caller's). */
function normaliseFnrs(fnrs: string[]): string[] {
  return [...new Set(fnrs.map(fnrFilterValue))];
}

/** Refuses the whole request when any fnr names no company. */
async function requireKnownCompanies(sql: Sql, given: string[]): Promise<string[]> {
  const fnrs = normaliseFnrs(given);
  const unknown = await unknownCompanies(sql, fnrs);
  if (unknown.length > 0) {
    const errors: Record<string, string[]> = {};
    given.forEach((raw, i) => {
      if (unknown.includes(fnrFilterValue(raw))) errors[`fnrs.${i}`] = [`${raw} names no company`];
    });
    throw new ApiError(400, 'Unknown companies', `No company has the fnr ${unknown.join(', ')}; nothing was changed.`, errors);
  }
  return fnrs;
}

function found(row: CompanyListRow | undefined, id: string): CompanyListRow {
  if (!row) throw notFound(`You have no list ${id}.`);
  return row;
}

export type CreateListInput = z.infer<typeof CreateList>;
export type UpdateListInput = z.infer<typeof UpdateList>;
export type ListMembersInput = z.infer<typeof ListMembers>;

/** GET /lists. */
export async function listAccountLists(sql: Sql, accountId: string) {
  return (await listLists(sql, accountId)).map(presentList);
}

/** POST /lists. */
export async function createAccountList(sql: Sql, accountId: string, input: CreateListInput) {
  const fnrs = await requireKnownCompanies(sql, input.fnrs ?? []);
  return presentList(await createList(sql, { accountId, name: input.name, fnrs, settings: input.settings ?? {} }));
}

/** GET /lists/{id}. */
export async function getAccountList(sql: Sql, accountId: string, id: string) {
  return presentList(found(await getList(sql, accountId, id), id));
}

/** PATCH /lists/{id}. */
export async function updateAccountList(sql: Sql, accountId: string, id: string, patch: UpdateListInput) {
  return presentList(found(await updateList(sql, accountId, id, patch), id));
}

/** DELETE /lists/{id}. */
export async function deleteAccountList(sql: Sql, accountId: string, id: string): Promise<void> {
  if (!(await deleteList(sql, accountId, id))) throw notFound(`You have no list ${id}.`);
}

/** POST /lists/{id}/add and /remove. */
export async function changeListMembers(sql: Sql, accountId: string, id: string, change: 'add' | 'remove', input: ListMembersInput) {
  const fnrs = await requireKnownCompanies(sql, input.fnrs);
  return presentList(found(await (change === 'add' ? addMembers : removeMembers)(sql, accountId, id, fnrs), id));
}
