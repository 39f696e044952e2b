// The change log: written in the same transaction as the data it records, read only below the safe
// bound (schemas/sql/0002_change_log.sql explains why), so a reader that keeps the highest id it has
// seen never misses a change.
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../../runtime/db.js';

export const CHANGE_TYPES = ['business', 'document', 'edikt', 'trade'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type ChangeAction = 'created' | 'updated' | 'deleted';

export interface NewChange {
  type: ChangeType;
  fnr: string | null;
  action: ChangeAction;
  changedFields: string[];
  vnr?: string | null;
  documentKey?: string | null;
  ediktId?: string | null;
  gisaZahl?: string | null;
  snapshot?: unknown;
}

export interface ChangeRow {
  id: number;
  type: ChangeType;
  fnr: string | null;
  recordedAt: Date;
  action: ChangeAction;
  changedFields: string[];
  vnr: string | null;
  documentKey: string | null;
  ediktId: string | null;
  gisaZahl: string | null;
}

/** Records changes inside the caller's transaction; returns their ids in insertion order. */
export async function recordChanges(tx: TransactionSql, changes: NewChange[]): Promise<number[]> {
  if (changes.length === 0) return [];
  const rows = changes.map((c) => ({
    type: c.type,
    fnr: c.fnr,
    action: c.action,
    changed_fields: c.changedFields,
    vnr: c.vnr ?? null,
    document_key: c.documentKey ?? null,
    edikt_id: c.ediktId ?? null,
    gisa_zahl: c.gisaZahl ?? null,
    snapshot: c.snapshot === undefined ? null : (c.snapshot as postgres.JSONValue),
  }));
  const inserted = await tx<{ id: number }[]>`
    INSERT INTO change_log ${tx(rows)}
    RETURNING id`;
  return inserted.map((r) => r.id);
}

/**
 * Every change id below the returned value is final. Must run as its own statement, outside any
 * REPEATABLE READ transaction, before the statement that reads rows.
 */
export async function safeChangeBound(sql: Sql): Promise<number> {
  const [row] = await sql<{ bound: number }[]>`SELECT change_log_safe_bound() AS bound`;
  return row!.bound;
}

export interface ChangeQuery {
  /** Exclusive lower bound on id (the consumer's highest id seen). */
  afterId?: number;
  type?: ChangeType;
  fnr?: string;
  /** Inclusive lower bound on recordedAt. */
  since?: Date;
  limit: number;
  offset?: number;
}

/** The reading primitive: changes in ascending id order, never past the safe bound. */
export async function readChanges(sql: Sql, query: ChangeQuery): Promise<ChangeRow[]> {
  const bound = await safeChangeBound(sql);
  return sql<ChangeRow[]>`
    SELECT id, type, fnr, recorded_at, action, changed_fields, vnr, document_key, edikt_id, gisa_zahl
      FROM change_log
     WHERE id > ${query.afterId ?? 0}
       AND id < ${bound}
       ${query.type ? sql`AND type = ${query.type}` : sql``}
       ${query.fnr ? sql`AND fnr = ${query.fnr}` : sql``}
       ${query.since ? sql`AND recorded_at >= ${query.since}` : sql``}
     ORDER BY id
     LIMIT ${query.limit} OFFSET ${query.offset ?? 0}`;
}

export interface ChangePageQuery {
  type?: ChangeType;
  afterId?: number;
  since?: Date;
  fnr?: string;
  page: number;
  pageSize: number;
  /** totalRecords is exact up to this many matches and reported as this value above (page cap x pageSize). */
  countCap: number;
}

/**
 * One page of a change feed and its total, both read below the same safe bound, so the total never
 * counts a change the page could not show.
 */
export async function readChangePage(sql: Sql, query: ChangePageQuery): Promise<{ rows: ChangeRow[]; total: number }> {
  const bound = await safeChangeBound(sql);
  const where = () => sql`
     id > ${query.afterId ?? 0} AND id < ${bound}
     ${query.type ? sql`AND type = ${query.type}` : sql``}
     ${query.fnr ? sql`AND fnr = ${query.fnr}` : sql``}
     ${query.since ? sql`AND recorded_at >= ${query.since}` : sql``}`;
  const [rows, [counted]] = await Promise.all([
    sql<ChangeRow[]>`
      SELECT id, type, fnr, recorded_at, action, changed_fields, vnr, document_key, edikt_id, gisa_zahl
        FROM change_log WHERE ${where()}
       ORDER BY id LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`,
    // Counting stops at the cap: past it the answer is "at least that many" and costs no more.
    sql<{ n: number }[]>`SELECT count(*)::int AS n FROM (SELECT 1 FROM change_log WHERE ${where()} LIMIT ${query.countCap}) capped`,
  ]);
  return { rows, total: counted!.n };
}

/** The snapshot a change recorded (court notices keep the notice as the change left it). */
export async function changeSnapshot(sql: Sql, id: number, type: ChangeType): Promise<{ row: ChangeRow; snapshot: unknown } | null> {
  const bound = await safeChangeBound(sql);
  const [row] = await sql<(ChangeRow & { snapshot: unknown })[]>`
    SELECT id, type, fnr, recorded_at, action, changed_fields, vnr, document_key, edikt_id, gisa_zahl, snapshot
      FROM change_log WHERE id = ${id} AND type = ${type} AND id < ${bound}`;
  if (!row) return null;
  const { snapshot, ...change } = row;
  return { row: change, snapshot };
}
