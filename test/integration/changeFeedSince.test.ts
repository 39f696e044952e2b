// `since` on the feeds (schemas/sql/0018): the answer is every change recorded at or after it, even
// one whose time is later than its id suggests (a long transaction's), and the read starts at the
// first sealed block that can hold such a change instead of walking the log from the cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChangePage, readChangePageJson, readChanges, sealChangeBlocks, type ChangeType } from '../../runtime/changeLog.js';
import type { Sql } from '../../runtime/db.js';
import { rowsRead } from '../helpers/tableReads.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
const base = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(base.getTime() + seconds * 1000);

beforeAll(async () => {
  db = await createTestDatabase();
  // 8000 changes one second apart, a document every seventh; the 50th was written by a transaction that
  // started at second 7000, so its time is far ahead of its neighbours'.
  await db.sql`
    INSERT INTO change_log (type, fnr, action, changed_fields, document_key, recorded_at)
    SELECT CASE WHEN i % 7 = 0 THEN 'document' ELSE 'business' END, i || 'x', 'updated', '{}', CASE WHEN i % 7 = 0 THEN 'D' || i END,
           ${base}::timestamptz + make_interval(secs => CASE WHEN i = 50 THEN 7000 ELSE i END)
      FROM generate_series(1, 8000) AS i ORDER BY i`;
  await db.sql`VACUUM ANALYZE change_log`;
  await sealChangeBlocks(db.sql, null);
});
afterAll(() => db.drop());

async function expectedIds(since: Date, type?: ChangeType): Promise<number[]> {
  const rows = await db.sql<{ id: number }[]>`
    SELECT id FROM change_log WHERE recorded_at >= ${since} ${type ? db.sql`AND type = ${type}` : db.sql``} ORDER BY id`;
  return rows.map((r) => r.id);
}

describe('feeds filtered by since', () => {
  it.each([[6900, undefined], [6900, 'document'], [7990, undefined], [7000, 'business'], [0, 'document'], [9000, undefined]] as const)(
    'answer every change recorded from second %i on (type %s), the early id with a late time included',
    async (second, type) => {
      const since = at(second);
      const expected = await expectedIds(since, type);
      const { rows, total } = await readChangePage(db.sql, { type, since, page: 1, pageSize: 1000, countCap: 1_000_000 });
      expect({ ids: rows.map((r) => r.id), total }).toEqual({ ids: expected.slice(0, 1000), total: expected.length });
      const aggregated = await readChanges(db.sql, { type, since, limit: 2000 });
      expect(aggregated.map((r) => r.id)).toEqual(expected.slice(0, 2000));
    },
  );

  it('includes the long transaction\'s change, which lies in the first block', async () => {
    const ids = await expectedIds(at(6900));
    const [early] = await db.sql<{ id: number }[]>`SELECT id FROM change_log WHERE recorded_at = ${at(7000)} AND fnr = '50x'`;
    expect(ids[0]).toBe(early!.id);
  });

  it('reads from the block where changes that recent begin, not from the cursor', async () => {
    // Second 7001 on: the last 1000 changes, and no change of the first block (its latest is second
    // 7000). The planner takes the primary key for these (it cannot know times grow with ids).
    const reads = await db.sql.begin(async (transaction) => {
      const tx = transaction as unknown as Sql;
      const start = await rowsRead(tx, 'change_log');
      const page = await readChangePageJson(tx, { since: at(7001), page: 1, pageSize: 100, countCap: 100_000 });
      expect(page.total).toBe(1000);
      const afterPage = await rowsRead(tx, 'change_log');
      expect(await readChanges(tx, { since: at(7001), limit: 100 })).toHaveLength(100);
      return { page: afterPage - start, aggregated: await rowsRead(tx, 'change_log') - afterPage };
    });
    // From the floor (block 6, id 6144 on): the count reads up to 1,857 rows and the page up to 957.
    // From the cursor, each walked the ~7,000 changes before the first match.
    expect(reads.page).toBeLessThan(1857 + 957 + 10);
    expect(reads.aggregated).toBeLessThan(957 + 10);
  });
});
