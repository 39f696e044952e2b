// Loads the screener columns from the live read-model table and keeps them following it.
//
// The load reads the indexer's cursor and every row in one repeatable-read snapshot, so the columns
// hold exactly the changes up to that cursor. Later, a sync step reads the cursor again and re-reads
// the rows of the companies named by the changes in between (all of them committed: the indexer only
// moves its cursor past applied changes). A rebuild swaps the live table: then the columns are loaded
// anew in the background while the old ones keep answering.
import type { Sql } from '../../../runtime/db.js';
import { KEY_FIGURES, figureColumn } from '../../../schemas/keyFigures.js';
import { READ_MODEL } from '../../companySearchTable.js';
import { ScreenerColumns, type ColumnRow } from './screenerColumns.js';

/** Rows per cursor batch: a batch is applied in one go on the event loop, so it bounds how long a reload behind a rebuild holds up requests (smaller batches do not make the whole load slower). */
const LOAD_BATCH = 500;
/** Changes read per sync step; a larger backlog is taken over several steps. */
const SYNC_BATCH = 5_000;

const SELECT_COLUMNS = [
  // The sets as one text each (sorted by the read model's DISTINCT aggregation): no array to parse or sort.
  'fnr', 'city_norm', 'zip_code', 'court_code', 'legal_form_code', `array_to_string(oenace_paths, chr(31)) AS oenace_paths`,
  `array_to_string(trade_keys, chr(31)) AS trade_keys`, 'is_active', 'is_scheinunternehmen',
  'name', 'name_norm', 'core_norm', `array_to_string(former_names_norm, '|') AS former_norm`, 'legal_form_text', 'court_text', 'city', 'has_edikt', 'document_key IS NOT NULL AS has_filing', `to_char(document_date, 'YYYY-MM-DD') AS document_date`,
].join(', ');
// The figures as one comma-separated text (a null is an empty field): one value to decode per row
// instead of 47 numerics. Not a text[]: the driver reads a NULL element of one as the string "NULL".
const SELECT_FIGURES = `array_to_string(ARRAY[${KEY_FIGURES.map((f) => figureColumn(f)).join(', ')}]::text[], ',', '') AS figures`;



export interface ModelState {
  liveTable: string;
  cursor: number;
}

/** The live table and the indexer's cursor: the read-model state the columns follow. */
export async function modelState(sql: Sql): Promise<ModelState | null> {
  const [row] = await sql<{ liveTable: string; cursor: number }[]>`
    SELECT v.live_table, coalesce(c.last_change_id, 0) AS cursor
      FROM read_model_version v LEFT JOIN index_cursor c ON c.name = v.name
     WHERE v.name = ${READ_MODEL}`;
  return row ?? null;
}

export interface LoadedColumns {
  columns: ScreenerColumns;
  liveTable: string;
  cursor: number;
}

/** Loads every row of the live table; null when there is no read model yet. */
export async function loadColumns(sql: Sql): Promise<LoadedColumns | null> {
  const loaded = await sql.begin('isolation level repeatable read read only', async (tx) => {
    const state = await modelState(tx as unknown as Sql);
    if (!state) return null;
    const [{ n, withFigures } = { n: 0, withFigures: 0 }] = await tx<{ n: number; withFigures: number }[]>`
      SELECT count(*)::int AS n, count(document_key)::int AS with_figures FROM ${tx(state.liveTable)}`;
    // A little headroom for new companies and filings before the arrays grow (by doubling).
    const columns = new ScreenerColumns(Math.ceil(n * 1.02) + 1024, Math.ceil(withFigures * 1.05) + 1024);
    await tx.unsafe<ColumnRow[]>(
      // Byte order, as JavaScript compares strings: the columns find a loaded fnr by binary search.
      `SELECT ${SELECT_COLUMNS}, ${SELECT_FIGURES} FROM ${state.liveTable} ORDER BY fnr COLLATE "C"`,
    ).cursor(LOAD_BATCH, (rows) => {
      for (const r of rows) columns.upsert(r);
    });
    return { columns, liveTable: state.liveTable, cursor: state.cursor };
  });
  // The figures' sort orders and the name index's, after the snapshot's transaction (it need not hold
  // a connection for this), in short slices (a figure each, or 16k names), so a reload behind a
  // rebuild never holds up requests for long.
  if (loaded) {
    const pause = () => new Promise<void>((next) => setImmediate(next));
    while (loaded.columns.rebuildOrders(1) > 0) await pause();
    await loaded.columns.flushNamesInSlices(pause);
  }
  return loaded;
}

/**
 * Applies the read model's changes since `loaded.cursor` to the columns. Returns 'reload' when the
 * live table was swapped (a rebuild), else how many changes were applied.
 */
export async function syncColumns(sql: Sql, loaded: LoadedColumns): Promise<number | 'reload'> {
  const state = await modelState(sql);
  if (!state) return 0;
  if (state.liveTable !== loaded.liveTable) return 'reload';
  if (state.cursor <= loaded.cursor) return 0;
  const changes = await sql<{ id: number; fnr: string | null }[]>`
    SELECT id, fnr FROM change_log WHERE id > ${loaded.cursor} AND id <= ${state.cursor} ORDER BY id LIMIT ${SYNC_BATCH}`;
  const last = changes.length > 0 ? changes[changes.length - 1]!.id : state.cursor;
  const fnrs = [...new Set(changes.map((c) => c.fnr).filter((f): f is string => f !== null))];
  if (fnrs.length > 0) {
    const rows = await sql.unsafe<ColumnRow[]>(`SELECT ${SELECT_COLUMNS}, ${SELECT_FIGURES} FROM ${READ_MODEL} WHERE fnr = ANY($1::text[])`, [fnrs]);
    for (const r of rows) loaded.columns.upsert(r);
    loaded.columns.flushNames();
  }
  // Fewer rows than the batch: every change up to the indexer's cursor is in.
  loaded.cursor = changes.length < SYNC_BATCH ? state.cursor : last;
  return changes.length;
}
