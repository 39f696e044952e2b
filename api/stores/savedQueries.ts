// Saved queries (Abfragen) of one account. Equal filter sets (by canonical form) are one record:
// saving one the account already has updates that record. `updateId` pins the record being edited;
// if its new filters equal another record of the account, that other record is folded into the
// pinned one (deleted), so the id the client holds stays valid and the filters stay unique.
import type { Sql } from '../../runtime/db.js';
import type { CanonicalFilters } from '../../schemas/screenerParameters.js';

export interface SavedQueryRow {
  id: string;
  name: string | null;
  filters: CanonicalFilters;
  createdAt: Date;
  updatedAt: Date;
}

export interface SaveQueryInput {
  accountId: string;
  name?: string;
  filters: CanonicalFilters;
  canonical: string;
  updateId?: string;
}

export async function listSavedQueries(sql: Sql, accountId: string): Promise<SavedQueryRow[]> {
  return sql<SavedQueryRow[]>`
    SELECT id, name, filters, created_at, updated_at
      FROM saved_query
     WHERE account_id = ${accountId}
     ORDER BY updated_at DESC, created_at DESC, id`;
}

export async function getSavedQuery(sql: Sql, accountId: string, id: string): Promise<SavedQueryRow | undefined> {
  const [row] = await sql<SavedQueryRow[]>`
    SELECT id, name, filters, created_at, updated_at FROM saved_query WHERE id = ${id} AND account_id = ${accountId}`;
  return row;
}

/** Inserts, or updates the account's record with equal filters. */
async function upsertByFilters(sql: Sql, input: SaveQueryInput): Promise<SavedQueryRow> {
  const [row] = await sql<SavedQueryRow[]>`
    INSERT INTO saved_query (account_id, name, filters, filters_canonical)
    VALUES (${input.accountId}, ${input.name ?? null}, ${sql.json(input.filters)}, ${input.canonical})
    ON CONFLICT (account_id, filters_canonical) DO UPDATE
       SET name = coalesce(EXCLUDED.name, saved_query.name), filters = EXCLUDED.filters, updated_at = now()
    RETURNING id, name, filters, created_at, updated_at`;
  return row!;
}

/** Updates the pinned record; undefined when it is not one of the account's. */
async function updatePinned(sql: Sql, input: SaveQueryInput & { updateId: string }): Promise<SavedQueryRow | undefined> {
  return sql.begin(async (tx) => {
    const [pinned] = await tx`SELECT id FROM saved_query WHERE id = ${input.updateId} AND account_id = ${input.accountId} FOR UPDATE`;
    if (!pinned) return undefined;
    await tx`DELETE FROM saved_query WHERE account_id = ${input.accountId} AND filters_canonical = ${input.canonical} AND id <> ${input.updateId}`;
    const [row] = await tx<SavedQueryRow[]>`
      UPDATE saved_query
         SET name = coalesce(${input.name ?? null}, name), filters = ${tx.json(input.filters)},
             filters_canonical = ${input.canonical}, updated_at = now()
       WHERE id = ${input.updateId}
      RETURNING id, name, filters, created_at, updated_at`;
    return row;
  }) as Promise<SavedQueryRow | undefined>;
}

export async function saveQuery(sql: Sql, input: SaveQueryInput): Promise<SavedQueryRow | undefined> {
  return input.updateId ? updatePinned(sql, { ...input, updateId: input.updateId }) : upsertByFilters(sql, input);
}

export async function deleteSavedQuery(sql: Sql, accountId: string, id: string): Promise<boolean> {
  const rows = await sql`DELETE FROM saved_query WHERE id = ${id} AND account_id = ${accountId} RETURNING id`;
  return rows.length === 1;
}

export async function deleteAllSavedQueries(sql: Sql, accountId: string): Promise<number> {
  const rows = await sql`DELETE FROM saved_query WHERE account_id = ${accountId} RETURNING id`;
  return rows.length;
}
