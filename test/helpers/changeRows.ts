// Bulk change rows for the change-log and feed tests: many ids in one statement, and rolled-back
// transactions that leave gaps in the ids (whole empty blocks when large enough).
import type { Sql } from '../../runtime/db.js';

/** n changes in one statement (one transaction unless inside one): 40% business, 30% document, 20% edikt, 10% trade. */
export function insertChanges(sql: Sql, n: number) {
  return sql`
    INSERT INTO change_log (type, fnr, action, changed_fields, document_key, edikt_id, gisa_zahl)
    SELECT t.type, i || 'x', 'updated', '{}',
           CASE WHEN t.type = 'document' THEN 'D' || i END,
           CASE WHEN t.type = 'edikt' THEN 'E' || i END,
           CASE WHEN t.type = 'trade' THEN 'T' || i END
      FROM generate_series(1, ${n}::int) AS i
     CROSS JOIN LATERAL (
           SELECT (ARRAY['business', 'business', 'business', 'business', 'document', 'document', 'document', 'edikt', 'edikt', 'trade'])[i % 10 + 1] AS type
           ) t`;
}

/** A transaction that takes n ids and rolls back: their ids never appear. */
export async function insertRolledBack(sql: Sql, n: number): Promise<void> {
  const rollback = new Error('rolled back on purpose');
  try {
    await sql.begin(async (tx) => {
      await insertChanges(tx as unknown as Sql, n);
      throw rollback;
    });
  } catch (err) {
    if (err !== rollback) throw err;
  }
}
