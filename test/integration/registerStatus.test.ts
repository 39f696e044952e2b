// Freshness you can see (issue 23.11): a crawl of recent changes leaves the Firmenbuch's watermark
// at yesterday, records its last success, and GET /api/v1/status (no key, not billed) and /metrics
// report them; a later change window finishing before an earlier one does not move the watermark
// past the earlier one's days.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { addDays } from '../../pipeline/firmenbuch/changeWindows.js';
import { startFakeFirmenbuch, type FakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import type { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { firmenbuchHandlers } from '../../pipeline/firmenbuch/firmenbuchJobs.js';
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import { replay } from '../../pipeline/replay/replay.js';
import { createLogger } from '../../runtime/logger.js';
import { createMetrics } from '../../runtime/metrics.js';
import { registerFreshnessMetrics } from '../../runtime/registerStatus.js';
import { json, serve } from '../helpers/httpClient.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const log = createLogger('silent');
const today = new Date().toISOString().slice(0, 10);
const yesterday = addDays(today, -1);

let db: TestDatabase;
let fake: FakeFirmenbuch;
let redis: Redis;

beforeAll(async () => {
  db = await createTestDatabase();
  fake = await startFakeFirmenbuch({ corpus: CORPUS, port: 0, changesEndOn: today });
  redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
});
afterAll(async () => {
  redis.disconnect();
  await fake.close();
  await db.drop();
});

describe('register freshness', () => {
  it('a crawl of recent changes leaves the watermark at yesterday, and /status and /metrics say so', async () => {
    const prefix = `status-${randomBytes(4).toString('hex')}`;
    const summary = await replay({
      sql: db.sql, redisUrl: inject('redisUrl'), log, registers: [firmenbuch], mode: 'live', prefix,
      upstreams: { firmenbuch: { baseUrl: fake.url, ratePerSecond: 1000 } },
    });
    expect(summary.failures).toBe(0);
    const state = await db.sql<{ key: string; watermark: string }[]>`SELECT key, watermark FROM crawl_state WHERE source = 'firmenbuch' ORDER BY key`;
    expect(state).toEqual([{ key: 'company-changes', watermark: yesterday }, { key: 'document-changes', watermark: yesterday }]);

    const queue = new Queue('firmenbuch', { connection: redis, prefix });
    const metrics = createMetrics();
    registerFreshnessMetrics(metrics.registry, db.sql);
    const http = await serve(createApp({ sql: db.sql, log, metrics: metrics.registry, metricsToken: 'scrape-secret', queues: [queue], access: { redis, redisPrefix: `${prefix}:api:` } }));
    try {
      const res = await http.get('/api/v1/status');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-quota-remaining')).toBeNull();
      const [status] = (await json(res)).registers;
      expect(status).toMatchObject({ register: 'firmenbuch', watermark: yesterday, lastRefusal: null, queue: { waiting: 0, failed: 0 } });
      expect(Date.now() - Date.parse(status.lastSuccessAt)).toBeLessThan(60_000);
      // The watermark is the end of yesterday: at most a day behind now.
      expect(status.lagSeconds).toBeGreaterThanOrEqual(0);
      expect(status.lagSeconds).toBeLessThanOrEqual(86_400);
      const text = await (await http.get('/metrics', { authorization: 'Bearer scrape-secret' })).text();
      expect(text).toMatch(/register_watermark_lag_seconds\{register="firmenbuch"\} \d+/);
      expect(text).toMatch(/register_last_success_timestamp_seconds\{register="firmenbuch"\} \d+/);
    } finally {
      await http.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }, 60_000);

  it('a later window done first does not move the watermark over an earlier one still pending', async () => {
    const own = await createTestDatabase();
    try {
      const client = { companyChanges: async () => ({ changes: [] }) } as unknown as FirmenbuchClient;
      const runs: unknown[] = [];
      const handlers = firmenbuchHandlers({ sql: own.sql, client, log, enqueue: async () => undefined, onRun: (r) => runs.push(r) });
      await own.sql`INSERT INTO crawl_state (source, key, watermark) VALUES ('firmenbuch', 'company-changes', '2026-01-10')`;
      const watermark = async () => (await own.sql<{ w: string }[]>`SELECT watermark AS w FROM crawl_state WHERE key = 'company-changes'`)[0]!.w;
      // A window's job: the handler keeps its fan-out's progress on it.
      const job = { data: {}, updateProgress: async () => undefined } as never;
      await handlers.companyChanges({ from: '2026-01-18', to: '2026-01-24' }, job);
      expect(await watermark()).toBe('2026-01-10');
      await handlers.companyChanges({ from: '2026-01-09', to: '2026-01-17' }, job);
      expect(await watermark()).toBe('2026-01-17');
      await handlers.companyChanges({ from: '2026-01-18', to: '2026-01-24' }, job);
      expect(await watermark()).toBe('2026-01-24');
      expect(runs).toEqual([
        { outcome: 'success', itemsFetched: 0 },
        { outcome: 'success', itemsFetched: 0, watermark: '2026-01-17' },
        { outcome: 'success', itemsFetched: 0, watermark: '2026-01-24' },
      ]);
    } finally {
      await own.drop();
    }
  });
});
