// The Postgres backend with the in-memory screener columns in front: totals and page order of a
// supported query come from the columns, the page's rows from the read model by fnr. Anything the
// columns do not answer exactly (name search, fnr, over-precise numbers) and everything before the
// first load goes to the plain Postgres backend, so answers are the same either way
// (test/integration/screenerConformance.test.ts runs the suite against both).
import type { Sql } from '../../../runtime/db.js';
import type { Logger } from '../../../runtime/logger.js';
import { KEY_FIGURES, figureColumn } from '../../../schemas/keyFigures.js';
import { READ_MODEL } from '../../companySearchTable.js';
import { RESULT_COLUMNS, buildPageQuery } from '../postgresScreenerQuery.js';
import { postgresSearch, toScreenerRow } from '../postgresSearch.js';
import type { ScreenerQuery } from '../screenerFilters.js';
import type { ScreenerResult, SearchBackend } from '../searchBackend.js';
import { loadColumns, syncColumns, type LoadedColumns } from './columnSync.js';

const FIGURE_COLUMNS = KEY_FIGURES.map((f) => figureColumn(f));
const CAMEL_FIGURE_COLUMNS = FIGURE_COLUMNS.map((c) => c.replace(/_([a-z])/g, (_m, x: string) => x.toUpperCase()));
const ROWS_BY_FNR = `SELECT ${RESULT_COLUMNS.filter((c) => !FIGURE_COLUMNS.includes(c)).join(', ')},
       array_to_string(ARRAY[${FIGURE_COLUMNS.join(', ')}]::text[], ',', '') AS figures_text
  FROM ${READ_MODEL} WHERE fnr = ANY($1::text[])`;

/** Puts the delimited figures back as the read model's columns (a null is an empty field). */
function withFigureColumns(row: Record<string, unknown>): Record<string, unknown> {
  const values = (row.figuresText as string).split(',');
  for (let i = 0; i < CAMEL_FIGURE_COLUMNS.length; i++) row[CAMEL_FIGURE_COLUMNS[i]!] = values[i] === '' ? null : values[i];
  return row;
}

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
    for (;;) {
      const result = await syncColumns(sql, loaded);
      if (result === 'reload') {
        // Keep answering from the current columns while the new table is read.
        reloading = load().finally(() => (reloading = null));
        return;
      }
      if (result === 0) return;
    }
  };
  const sync = () => (syncing ??= syncOnce().finally(() => (syncing = null)));
  const timer = setInterval(() => {
    sync().catch((error: unknown) => log.warn({ err: error }, 'screener columns: sync failed; retrying'));
  }, options.syncIntervalMs ?? 250);
  timer.unref();

  const answerable = (query: ScreenerQuery) => (loaded && loaded.columns.supports(query) ? loaded : null);

  const rowsByFnr = async (fnrs: string[]) => {
    if (fnrs.length === 0) return [];
    // Prepared (fixed text): planning against the read model's ~60 indexes costs ~3 ms a time. The
    // figures come as one delimited text: decoding 47 numeric columns a row dominated a 1000-row page.
    const raw = await sql.unsafe<Record<string, unknown>[]>(ROWS_BY_FNR, [fnrs], { prepare: true });
    const byFnr = new Map(raw.map((r) => [r.fnr as string, r]));
    return fnrs.flatMap((fnr) => {
      const r = byFnr.get(fnr);
      return r ? [toScreenerRow(withFigureColumns(r))] : [];
    });
  };

  return {
    name: 'postgres',
    ready,
    sync,
    count: async (query) => {
      const columns = answerable(query);
      return columns ? columns.columns.query(query, { countOnly: true }).total : fallback.count(query);
    },
    screener: async (query, opts = {}): Promise<ScreenerResult> => {
      const columns = answerable(query);
      if (!columns) return fallback.screener(query, opts);
      const answer = columns.columns.query(query, opts);
      if (opts.countOnly) return { rows: [], total: answer.total };
      if (query.orderBy) return { rows: await rowsByFnr(answer.fnrs), total: answer.total };
      // Name order (no figure sort) stays with Postgres' name index; only the total comes from here.
      const page = buildPageQuery(query);
      const rows = await sql.unsafe<Record<string, unknown>[]>(page.text, page.values as never[]);
      return { rows: rows.map(toScreenerRow), total: answer.total };
    },
    close: async () => {
      closed = true;
      clearInterval(timer);
      await Promise.allSettled([ready, syncing, reloading]);
    },
  };
}
