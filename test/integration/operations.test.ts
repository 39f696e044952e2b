// Operator endpoints: Prometheus metrics with queue depth, job outcomes and upstream figures, and the
// Bull Board behind the admin token.
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createApp } from '../../api/app.js';
import { createLogger } from '../../runtime/logger.js';
import { createMetrics } from '../../runtime/metrics.js';
import { serve, type TestHttp } from '../helpers/httpClient.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
let http: TestHttp;
let connection: Redis;
let queue: Queue;
const metrics = createMetrics();
const prefix = `test-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  connection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  queue = new Queue('firmenbuch', { connection, prefix });
  metrics.watchQueues([queue]);
  // /metrics and /admin stay outside the API's access chain; it is still configured, as in production.
  http = await serve(createApp({
    sql: db.sql, log: createLogger('silent'), metrics: metrics.registry, queues: [queue], adminToken: 'op-secret',
    access: { redis: connection, redisPrefix: `${prefix}:api:` },
  }));
});
afterAll(async () => {
  await http.close();
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  await db.drop();
});

describe('/metrics', () => {
  it('reports queue depth, job outcomes, upstream latency and 429s', async () => {
    await queue.add('firmenbuch.company', { fnr: '5h' }, { jobId: 'company.5h.crawl' });
    metrics.jobOutcome({ register: 'firmenbuch', job: 'firmenbuch.company', outcome: 'retry', durationMs: 12 });
    metrics.upstreamRequest({ upstream: 'firmenbuch', operation: 'auszug', status: 429, durationMs: 30 });
    const res = await http.get('/metrics');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('queue_jobs{queue="firmenbuch",state="waiting"} 1');
    expect(text).toContain('pipeline_jobs_total{register="firmenbuch",job="firmenbuch.company",outcome="retry"} 1');
    expect(text).toContain('upstream_throttled_total{upstream="firmenbuch"} 1');
    expect(text).toMatch(/upstream_request_duration_seconds_count\{upstream="firmenbuch",operation="auszug"\} 1/);
  });
});

describe('/admin/queues', () => {
  it('refuses without the admin token', async () => {
    expect((await http.get('/admin/queues')).status).toBe(401);
    expect((await http.get('/admin/queues', { 'x-admin-token': 'wrong' })).status).toBe(401);
  });
  it('serves the board and its API with the token', async () => {
    const page = await http.get('/admin/queues', { authorization: 'Bearer op-secret' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const api = await http.get('/admin/queues/api/queues', { 'x-admin-token': 'op-secret' });
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: Array<{ name: string }> };
    expect(body.queues.map((q) => q.name)).toContain('firmenbuch');
  });
});
