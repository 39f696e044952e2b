// The access chain end to end on real Postgres and Redis, with an injected clock: which calls are
// billed, the sliding burst window, the monthly quota per user (across keys and rotation), its reset
// at 00:00 UTC on the first, the principal cache, and the counters' way to Postgres.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey, rotateApiKey } from '../../api/accounts/accountStore.js';
import { createApp } from '../../api/app.js';
import { createUsageFlusher } from '../../api/metering/usageFlusher.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey, createTestAccess, deleteKeys, type TestAccess } from '../helpers/apiAccess.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const log = createLogger('silent');
let db: TestDatabase;
let access: TestAccess;
let http: TestHttp;
let now = Date.UTC(2025, 2, 14, 12, 0, 0);
const clock = () => now;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ app: { clock } });
  ({ db, access, http } = api);
});
afterAll(() => api.close());
beforeEach(async () => {
  await deleteKeys(access.redis, `${access.prefix}*`);
});

const get = (path: string, key?: string) => http.get(`/api/v1${path}`, key ? { 'x-api-key': key } : {});

function flusher() {
  return createUsageFlusher({ redis: access.redis, sql: db.sql, prefix: access.prefix, clock, log });
}

async function storedUsage(subject: string, month = '2025-03-01'): Promise<number | undefined> {
  const [row] = await db.sql<{ requests: number }[]>`SELECT requests FROM usage_counter WHERE subject = ${subject} AND month = ${month}`;
  return row?.requests;
}

describe('billing', () => {
  it('bills 200, 400, 404 and 500 once each, and neither 401 nor the burst 429', async () => {
    now = Date.UTC(2025, 2, 14, 12, 0, 0);
    const user = await accountWithKey(db.sql, 'pro');
    const revoked = await createApiKey(db.sql, { accountId: user.accountId });
    await revokeApiKey(db.sql, revoked.id);

    expect((await get('/courts', user.key)).status).toBe(200);
    expect((await get('/courts?pageSize=0', user.key)).status).toBe(400);
    expect((await get('/edikte/changes/999999999', user.key)).status).toBe(404);
    // A path that names no operation never reaches the chain: a 404 without a key, and free.
    expect((await get('/no-such-endpoint', user.key)).status).toBe(404);
    expect((await get('/no-such-endpoint')).status).toBe(404);
    await db.sql`ALTER TABLE function_code RENAME TO function_code_hidden`;
    try {
      expect((await get('/assignmentfunctions', user.key)).status).toBe(500);
    } finally {
      await db.sql`ALTER TABLE function_code_hidden RENAME TO function_code`;
    }
    expect((await get('/courts')).status).toBe(401);
    expect((await get('/courts', revoked.key)).status).toBe(401);
    expect((await get('/courts', 'atc_made_up')).status).toBe(401);

    const last = await get('/courts', user.key);
    expect(last.headers.get('x-quota-limit')).toBe('5000');
    expect(last.headers.get('x-quota-remaining')).toBe(String(5000 - 5));
    await flusher().flushNow();
    expect(await storedUsage(`account:${user.accountId}`)).toBe(5);
  });

  it('writes nothing to Postgres per request: counters reach usage_counter only with a flush', async () => {
    const user = await accountWithKey(db.sql, 'free');
    for (let i = 0; i < 3; i++) await get('/courts', user.key);
    expect(await storedUsage(`account:${user.accountId}`)).toBeUndefined();
    // The month's Redis counters expire on their own, well after the month.
    expect(await access.redis.ttl(`${access.prefix}usage:2025-03`)).toBeGreaterThan(40 * 86_400);
    const result = await flusher().flushNow();
    expect(result.counters).toBe(1);
    expect(await storedUsage(`account:${user.accountId}`)).toBe(3);
    const [key] = await db.sql<{ lastUsedAt: Date }[]>`SELECT last_used_at FROM api_key WHERE id = ${user.keyId}`;
    expect(key!.lastUsedAt.getTime()).toBe(now);
  });
});

describe('burst limit: 1000 requests per 60 s sliding window, per key', () => {
  it('refuses the 1001st request inside 60 s and admits again as the window slides', async () => {
    const start = Date.UTC(2025, 2, 14, 12, 0, 0);
    const user = await accountWithKey(db.sql, 'pro');
    const other = await createApiKey(db.sql, { accountId: user.accountId });
    // 1000 requests spread over 49.95 s: one every 50 ms (sequential, so each sees its own time).
    for (let i = 0; i < 1000; i++) {
      now = start + i * 50;
      expect((await get('/courts?pageSize=0', user.key)).status).toBe(400);
    }
    now = start + 59_999;
    const refused = await get('/courts?pageSize=0', user.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toBe('1');
    expect((await json(refused)).error).toMatch(/^Burst limit exceeded/);
    // The limit is per key: another key of the same account is not limited.
    expect((await get('/courts?pageSize=0', other.key)).status).toBe(400);

    now = start + 60_000; // the first request leaves the window
    expect((await get('/courts?pageSize=0', user.key)).status).toBe(400);
    expect((await get('/courts?pageSize=0', user.key)).status).toBe(429); // the second is still inside
    now = start + 60_050;
    const admitted = await get('/courts?pageSize=0', user.key);
    expect(admitted.status).toBe(400);
    expect(admitted.headers.get('ratelimit-limit')).toBe('1000');
    expect(admitted.headers.get('ratelimit-remaining')).toBe('0');

    // Billed: 1000 + 1 (other key) + 2 admitted later; the two 429s are not.
    expect(admitted.headers.get('x-quota-remaining')).toBe(String(5000 - 1003));
  });
});

describe('monthly quota, per user', () => {
  it('is shared by two keys of one account and survives rotation', async () => {
    now = Date.UTC(2025, 2, 14, 12, 0, 0);
    const user = await accountWithKey(db.sql, 'free');
    const second = await createApiKey(db.sql, { accountId: user.accountId });
    for (let i = 0; i < 60; i++) expect((await get('/courts', user.key)).status).toBe(200);
    for (let i = 0; i < 39; i++) expect((await get('/courts', second.key)).status).toBe(200);
    const rotated = await rotateApiKey(db.sql, user.keyId);
    expect(rotated?.rotatedFrom).toBe(user.keyId);
    expect((await get('/courts', user.key)).status).toBe(401); // the old key is revoked
    const hundredth = await get('/courts', rotated!.key);
    expect(hundredth.status).toBe(200);
    expect(hundredth.headers.get('x-quota-remaining')).toBe('0');

    const refused = await get('/courts', rotated!.key);
    expect(refused.status).toBe(429);
    expect((await json(refused)).error).toMatch(/^Monthly quota exceeded/);
    expect(refused.headers.get('retry-after')).toBe(String(17.5 * 86_400));
    expect(refused.headers.get('x-quota-limit')).toBe('100');
    expect(refused.headers.get('x-quota-remaining')).toBe('0');
    expect((await get('/courts', second.key)).status).toBe(429);
  });

  it('resets at 00:00 UTC on the first of the month', async () => {
    now = Date.UTC(2025, 3, 30, 23, 0, 0);
    const user = await accountWithKey(db.sql, 'free');
    for (let i = 0; i < 100; i++) await get('/courts', user.key);
    now = Date.UTC(2025, 3, 30, 23, 59, 59, 999);
    const lastMoment = await get('/courts', user.key);
    expect(lastMoment.status).toBe(429);
    expect(lastMoment.headers.get('retry-after')).toBe('61'); // never 60, the burst marker
    now = Date.UTC(2025, 4, 1, 0, 0, 0);
    const fresh = await get('/courts', user.key);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-quota-remaining')).toBe('99');
  });

  it('meters a service key on its own, and its rotation keeps the count', async () => {
    now = Date.UTC(2025, 2, 14, 12, 0, 0);
    const service = await createApiKey(db.sql, { accountId: null, plan: 'free' });
    for (let i = 0; i < 100; i++) await get('/courts', service.key);
    expect((await get('/courts', service.key)).status).toBe(429);
    const rotated = await rotateApiKey(db.sql, service.id);
    const res = await get('/courts', rotated!.key);
    expect(res.status).toBe(429);
    expect((await json(res)).error).toMatch(/^Monthly quota exceeded/);
  });

  it('does not limit the api plan', async () => {
    const user = await accountWithKey(db.sql, 'api');
    const res = await get('/courts', user.key);
    expect(res.headers.get('x-quota-limit')).toBe('unlimited');
    expect(res.headers.get('x-quota-remaining')).toBe('unlimited');
  });
});

describe('key lookups', () => {
  it('cache briefly: a revoked key works until the cache entry expires, then answers 401', async () => {
    const cached = await createTestAccess({ principalCacheMs: 5_000 });
    const cachedHttp = await serve(createApp({ sql: db.sql, log, access: cached.access, clock }));
    try {
      const user = await accountWithKey(db.sql, 'api');
      expect((await cachedHttp.get('/api/v1/courts', { 'x-api-key': user.key })).status).toBe(200);
      await revokeApiKey(db.sql, user.keyId);
      expect((await cachedHttp.get('/api/v1/courts', { 'x-api-key': user.key })).status).toBe(200);
      now += 5_001;
      expect((await cachedHttp.get('/api/v1/courts', { 'x-api-key': user.key })).status).toBe(401);
    } finally {
      await cachedHttp.close();
      await cached.close();
    }
  });

  it('refuse keys of a disabled account', async () => {
    const user = await accountWithKey(db.sql, 'api');
    await db.sql`UPDATE account SET disabled_at = now() WHERE id = ${user.accountId}`;
    expect((await get('/courts', user.key)).status).toBe(401);
  });
});

describe('public paths', () => {
  it('serve /health and the API description without a key', async () => {
    expect((await http.get('/health')).status).toBe(200);
    expect((await http.get('/health/ready')).status).toBe(200);
    expect((await http.get('/api/v1/openapi.json')).status).not.toBe(401);
    expect((await http.get('/api/v1/docs')).status).not.toBe(401);
  });

  it('are only those: every operation goes through the chain, a path naming none is a 404, and look-alikes reach no operator route', async () => {
    for (const path of ['/api/v1/courts', '/api/v1/courts/', '/API/V1/COURTS']) {
      const res = await http.get(path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('x-correlation-id'), path).toBeTruthy();
    }
    for (const path of ['/api/v1', '/api/v1/openapi.json.bak', '/api/v1/no-such-endpoint', '/API/V1/openapi.json.bak']) {
      const res = await http.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
    }
    expect((await http.get('/healthz')).status).toBe(404);
    expect((await http.get('/api/v1x/courts')).status).toBe(404);
  });
});
