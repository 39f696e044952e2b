// The GISA crawl through the real pipeline against the fake: a replay of the bundled corpus follows
// the Firmenbuch's company changes to every company's and named person's licences; a second replay
// writes nothing; a licence that ends upstream gives one trade change at the next lookup; and the
// quota holds with 300 lookups queued (the real Redis limiter, the window shortened to seconds).
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeGisa } from '../../pipeline/gisa/fake/fakeGisa.js';
import { LICENCES } from '../../pipeline/gisa/fake/fixtureModel.js';
import { GisaClient } from '../../pipeline/gisa/gisaClient.js';
import { gisaHandlers } from '../../pipeline/gisa/gisaJobs.js';
import { gisa } from '../../pipeline/gisa/index.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { replay } from '../../pipeline/replay/replay.js';
import { fnrCheckLetter } from '../../schemas/identifiers.js';
import { createLogger } from '../../runtime/logger.js';
import { loadConfig } from '../../runtime/config.js';
import { createMetrics } from '../../runtime/metrics.js';
import { readRegisterStatus, registerFreshnessMetrics } from '../../runtime/registerStatus.js';
import { quotaKey, redisCallQuota } from '../../pipeline/jobs/callQuota.js';
import { registerGisaMetrics } from '../../pipeline/gisa/metrics.js';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const log = createLogger('silent');
const prefix = () => `gisa-${randomBytes(4).toString('hex')}`;

describe('GISA crawl of the bundled corpus', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('follows the company changes to the licences of companies and of the persons they name', async () => {
    const summary = await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, fixturesDir: CORPUS, prefix: prefix() });
    expect(summary.failed).toEqual([]);
    const [stored] = await db.sql<{ n: number; companies: number; natural: number }[]>`
      SELECT count(*)::int AS n, count(DISTINCT fnr)::int AS companies,
             count(*) FILTER (WHERE holder_kind = 'natural' AND fnr IS NULL)::int AS natural FROM trade_license`;
    // Every fixture licence but the namesake's (nobody with that birth date is in the register).
    expect(stored!.n).toBe(readdirSync(`${CORPUS}gisa/gewerbe`).length - 1);
    expect(stored!.companies).toBe(27);
    expect(stored!.natural).toBe(7);
    expect(summary.sources.gisa!.licenses).toBe(stored!.n);
    const [namesake] = await db.sql`SELECT gisa_zahl FROM trade_license WHERE holder_person_id = 'gerhard-leitner-1970-05-05'`;
    expect(namesake).toBeUndefined();
    // The catalogue is merged with § 94: Baumeister is Z 5, Handelsgewerbe is free.
    const trades = await db.sql<{ tradeKey: string; kind: string; regulatedZiffer: number | null }[]>`
      SELECT trade_key, kind, regulated_ziffer FROM trade WHERE trade_key IN ('290500', '599999', '710100') ORDER BY trade_key`;
    expect(trades).toEqual([
      { tradeKey: '290500', kind: 'reglementiert', regulatedZiffer: 5 },
      { tradeKey: '599999', kind: 'frei', regulatedZiffer: null },
      { tradeKey: '710100', kind: 'reglementiert', regulatedZiffer: 71 },
    ]);
    const counts = await db.sql<{ total: number; active: number }[]>`SELECT total, active FROM trade_license_count WHERE trade_key = '599999'`;
    const [actual] = await db.sql<{ total: number; active: number }[]>`
      SELECT count(*)::int AS total, count(*) FILTER (WHERE ended_on IS NULL)::int AS active FROM trade_license WHERE trade_key = '599999'`;
    expect(counts[0]).toEqual(actual);
    // Business changes (its set of current trade keys changed) for every company that holds a current licence.
    // (The derived industry codes may change with them: then the change names `oenaces` too.)
    const [business] = await db.sql<{ n: number }[]>`SELECT count(DISTINCT fnr)::int AS n FROM change_log WHERE type = 'business' AND changed_fields @> '{tradeLicenses}'`;
    const [holding] = await db.sql<{ n: number }[]>`
      SELECT count(DISTINCT t.fnr)::int AS n FROM trade_license t JOIN company c USING (fnr) WHERE t.ended_on IS NULL`;
    expect(business!.n).toBe(holding!.n);
  });

  it('reports its runs: /api/v1/status and /metrics show GISA, its watermark how far the change log is followed', async () => {
    const [status] = (await readRegisterStatus(db.sql)).filter((r) => r.register === 'gisa');
    expect(status).toMatchObject({ register: 'gisa', lastRefusal: null });
    expect(Date.now() - Date.parse(status!.lastSuccessAt!)).toBeLessThan(120_000);
    // Followed to the end of the log: the watermark is the time of the last read, seconds ago.
    expect(Number.isNaN(Date.parse(status!.watermark!))).toBe(false);
    expect(status!.lagSeconds).toBeGreaterThanOrEqual(0);
    expect(status!.lagSeconds).toBeLessThan(120);
    const metrics = createMetrics();
    registerFreshnessMetrics(metrics.registry, db.sql);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^register_watermark_lag_seconds\{register="gisa"\} \d+$/m);
    expect(text).toMatch(/^register_last_success_timestamp_seconds\{register="gisa"\} \d+/m);
  });

  it('writes no change on a second replay', async () => {
    const [before] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log`;
    const summary = await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, fixturesDir: CORPUS, prefix: prefix() });
    expect(summary.failed).toEqual([]);
    const [after] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log`;
    expect(after!.n).toBe(before!.n);
  });

  it('the re-check takes active companies first, then the longest unchecked, a minute of the quota at a time', async () => {
    // Two companies checked long ago, one of them deleted; one never checked; the rest checked just now.
    await db.sql`UPDATE gisa_company_check SET checked_at = now() - interval '30 days' WHERE fnr IN ('187233v', '412785m')`;
    await db.sql`UPDATE gisa_company_check SET checked_at = now() - interval '20 days' WHERE fnr = '33918f'`;
    await db.sql`DELETE FROM gisa_company_check WHERE fnr = '629a'`;
    const enqueued: Array<{ fnr: string }> = [];
    const handlers = gisaHandlers({
      sql: db.sql, client: new GisaClient({ baseUrl: 'http://127.0.0.1:1' }), log,
      // Seven calls a minute, one of them the extract polls' reserve.
      dataQuota: { limit: { max: 7, windowMs: 60_000 }, take: async () => 0, used: async () => 0 },
      enqueueMany: async (key, payloads) => {
        if (key === 'recheckCompany') enqueued.push(...(payloads as typeof enqueued));
      },
    });
    await handlers.recheck({ minute: 'test' }, undefined as never);
    // Six calls a minute are three companies: 629a (active, never checked), 412785m (active, 30 days), 33918f (20 days).
    expect(enqueued.map((p) => p.fnr)).toEqual(['629a', '412785m', '33918f']);
  });

  it('the re-check takes licences without a company link by GISA-Zahl, the longest unchecked first; a lookup marks them checked', async () => {
    const sole = (await db.sql<{ gisaZahl: string }[]>`SELECT gisa_zahl FROM trade_license WHERE fnr IS NULL ORDER BY gisa_zahl`).map((r) => r.gisaZahl);
    expect(sole.length).toBeGreaterThanOrEqual(3);
    await db.sql`UPDATE trade_license SET last_crawled_at = now() - interval '10 days' WHERE gisa_zahl = ${sole[0]!}`;
    await db.sql`UPDATE trade_license SET last_crawled_at = now() - interval '30 days' WHERE gisa_zahl = ${sole[1]!}`;
    await db.sql`UPDATE trade_license SET last_crawled_at = now() - interval '20 days' WHERE gisa_zahl = ${sole[2]!}`;
    // A company's licence checked long ago is not one of them: its company's lookup reaches it.
    await db.sql`UPDATE trade_license SET last_crawled_at = now() - interval '40 days' WHERE gisa_zahl = '100000016'`;
    const fake = await startFakeGisa({ fixturesDir: CORPUS });
    try {
      const enqueued: Array<{ gisaZahl: string; cause: string }> = [];
      const handlers = gisaHandlers({
        sql: db.sql, client: new GisaClient({ baseUrl: fake.url }), log,
        dataQuota: { limit: { max: 200, windowMs: 60_000 }, take: async () => 0, used: async () => 0 },
        enqueueMany: async (key, payloads) => {
          if (key === 'recheckLicence') enqueued.push(...(payloads as typeof enqueued));
        },
      });
      await handlers.recheck({ minute: 'test' }, undefined as never);
      expect(enqueued.map((p) => p.gisaZahl)).toEqual([sole[1], sole[2], sole[0]]);
      // Looked up (nothing changed upstream), they are not due again.
      for (const job of enqueued.splice(0)) await handlers.recheckLicence(job, undefined as never);
      await handlers.recheck({ minute: 'test' }, undefined as never);
      expect(enqueued).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('/metrics: calls in the window against each quota of the key, and the re-check backlog', async () => {
    const config = loadConfig({ GISA_API_KEY: `metrics-${randomBytes(4).toString('hex')}` });
    const redis = new Redis(inject('redisUrl'));
    try {
      await redisCallQuota(redis, quotaKey('bull', 'gisa', 'data', config.GISA_API_KEY), { max: 200, windowMs: 61_000 }).take(3);
      await db.sql`INSERT INTO gisa_company_check (fnr, is_active, checked_at) SELECT fnr, true, now() FROM company ON CONFLICT (fnr) DO UPDATE SET checked_at = now()`;
      await db.sql`UPDATE gisa_company_check SET checked_at = now() - interval '30 days' WHERE fnr IN ('187233v', '412785m')`;
      const metrics = createMetrics();
      const close = registerGisaMetrics(metrics, db.sql, inject('redisUrl'), config);
      const text = await metrics.registry.metrics();
      await close();
      expect(text).toMatch(/^gisa_data_calls_in_window 3$/m);
      expect(text).toMatch(/^gisa_data_quota 200$/m);
      expect(text).toMatch(/^gisa_extract_calls_in_window 0$/m);
      expect(text).toMatch(/^gisa_recheck_backlog 2$/m);
    } finally {
      redis.disconnect();
    }
  });

  it('a licence that ends upstream gives one trade change at the next lookup, and the key set changes', async () => {
    const fake = await startFakeGisa({ fixturesDir: CORPUS });
    try {
      fake.endLicence('100000016', '2026-11-20'); // Bergblick Tischlerei: Tischler
      // The handlers as a worker runs them, the licence jobs a lookup enqueues worked at once.
      const queued: Array<{ gisaZahl: string; cause: string }> = [];
      const handlers = gisaHandlers({
        sql: db.sql, client: new GisaClient({ baseUrl: fake.url }), log,
        enqueueMany: async (key, payloads) => {
          if (key === 'licence') queued.push(...(payloads as typeof queued));
        },
      });
      const lookup = async (cause: string) => {
        await handlers.company({ fnr: '412785m', cause }, undefined as never);
        for (const job of queued.splice(0)) await handlers.licence(job, undefined as never);
      };
      const [start] = await db.sql<{ last: number }[]>`SELECT coalesce(max(id), 0)::int AS last FROM change_log`;
      const last = start!.last;
      await lookup('test');
      const changes = await db.sql`SELECT type, fnr, action, changed_fields, gisa_zahl FROM change_log WHERE id > ${last} ORDER BY id`;
      expect(changes).toEqual([
        { type: 'trade', fnr: '412785m', action: 'updated', changedFields: ['endedOn', 'isActive'], gisaZahl: '100000016' },
        { type: 'business', fnr: '412785m', action: 'updated', changedFields: expect.arrayContaining(['tradeLicenses']), gisaZahl: null },
      ]);
      await lookup('again');
      const [count] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log WHERE id > ${last}`;
      const n = count!.n;
      expect(n).toBe(2);
    } finally {
      await fake.close();
    }
  });
});

describe('GISA quota', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('300 lookups queued: never more than 200 calls in any window, all done, none failed', async () => {
    // Long enough that the first 200 calls land inside one window even on a busy box, so the limiter
    // must hold the rest back (throttled > 0 below) however slowly the jobs run.
    const windowMs = 8000;
    const fake = await startFakeGisa({ fixturesDir: CORPUS, dataQuota: 200, quotaWindowMs: windowMs });
    const outcomes: Record<string, number> = {};
    const pipeline = await startPipeline({
      sql: db.sql, redisUrl: inject('redisUrl'), log, registers: [gisa], concurrency: 16, prefix: prefix(), backoffDelayMs: 100,
      // Jobs start as fast as they like: only the call quota holds them back. The limiter's window has a
      // margin over the upstream's for the time between counting a call and its arrival (61 s over 60 s
      // by default); here the fake, the workers and Postgres share one event loop on a box that may be
      // busy with other work, so a second: a call counted late must still arrive inside the window.
      upstreams: { gisa: { baseUrl: fake.url, ratePerSecond: 1000, quotas: { data: { max: 200, windowMs: windowMs + 1000 }, extract: { max: 10, windowMs: windowMs + 1000 } } } },
      onOutcome: (e) => {
        outcomes[e.outcome] = (outcomes[e.outcome] ?? 0) + 1;
      },
    });
    try {
      // The corpus's companies (with licences: several calls each) and companies GISA knows nothing of.
      const fnrs = ['412785m', '33918f', '98231h', '87345z', '17742t'];
      for (let n = 700001; fnrs.length < 300; n++) fnrs.push(`${n}${fnrCheckLetter(n)}`);
      await pipeline.enqueueMany(gisa, 'company', fnrs.map((fnr) => ({ fnr, cause: 'quota-test' })));
      await pipeline.drained(100);
      const times = fake.calls.map((c) => c.at).sort((a, b) => a - b);
      let most = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while (times[i]! - times[j]! > windowMs) j++;
        most = Math.max(most, i - j + 1);
      }
      expect(times.length).toBeGreaterThan(300);
      expect(most).toBeLessThanOrEqual(200);
      expect(most).toBeGreaterThan(100);
      expect(fake.quotaErrors).toBe(0);
      // 300 lookups and the licence jobs they enqueued (one per licence of the five corpus companies).
      expect(outcomes.completed).toBe(300 + LICENCES.filter((l) => fnrs.includes(l.holder.company?.fnr ?? '')).length);
      expect(outcomes.failed ?? 0).toBe(0);
      expect(outcomes.throttled ?? 0).toBeGreaterThan(0);
      const [checked] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM gisa_company_check WHERE checked_at IS NOT NULL`;
      expect(checked!.n).toBe(300);
    } finally {
      await pipeline.close();
      await fake.close();
    }
  }, 60_000);
});
