// Keeps the Elasticsearch index in step with Postgres: follows the change log with its own cursor
// (documents are computed from the source tables, like the Postgres read model), bulk-indexes through
// the client helper with every drop surfaced, and rebuilds into a new versioned index with one
// atomic alias swap (remove + add in one request). The previous index is kept for rollback.
import type { Client } from '@elastic/elasticsearch';
import { readChanges, safeChangeBound } from '../../../runtime/changeLog.js';
import type { Sql } from '../../../runtime/db.js';
import type { Logger } from '../../../runtime/logger.js';
import { DOCUMENT_SELECT } from '../../companySearchTable.js';
import { startPolling } from '../../pollLoop.js';
import { INDEX_ALIAS, INDEX_MAPPINGS, INDEX_SETTINGS, parseIndexName, versionedIndexName } from './mapping.js';

const ES_CURSOR = 'companies-es';
const ES_LOCK = 0x45534958; // 'ESIX'
const BATCH = 1000;

type Doc = Record<string, unknown>;

export class BulkIndexError extends Error {
  override readonly name = 'BulkIndexError';
  constructor(readonly dropped: number, readonly sample: unknown[]) {
    super(`Elasticsearch dropped ${dropped} documents; first: ${JSON.stringify(sample[0])}`);
  }
}

/** A read-model row as an Elasticsearch document: numerics as strings stay exact in JSON. */
export function toEsDocument(row: Doc): Doc {
  const doc: Doc = {};
  for (const [key, value] of Object.entries(row)) {
    doc[key] = value instanceof Date ? value.toISOString().slice(0, 10) : value;
  }
  return doc;
}

async function documentsFor(sql: Sql, fnrs: string[] | null): Promise<Doc[]> {
  // Raw column names (snake_case) are the index's field names, so bypass the camelCase transform.
  const rows = await sql.unsafe<Doc[]>(`SELECT row_to_json(d) AS doc FROM (${DOCUMENT_SELECT}) d`, [fnrs]);
  return rows.map((r) => toEsDocument(r.doc as Doc));
}

export async function bulkIndex(client: Client, index: string, docs: Doc[]): Promise<void> {
  if (docs.length === 0) return;
  const dropped: unknown[] = [];
  await client.helpers.bulk({
    datasource: docs,
    onDocument: (doc) => ({ index: { _index: index, _id: doc.fnr as string } }),
    onDrop: (drop) => dropped.push({ error: drop.error, id: (drop.document as Doc).fnr }),
    flushBytes: 5_000_000,
    concurrency: 2,
    retries: 3,
    refreshOnCompletion: false,
  });
  if (dropped.length > 0) throw new BulkIndexError(dropped.length, dropped.slice(0, 3));
}

async function cursor(sql: Sql): Promise<number> {
  const [row] = await sql<{ lastChangeId: number }[]>`SELECT last_change_id FROM index_cursor WHERE name = ${ES_CURSOR}`;
  return row?.lastChangeId ?? 0;
}

async function setCursor(sql: Sql, id: number): Promise<void> {
  await sql`
    INSERT INTO index_cursor (name, last_change_id) VALUES (${ES_CURSOR}, ${id})
    ON CONFLICT (name) DO UPDATE SET last_change_id = EXCLUDED.last_change_id, updated_at = now()`;
}

/** Applies one batch of changes to the alias; the cursor moves only after Elasticsearch accepted it. */
export async function esIndexOnce(sql: Sql, client: Client): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${ES_LOCK})`;
    const from = await cursor(tx as unknown as Sql);
    const changes = await readChanges(tx as unknown as Sql, { afterId: from, limit: BATCH });
    if (changes.length === 0) return 0;
    const fnrs = [...new Set(changes.map((c) => c.fnr).filter((f): f is string => f !== null))];
    await bulkIndex(client, INDEX_ALIAS, await documentsFor(tx as unknown as Sql, fnrs));
    await setCursor(tx as unknown as Sql, changes[changes.length - 1]!.id);
    return changes.length;
  });
}

export async function createIndex(client: Client, index: string, forBulkLoad = false): Promise<void> {
  await client.indices.create({
    index,
    settings: { ...INDEX_SETTINGS, ...(forBulkLoad ? { refresh_interval: '-1' } : {}) } as never,
    mappings: INDEX_MAPPINGS as never,
  });
}

/** Creates the first index and alias when none exists yet. */
export async function ensureEsIndex(client: Client): Promise<void> {
  if (await client.indices.existsAlias({ name: INDEX_ALIAS })) return;
  const index = versionedIndexName();
  await createIndex(client, index);
  await client.indices.updateAliases({ actions: [{ add: { index, alias: INDEX_ALIAS } }] });
}

export async function rebuildEsIndex(sql: Sql, client: Client, log: Logger): Promise<{ index: string; documents: number; ms: number }> {
  const started = performance.now();
  const index = versionedIndexName();
  const watermark = (await safeChangeBound(sql)) - 1;
  await createIndex(client, index, true);
  let documents = 0;
  // Stream the documents in batches: a full build never holds every company in memory.
  await sql
    .unsafe<Doc[]>(`SELECT row_to_json(d) AS doc FROM (${DOCUMENT_SELECT}) d`, [null])
    .cursor(BATCH, async (rows) => {
      await bulkIndex(client, index, rows.map((r) => toEsDocument(r.doc as Doc)));
      documents += rows.length;
    });
  await client.indices.putSettings({ index, settings: { refresh_interval: '1s' } });

  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${ES_LOCK})`;
    let last = watermark;
    for (;;) {
      const changes = await readChanges(tx as unknown as Sql, { afterId: last, limit: BATCH });
      if (changes.length === 0) break;
      const fnrs = [...new Set(changes.map((c) => c.fnr).filter((f): f is string => f !== null))];
      await bulkIndex(client, index, await documentsFor(tx as unknown as Sql, fnrs));
      last = changes[changes.length - 1]!.id;
    }
    await client.indices.refresh({ index });
    const current = await client.indices.getAlias({ name: INDEX_ALIAS }).catch(() => ({}));
    const previous = Object.keys(current);
    await client.indices.updateAliases({
      actions: [...previous.map((old) => ({ remove: { index: old, alias: INDEX_ALIAS } })), { add: { index, alias: INDEX_ALIAS } }],
    });
    await setCursor(tx as unknown as Sql, last);
  });
  await deleteOldIndices(client, index, log);
  const result = { index, documents, ms: Math.round(performance.now() - started) };
  log.info(result, 'Elasticsearch index rebuilt');
  return result;
}

/**
 * Keeps the live index and the newest one before it (for rollback); deletes older versions of ours.
 * Indices newer than the live one (a rebuild running elsewhere) are left alone.
 */
export async function deleteOldIndices(client: Client, live: string, log: Logger): Promise<string[]> {
  const liveStamp = parseIndexName(live)?.stamp ?? '';
  const all = Object.keys(await client.indices.get({ index: `${INDEX_ALIAS}-v*` }));
  const older = all
    .map((name) => ({ name, parsed: parseIndexName(name) }))
    .filter((i) => i.parsed !== null && i.parsed.stamp < liveStamp)
    .sort((a, b) => (a.parsed!.stamp < b.parsed!.stamp ? -1 : 1))
    .map((i) => i.name);
  const doomed = older.slice(0, -1);
  for (const index of doomed) {
    await client.indices.delete({ index });
    log.info({ index }, 'deleted old Elasticsearch index');
  }
  return doomed;
}

/** Follows the change log into Elasticsearch, like startIndexer does for the Postgres read model. */
export function startEsIndexer(sql: Sql, client: Client, log: Logger, intervalMs = 250): { close: () => Promise<void> } {
  return startPolling(() => esIndexOnce(sql, client), log, 'Elasticsearch indexing', intervalMs);
}
