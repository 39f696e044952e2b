// gisa.follow on a real change log (audit of issue 20): it enqueues its lookups as a bounded fan-out
// (parks while the queue is full, resumes from the items kept on the job, moves the cursor only once
// the page is enqueued whole), and follows only the company register's changes, not filings, court
// notices, the BMF list or derived fields.
import { DelayedError, type Job } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GisaClient } from '../../pipeline/gisa/gisaClient.js';
import { gisaHandlers } from '../../pipeline/gisa/gisaJobs.js';
import type { FanOutSupport } from '../../pipeline/jobs/fanOut.js';
import type { RegisterRunReport } from '../../pipeline/register.js';
import { recordChanges, type NewChange } from '../../pipeline/store/changeLog.js';
import { createLogger } from '../../runtime/logger.js';
import { fnrCheckLetter } from '../../schemas/identifiers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const fnrOf = (n: number) => `${n}${fnrCheckLetter(n)}`;

function standInJob() {
  const job = {
    name: 'gisa.follow', data: {} as Record<string, unknown>, progress: 0 as unknown, token: 'lock', delayedUntil: null as number | null,
    updateData: async (d: Record<string, unknown>) => void (job.data = d),
    updateProgress: async (p: unknown) => void (job.progress = p),
    moveToDelayed: async (at: number) => void (job.delayedUntil = at),
  };
  return job;
}

describe('gisa.follow', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });
  // Each test follows only the changes it writes.
  beforeEach(async () => {
    await db.sql`
      INSERT INTO crawl_state (source, key, watermark) SELECT 'gisa', 'change-cursor', coalesce(max(id), 0)::text FROM change_log
      ON CONFLICT (source, key) DO UPDATE SET watermark = EXCLUDED.watermark`;
  });

  const record = (changes: NewChange[]) => db.sql.begin((tx) => recordChanges(tx, changes));
  const cursor = async () => Number((await db.sql<{ watermark: string }[]>`SELECT watermark FROM crawl_state WHERE source = 'gisa' AND key = 'change-cursor'`)[0]!.watermark);

  function handlersWith(fanOut?: FanOutSupport) {
    const enqueued: Record<string, unknown[]> = { company: [], person: [], follow: [] };
    const runs: RegisterRunReport[] = [];
    const handlers = gisaHandlers({
      sql: db.sql, client: new GisaClient({ baseUrl: 'http://127.0.0.1:1' }), log: createLogger('silent'), fanOut,
      enqueueMany: async (key, payloads) => void enqueued[key]!.push(...payloads),
      onRun: (e) => void runs.push(e),
    });
    return { handlers, enqueued, runs };
  }

  it('enqueues a page in slices under the bound, parks while the queue is full, resumes without reading again, then moves the cursor', async () => {
    const companies = Array.from({ length: 60 }, (_, i) => fnrOf(810_001 + i));
    await record(companies.map((fnr) => ({ type: 'business', fnr, action: 'updated', changedFields: ['name'], vnr: '7' })));
    const before = await cursor();
    let drained = 0;
    const limits = { slice: 10, maxWaiting: 25, parkMs: 1 };
    const { handlers, enqueued, runs } = handlersWith({ backlog: async () => enqueued.company!.length - drained, report: async () => undefined, limits });
    const job = standInJob();

    const parked = await handlers.follow({}, job as unknown as Job).catch((e: unknown) => e);
    expect(parked).toBeInstanceOf(DelayedError);
    expect(enqueued.company!.length).toBeGreaterThanOrEqual(limits.maxWaiting);
    expect(enqueued.company!.length).toBeLessThanOrEqual(limits.maxWaiting + limits.slice);
    expect(job.delayedUntil).not.toBeNull();
    expect(await cursor()).toBe(before);
    expect(runs).toEqual([]);

    // The queue drains; the job runs again. A change written meanwhile is not part of this page.
    drained = enqueued.company!.length;
    await record([{ type: 'business', fnr: fnrOf(899_999), action: 'updated', changedFields: ['name'], vnr: '8' }]);
    const done = await handlers.follow({}, job as unknown as Job);
    expect(done).toMatchObject({ changes: 60, companies: 60 });
    expect(new Set(enqueued.company!.map((c) => (c as { fnr: string }).fnr))).toEqual(new Set(companies));
    expect(enqueued.company).toHaveLength(60);
    expect(await cursor()).toBe(before + 60);
    expect(job.data).not.toHaveProperty('fanOut');
    // One run reported, once done: the log was read to its end, so the watermark is the time of that read.
    expect(runs).toEqual([{ outcome: 'success', itemsFetched: 60, watermark: expect.any(String) }]);
    const at = Date.parse((runs[0] as { watermark: string }).watermark);
    expect(Date.now() - at).toBeGreaterThanOrEqual(0);
    expect(Date.now() - at).toBeLessThan(60_000);
  });

  it('a full page reports the recording time of its last change as watermark and chains the next page', async () => {
    const fnrs = Array.from({ length: 1001 }, (_, i) => fnrOf(830_001 + i));
    await record(fnrs.map((fnr) => ({ type: 'business', fnr, action: 'updated', changedFields: ['name'], vnr: '1' })));
    const before = await cursor();
    const [last] = await db.sql<{ id: number; recordedAt: Date }[]>`SELECT id::int, recorded_at FROM change_log WHERE id > ${before} ORDER BY id OFFSET 999 LIMIT 1`;
    const { handlers, enqueued, runs } = handlersWith();
    await handlers.follow({}, standInJob() as unknown as Job);
    expect(await cursor()).toBe(last!.id);
    expect(enqueued.follow).toEqual([{ after: last!.id }]);
    expect(runs).toEqual([{ outcome: 'success', itemsFetched: 1000, watermark: last!.recordedAt.toISOString() }]);
  });

  it('follows the company register\'s changes only: with a vnr, created, or naming a field of the extract', async () => {
    const [a, b, c, d, e, f, g, h, i] = Array.from({ length: 9 }, (_, k) => fnrOf(820_001 + k));
    await record([
      { type: 'business', fnr: a!, action: 'updated', changedFields: ['name', 'oenaces'], vnr: '3' },
      { type: 'business', fnr: b!, action: 'created', changedFields: [] },
      { type: 'business', fnr: c!, action: 'updated', changedFields: ['functions'] }, // a register change without new entries
      { type: 'business', fnr: d!, action: 'updated', changedFields: ['latestKeyFigures', 'parsedJahresabschluesse'] }, // a filing
      { type: 'business', fnr: e!, action: 'updated', changedFields: ['hasEdikt'] }, // a court notice
      { type: 'business', fnr: f!, action: 'updated', changedFields: ['isScheinunternehmen', 'scheinunternehmenKundmachungen'] }, // the BMF list
      { type: 'business', fnr: g!, action: 'updated', changedFields: ['tradeLicenses', 'oenaces'] }, // GISA itself
      { type: 'business', fnr: h!, action: 'updated', changedFields: ['oenaces'] }, // a re-derivation
      { type: 'business', fnr: i!, action: 'deleted', changedFields: ['isActive'], vnr: '9' },
    ]);
    const { handlers, enqueued } = handlersWith();
    await handlers.follow({}, standInJob() as unknown as Job);
    expect(enqueued.company!.map((x) => (x as { fnr: string }).fnr).sort()).toEqual([a, b, c, i].sort());
  });
});
