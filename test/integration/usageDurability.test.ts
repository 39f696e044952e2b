// Usage counters are counted in Redis and flushed to Postgres: a graceful restart of the API loses
// no counted request; a Redis that loses its data loses at most the counts since the last flush, and
// the month's totals are restored from Postgres before anything of that month is written again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from '../../api/server.js';
import { createUsageFlusher } from '../../api/metering/usageFlusher.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey, createTestAccess, deleteKeys, type TestAccess } from '../helpers/apiAccess.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const log = createLogger('silent');
let db: TestDatabase;
let access: TestAccess;
const now = Date.UTC(2025, 5, 10, 8, 0, 0);
const clock = () => now;

beforeAll(async () => {
  db = await createTestDatabase();
  access = await createTestAccess();
});
afterAll(async () => {
  await access.close();
  await db.drop();
});

/** The API as the entry points run it, flushing only at close unless told otherwise. */
function start(intervalMs = 3_600_000): Promise<RunningApi> {
  return startApi({ sql: db.sql, log, port: 0, host: '127.0.0.1', access: access.access, clock, usageFlushIntervalMs: intervalMs });
}

async function call(api: RunningApi, key: string): Promise<Response> {
  const res = await fetch(`${api.baseUrl.replace('localhost', '127.0.0.1')}/courts`, { headers: { 'x-api-key': key } });
  await res.arrayBuffer();
  return res;
}

async function stored(accountId: string): Promise<number | undefined> {
  const [row] = await db.sql<{ requests: number }[]>`
    SELECT requests FROM usage_counter WHERE subject = ${`account:${accountId}`} AND month = '2025-06-01'`;
  return row?.requests;
}

describe('usage durability', () => {
  it('loses no counted request across a graceful restart', async () => {
    const user = await accountWithKey(db.sql, 'pro');
    const first = await start();
    for (let i = 0; i < 7; i++) expect((await call(first, user.key)).status).toBe(200);
    expect(await stored(user.accountId)).toBeUndefined(); // nothing written per request
    await first.close(); // graceful: the last flush writes the counters
    expect(await stored(user.accountId)).toBe(7);

    const second = await start();
    try {
      const res = await call(second, user.key);
      expect(res.headers.get('x-quota-remaining')).toBe(String(5000 - 8));
    } finally {
      await second.close();
    }
    expect(await stored(user.accountId)).toBe(8);
  });

  it('flushes on its own at the configured interval', async () => {
    const user = await accountWithKey(db.sql, 'pro');
    const api = await start(100);
    try {
      await call(api, user.key);
      await expect.poll(() => stored(user.accountId), { timeout: 3_000, interval: 50 }).toBe(1);
    } finally {
      await api.close();
    }
  });

  it('after a Redis data loss, loses at most the unflushed counts and restores the month from Postgres', async () => {
    const user = await accountWithKey(db.sql, 'pro');
    const api = await start();
    try {
      for (let i = 0; i < 10; i++) await call(api, user.key);
      await api.flushUsage();
      expect(await stored(user.accountId)).toBe(10);
      for (let i = 0; i < 3; i++) await call(api, user.key); // counted, not yet flushed

      await deleteKeys(access.redis, `${access.prefix}*`); // Redis loses everything

      const afterLoss = await call(api, user.key);
      expect(afterLoss.status).toBe(200);
      await api.flushUsage(); // restores the month from Postgres (10), then writes 10 + 1
      expect(await stored(user.accountId)).toBe(11);
      const next = await call(api, user.key);
      expect(next.headers.get('x-quota-remaining')).toBe(String(5000 - 12));
    } finally {
      await api.close();
    }
    expect(await stored(user.accountId)).toBe(12);
  });

  it('restores only once when several processes flush, and never lowers a stored total', async () => {
    const user = await accountWithKey(db.sql, 'pro');
    await db.sql`INSERT INTO usage_counter (subject, month, requests) VALUES (${`account:${user.accountId}`}, '2025-06-01', 40)`;
    await deleteKeys(access.redis, `${access.prefix}usage:*`);
    const a = createUsageFlusher({ redis: access.redis, sql: db.sql, prefix: access.prefix, clock, log });
    const b = createUsageFlusher({ redis: access.redis, sql: db.sql, prefix: access.prefix, clock, log });
    const results = await Promise.all([a.flushNow(), b.flushNow()]);
    expect(results.flatMap((r) => r.seeded)).toEqual(['2025-06']);
    expect(Number(await access.redis.hget(`${access.prefix}usage:2025-06`, `account:${user.accountId}`))).toBe(40);
    expect(await stored(user.accountId)).toBe(40);
  });
});
