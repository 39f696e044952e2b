// The /trades endpoints on the bundled corpus replayed through the pipeline (Firmenbuch, then GISA from
// the change log): every answer equals the fixtures' expected records, the 404s, the signed extract
// through the pipeline (PDF, shared jobs, the stored one of today, the 503 while it goes on, GISA
// unreachable), the person's own licences, and a licence ending upstream down to gisaLicenseKey and /trades/changes.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { gisaExtractSource } from '../../pipeline/gisa/extractSource.js';
import { startFakeGisa, type FakeGisa } from '../../pipeline/gisa/fake/fakeGisa.js';
import { CATALOGUE } from '../../pipeline/gisa/fake/fixtureModel.js';
import { GisaClient } from '../../pipeline/gisa/gisaClient.js';
import { gisaHandlers } from '../../pipeline/gisa/gisaJobs.js';
import { gisa } from '../../pipeline/gisa/index.js';
import { startPipeline, type Pipeline } from '../../pipeline/pipelineWorker.js';
import { replay } from '../../pipeline/replay/replay.js';
import { createLogger } from '../../runtime/logger.js';
import { currentFirst, GISA_RECORDS, licenceRecord } from '../helpers/gisaFixtures.js';
import { json } from '../helpers/httpClient.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const log = createLogger('silent');
const records = GISA_RECORDS;
const licence = licenceRecord;

describe('/trades on the bundled corpus', () => {
  let api: TestApi;
  let fake: FakeGisa;
  let pipeline: Pipeline;
  let persons: Set<string>;
  const path = (p: string) => `/api/v1${p}`;

  beforeAll(async () => {
    fake = await startFakeGisa({ fixturesDir: CORPUS, extractPolls: 2 });
    let prepared: Pipeline | undefined;
    api = await startTestApi({
      plan: 'api',
      prepare: async (db) => {
        const summary = await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, fixturesDir: CORPUS, prefix: `trades-${randomBytes(4).toString('hex')}` });
        expect(summary.failed).toEqual([]);
        await rebuildReadModel(db.sql, log);
        prepared = await startPipeline({
          sql: db.sql, redisUrl: inject('redisUrl'), log, registers: [gisa], concurrency: 4, prefix: `trades-x-${randomBytes(4).toString('hex')}`,
          upstreams: { gisa: { baseUrl: fake.url, tuning: { firstPollMs: 100, pollMs: 100 } } },
        });
      },
      app: {},
    });
    pipeline = prepared!;
    persons = new Set((await api.db.sql<{ personId: string }[]>`SELECT person_id FROM person`).map((r) => r.personId));
  }, 120_000);
  afterAll(async () => {
    await pipeline.close();
    await fake.close();
    await api.close();
  });

  /** The app of this database with the pipeline's extract source and the given wait. */
  async function withExtracts<T>(waitMs: number, queue: Pipeline['queues'][string], run: (get: (p: string) => Promise<Response>) => Promise<T>): Promise<T> {
    const { createApp } = await import('../../api/app.js');
    const { serve } = await import('../helpers/httpClient.js');
    const http = await serve(createApp({ sql: api.db.sql, log, access: { bypassForBenchmarkOnly: true }, tradeExtracts: gisaExtractSource(api.db.sql, queue), tradeExtractWaitMs: waitMs }));
    try {
      return await run((p) => http.get(path(p)));
    } finally {
      await http.close();
    }
  }

  it('GET /trades/company/{fnr} and the profile\'s tradeLicenses: the company\'s licences, current first, as the fixtures say', async () => {
    for (const fnr of ['33918f', '98231h', '501112f', '17742t']) {
      const expected = records.filter((r) => r.holder.fnr === fnr).sort(currentFirst).map((r) => licence(r, persons));
      const body = await json(await api.http.get(path(`/trades/company/${fnr}`)));
      expect(body.data, fnr).toEqual(expected);
      expect(body.totalRecords).toBe(expected.length);
    }
    // The profile carries the same records.
    const profile = await json(await api.http.get(path('/businesses/33918f')));
    expect(profile.tradeLicenses).toEqual(records.filter((r) => r.holder.fnr === '33918f').sort(currentFirst).map((r) => licence(r, persons)));
    const manager = (await json(await api.http.get(path('/trades/company/402287z')))).data[0].manager;
    expect(manager).toEqual({ name: 'Peter Zach', personId: null });
  });

  it('GET /trades/company/{fnr}: 404 for an unknown or differently spelt number, empty for a company without licences', async () => {
    expect((await api.http.get(path('/trades/company/999999z'))).status).toBe(404);
    expect((await api.http.get(path('/trades/company/033918f'))).status).toBe(404);
    expect((await api.http.get(path('/trades/company/33918F'))).status).toBe(404);
    const none = await json(await api.http.get(path('/trades/company/629a')));
    expect(none).toMatchObject({ data: [], totalRecords: 0 });
    expect((await api.http.get(path('/trades/company/33918f?pageSize=1001'))).status).toBe(400);
  });

  it('GET /trades/{tradeKey}/licenses: by GISA-Zahl, with active and zipCode filters; 404 for an unknown key', async () => {
    const stored = records.filter((r) => r.holder.personId !== 'gerhard-leitner-1970-05-05');
    const all = stored.filter((r) => r.tradeKey === '599999').sort((a, b) => a.gisaZahl.localeCompare(b.gisaZahl));
    const body = await json(await api.http.get(path('/trades/599999/licenses?pageSize=100')));
    expect(body.data).toEqual(all.map((r) => licence(r, persons)));
    expect(body.totalRecords).toBe(all.length);
    const active = await json(await api.http.get(path('/trades/599999/licenses?active=true&pageSize=100')));
    expect(active.data.map((l: { gisaZahl: string }) => l.gisaZahl)).toEqual(all.filter((r) => !r.endedOn).map((r) => r.gisaZahl));
    expect(active.totalRecords).toBe(all.filter((r) => !r.endedOn).length);
    const page2 = await json(await api.http.get(path('/trades/599999/licenses?pageSize=5&page=2')));
    expect(page2.data.map((l: { gisaZahl: string }) => l.gisaZahl)).toEqual(all.slice(5, 10).map((r) => r.gisaZahl));
    const linz = await json(await api.http.get(path('/trades/110200/licenses?zipCode=4020')));
    expect(linz).toMatchObject({ totalRecords: 1, data: [{ gisaZahl: '100000092' }] });
    expect((await api.http.get(path('/trades/123456/licenses'))).status).toBe(404);
    expect((await api.http.get(path('/trades/abc/licenses'))).status).toBe(404);
    expect((await api.http.get(path('/trades/599999/licenses?active=yes'))).status).toBe(400);
  });

  it('GET /trades: the catalogue with licence counts, ranked like the autocomplete, umlaut-tolerant, by kind', async () => {
    const body = await json(await api.http.get(path('/trades?pageSize=100')));
    expect(body.totalRecords).toBe(CATALOGUE.length);
    const counts = Object.fromEntries(body.data.map((t: { tradeKey: string; licenseCount: number }) => [t.tradeKey, t.licenseCount]));
    expect(counts['599999']).toBe(records.filter((r) => r.tradeKey === '599999' && r.holder.personId !== 'gerhard-leitner-1970-05-05').length);
    expect(body.data.find((t: { tradeKey: string }) => t.tradeKey === '290500')).toEqual({ tradeKey: '290500', name: 'Baumeister, Brunnenmeister', kind: 'reglementiert', licenseCount: 2 });
    const metall = await json(await api.http.get(path('/trades?search=metall')));
    // Prefix first (Metalltechnik ...), then a word inside the name is not needed: only one trade starts so.
    expect(metall.data[0].tradeKey).toBe('590100');
    // A page past the end still says how many there are.
    const past = await json(await api.http.get(path(`/trades?search=metall&page=${metall.totalRecords + 1}&pageSize=1`)));
    expect(past).toMatchObject({ data: [], totalRecords: metall.totalRecords });
    const word = await json(await api.http.get(path('/trades?search=florist')));
    expect(word.data.map((t: { tradeKey: string }) => t.tradeKey)).toEqual(['240100']);
    for (const spelling of ['Bäcker', 'baecker', 'BAECKER']) {
      expect((await json(await api.http.get(path(`/trades?search=${encodeURIComponent(spelling)}`)))).data[0].tradeKey, spelling).toBe('30100');
    }
    const typo = await json(await api.http.get(path('/trades?search=elektrotechnk')));
    expect(typo.data[0].tradeKey).toBe('300200');
    const free = await json(await api.http.get(path('/trades?kind=frei&pageSize=100')));
    expect(free.data.every((t: { kind: string }) => t.kind === 'frei')).toBe(true);
    expect(free.totalRecords).toBe(CATALOGUE.filter(([, , kind]) => kind === 'F').length);
  });

  it('GET /people/{personId}: the person\'s own licences', async () => {
    const body = await json(await api.http.get(path('/people/gerhard-leitner-1966-02-21')));
    const own = records.filter((r) => r.holder.personId === 'gerhard-leitner-1966-02-21').sort(currentFirst);
    expect(body.tradeLicenses).toEqual(own.map((r) => licence(r, persons)));
    expect(own.length).toBe(2);
  });

  it('GET /trades/documents/{gisaZahl}: the signed PDF through the pipeline; identical requests share one job; today\'s is stored', async () => {
    await withExtracts(20_000, pipeline.queues.gisa!, async (get) => {
      const starts = fake.extractStarts;
      const answers = await Promise.all([1, 2, 3].map(() => get('/trades/documents/100000054?language=en')));
      for (const res of answers) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/pdf');
        expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      }
      expect(fake.extractStarts).toBe(starts + 1);
      const again = await get('/trades/documents/100000054?language=en');
      expect(again.status).toBe(200);
      expect(fake.extractStarts).toBe(starts + 1);
      // Another language or kind is another extract.
      expect((await get('/trades/documents/100000054?language=de&historical=true')).status).toBe(200);
      expect(fake.extractStarts).toBe(starts + 2);
      expect((await get('/trades/documents/999999999')).status).toBe(404);
      expect((await get('/trades/documents/100000054?language=fr')).status).toBe(400);
    });
  });

  it('GET /trades/documents/{gisaZahl}: identical requests to two API processes (own pools and queues, shared Postgres and Redis) start one GISA job', async () => {
    // Each "process" as npm start's api role builds it: a pipeline without workers, its own Postgres pool;
    // the workers of `pipeline` take the jobs.
    const { createApp } = await import('../../api/app.js');
    const { serve } = await import('../helpers/httpClient.js');
    const { createSql } = await import('../../runtime/db.js');
    const prefix = pipeline.queues.gisa!.opts.prefix!;
    const instances = await Promise.all([1, 2].map(async () => {
      const sql = createSql(api.db.url, { max: 3 });
      const queues = await startPipeline({ sql, redisUrl: inject('redisUrl'), log, registers: [gisa], concurrency: 1, prefix, work: false });
      const http = await serve(createApp({ sql, log, access: { bypassForBenchmarkOnly: true }, tradeExtracts: gisaExtractSource(sql, queues.queues.gisa!), tradeExtractWaitMs: 20_000 }));
      return { sql, queues, http };
    }));
    try {
      const [a, b] = instances;
      const starts = fake.extractStarts;
      const get = (i: typeof a) => i!.http.get(path('/trades/documents/100000047?language=de'));
      // At once on both, and one more on each while the job runs (GISA answers Working for two polls).
      const first = [get(a), get(b), get(a), get(b)];
      await new Promise((r) => setTimeout(r, 150));
      const answers = await Promise.all([...first, get(b), get(a)]);
      for (const res of answers) {
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      }
      await pipeline.drained(50);
      expect(fake.extractStarts).toBe(starts + 1);
    } finally {
      for (const i of instances) {
        await i.http.close();
        await i.queues.close();
        await i.sql.end({ timeout: 5 });
      }
    }
  });

  it('GET /trades/documents/{gisaZahl}: 503 with Retry-After while the job goes on, then the stored PDF', async () => {
    await withExtracts(50, pipeline.queues.gisa!, async (get) => {
      const first = await get('/trades/documents/100000016');
      expect(first.status).toBe(503);
      expect(first.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
      let res = first;
      for (let i = 0; i < 50 && res.status === 503; i++) {
        await new Promise((r) => setTimeout(r, 100));
        res = await get('/trades/documents/100000016');
      }
      expect(res.status).toBe(200);
    });
  });

  it('GET /trades/documents/{gisaZahl}: 503 text/plain when GISA cannot be reached', async () => {
    const dead = await startPipeline({
      sql: api.db.sql, redisUrl: inject('redisUrl'), log, registers: [gisa], concurrency: 1, prefix: `trades-dead-${randomBytes(4).toString('hex')}`,
      upstreams: { gisa: { baseUrl: 'http://127.0.0.1:1/gisa-svc-public/GisaPublicV2.svc', timeoutMs: 1000 } },
    });
    try {
      await withExtracts(10_000, dead.queues.gisa!, async (get) => {
        const res = await get('/trades/documents/100000023');
        expect(res.status).toBe(503);
        expect(await res.text()).toBe('GISA aktuell nicht verfügbar');
        expect(res.headers.get('retry-after')).toBe('60');
      });
    } finally {
      await dead.close();
    }
  });

  it('GET /trades/documents/{gisaZahl}: a GISA job that never completes is polled for a bounded time, then 503 unavailable', async () => {
    const stuck = await startFakeGisa({ fixturesDir: CORPUS, extractPolls: 1_000_000 });
    const slow = await startPipeline({
      sql: api.db.sql, redisUrl: inject('redisUrl'), log, registers: [gisa], concurrency: 1, prefix: `trades-stuck-${randomBytes(4).toString('hex')}`,
      upstreams: { gisa: { baseUrl: stuck.url, tuning: { firstPollMs: 20, pollMs: 20, maxPollMs: 500 } } },
    });
    try {
      await withExtracts(10_000, slow.queues.gisa!, async (get) => {
        const started = Date.now();
        const res = await get('/trades/documents/100000030');
        expect(res.status).toBe(503);
        expect(await res.text()).toBe('GISA aktuell nicht verfügbar');
        expect(res.headers.get('retry-after')).toBe('60');
        // Given up after the cap, well before the request's own wait ran out; one GISA job, no retry.
        expect(Date.now() - started).toBeLessThan(5000);
        expect(stuck.extractStarts).toBe(1);
      });
      const [failed] = await slow.queues.gisa!.getJobs(['failed']);
      expect(failed?.failedReason).toMatch(/not completed after/);
      expect(failed?.attemptsMade).toBe(1);
    } finally {
      await slow.close();
      await stuck.close();
    }
  });

  it('a licence that ends upstream: one trade change, gisaLicenseKey no longer matches, /trades/changes shows it', async () => {
    const sql = api.db.sql;
    const before = await json(await api.http.get(path('/businesses?gisaLicenseKey=710100')));
    expect(before.data.map((b: { fnr: string }) => b.fnr)).toEqual(['412785m']);
    const [row] = await sql<{ last: number }[]>`SELECT coalesce(max(id), 0)::int AS last FROM change_log`;
    const last = row!.last;
    fake.endLicence('100000016', '2026-11-20');
    const queued: Array<{ gisaZahl: string; cause: string }> = [];
    const handlers = gisaHandlers({
      sql, client: new GisaClient({ baseUrl: fake.url }), log,
      enqueueMany: async (key, payloads) => {
        if (key === 'licence') queued.push(...(payloads as typeof queued));
      },
    });
    await handlers.company({ fnr: '412785m', cause: 'ended' }, undefined as never);
    for (const job of queued) await handlers.licence(job, undefined as never);
    const trade = await sql`SELECT id FROM change_log WHERE id > ${last} AND type = 'trade'`;
    expect(trade.length).toBe(1);
    await indexOnce(sql);
    const after = await json(await api.http.get(path('/businesses?gisaLicenseKey=710100')));
    expect(after.data).toEqual([]);
    const feed = await json(await api.http.get(path(`/trades/changes?sinceId=${last}`)));
    expect(feed.data).toEqual([expect.objectContaining({ type: 'trade', fnr: '412785m', gisaZahl: '100000016', action: 'updated', changedFields: ['endedOn', 'isActive'] })]);
    const now = await json(await api.http.get(path('/trades/company/412785m')));
    expect(now.data.find((l: { gisaZahl: string }) => l.gisaZahl === '100000016')).toMatchObject({ endedOn: '2026-11-20', isActive: false });
  });
});
