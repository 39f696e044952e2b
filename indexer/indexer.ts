// The indexer: follows the change log from a stored cursor (through the watermark-safe read, so no
// late-committing change is skipped) and keeps the search read model up to date; rebuilds it into a
// new versioned table and swaps the company_search view over in one transaction while readers keep
// reading.
import { readChanges, safeChangeBound, sealChangeBlocks } from '../runtime/changeLog.js';
import type { Sql } from '../runtime/db.js';
import type { Logger } from '../runtime/logger.js';
import type { ServiceMetrics } from '../runtime/metrics.js';
import { startPolling } from './pollLoop.js';
import { COLUMNS, READ_MODEL, bulkLoadSql, createIndexesSql, createTableSql, indexNames, upsertDocumentsSql } from './companySearchTable.js';

/** Serialises incremental batches and the rebuild's final swap. */
const INDEXER_LOCK = 0x494e4458; // 'INDX'
/** Serialises ensureReadModel() between processes starting together. */
const ENSURE_LOCK = 0x494e4445; // 'INDE'
const BATCH = 1000;

async function liveTable(sql: Sql): Promise<string | null> {
  const [row] = await sql<{ liveTable: string }[]>`SELECT live_table FROM read_model_version WHERE name = ${READ_MODEL}`;
  return row?.liveTable ?? null;
}

async function cursorOf(sql: Sql, name: string): Promise<number> {
  const [row] = await sql<{ lastChangeId: number }[]>`SELECT last_change_id FROM index_cursor WHERE name = ${name}`;
  return row?.lastChangeId ?? 0;
}

/** Applies the changes after `cursor` to `table`; returns the new cursor (unchanged when caught up). */
async function applyChangesTo(sql: Sql, table: string, cursor: number): Promise<number> {
  const changes = await readChanges(sql, { afterId: cursor, limit: BATCH });
  if (changes.length === 0) return cursor;
  const fnrs = [...new Set(changes.map((c) => c.fnr).filter((f): f is string => f !== null))];
  if (fnrs.length > 0) await sql.unsafe(upsertDocumentsSql(table), [fnrs]);
  return changes[changes.length - 1]!.id;
}

/**
 * One incremental step for the live table: applies up to one batch of changes and moves the cursor in
 * the same transaction. Returns how many changes were applied.
 */
export async function indexOnce(sql: Sql): Promise<number> {
  const table = await liveTable(sql);
  if (!table) return 0;
  const before = await cursorOf(sql, READ_MODEL);
  const changes = await readChanges(sql, { afterId: before, limit: BATCH });
  if (changes.length === 0) return 0;
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${INDEXER_LOCK})`;
    // A rebuild may have swapped tables and moved the cursor while this batch was read.
    const [state] = await tx<{ liveTable: string; lastChangeId: number }[]>`
      SELECT v.live_table, coalesce(c.last_change_id, 0) AS last_change_id
        FROM read_model_version v LEFT JOIN index_cursor c ON c.name = v.name WHERE v.name = ${READ_MODEL}`;
    const applicable = changes.filter((c) => c.id > (state?.lastChangeId ?? 0));
    if (!state || applicable.length === 0) return 0;
    const fnrs = [...new Set(applicable.map((c) => c.fnr).filter((f): f is string => f !== null))];
    if (fnrs.length > 0) await tx.unsafe(upsertDocumentsSql(state.liveTable), [fnrs]);
    await tx`
      INSERT INTO index_cursor (name, last_change_id) VALUES (${READ_MODEL}, ${applicable[applicable.length - 1]!.id})
      ON CONFLICT (name) DO UPDATE SET last_change_id = EXCLUDED.last_change_id, updated_at = now()`;
    return applicable.length;
  });
}

/** Newest change id minus the indexed one: the Prometheus lag gauge. */
export async function indexerLag(sql: Sql): Promise<number> {
  const [row] = await sql<{ lag: number }[]>`
    SELECT greatest(coalesce((SELECT max(id) FROM change_log), 0) - coalesce((SELECT last_change_id FROM index_cursor WHERE name = ${READ_MODEL}), 0), 0)::bigint AS lag`;
  return row?.lag ?? 0;
}

/** Registers the lag as the Prometheus gauge `indexer_lag_changes`, read at every scrape of /metrics. */
export function registerIndexerLagMetric(metrics: Pick<ServiceMetrics, 'gauge'>, sql: Sql): void {
  metrics.gauge('indexer_lag_changes', 'Newest change id minus the id the search read model has applied', () => indexerLag(sql));
}

export interface RebuildResult {
  table: string;
  rows: number;
  ms: number;
}

/**
 * Builds a new versioned read-model table from Postgres, catches it up with the change log, and swaps
 * the company_search view to it atomically. The old table is dropped after the swap.
 */
export async function rebuildReadModel(sql: Sql, log: Logger): Promise<RebuildResult> {
  const started = performance.now();
  const table = `${READ_MODEL}_v${Date.now()}`;
  // Every change below the watermark is already in the tables the bulk load reads.
  const watermark = (await safeChangeBound(sql)) - 1;
  await sql.unsafe(createTableSql(table));
  await sql.unsafe(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
  await sql.unsafe(bulkLoadSql(table), [null]);
  for (const statement of createIndexesSql(table)) await sql.unsafe(statement);
  await sql.unsafe(`ALTER TABLE ${table} RESET (autovacuum_enabled)`);
  // VACUUM as well: it sets the visibility map, so the name lookups' index-only scans (exact band,
  // autocomplete totals) read no heap page.
  await sql.unsafe(`VACUUM (ANALYZE) ${table}`);

  // Catch up outside the lock first, so the swap itself holds it only for the last few changes.
  let cursor = watermark;
  for (let next = await applyChangesTo(sql, table, cursor); next !== cursor; next = await applyChangesTo(sql, table, cursor)) cursor = next;

  const previous = await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${INDEXER_LOCK})`;
    let last = cursor;
    for (;;) {
      const changes = await readChanges(tx as unknown as Sql, { afterId: last, limit: BATCH });
      if (changes.length === 0) break;
      const fnrs = [...new Set(changes.map((c) => c.fnr).filter((f): f is string => f !== null))];
      if (fnrs.length > 0) await tx.unsafe(upsertDocumentsSql(table), [fnrs]);
      last = changes[changes.length - 1]!.id;
    }
    const [old] = await tx<{ liveTable: string }[]>`SELECT live_table FROM read_model_version WHERE name = ${READ_MODEL} FOR UPDATE`;
    // DROP + CREATE rather than CREATE OR REPLACE: a new figure list changes the columns.
    await tx.unsafe(`DROP VIEW IF EXISTS ${READ_MODEL}`);
    await tx.unsafe(`CREATE VIEW ${READ_MODEL} AS SELECT * FROM ${table}`);
    await tx`
      INSERT INTO read_model_version (name, live_table, build_ms) VALUES (${READ_MODEL}, ${table}, ${Math.round(performance.now() - started)})
      ON CONFLICT (name) DO UPDATE SET live_table = EXCLUDED.live_table, built_at = now(), build_ms = EXCLUDED.build_ms`;
    await tx`
      INSERT INTO index_cursor (name, last_change_id) VALUES (${READ_MODEL}, ${last})
      ON CONFLICT (name) DO UPDATE SET last_change_id = EXCLUDED.last_change_id, updated_at = now()`;
    return old?.liveTable ?? null;
  });
  if (previous && previous !== table) await sql.unsafe(`DROP TABLE IF EXISTS ${previous}`);
  const [count] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${sql(table)}`;
  const result = { table, rows: count!.n, ms: Math.round(performance.now() - started) };
  log.info(result, 'read model rebuilt');
  return result;
}

/**
 * What the live table lacks of the columns and indexes this code builds: a release that adds one
 * (name search's core_norm) would otherwise fail every incremental upsert and every read of it.
 */
async function missingParts(sql: Sql, table: string): Promise<string[]> {
  const columns = await sql<{ name: string }[]>`SELECT column_name AS name FROM information_schema.columns WHERE table_name = ${table}`;
  const indexes = await sql<{ name: string }[]>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${table}`;
  const present = new Set([...columns, ...indexes].map((r) => r.name));
  // Unquoted identifiers: Postgres stores them in lower case.
  return [...COLUMNS, ...indexNames(table)].map((name) => name.toLowerCase()).filter((name) => !present.has(name));
}

/**
 * Creates the read model on first start (an empty database builds in milliseconds), and rebuilds it
 * when the live table is older than this code's layout.
 */
export async function ensureReadModel(sql: Sql, log: Logger): Promise<void> {
  // The API and the indexer both call this at start (docker-compose starts them together): one builds,
  // the other waits and then finds the read model in place.
  const lock = await sql.reserve();
  try {
    await lock`SELECT pg_advisory_lock(${ENSURE_LOCK})`;
    const table = await liveTable(sql);
    if (!table) {
      await rebuildReadModel(sql, log);
      return;
    }
    const missing = await missingParts(sql, table);
    if (missing.length > 0) {
      log.info({ table, missing }, 'read model predates this release: rebuilding');
      await rebuildReadModel(sql, log);
    }
  } finally {
    await lock`SELECT pg_advisory_unlock(${ENSURE_LOCK})`.catch(() => undefined);
    lock.release();
  }
}

export interface RunningIndexer {
  close: () => Promise<void>;
}

/** Polls the change log; a change is searchable within about one interval of its commit. */
export function startIndexer(sql: Sql, log: Logger, intervalMs = 250): RunningIndexer {
  return startPolling(async () => {
    const applied = await indexOnce(sql);
    // Same cadence, so the change feeds' running totals keep up with the log (runtime/changeLog.ts).
    await sealChangeBlocks(sql);
    return applied;
  }, log, 'indexer', intervalMs);
}
