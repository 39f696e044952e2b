// The change log's reading primitive never serves an id while a lower one may still commit, so a
// consumer that keeps the highest id it has seen never misses a change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentChange } from '../../api/presenters/changes.js';
import { recordChanges, type NewChange } from '../../pipeline/store/changeLog.js';
import { readChangePage, readChangePageJson, readChanges, safeChangeBound, SEEK_MIN_OFFSET, type ChangeType } from '../../runtime/changeLog.js';
import type { Sql } from '../../runtime/db.js';
import { insertChanges, insertRolledBack } from '../helpers/changeRows.js';
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

describe('feed entries written by Postgres (0013, 0014)', () => {
  it('are presentChange of the stored rows, for every type, through the plain, filtered and deep paths', async () => {
    const before = (await safeChangeBound(db.sql)) - 1;
    await db.sql.begin((tx) => recordChanges(tx, [
      { type: 'business', fnr: '8a', action: 'created', changedFields: ['name', 'addresses'], vnr: '004' },
      { type: 'document', fnr: '8a', action: 'created', changedFields: [], documentKey: 'doc "x" \\ ü' },
      { type: 'edikt', fnr: null, action: 'updated', changedFields: ['status'], ediktId: 'E-1', snapshot: { a: 1 } },
      { type: 'trade', fnr: '8a', action: 'deleted', changedFields: [], gisaZahl: '123456784' },
      { type: 'business', fnr: '9b', action: 'updated', changedFields: [], vnr: null },
    ]));
    const expected = (await readChanges(db.sql, { afterId: before, limit: 10 })).map(presentChange);
    expect(expected).toHaveLength(5);
    const page = await readChangePageJson(db.sql, { afterId: before, page: 1, pageSize: 10, countCap: 100 });
    expect(JSON.parse(page.data.toString('utf8'))).toEqual(expected);
    expect(page.total).toBe(5);
    // Key order too: the bytes a consumer sees are what JSON.stringify of the presented entry writes.
    expect(page.data.toString('utf8')).toBe(JSON.stringify(expected));
    const byFnr = await readChangePageJson(db.sql, { afterId: before, fnr: '8a', page: 1, pageSize: 10, countCap: 100 });
    expect(byFnr.data.toString('utf8')).toBe(JSON.stringify(expected.filter((e) => e.fnr === '8a')));
    const typed = await readChangePageJson(db.sql, { type: 'business', afterId: before, since: new Date(0), page: 1, pageSize: 1, countCap: 100 });
    expect(typed.data.toString('utf8')).toBe(JSON.stringify(expected.filter((e) => e.type === 'business').slice(0, 1)));
    expect(typed.total).toBe(2);
  });

  it('are rendered when the row is written and again when it is updated (0014), so the stored text never goes stale', async () => {
    const before = (await safeChangeBound(db.sql)) - 1;
    await db.sql.begin((tx) => recordChanges(tx, [{ type: 'business', fnr: '7c', action: 'created', changedFields: ['name'], vnr: '001' }]));
    const [stored] = await db.sql<{ id: number; entryJson: string }[]>`SELECT id, entry_json FROM change_log WHERE id > ${before}`;
    expect(JSON.parse(stored!.entryJson)).toEqual(presentChange((await readChanges(db.sql, { afterId: before, limit: 1 }))[0]!));
    await db.sql`UPDATE change_log SET changed_fields = '{name,seat}', vnr = '002' WHERE id = ${stored!.id}`;
    const page = await readChangePageJson(db.sql, { afterId: before, page: 1, pageSize: 10, countCap: 100 });
    expect(JSON.parse(page.data.toString('utf8'))).toEqual([expect.objectContaining({ id: stored!.id, changedFields: ['name', 'seat'], vnr: '002' })]);
  });

  it('refuses to run inside a REPEATABLE READ transaction, whose snapshot would predate the bound', async () => {
    await expect(db.sql.begin('isolation level repeatable read', (tx) => readChangePageJson(tx as unknown as Sql, { afterId: 0, page: 1, pageSize: 1, countCap: 1 })))
      .rejects.toThrow(/READ COMMITTED/);
  });
});

describe('a full feed page (0014)', () => {
  // A database of its own: the sealed-block tests below count and seal the shared log, and 2100 more
  // changes there would only make them slower.
  let own: TestDatabase;
  beforeAll(async () => {
    own = await createTestDatabase({ max: 8 });
  });
  afterAll(async () => {
    await own.drop();
  });

  it('come in id order on a full page of 1000 from a backlog written out of order by concurrent writers', async () => {
    const before = (await safeChangeBound(own.sql)) - 1;
    // Interleaved transactions: heap order is not id order, so only the page's ORDER BY keeps ids ascending.
    await Promise.all(Array.from({ length: 6 }, (_, w) => own.sql.begin(async (tx) => {
      for (let k = 0; k < 5; k++) await recordChanges(tx, Array.from({ length: 40 }, (_, j) => change(`${w}${k}${j}z`)));
    })));
    await own.sql.begin((tx) => recordChanges(tx, Array.from({ length: 900 }, (_, j) => change(`${j}y`))));
    const page = await readChangePageJson(own.sql, { afterId: before, page: 1, pageSize: 1000, countCap: 1_000_000 });
    const ids = (JSON.parse(page.data.toString('utf8')) as { id: number }[]).map((e) => e.id);
    expect(ids).toHaveLength(1000);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(page.total).toBe(2100);
  });
});

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

// Feed totals and deep pages come from running totals per sealed block of ids
// (schemas/sql/0012_change_log_block_counts.sql); each check compares them with a plain count.
describe('change feed totals and pages from sealed blocks', () => {
  const TYPES: Array<ChangeType | undefined> = [undefined, 'business', 'document', 'edikt', 'trade'];
  let blockSize = 0;
  beforeAll(async () => {
    const [row] = await db.sql<{ blockSize: number }[]>`SELECT change_log_block_size() AS block_size`;
    blockSize = row!.blockSize;
  });

  const plainCount = async (afterId: number, bound: number, type?: ChangeType) => {
    const [row] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM change_log WHERE id > ${afterId} AND id < ${bound} ${type ? db.sql`AND type = ${type}` : db.sql``}`;
    return row!.n;
  };

  const sealedBlocks = async () => {
    const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log_block_count`;
    return row!.n;
  };

  /** Every stored running total equals a plain count, and the sealed blocks form a prefix 0, 1, 2, ... */
  const expectSealedBlocksExact = async () => {
    const [row] = await db.sql<{ blocks: number; prefix: number; wrong: number }[]>`
      SELECT count(*)::int AS blocks, coalesce(max(block) + 1, 0)::int AS prefix,
             count(*) FILTER (WHERE (b.total, b.business, b.document, b.edikt, b.trade) <> (
               SELECT count(*), count(*) FILTER (WHERE l.type = 'business'), count(*) FILTER (WHERE l.type = 'document'),
                      count(*) FILTER (WHERE l.type = 'edikt'), count(*) FILTER (WHERE l.type = 'trade')
                 FROM change_log l WHERE l.id < (b.block + 1) * change_log_block_size())
               -- The block's latest change time (0018), '-infinity' for a block without changes.
               OR b.last_recorded_at IS DISTINCT FROM (
               SELECT coalesce(max(l.recorded_at), '-infinity') FROM change_log l
                WHERE l.id >= b.block * change_log_block_size() AND l.id < (b.block + 1) * change_log_block_size()))::int AS wrong
        FROM change_log_block_count b`;
    expect(row).toEqual({ blocks: row!.prefix, prefix: row!.prefix, wrong: 0 });
  };

  /** Cursors at and around every block boundary up to the bound, plus a few inside blocks. */
  const cursorsUpTo = (from: number, bound: number) => {
    const ids = new Set([0, from, from + 1, bound - 2, bound - 1, bound, bound + 5]);
    for (let b = Math.floor(from / blockSize); b * blockSize <= bound; b++) {
      for (const d of [-2, -1, 0, 1, 517]) ids.add(b * blockSize + d);
    }
    return [...ids].filter((id) => id >= 0).sort((a, b) => a - b);
  };

  it('counts exactly below the cap at every cursor: across block boundaries, inside blocks, over rolled-back gaps, per type', async () => {
    const from = await safeChangeBound(db.sql);
    await insertChanges(db.sql, 2500);
    await insertRolledBack(db.sql, 2100); // 2100 ids in a row hold at least one whole block: it has no rows
    await insertChanges(db.sql, 700);
    await insertRolledBack(db.sql, 30);
    await insertChanges(db.sql, 3100);
    const bound = await safeChangeBound(db.sql);
    expect(Math.floor(bound / blockSize)).toBeGreaterThanOrEqual(7);

    // The first read finds the blocks unsealed, counts them row by row and seals them.
    const first = await readChangePage(db.sql, { afterId: 0, page: 1, pageSize: 10, countCap: 1_000_000 });
    expect(first.total).toBe(await plainCount(0, bound));
    expect(await sealedBlocks()).toBe(Math.floor(bound / blockSize));
    await expectSealedBlocksExact();

    for (const afterId of cursorsUpTo(from, bound)) {
      for (const type of TYPES) {
        const { total } = await readChangePage(db.sql, { type, afterId, page: 1, pageSize: 10, countCap: 1_000_000 });
        expect(total, `afterId ${afterId} type ${type ?? 'all'}`).toBe(await plainCount(afterId, bound, type));
      }
    }
  });

  it('stops the total at the cap, exact one below it, with most of the count from sealed blocks', async () => {
    const bound = await safeChangeBound(db.sql);
    for (const type of TYPES) {
      for (const afterId of [0, blockSize + 3]) {
        const n = await plainCount(afterId, bound, type);
        expect(n).toBeGreaterThan(0);
        for (const [cap, expected] of [[n - 1, n - 1], [n, n], [n + 1, n], [Math.floor(n / 2), Math.floor(n / 2)]]) {
          const { total } = await readChangePage(db.sql, { type, afterId, page: 1, pageSize: 1, countCap: cap! });
          expect(total, `afterId ${afterId} type ${type ?? 'all'} cap ${cap}`).toBe(expected);
        }
      }
    }
  });

  it('serves deep pages exactly as plain OFFSET paging would, starting from the sealed block that holds them', async () => {
    await insertChanges(db.sql, 9000);
    expect((await readChangePage(db.sql, { afterId: 0, page: 1, pageSize: 1, countCap: 1 })).rows).toHaveLength(1); // seals
    const bound = await safeChangeBound(db.sql);
    await expectSealedBlocksExact();
    const plainPage = async (afterId: number, pageSize: number, page: number, type?: ChangeType) =>
      (await db.sql<{ id: number }[]>`
        SELECT id FROM change_log WHERE id > ${afterId} AND id < ${bound} ${type ? db.sql`AND type = ${type}` : db.sql``}
         ORDER BY id LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`).map((r) => r.id);
    let checked = 0;
    for (const type of TYPES) {
      for (const afterId of [0, 3 * blockSize - 1, 3 * blockSize + 200]) {
        const matching = await plainCount(afterId, bound, type);
        for (const pageSize of [1, 7, 100, 1000]) {
          const lastPage = Math.ceil(matching / pageSize) + 1;
          const pages = new Set([2, Math.ceil(SEEK_MIN_OFFSET / pageSize) + 1, lastPage - 1, lastPage]);
          for (let k = 1; k <= 6; k++) pages.add(Math.max(1, Math.floor((lastPage * k) / 7)));
          for (const page of pages) {
            const { rows } = await readChangePage(db.sql, { type, afterId, page, pageSize, countCap: 1_000_000 });
            expect(rows.map((r) => r.id), `type ${type ?? 'all'} afterId ${afterId} pageSize ${pageSize} page ${page}`).toEqual(
              await plainPage(afterId, pageSize, page, type),
            );
            if ((page - 1) * pageSize >= SEEK_MIN_OFFSET && rows.length > 0) checked++;
          }
        }
      }
    }
    // The seek really ran for every type but the sparsest.
    expect(checked).toBeGreaterThan(100);
  });

  it('never seals a block while a transaction holding an id in it is open; seals it once that transaction ends', async () => {
    for (const outcome of ['commit', 'rollback'] as const) {
      await readChangePage(db.sql, { afterId: 0, page: 1, pageSize: 1, countCap: 1 }); // seal what is sealable now
      const open = await insertInOpenTransaction('9z');
      await insertChanges(db.sql, 3 * blockSize);
      const openBlock = Math.floor(open.id / blockSize);

      const before = await safeChangeBound(db.sql);
      expect(before).toBe(open.id);
      const during = await readChangePage(db.sql, { afterId: open.id - 700, page: 1, pageSize: 1000, countCap: 1_000_000 });
      // Asked outright to seal all it can, the sealer still stops before the open id's block.
      const [sealer] = await db.sql<{ sealed: number }[]>`SELECT change_log_seal_blocks() AS sealed`;
      expect(sealer!.sealed).toBe(openBlock);
      expect(await sealedBlocks()).toBe(openBlock);
      expect(during.total).toBe(await plainCount(open.id - 700, before));
      expect(during.rows.every((r) => r.id < open.id)).toBe(true);

      if (outcome === 'commit') await open.commit();
      else await open.rollback();
      const bound = await safeChangeBound(db.sql);
      expect(bound).toBeGreaterThan(open.id + 3 * blockSize);
      const after = await readChangePage(db.sql, { afterId: open.id - 700, page: 1, pageSize: 1000, countCap: 1_000_000 });
      expect(await sealedBlocks()).toBe(Math.floor(bound / blockSize));
      await expectSealedBlocksExact();
      expect(after.total).toBe(await plainCount(open.id - 700, bound));
      expect(after.rows.some((r) => r.id === open.id)).toBe(outcome === 'commit');
    }
  });

  it('keeps every sealed block exact while concurrent writers hold ids open and readers seal as they go', async () => {
    let writing = true;
    const writer = async (w: number) => {
      for (let t = 0; t < 12; t++) {
        const conn = await db.sql.reserve();
        try {
          await conn`BEGIN`;
          await insertChanges(conn as unknown as Sql, 40 + ((w * 37 + t * 11) % 120));
          await new Promise((res) => setTimeout(res, Math.floor(Math.random() * 15)));
          await insertChanges(conn as unknown as Sql, 5);
          if ((w + t) % 5 === 0) await conn`ROLLBACK`;
          else await conn`COMMIT`;
        } finally {
          conn.release();
        }
      }
    };
    const reader = async () => {
      let reads = 0;
      while (writing) {
        const afterId = Math.max(0, (await safeChangeBound(db.sql)) - 3 * blockSize);
        await readChangePage(db.sql, { afterId, page: 1, pageSize: 5, countCap: 1_000_000 });
        reads++;
      }
      return reads;
    };
    const sealedBefore = await sealedBlocks();
    const readers = [reader(), reader()];
    await Promise.all(Array.from({ length: 5 }, (_, w) => writer(w)));
    writing = false;
    expect(Math.min(...(await Promise.all(readers)))).toBeGreaterThan(0);
    expect(await sealedBlocks()).toBeGreaterThan(sealedBefore + 2);
    await expectSealedBlocksExact();
    const bound = await safeChangeBound(db.sql);
    for (const type of TYPES) {
      expect((await readChangePage(db.sql, { type, afterId: 0, page: 1, pageSize: 1, countCap: 1_000_000 })).total).toBe(await plainCount(0, bound, type));
    }
  });

  it('drops the running totals from the first deleted block on, so totals stay exact after rows are deleted', async () => {
    await readChangePage(db.sql, { afterId: 0, page: 1, pageSize: 1, countCap: 1 });
    const sealed = await sealedBlocks();
    expect(sealed).toBeGreaterThan(10);
    const victimBlock = sealed - 6;
    await db.sql`DELETE FROM change_log WHERE id >= ${victimBlock * blockSize + 100} AND id < ${victimBlock * blockSize + 300}`;
    expect(await sealedBlocks()).toBe(victimBlock);
    await expectSealedBlocksExact();
    const bound = await safeChangeBound(db.sql);
    for (const type of TYPES) {
      for (const afterId of [0, (victimBlock - 1) * blockSize + 5]) {
        const { total } = await readChangePage(db.sql, { type, afterId, page: 1, pageSize: 1, countCap: 1_000_000 });
        expect(total, `afterId ${afterId} type ${type ?? 'all'}`).toBe(await plainCount(afterId, bound, type));
      }
    }
    expect(await sealedBlocks()).toBe(Math.floor(bound / blockSize));
    await expectSealedBlocksExact();

    // A snapshot older than a sealed block could not drop it; and an id or type never changes.
    await expect(
      db.sql.begin('ISOLATION LEVEL REPEATABLE READ', (tx) => tx`DELETE FROM change_log WHERE id = ${bound - 1}`),
    ).rejects.toThrow(/READ COMMITTED/);
    await expect(db.sql`UPDATE change_log SET type = 'business' WHERE id = (SELECT min(id) FROM change_log WHERE type = 'trade')`).rejects.toThrow(/keeps its id, type and recorded_at/);
    await expect(db.sql`UPDATE change_log SET id = id + 1000000 WHERE id = (SELECT max(id) FROM change_log)`).rejects.toThrow(/keeps its id, type and recorded_at/);
    // Nor its time, which the `since` floor reads from its sealed block (0018, 0019).
    await expect(db.sql`UPDATE change_log SET recorded_at = now() + interval '1 day' WHERE id = (SELECT min(id) FROM change_log)`).rejects.toThrow(/keeps its id, type and recorded_at/);
    await db.sql`UPDATE change_log SET recorded_at = recorded_at WHERE id = (SELECT min(id) FROM change_log)`;
    await expectSealedBlocksExact();
  });
});
