// The change log: written in the same transaction as the data it records, read only below the safe
// bound (schemas/sql/0002_change_log.sql explains why), so a reader that keeps the highest id it has
// seen never misses a change.
import type postgres from 'postgres';
import type { Sql, TransactionSql } from '../../runtime/db.js';

type Fragment = postgres.PendingQuery<postgres.Row[]>;

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

/**
 * lo <= id < hi, within one type when given. A type's range is written as row comparisons, which only
 * the (type, id) index can serve: with `type = $1` a generic plan (the driver prepares statements)
 * walks the primary key and filters by type, which reads the whole log for a rare type.
 */
const idRange = (sql: Sql, type: ChangeType | undefined, lo: Fragment, hi: Fragment) =>
  type ? sql`(type, id) >= (${type}, ${lo}) AND (type, id) < (${type}, ${hi})` : sql`id >= ${lo} AND id < ${hi}`;

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
     WHERE ${idRange(sql, query.type, sql`${(query.afterId ?? 0) + 1}::bigint`, sql`${bound}::bigint`)}
       ${query.fnr ? sql`AND fnr = ${query.fnr}` : sql``}
       ${query.since ? sql`AND recorded_at >= ${query.since}` : sql``}
     ORDER BY ${query.type ? sql`type, id` : sql`id`}
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

/** Blocks a feed read seals when it finds the sealed prefix behind the bound: bounds its extra work. */
export const SEAL_BLOCKS_PER_READ = 16;
/** From this offset on, a page starts from the sealed block that holds its first row instead of skipping row by row. */
export const SEEK_MIN_OFFSET = 2048;

/**
 * One page of a change feed and its total, both read below the same safe bound, so the total never
 * counts a change the page could not show.
 */
export async function readChangePage(sql: Sql, query: ChangePageQuery): Promise<{ rows: ChangeRow[]; total: number }> {
  const bound = await safeChangeBound(sql);
  const afterId = query.afterId ?? 0;
  const offset = (query.page - 1) * query.pageSize;
  // Block totals are kept per type only; fnr and since are counted row by row (an fnr has few changes).
  const byBlocks = !query.fnr && !query.since;
  const matching = (from: number) => sql`
     ${idRange(sql, query.type, sql`${from}::bigint`, sql`${bound}::bigint`)}
     ${query.fnr ? sql`AND fnr = ${query.fnr}` : sql``}
     ${query.since ? sql`AND recorded_at >= ${query.since}` : sql``}`;
  const page = async () => {
    const start = byBlocks && offset >= SEEK_MIN_OFFSET ? await seekPageStart(sql, { afterId, bound, type: query.type, offset }) : null;
    // Ordered by (type, id) where the type is fixed: the same order as by id, and the index's own.
    return sql<ChangeRow[]>`
      SELECT id, type, fnr, recorded_at, action, changed_fields, vnr, document_key, edikt_id, gisa_zahl
        FROM change_log
       WHERE ${matching(start ? start.fromId : afterId + 1)}
       ORDER BY ${query.type ? sql`type, id` : sql`id`} LIMIT ${query.pageSize} OFFSET ${start ? start.skip : offset}`;
  };
  const [rows, counted] = await Promise.all([
    page(),
    byBlocks
      ? countByBlocks(sql, { afterId, bound, type: query.type, cap: query.countCap })
      : // Counting stops at the cap: past it the answer is "at least that many" and costs no more.
        sql<{ n: number }[]>`
          SELECT count(*)::int AS n
            FROM (SELECT 1 FROM change_log WHERE ${matching(afterId + 1)} LIMIT ${query.countCap}) capped`
          .then(([r]) => ({ n: r!.n, behind: false })),
  ]);
  // Sealing only saves later reads work (this one counted the unsealed rest row by row), so a failure
  // here, say on a read-only replica, must not fail the read; the next read tries again.
  if (counted.behind) await sql`SELECT change_log_seal_blocks(${SEAL_BLOCKS_PER_READ})`.catch(() => undefined);
  return { rows, total: Math.min(counted.n, query.countCap) };
}

interface BlockSpan {
  afterId: number;
  bound: number;
  type: ChangeType | undefined;
}

/**
 * The span (afterId, bound) as schemas/sql/0012_change_log_block_counts.sql cuts it: the partial block
 * at its start, the sealed blocks [first_block, end_block) wholly inside it, and the rest from
 * end_block on (a partial block, plus any sealable blocks not sealed yet). With no sealed block inside,
 * first_block >= end_block. Read in the same statement as the totals it is used with.
 */
const span = (sql: Sql, s: BlockSpan) => sql`
  SELECT v.lo, v.hi, v.size, v.sealed,
         (v.lo + v.size - 1) / v.size AS first_block,
         least(v.hi / v.size, v.sealed) AS end_block
    FROM (SELECT ${s.afterId + 1}::bigint AS lo, ${s.bound}::bigint AS hi, change_log_block_size() AS size,
                 (SELECT coalesce(max(block) + 1, 0) FROM change_log_block_count) AS sealed) v`;

/** The running-total column of change_log_block_count for a feed. */
const totalColumn = (sql: Sql, type: ChangeType | undefined) => sql(type ?? 'total');

/**
 * Exact count of the changes in (afterId, bound), up to cap: the partial edge blocks row by row, the
 * sealed blocks between from their running totals. `behind` says sealable blocks are not sealed yet.
 */
async function countByBlocks(sql: Sql, s: BlockSpan & { cap: number }): Promise<{ n: number; behind: boolean }> {
  const column = totalColumn(sql, s.type);
  const [row] = await sql<{ n: number; behind: boolean }[]>`
    WITH span AS MATERIALIZED (${span(sql, s)})
    SELECT s.hi / s.size > s.sealed AS behind,
           CASE WHEN s.first_block < s.end_block THEN
                  (SELECT count(*) FROM change_log WHERE ${idRange(sql, s.type, sql`s.lo`, sql`s.first_block * s.size`)})
                + (SELECT last.${column} - coalesce(before.${column}, 0)
                     FROM change_log_block_count last
                     LEFT JOIN change_log_block_count before ON before.block = s.first_block - 1
                    WHERE last.block = s.end_block - 1)
                + (SELECT count(*) FROM (
                     SELECT 1 FROM change_log WHERE ${idRange(sql, s.type, sql`s.end_block * s.size`, sql`s.hi`)} LIMIT ${s.cap}) tail)
                ELSE
                  (SELECT count(*) FROM (
                     SELECT 1 FROM change_log WHERE ${idRange(sql, s.type, sql`s.lo`, sql`s.hi`)} LIMIT ${s.cap}) whole)
           END AS n
      FROM span s`;
  return row!;
}

/**
 * Where a deep page starts: the first id of the sealed block holding the page's first row, and how
 * many matching rows of that block (and the unsealed rest) come before it. Null when the page starts
 * in the partial block at the span's start, or no sealed block lies inside the span.
 */
async function seekPageStart(sql: Sql, s: BlockSpan & { offset: number }): Promise<{ fromId: number; skip: number } | null> {
  const column = totalColumn(sql, s.type);
  const [row] = await sql<{ fromId: number; skip: number }[]>`
    WITH span AS MATERIALIZED (${span(sql, s)}),
    edge AS MATERIALIZED (
      -- Matching rows before first_block (the partial start block), and the running total there.
      SELECT s.*,
             (SELECT count(*) FROM change_log WHERE ${idRange(sql, s.type, sql`s.lo`, sql`s.first_block * s.size`)}) AS head,
             (SELECT b.${column} FROM change_log_block_count b WHERE b.block = s.first_block - 1) AS base
        FROM span s
       WHERE s.first_block < s.end_block
    ),
    target AS MATERIALIZED (
      -- The page's first row is the first whose running total (counted as the blocks count) exceeds this.
      SELECT e.size, e.first_block, e.end_block, e.base + ${s.offset} - e.head AS total_before
        FROM edge e
       WHERE e.head <= ${s.offset}
    ),
    hit AS MATERIALIZED (
      SELECT t.*,
             coalesce((SELECT b.block FROM change_log_block_count b
                        WHERE b.block >= t.first_block AND b.block < t.end_block AND b.${column} > t.total_before
                        ORDER BY b.block LIMIT 1), t.end_block) AS start_block
        FROM target t
    )
    SELECT h.start_block * h.size AS from_id,
           h.total_before - (SELECT b.${column} FROM change_log_block_count b WHERE b.block = h.start_block - 1) AS skip
      FROM hit h`;
  return row ?? null;
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

/**
 * Seals up to `maxBlocks` more id blocks for the feeds' totals (0012); the indexer calls it on every
 * poll, so feed requests rarely find unsealed blocks to count row by row.
 */
export async function sealChangeBlocks(sql: Sql, maxBlocks = 256): Promise<void> {
  await sql`SELECT change_log_seal_blocks(${maxBlocks})`;
}
