// The change log as its readers (indexer, change feeds) and writers share it: its types and the reading
// side. Rows are written in the same transaction as the data they record (pipeline/store/changeLog.ts)
// and read only below the safe bound (schemas/sql/0002_change_log.sql explains why), so a reader that
// keeps the highest id it has seen never misses a change.
import type postgres from 'postgres';
import type { Sql } from './db.js';

type Fragment = postgres.PendingQuery<postgres.Row[]>;

export const CHANGE_TYPES = ['business', 'document', 'edikt', 'trade'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type ChangeAction = 'created' | 'updated' | 'deleted';

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
  const lo = sql`${(query.afterId ?? 0) + 1}::bigint`;
  // With `since`, from the first id a change that recent can have (schemas/sql/0018), not the cursor.
  const from = query.since ? sql`change_log_since_floor(${query.since}::timestamptz, ${lo})` : lo;
  return sql<ChangeRow[]>`
    SELECT id, type, fnr, recorded_at, action, changed_fields, vnr, document_key, edikt_id, gisa_zahl
      FROM change_log
     WHERE ${idRange(sql, query.type, from, sql`${bound}::bigint`)}
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
/**
 * From this offset on, a page starts from the sealed block that holds its first row instead of skipping
 * row by row. On the dense feeds (global, business) seeking and skipping cost about the same here, but
 * a sparse feed (documents) reads several changes per row it skips (docs/change-log.md).
 */
export const SEEK_MIN_OFFSET = 256;

/** A feed page as the feeds present it: the entries as one JSON array (UTF-8 bytes), and the capped total. */
export interface ChangePageJson {
  data: Buffer;
  total: number;
}

/**
 * One page of a change feed and its total, both read below the same safe bound (the total never counts
 * a change the page could not show), in one round trip: schemas/sql/0013_change_feed_page.sql. Must
 * not run inside a REPEATABLE READ transaction (the function refuses). The page comes as the bytes
 * Postgres sent (`raw()`): a large page would otherwise be decoded into a string only to be encoded
 * again for the response.
 */
export async function readChangePageJson(sql: Sql, query: ChangePageQuery): Promise<ChangePageJson> {
  const [row] = await sql`
    SELECT total, data
      FROM change_feed_page(${query.type ?? null}::text, ${query.afterId ?? 0}::bigint, ${query.since ?? null}::timestamptz, ${query.fnr ?? null}::text,
                            ${(query.page - 1) * query.pageSize}::bigint, ${query.pageSize}::int, ${query.countCap}::bigint,
                            ${SEEK_MIN_OFFSET}::bigint, ${SEAL_BLOCKS_PER_READ}::bigint)`.raw();
  const [total, data] = row as unknown as [Buffer, Buffer];
  return { data, total: Number(total.toString('latin1')) };
}

type TypeKey = 'vnr' | 'documentKey' | 'ediktId' | 'gisaZahl';
/** A feed entry as 0013 writes it: recordedAt as ISO text, only its own type's key. */
type ChangeEntryJson = Omit<ChangeRow, 'recordedAt' | TypeKey> & Partial<Pick<ChangeRow, TypeKey>> & { recordedAt: string };

/** readChangePageJson's page as rows (for callers that work with the changes rather than send them). */
export async function readChangePage(sql: Sql, query: ChangePageQuery): Promise<{ rows: ChangeRow[]; total: number }> {
  const { data, total } = await readChangePageJson(sql, query);
  const rows = (JSON.parse(data.toString('utf8')) as ChangeEntryJson[]).map((e) => ({
    id: e.id, type: e.type, fnr: e.fnr, recordedAt: new Date(e.recordedAt), action: e.action, changedFields: e.changedFields,
    vnr: e.vnr ?? null, documentKey: e.documentKey ?? null, ediktId: e.ediktId ?? null, gisaZahl: e.gisaZahl ?? null,
  }));
  return { rows, total };
}

/**
 * The snapshot a change recorded: a court-notice change keeps its notice's row as `to_jsonb(court_notice)`
 * writes it (its contract is schemas/courtNoticeRecords.ts; api/presenters/changes.ts presents it).
 */
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
 * Seals up to `maxBlocks` more id blocks (null: all that can be) for the feeds' totals (0012); the
 * indexer calls it on every poll, so feed requests rarely find unsealed blocks to count row by row.
 */
export async function sealChangeBlocks(sql: Sql, maxBlocks: number | null = 256): Promise<void> {
  await sql`SELECT change_log_seal_blocks(${maxBlocks})`;
}
