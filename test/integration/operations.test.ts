// Operator endpoints: Prometheus metrics with queue depth, job outcomes and upstream figures, and the
// Bull Board, both behind tokens taken in headers or a signed session from /admin/login (issue 22:
// no token in the URL, no token in a cookie, /metrics not open to everyone).
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
let now = Date.parse('2026-03-01T10:00:00Z');
const prefix = `test-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  connection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  queue = new Queue('firmenbuch', { connection, prefix });
  metrics.watchQueues([queue]);
  // /metrics and /admin stay outside the API's access chain; it is still configured, as in production.
  http = await serve(createApp({
    sql: db.sql, log: createLogger('silent'), metrics: metrics.registry, queues: [queue], adminToken: 'op-secret', metricsToken: 'scrape-secret',
    clock: () => now, access: { redis: connection, redisPrefix: `${prefix}:api:` },
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
    const res = await http.get('/metrics', { authorization: 'Bearer scrape-secret' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('queue_jobs{queue="firmenbuch",state="waiting"} 1');
    expect(text).toContain('pipeline_jobs_total{register="firmenbuch",job="firmenbuch.company",outcome="retry"} 1');
    expect(text).toContain('upstream_throttled_total{upstream="firmenbuch"} 1');
    expect(text).toMatch(/upstream_request_duration_seconds_count\{upstream="firmenbuch",operation="auszug"\} 1/);
  });
});

describe('who may read /metrics', () => {
  it('nobody without a token; ?token= is not a way in', async () => {
    for (const res of [await http.get('/metrics'), await http.get('/metrics?token=op-secret'), await http.get('/metrics?token=scrape-secret')]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="operator"');
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await res.text()).not.toContain('queue_jobs');
    }
    expect((await http.get('/metrics', { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('Prometheus with METRICS_TOKEN as a bearer token, operators with ADMIN_TOKEN in either header', async () => {
    const ways: Array<Record<string, string>> = [{ authorization: 'Bearer scrape-secret' }, { authorization: 'Bearer op-secret' }, { 'x-admin-token': 'op-secret' }];
    for (const headers of ways) {
      const res = await http.get('/metrics', headers);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('queue_jobs');
    }
  });

  it('the metrics token does not open the board', async () => {
    expect((await http.get('/admin/queues/api/queues', { authorization: 'Bearer scrape-secret' })).status).toBe(401);
  });
});

describe('operator sign-in at /admin/login', () => {
  const login = (token: string, headers: Record<string, string> = {}) =>
    http.request('/admin/login', {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const sessionOf = (res: Response) => /admin_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

  it('shows a form that posts the token', async () => {
    const page = await http.get('/admin/login');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).toMatch(/<form method="post" action="\/admin\/login">[\s\S]*name="token"/);
  });

  it('a wrong token sets no cookie', async () => {
    const res = await login('op-wrong');
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('the right token sets an HttpOnly, SameSite=Strict, expiring session cookie that holds no token, and it opens board and metrics', async () => {
    const res = await login('op-secret');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/queues');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=strict/i);
    expect(cookie).toMatch(/path=\//i);
    expect(cookie).toMatch(/expires=/i);
    const session = sessionOf(res)!;
    expect(session).not.toContain('op-secret');
    expect(session).not.toContain(Buffer.from('op-secret').toString('base64url'));
    const withSession = { cookie: `admin_session=${session}` };
    expect((await http.get('/admin/queues/api/queues', withSession)).status).toBe(200);
    expect((await http.get('/metrics', withSession)).status).toBe(200);
  });

  it('a session that was altered, or has expired, or was signed under another token opens nothing', async () => {
    const session = sessionOf(await login('op-secret'))!;
    const [expires, nonce, mac] = session.split('.');
    const altered = `${Number(expires) + 86_400_000}.${nonce}.${mac}`;
    expect((await http.get('/admin/queues/api/queues', { cookie: `admin_session=${altered}` })).status).toBe(401);
    expect((await http.get('/admin/queues/api/queues', { cookie: 'admin_session=op-secret' })).status).toBe(401);
    expect((await http.get('/admin/queues/api/queues', { cookie: `admin_token=op-secret` })).status).toBe(401);
    const { adminSessions } = await import('../../api/routes/adminSession.js');
    const foreign = adminSessions('another-token').issue(now);
    expect((await http.get('/admin/queues/api/queues', { cookie: `admin_session=${foreign}` })).status).toBe(401);
    const before = now;
    try {
      now += 8 * 3_600_000 + 1000;
      expect((await http.get('/metrics', { cookie: `admin_session=${session}` })).status).toBe(401);
    } finally {
      now = before;
    }
  });

  it('cross-site: the login form and board actions with a session are refused', async () => {
    expect((await login('op-secret', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await login('op-secret', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const session = sessionOf(await login('op-secret'))!;
    const action = (headers: Record<string, string>) =>
      http.request('/admin/queues/api/queues/firmenbuch/pause', { method: 'PUT', headers: { cookie: `admin_session=${session}`, ...headers } });
    expect((await action({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await action({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect(await queue.isPaused()).toBe(false);
    const res = await action({ origin: http.baseUrl, 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(await queue.isPaused()).toBe(true);
    await queue.resume();
  });

  it('a browser without a session is sent to the sign-in form; sign-out ends the cookie', async () => {
    const res = await http.request('/admin/queues', { redirect: 'manual', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/login');
    const out = await http.request('/admin/logout', { method: 'POST', redirect: 'manual' });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/admin_session=;.*expires=Thu, 01 Jan 1970/i);
  });
});

describe('/admin/queues', () => {
  it('refuses without the admin token, and takes none from the URL', async () => {
    expect((await http.get('/admin/queues')).status).toBe(401);
    expect((await http.get('/admin/queues', { 'x-admin-token': 'wrong' })).status).toBe(401);
    const byQuery = await http.get('/admin/queues?token=op-secret');
    expect(byQuery.status).toBe(401);
    expect(byQuery.headers.get('set-cookie')).toBeNull();
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
