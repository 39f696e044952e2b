// The extract job's handler against the fake GISA and a real database (audit of issue 20): a status
// poll that finds the data quota spent is throttling, not a failure (no error for the API, the same
// GISA job polled afterwards, no second StartGISAAuszug); the lookups leave a reserve of the data
// quota that only extract polls may use.
import { randomBytes } from 'node:crypto';
import type { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { extractHandler, viennaDay, type ExtractRequest } from '../../pipeline/gisa/extractJob.js';
import { gisaExtractSource } from '../../pipeline/gisa/extractSource.js';
import { startFakeGisa, type FakeGisa } from '../../pipeline/gisa/fake/fakeGisa.js';
import { extractPollReserve, GisaClient } from '../../pipeline/gisa/gisaClient.js';
import { redisCallQuota, type CallQuota } from '../../pipeline/jobs/callQuota.js';
import { UpstreamThrottledError } from '../../pipeline/jobs/errors.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;

/** The parts of a BullMQ job the handler uses; updateData keeps what it writes, as Redis would. */
function stubJob(data: Record<string, unknown>): Job & { delayedTo?: number } {
  const job = {
    data, token: 'test',
    updateData: async (d: Record<string, unknown>) => { job.data = d; },
    moveToDelayed: async (at: number) => { (job as { delayedTo?: number }).delayedTo = at; },
  };
  return job as unknown as Job & { delayedTo?: number };
}

describe('GISA extract job', () => {
  let db: TestDatabase;
  let fake: FakeGisa;
  beforeAll(async () => {
    db = await createTestDatabase();
    fake = await startFakeGisa({ fixturesDir: CORPUS, extractPolls: 2 });
  });
  afterAll(async () => {
    await fake.close();
    await db.drop();
  });

  const request = (gisaZahl: string): ExtractRequest => ({ gisaZahl, language: 'de', historical: false, day: viennaDay() });
  const state = async (p: ExtractRequest) =>
    (await db.sql<{ state: string; error: string | null }[]>`
      SELECT state, error FROM trade_extract_request WHERE gisa_zahl = ${p.gisaZahl} AND language = ${p.language} AND historical = ${p.historical} AND day = ${p.day}`)[0];

  it('a status poll under a spent data quota: no error recorded, the same GISA job polled after the pause, one start', async () => {
    // The data quota is spent for the first status poll only (StartGISAAuszug takes from the extract quota).
    let refusals = 1;
    const dataQuota: CallQuota = {
      limit: { max: 200, windowMs: 60_000 },
      take: async () => (refusals-- > 0 ? 5000 : 0),
      used: async () => 0,
    };
    const client = new GisaClient({ baseUrl: fake.url, dataQuota });
    const extract = extractHandler({ sql: db.sql, client, firstPollMs: 0, pollMs: 10 });
    const p = request('100000061');
    const job = stubJob({ ...p });
    const starts = fake.extractStarts;

    const err = await extract(p, job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamThrottledError);
    expect(fake.extractStarts).toBe(starts + 1);
    // Pending, with no error: the API answers "still working" (503 + Retry-After), not "GISA unavailable".
    expect(await state(p)).toEqual({ state: 'pending', error: null });
    const kept = (job.data as { gisaJob?: { id: number } }).gisaJob;
    expect(kept?.id).toBeGreaterThan(0);

    // The queue runs the job again after the pause: it polls the GISA job it started.
    const done = await extract(p, job);
    expect(done).toMatchObject({ gisaJob: kept!.id });
    expect(fake.extractStarts).toBe(starts + 1);
    expect(await state(p)).toEqual({ state: 'done', error: null });
    const [pdf] = await db.sql<{ content: Buffer }[]>`SELECT content FROM trade_extract WHERE gisa_zahl = ${p.gisaZahl}`;
    expect(pdf!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('the lookups leave the poll reserve of the data quota to extract polls', async () => {
    const redis = new Redis(inject('redisUrl'));
    try {
      const limit = { max: 20, windowMs: 60_000 };
      const quota = redisCallQuota(redis, `test:quota:${randomBytes(4).toString('hex')}`, limit);
      const client = new GisaClient({ baseUrl: fake.url, dataQuota: quota });
      const reserve = extractPollReserve(limit.max);
      expect(reserve).toBeGreaterThan(0);
      // Lookups up to the reserve ...
      for (let i = 0; i < limit.max - reserve; i++) await client.licence('100000054');
      expect(await client.licence('100000054').catch((e: unknown) => e)).toBeInstanceOf(UpstreamThrottledError);
      // ... while a running extract still polls, up to the whole quota.
      const jobId = await client.startExtract('100000054', 'en', false);
      for (let i = 0; i < reserve; i++) await client.extractStatus(jobId);
      expect(await client.extractStatus(jobId).catch((e: unknown) => e)).toBeInstanceOf(UpstreamThrottledError);
      expect(await quota.used()).toBe(limit.max);
    } finally {
      redis.disconnect();
    }
  });

  // "Today's stored extract" is the Austrian calendar day: an extract fetched at 00:01 in Vienna (23:01
  // UTC the day before in winter) is today's; one fetched at 23:59 Vienna time yesterday is not.
  it('today\'s stored extract is today in Vienna (Europe/Vienna), not in UTC', async () => {
    expect(viennaDay(new Date('2026-11-25T23:30:00Z'))).toBe('2026-11-26');
    expect(viennaDay(new Date('2026-07-01T22:30:00Z'))).toBe('2026-07-02');
    expect(viennaDay(new Date('2026-07-01T21:30:00Z'))).toBe('2026-07-01');
    const midnight = db.sql`(date_trunc('day', now() AT TIME ZONE 'Europe/Vienna') AT TIME ZONE 'Europe/Vienna')`;
    await db.sql`INSERT INTO trade_extract (gisa_zahl, language, historical, content, fetched_at)
      VALUES ('100000092', 'de', false, ${Buffer.from('%PDF-1.4 today')}, ${midnight} + interval '1 minute'),
             ('100000108', 'de', false, ${Buffer.from('%PDF-1.4 yesterday')}, ${midnight} - interval '1 minute')`;
    const adds: unknown[][] = [];
    const queue = { add: async (...args: unknown[]) => void adds.push(args) } as unknown as Queue;
    const source = gisaExtractSource(db.sql, queue);
    const served = await source.extract({ gisaZahl: '100000092', language: 'de', historical: false }, 0);
    expect(served).toEqual({ kind: 'pdf', content: Buffer.from('%PDF-1.4 today') });
    expect(adds).toEqual([]);
    const stale = await source.extract({ gisaZahl: '100000108', language: 'de', historical: false }, 0);
    expect(stale.kind).toBe('pending');
    expect(adds).toHaveLength(1);
    expect(adds[0]![1]).toMatchObject({ gisaZahl: '100000108', day: viennaDay() });
    // The job finds the one of today stored too, without starting a GISA job.
    const starts = fake.extractStarts;
    const p = { gisaZahl: '100000092', language: 'de' as const, historical: false, day: viennaDay() };
    expect(await extractHandler({ sql: db.sql, client: new GisaClient({ baseUrl: fake.url }) })(p, stubJob({ ...p }))).toEqual({ stored: true });
    expect(fake.extractStarts).toBe(starts);
  });
});
