// Issue 22, fault tests: the API when Postgres or Redis fails under it.
//   - Postgres connections terminated under load (pg_terminate_backend, as a failover or an operator
//     does): the API answers 503 with Retry-After, never 500, and recovers without a restart.
//   - Redis unreachable for 10 s (a proxy in front of it stops forwarding and refuses connections):
//     keyed routes answer 503 with Retry-After, the API recovers when Redis is back, and the usage
//     counters lose nothing that was counted (at most one flush interval is the promise).
import { createServer, connect, type Server, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectApiRedis, startApi, type RunningApi } from '../../api/server.js';
import { monthKey, monthStartDate } from '../../api/metering/calendar.js';
import { loadTypesOnce } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey, createTestAccess, type TestAccess } from '../helpers/apiAccess.js';
import { seedCompanies } from '../helpers/companies.js';
import { json } from '../helpers/httpClient.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const log = createLogger('silent');

/** Expects a 503 ProblemDetails with Retry-After and a correlation id. */
async function expectUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = await json(res);
  expect(body).toMatchObject({ status: 503, title: 'Service Unavailable' });
  expect(body.correlationId).toBe(res.headers.get('x-correlation-id'));
}

describe('Postgres connections terminated under load', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi({ access: { burstLimit: 1_000_000 }, app: { log: createLogger('error') } });
    key = (await accountWithKey(api.db.sql, 'api')).key;
    await loadTypesOnce(api.db.sql); // as bootstrap() does for the entry points
    await seedCompanies(api.db.sql, [{ fnr: '100a', name: 'Alpha GmbH', city: 'Wien', zipCode: '1010' }]);
  });
  afterAll(() => api.close());

  const paths = ['/api/v1/businesses/100a', '/api/v1/people?lastName=Muster', '/api/v1/courts', '/api/v1/oenace?search=handel'];

  it('answers 503 (never 500) while its connections are killed, and recovers without a restart', async () => {
    const admin = postgres(inject('postgresServerUrl'), { max: 1, onnotice: () => undefined });
    const statuses = new Map<number, number>();
    const unavailable: Response[] = [];
    let faulting = true;
    const killer = (async () => {
      let killed = 0;
      while (faulting) {
        const rows = await admin`
          SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${api.db.name} AND pid <> pg_backend_pid()`;
        killed += rows.length;
        await new Promise((r) => setTimeout(r, 50));
      }
      return killed;
    })();
    const load = Array.from({ length: 8 }, async (_, worker) => {
      for (let i = 0; faulting; i++) {
        const path = paths[(worker + i) % paths.length]!;
        const res = await api.http.request(path, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(10_000) })
          .catch((err: Error) => {
            throw new Error(`no answer to ${path} within 10 s during the fault: ${err.message}`);
          });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503 && unavailable.length < 5) unavailable.push(res);
        else await res.arrayBuffer();
      }
    });
    await new Promise((r) => setTimeout(r, 3000));
    faulting = false;
    await Promise.all(load);
    const killed = await killer;
    await admin.end();

    expect(killed).toBeGreaterThan(10);
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503), JSON.stringify([...statuses])).toEqual([]);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
    for (const res of unavailable) await expectUnavailable(res);

    // Recovered: the same pool, no restart, every route answers again.
    for (const path of paths) expect((await api.http.request(path, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(10_000) })).status).toBe(200);
  }, 60_000);

  it('a database that cannot be reached at all is a 503 too', async () => {
    const dead = postgres('postgres://nobody@127.0.0.1:1/none', { max: 1, connect_timeout: 2, onnotice: () => undefined });
    const access = await createTestAccess();
    const { createApp } = await import('../../api/app.js');
    const { serve } = await import('../helpers/httpClient.js');
    const http = await serve(createApp({ sql: dead as never, log, access: access.access }));
    try {
      await expectUnavailable(await http.get('/api/v1/courts', { 'x-api-key': 'any' }));
      expect((await http.get('/health/ready')).status).toBe(503);
    } finally {
      await http.close();
      await access.close();
      await dead.end();
    }
  });
});

/** A TCP proxy in front of Redis that can be cut: open connections dropped, new ones refused. */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((ready) => this.server!.listen(this.port, '127.0.0.1', () => ready()));
    this.port = (this.server.address() as { port: number }).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((done) => this.server!.close(() => done()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

describe('Redis unavailable for 10 s', () => {
  let db: TestDatabase;
  let access: TestAccess;
  let proxy: CuttableProxy;
  let api: RunningApi;
  let user: { accountId: string; key: string };
  const flushMs = 500;

  beforeAll(async () => {
    db = await createTestDatabase();
    access = await createTestAccess(); // for its prefix and the clean-up of its keys
    const target = new URL(inject('redisUrl'));
    proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.open();
    const redis = connectApiRedis(`redis://127.0.0.1:${proxy.port}`);
    api = await startApi({
      sql: db.sql, log, port: 0, host: '127.0.0.1', usageFlushIntervalMs: flushMs,
      access: { redis, redisPrefix: access.prefix, principalCacheMs: 0 },
    });
    user = await accountWithKey(db.sql, 'pro');
  });
  afterAll(async () => {
    await api.close().catch(() => undefined);
    await access.close();
    await db.drop();
  });

  const call = (key?: string) =>
    fetch(`${api.baseUrl.replace('localhost', '127.0.0.1')}/courts`, { headers: key ? { 'x-api-key': key } : {} });
  const stored = async () => {
    const [row] = await db.sql<{ requests: number }[]>`
      SELECT requests FROM usage_counter WHERE subject = ${`account:${user.accountId}`} AND month = ${monthStartDate(monthKey(Date.now()))}`;
    return row?.requests ?? 0;
  };

  it('keyed routes answer 503 with Retry-After during the outage, recover after it, and no counted request is lost', async () => {
    let admitted = 0;
    for (let i = 0; i < 20; i++) {
      const res = await call(user.key);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      admitted++;
    }

    await proxy.cut();
    const outageEnds = Date.now() + 10_000;
    let during = 0;
    while (Date.now() < outageEnds) {
      const started = performance.now();
      const res = await call(user.key);
      // Refused promptly: a request is not held for the whole outage.
      expect(performance.now() - started).toBeLessThan(3000);
      await expectUnavailable(res);
      during++;
      // Without a key nothing is counted: the 401 needs no Redis.
      expect((await call()).status).toBe(401);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(during).toBeGreaterThan(5);
    await proxy.open();

    // Recovers without a restart, within a few reconnect attempts.
    const until = Date.now() + 10_000;
    let res = await call(user.key);
    while (res.status !== 200 && Date.now() < until) {
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 200));
      res = await call(user.key);
    }
    expect(res.status).toBe(200);
    admitted++;
    for (let i = 0; i < 5; i++) {
      const again = await call(user.key);
      expect(again.status).toBe(200);
      expect(again.headers.get('x-quota-remaining')).toBe(String(5000 - admitted - 1));
      admitted++;
    }

    // The flusher failed during the outage and put its counters back; the next flush writes them all.
    await new Promise((r) => setTimeout(r, flushMs * 2 + 200));
    expect(await stored()).toBe(admitted);
  }, 40_000);
});
