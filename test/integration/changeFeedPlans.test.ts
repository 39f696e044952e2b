// A typed feed's page must read only its own type's changes, whichever plan the connection has cached
// (schemas/sql/0017): after a few pages of 1000, PL/pgSQL switches a statement to its generic plan, and
// a generic plan that walks the primary key and filters by type reads the whole log for a rare type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChangePageJson, sealChangeBlocks, type ChangeType } from '../../runtime/changeLog.js';
import type { Sql } from '../../runtime/db.js';
import { rowsRead } from '../helpers/tableReads.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  // 60,000 changes: six company changes to one document, and no court-notice or trade change at all.
  await db.sql`
    INSERT INTO change_log (type, fnr, action, changed_fields, document_key)
    SELECT CASE WHEN i % 7 = 0 THEN 'document' ELSE 'business' END, i || 'x', 'updated', '{}', CASE WHEN i % 7 = 0 THEN 'D' || i END
      FROM generate_series(1, 60000) AS i`;
  await db.sql`VACUUM ANALYZE change_log`;
  await sealChangeBlocks(db.sql, null);
});
afterAll(() => db.drop());

describe('typed feed pages under cached plans', () => {
  it.each<ChangeType>(['trade', 'edikt'])('a page of %s changes reads no other type after a connection served pages of 1000 documents', async (rare) => {
    await db.sql.begin(async (transaction) => {
      // One connection (the transaction's), so one plan cache: enough large pages for the generic plan.
      const tx = transaction as unknown as Sql;
      for (let i = 0; i < 12; i++) {
        const page = await readChangePageJson(tx, { type: 'document', afterId: i * 1000, page: 1, pageSize: 1000, countCap: 1_000_000 });
        expect(page.total).toBeGreaterThan(0);
      }
      const before = await rowsRead(tx, 'change_log');
      const page = await readChangePageJson(tx, { type: rare, afterId: 0, page: 1, pageSize: 1000, countCap: 1_000_000 });
      expect({ total: page.total, data: page.data.toString() }).toEqual({ total: 0, data: '[]' });
      // Filtering the primary key's walk by type read all 60,000 changes here.
      expect(await rowsRead(tx, 'change_log') - before).toBeLessThan(100);
    });
  });
});
