// Rows a transaction has read so far from one table's heap, through any index or a sequential scan
// (pg_stat_xact_user_tables counts the current transaction only): tests of query plans compare it
// before and after a statement, instead of timing it.
import type { Sql } from '../../runtime/db.js';

export async function rowsRead(tx: Sql, table: string): Promise<number> {
  const [row] = await tx<{ n: number }[]>`
    SELECT (coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0))::int AS n FROM pg_stat_xact_user_tables WHERE relname = ${table}`;
  return row?.n ?? 0;
}
