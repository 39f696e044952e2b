// The Postgres backend with the in-memory screener columns in front: a supported query with a figure
// sort is answered from the columns alone (total, order and the page's JSON); without a sort, the
// name-ordered page comes from Postgres' name index and the total from the columns, when they hold
// the read-model state the page was read in (else from that page's snapshot). Anything the
// columns do not answer exactly (name search, fnr, over-precise numbers) and everything before the
// first load goes to the plain Postgres backend, so answers are the same either way
// (test/integration/screenerConformance.test.ts runs the suite against both).
import type { Sql } from '../../../runtime/db.js';
import type { Logger } from '../../../runtime/logger.js';
import type { ScreenerQuery } from '../../../schemas/screenerParameters.js';
import type { PresentedScreenerRow } from '../../../schemas/screenerRecords.js';
import { READ_MODEL } from '../../companySearchTable.js';
import { buildPageQuery } from '../postgresScreenerQuery.js';
import { countMatches, postgresSearch, toScreenerRow } from '../postgresSearch.js';
import { resultFromRows, type ScreenerResult, type SearchBackend } from '../searchBackend.js';
import { loadColumns, modelState, syncColumns, type LoadedColumns } from './columnSync.js';

export interface ColumnarSearch extends SearchBackend {
  /** Resolves once the first load is done (or found no read model). */
  readonly ready: Promise<void>;
  /** One sync step now (tests; the timer does it every `syncIntervalMs`). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface ColumnarSearchOptions {
  log: Logger;
  /** How often the columns follow the read model; the screener lags the indexer by at most this. */
  syncIntervalMs?: number;
}

export function columnarSearch(sql: Sql, options: ColumnarSearchOptions): ColumnarSearch {
  const { log } = options;
  const fallback = postgresSearch(sql);
  let loaded: LoadedColumns | null = null;
  let closed = false;
  let reloading: Promise<void> | null = null;

  const load = async () => {
    const started = performance.now();
    const next = await loadColumns(sql);
    if (closed) return;
    loaded = next;
    if (next) log.info({ rows: next.columns.rows, table: next.liveTable, ms: Math.round(performance.now() - started) }, 'screener columns loaded');
  };
  const ready = load().catch((error: unknown) => log.error({ err: error }, 'screener columns: load failed; answering from Postgres'));

  let syncing: Promise<void> | null = null;
  const syncOnce = async () => {
    await ready;
    if (reloading) return;
    if (!loaded) {
      // No read model at start (a new database): load once one exists.
      reloading = load().finally(() => (reloading = null));
      return reloading;
    }
    for (let applied = 0; ; ) {
      const result = await syncColumns(sql, loaded);
      if (result === 'reload') {
        // Keep answering from the current columns while the new table is read.
        reloading = load().finally(() => (reloading = null));
        return;
      }
      if (result === 0) {
        // Changed figures lost their sort orders (queries on them scan meanwhile). Rebuild one per quiet
        // step, so a steady trickle of filings costs one figure's sort per interval at most, not all 47
        // at once.
        if (applied === 0) loaded.columns.rebuildOrders(1);
        return;
      }
      applied += result;
    }
  };
  const sync = () => (syncing ??= syncOnce().finally(() => (syncing = null)));
  const timer = setInterval(() => {
    sync().catch((error: unknown) => log.warn({ err: error }, 'screener columns: sync failed; retrying'));
  }, options.syncIntervalMs ?? 250);
  timer.unref();

  const answerable = (query: ScreenerQuery) => (loaded && loaded.columns.supports(query) ? loaded : null);

  return {
    name: 'postgres',
    ready,
    sync,
    names: {
      bands: (core, limit, prefixLimit, cap) => loaded?.columns.nameBands(core, limit, prefixLimit, cap) ?? null,
      count: (core, cap) => loaded?.columns.nameCount(core, cap) ?? null,
    },
    count: async (query) => {
      const columns = answerable(query);
      return columns ? columns.columns.query(query, { countOnly: true }).total : fallback.count(query);
    },
    screener: async (query, opts = {}): Promise<ScreenerResult> => {
      const columns = answerable(query);
      if (!columns) return fallback.screener(query, opts);
      const answer = columns.columns.query(query, opts);
      // The state the total counts: read now, with it (a sync step may move the columns on during an await).
      const counted = { liveTable: columns.liveTable, cursor: columns.cursor };
      if (opts.countOnly) return resultFromRows([], answer.total, opts);
      if (query.orderBy) {
        // Written now, from the columns as they are at this moment (a sync step could follow an await).
        const { before, after } = opts.envelope?.(answer.total) ?? { before: '', after: '' };
        const json = columns.columns.json(answer.rows, before, after, opts.allocate, opts.fields);
        // From the very bytes sent (the columns may have moved on since); the envelope cut off.
        const presented = () => JSON.parse(json.subarray(before.length, json.length - after.length).toString('utf8')) as PresentedScreenerRow[];
        return { total: answer.total, fnrs: answer.fnrs, json: () => json, presented };
      }
      // Name order (no figure sort) stays with Postgres' name index. The read-model state is read first
      // (its SELECT takes the snapshot), then the page from that state's own table by name: through the
      // view, a page that waited for a rebuild's swap would read the new table under the old state. The
      // columns' total stands only when they counted that same state; otherwise (a change they have not
      // followed yet, at most one sync interval, or a swapped table) it is counted in the snapshot, so
      // the page never holds a company its total does not count. The old table is dropped after a swap:
      // a read that meets it gone (42P01) is made again, on the new state.
      const read = () => sql.begin('isolation level repeatable read read only', async (tx) => {
        const db = tx as unknown as Sql;
        const state = await modelState(db);
        const table = state?.liveTable ?? READ_MODEL;
        const page = buildPageQuery(query, table);
        const rows = await db.unsafe<Record<string, unknown>[]>(page.text, page.values as never[]);
        const same = state !== null && state.liveTable === counted.liveTable && state.cursor === counted.cursor;
        return { rows, total: same ? answer.total : await countMatches(db, query, table) };
      });
      const { rows, total } = await read().catch((error: unknown) => {
        if ((error as { code?: string }).code === '42P01') return read();
        throw error;
      });
      return resultFromRows(rows.map(toScreenerRow), total, opts);
    },
    close: async () => {
      closed = true;
      clearInterval(timer);
      await Promise.allSettled([ready, syncing, reloading]);
    },
  };
}
