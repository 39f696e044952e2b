// Company lists (Listen) of one account, following the spec's membership state table:
//   not on list  --add-->    on list (appended at the end; existing order kept)
//   on list      --remove--> in the removed set (taken off the list, recorded as removed)
//   removed set  --add-->    on list (appended at the end; leaves the removed set)
// Adding a member already on the list changes nothing (it keeps its place). Removing a company that
// is not on the list changes nothing either: the removed set records companies taken off this list.
// A list row is locked while its members change, so concurrent adds append in a definite order.
import type { Sql, TransactionSql } from '../../runtime/db.js';

export type ListSettings = Record<string, unknown>;

export interface CompanyListRow {
  id: string;
  name: string;
  fnrs: string[];
  removedFnrs: string[];
  settings: ListSettings;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

function selectLists(sql: Db, accountId: string, id?: string) {
  return sql<CompanyListRow[]>`
    SELECT l.id, l.name, l.settings, l.created_at, l.updated_at,
           coalesce((SELECT array_agg(m.fnr ORDER BY m.position) FROM company_list_member m WHERE m.list_id = l.id), '{}') AS fnrs,
           coalesce((SELECT array_agg(r.fnr ORDER BY r.removed_at, r.fnr) FROM company_list_removed r WHERE r.list_id = l.id), '{}') AS removed_fnrs
      FROM company_list l
     WHERE l.account_id = ${accountId}
       ${id ? sql`AND l.id = ${id}` : sql``}
     ORDER BY l.created_at, l.id`;
}

export async function listLists(sql: Sql, accountId: string): Promise<CompanyListRow[]> {
  return selectLists(sql, accountId);
}

export async function getList(sql: Db, accountId: string, id: string): Promise<CompanyListRow | undefined> {
  const [row] = await selectLists(sql, accountId, id);
  return row;
}

/** The given fnrs that name no company, in input order. */
export async function unknownCompanies(sql: Sql, fnrs: string[]): Promise<string[]> {
  if (fnrs.length === 0) return [];
  const known = new Set((await sql<{ fnr: string }[]>`SELECT fnr FROM company WHERE fnr = ANY(${fnrs}::text[])`).map((r) => r.fnr));
  return fnrs.filter((f) => !known.has(f));
}

/** Appends the fnrs not yet on the list, in the order given; they leave the removed set. */
async function appendMembers(tx: TransactionSql, listId: string, fnrs: string[]): Promise<void> {
  if (fnrs.length === 0) return;
  await tx`
    INSERT INTO company_list_member (list_id, fnr, position)
    SELECT ${listId}, input.fnr,
           coalesce((SELECT max(position) FROM company_list_member WHERE list_id = ${listId}), 0) + input.ord
      FROM unnest(${fnrs}::text[]) WITH ORDINALITY AS input(fnr, ord)
    ON CONFLICT (list_id, fnr) DO NOTHING`;
  await tx`DELETE FROM company_list_removed WHERE list_id = ${listId} AND fnr = ANY(${fnrs}::text[])`;
}

function withoutNulls(settings: ListSettings): ListSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== null));
}

export async function createList(
  sql: Sql, input: { accountId: string; name: string; fnrs: string[]; settings: ListSettings },
): Promise<CompanyListRow> {
  return sql.begin(async (tx) => {
    const [list] = await tx<{ id: string }[]>`
      INSERT INTO company_list (account_id, name, settings)
      VALUES (${input.accountId}, ${input.name}, ${tx.json(withoutNulls(input.settings) as never)})
      RETURNING id`;
    await appendMembers(tx, list!.id, input.fnrs);
    return (await getList(tx, input.accountId, list!.id))!;
  }) as Promise<CompanyListRow>;
}

/** Locks the account's list for a change; false when it is not the account's. */
async function lockList(tx: TransactionSql, accountId: string, id: string): Promise<boolean> {
  const [row] = await tx`SELECT id FROM company_list WHERE id = ${id} AND account_id = ${accountId} FOR UPDATE`;
  return row !== undefined;
}

/** Writes only what is carried: a new name, and settings merged key by key (null removes a key). */
export async function updateList(
  sql: Sql, accountId: string, id: string, patch: { name?: string; settings?: ListSettings },
): Promise<CompanyListRow | undefined> {
  return sql.begin(async (tx) => {
    if (!(await lockList(tx, accountId, id))) return undefined;
    if (patch.name !== undefined || patch.settings !== undefined) {
      const set = patch.settings ?? {};
      const removedKeys = Object.keys(set).filter((k) => set[k] === null);
      await tx`
        UPDATE company_list
           SET name = coalesce(${patch.name ?? null}, name),
               settings = (settings || ${tx.json(withoutNulls(set) as never)}) - ${removedKeys}::text[],
               updated_at = now()
         WHERE id = ${id}`;
    }
    return getList(tx, accountId, id);
  }) as Promise<CompanyListRow | undefined>;
}

export async function addMembers(sql: Sql, accountId: string, id: string, fnrs: string[]): Promise<CompanyListRow | undefined> {
  return sql.begin(async (tx) => {
    if (!(await lockList(tx, accountId, id))) return undefined;
    await appendMembers(tx, id, fnrs);
    await tx`UPDATE company_list SET updated_at = now() WHERE id = ${id}`;
    return getList(tx, accountId, id);
  }) as Promise<CompanyListRow | undefined>;
}

export async function removeMembers(sql: Sql, accountId: string, id: string, fnrs: string[]): Promise<CompanyListRow | undefined> {
  return sql.begin(async (tx) => {
    if (!(await lockList(tx, accountId, id))) return undefined;
    await tx`
      WITH taken AS (
        DELETE FROM company_list_member WHERE list_id = ${id} AND fnr = ANY(${fnrs}::text[]) RETURNING fnr
      )
      INSERT INTO company_list_removed (list_id, fnr) SELECT ${id}, fnr FROM taken
      ON CONFLICT (list_id, fnr) DO UPDATE SET removed_at = now()`;
    await tx`UPDATE company_list SET updated_at = now() WHERE id = ${id}`;
    return getList(tx, accountId, id);
  }) as Promise<CompanyListRow | undefined>;
}

/** Deletes the list with its members and removed set (cascade); nothing outside the list. */
export async function deleteList(sql: Sql, accountId: string, id: string): Promise<boolean> {
  const rows = await sql`DELETE FROM company_list WHERE id = ${id} AND account_id = ${accountId} RETURNING id`;
  return rows.length === 1;
}

/** Members in list order, for exports; undefined when the list is not the account's. */
export async function listMemberFnrs(sql: Sql, accountId: string, id: string): Promise<string[] | undefined> {
  const [row] = await sql<{ fnrs: string[] | null }[]>`
    SELECT (SELECT array_agg(m.fnr ORDER BY m.position) FROM company_list_member m WHERE m.list_id = l.id) AS fnrs
      FROM company_list l WHERE l.id = ${id} AND l.account_id = ${accountId}`;
  return row ? (row.fnrs ?? []) : undefined;
}
