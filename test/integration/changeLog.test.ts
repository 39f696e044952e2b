// The change log's reading primitive never serves an id while a lower one may still commit, so a
// consumer that keeps the highest id it has seen never misses a change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChanges, recordChanges, safeChangeBound, type NewChange } from '../../pipeline/store/changeLog.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ max: 12 });
});
afterAll(async () => {
  await db.drop();
});

const change = (fnr: string): NewChange => ({ type: 'business', fnr, action: 'updated', changedFields: ['name'] });

async function insertInOpenTransaction(fnr: string) {
  const conn = await db.sql.reserve();
  await conn`BEGIN`;
  const [row] = await conn<{ id: number }[]>`
    INSERT INTO change_log (type, fnr, action, changed_fields) VALUES ('business', ${fnr}, 'updated', '{name}') RETURNING id`;
  return {
    id: row!.id,
    commit: async () => {
      await conn`COMMIT`;
      conn.release();
    },
    rollback: async () => {
      await conn`ROLLBACK`;
      conn.release();
    },
  };
}

describe('change log ordering', () => {
  it('holds back a committed id while a lower id is still being written, then serves both in order', async () => {
    const start = await safeChangeBound(db.sql);
    const slow = await insertInOpenTransaction('1a');
    const fast = await insertInOpenTransaction('2b');
    expect(fast.id).toBeGreaterThan(slow.id);
    await fast.commit();

    // The trap this guards against: a plain "id > cursor" read already sees the higher id.
    const naive = await db.sql<{ id: number }[]>`SELECT id FROM change_log WHERE id >= ${start} ORDER BY id`;
    expect(naive.map((r) => r.id)).toEqual([fast.id]);

    // The reading primitive serves nothing yet: the lower id may still commit.
    const poll1 = await readChanges(db.sql, { afterId: start - 1, limit: 100 });
    expect(poll1.map((c) => c.id)).toEqual([]);

    await slow.commit();
    const poll2 = await readChanges(db.sql, { afterId: start - 1, limit: 100 });
    expect(poll2.map((c) => c.id)).toEqual([slow.id, fast.id]);
  });

  it('does not wait for a transaction that rolled back; its id never appears', async () => {
    const before = await safeChangeBound(db.sql);
    const aborted = await insertInOpenTransaction('3d');
    const kept = await insertInOpenTransaction('4f');
    await kept.commit();
    expect(await safeChangeBound(db.sql)).toBeLessThanOrEqual(aborted.id);
    await aborted.rollback();
    const rows = await readChanges(db.sql, { afterId: before - 1, limit: 100 });
    expect(rows.map((c) => c.id)).toEqual([kept.id]);
  });

  it('writes change rows atomically with their transaction and records the fields of the contract', async () => {
    const before = await safeChangeBound(db.sql);
    const ids = await db.sql.begin((tx) =>
      recordChanges(tx, [
        { type: 'business', fnr: '30435h', action: 'created', changedFields: ['name', 'legalForm'], vnr: '001' },
        { type: 'document', fnr: '30435h', action: 'created', changedFields: [], documentKey: '030435_0070711322495_000___000_30_7730290_XML' },
      ]),
    );
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBeGreaterThan(ids[0]!);
    await expect(
      db.sql.begin(async (tx) => {
        await recordChanges(tx, [change('5g')]);
        throw new Error('store failed after the change row was written');
      }),
    ).rejects.toThrow('store failed');
    const rows = await readChanges(db.sql, { afterId: before - 1, limit: 100 });
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows[0]).toMatchObject({ type: 'business', fnr: '30435h', action: 'created', changedFields: ['name', 'legalForm'], vnr: '001' });
    expect(rows[1]).toMatchObject({ type: 'document', documentKey: '030435_0070711322495_000___000_30_7730290_XML' });
    expect(rows[0]!.recordedAt).toBeInstanceOf(Date);
  });

  it('a polling consumer under concurrent writers sees every committed change exactly once', async () => {
    const start = (await safeChangeBound(db.sql)) - 1;
    const writers = 6;
    const transactionsPerWriter = 25;
    let writing = true;

    const writer = async (w: number) => {
      for (let t = 0; t < transactionsPerWriter; t++) {
        const conn = await db.sql.reserve();
        try {
          await conn`BEGIN`;
          const rows = 1 + ((w + t) % 3);
          for (let r = 0; r < rows; r++) {
            await conn`INSERT INTO change_log (type, fnr, action, changed_fields) VALUES ('business', ${`${w}x${t}`}, 'updated', '{}')`;
            // Hold the transaction open for a while, so commits interleave out of id order.
            await new Promise((res) => setTimeout(res, Math.floor(Math.random() * 8)));
          }
          // Every tenth transaction rolls back: its ids must never appear and never block the feed.
          if ((w * 7 + t) % 10 === 0) await conn`ROLLBACK`;
          else await conn`COMMIT`;
        } finally {
          conn.release();
        }
      }
    };

    const seen: number[] = [];
    const reader = async () => {
      let cursor = start;
      for (;;) {
        const done = !writing;
        const rows = await readChanges(db.sql, { afterId: cursor, limit: 50 });
        for (const r of rows) seen.push(r.id);
        if (rows.length > 0) cursor = rows[rows.length - 1]!.id;
        if (done && rows.length === 0) return;
        if (rows.length === 0) await new Promise((res) => setTimeout(res, 2));
      }
    };

    const readerDone = reader();
    await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
    writing = false;
    await readerDone;

    const committed = (await db.sql<{ id: number }[]>`SELECT id FROM change_log WHERE id > ${start} ORDER BY id`).map((r) => r.id);
    expect(committed.length).toBeGreaterThan(writers * transactionsPerWriter);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(committed);
  });
});
