// Issue 22 finding 7: a change window with many changes no longer queues them all at once (100k
// changes queued 100k jobs in seconds). It enqueues them in slices while the register's queue holds
// fewer than the bound of waiting jobs, parks itself (delayed, no worker slot held) while it does not,
// resumes from the items kept on the job without asking the register again, and says how far it has
// got in /metrics. Real queue, worker, job runner and pipeline wiring; the register's answer comes from
// a stand-in client, and company jobs only count their companies.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { firmenbuchHandlers } from '../../pipeline/firmenbuch/firmenbuchJobs.js';
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import { startPipeline, type Pipeline } from '../../pipeline/pipelineWorker.js';
import type { AnyRegister } from '../../pipeline/register.js';
import { fnrCheckLetter } from '../../schemas/identifiers.js';
import { createLogger } from '../../runtime/logger.js';
import { createMetrics } from '../../runtime/metrics.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CHANGES = 5000;
const LIMITS = { slice: 200, maxWaiting: 1000, parkMs: 100 };
const WINDOW = { from: '2026-01-05', to: '2026-01-11' };
const fnrOf = (i: number) => `${i + 1}${fnrCheckLetter(i + 1)}`;

let db: TestDatabase;
let pipeline: Pipeline;
const metrics = createMetrics();
/** VERAENDERUNGENFIRMA calls the stand-in register answered. */
let feedCalls = 0;
const companiesWorked: string[] = [];
const outcomes: string[] = [];

const register: AnyRegister = {
  ...firmenbuch,
  handlers: (deps) => {
    const client = {
      companyChanges: async () => {
        feedCalls++;
        return { changes: Array.from({ length: CHANGES }, (_, i) => ({ fnr: fnrOf(i), vnr: null })) };
      },
    } as unknown as FirmenbuchClient;
    const handlers = firmenbuchHandlers({ sql: deps.sql, client, enqueue: deps.enqueue, enqueueMany: deps.enqueueMany, log: deps.log, fanOut: deps.fanOut });
    return { handlers: { ...handlers, company: async ({ fnr }: { fnr: string }) => void companiesWorked.push(fnr) } };
  },
};

beforeAll(async () => {
  db = await createTestDatabase();
  pipeline = await startPipeline({
    sql: db.sql, redisUrl: inject('redisUrl'), log: createLogger('silent'), registers: [register], concurrency: 4,
    prefix: `fanout-${randomBytes(4).toString('hex')}`, fanOut: LIMITS, upstreams: { firmenbuch: { ratePerSecond: 10_000 } },
    onOutcome: (e) => outcomes.push(`${e.job} ${e.outcome}`),
  });
  metrics.watchQueues(Object.values(pipeline.queues));
});
afterAll(async () => {
  await pipeline?.queues.firmenbuch?.obliterate({ force: true });
  await pipeline?.close();
  await db.drop();
});

describe('a change window with many changes', () => {
  it('enqueues them in slices under the bound, parks while the queue is full, resumes without a new fetch, and reports its progress', async () => {
    const queue = pipeline.queues.firmenbuch!;
    const waitingSeen: number[] = [];
    const progressSeen: Array<{ enqueued: number; total: number }> = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        waitingSeen.push(await queue.getJobCountByTypes('waiting', 'prioritized'));
        const text = await metrics.registry.getSingleMetricAsString('pipeline_fanout_items');
        const enqueued = /pipeline_fanout_items\{register="firmenbuch",job="firmenbuch\.companyChanges",window="2026-01-05\.\.2026-01-11",state="enqueued"\} (\d+)/.exec(text);
        const total = /state="total"\} (\d+)/.exec(text);
        if (enqueued && total) progressSeen.push({ enqueued: Number(enqueued[1]), total: Number(total[1]) });
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    try {
      await pipeline.enqueue(firmenbuch, 'companyChanges', WINDOW);
      await pipeline.drained(50);
    } finally {
      sampling = false;
      await sampler;
    }

    // Every change became one company job, and the register was asked once.
    expect(new Set(companiesWorked).size).toBe(CHANGES);
    expect(feedCalls).toBe(1);
    // Never the whole window at once: at most the bound plus one slice waited.
    expect(Math.max(...waitingSeen)).toBeLessThanOrEqual(LIMITS.maxWaiting + LIMITS.slice);
    expect(Math.max(...waitingSeen)).toBeGreaterThanOrEqual(LIMITS.maxWaiting);
    // It parked (no attempt used, not a failure) and went on.
    expect(outcomes.filter((o) => o === 'firmenbuch.companyChanges deferred').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((o) => o.startsWith('firmenbuch.companyChanges') && /retry|failed/.test(o))).toEqual([]);
    expect(outcomes.filter((o) => o === 'firmenbuch.companyChanges completed')).toHaveLength(1);
    // /metrics showed it part of the way, and shows nothing once it is done.
    expect(progressSeen.some((p) => p.total === CHANGES && p.enqueued > 0 && p.enqueued < CHANGES)).toBe(true);
    expect(await metrics.registry.getSingleMetricAsString('pipeline_fanout_items')).not.toMatch(/window=/);
    // The watermark moved only once the window was enqueued whole.
    const [state] = await db.sql<{ watermark: string }[]>`SELECT watermark FROM crawl_state WHERE source = 'firmenbuch' AND key = 'company-changes'`;
    expect(state?.watermark).toBe(WINDOW.to);
    // The finished job keeps its result, not the items.
    const [done] = await queue.getJobs(['completed']).then((jobs) => jobs.filter((j) => j.name === 'firmenbuch.companyChanges'));
    expect(done?.returnvalue).toMatchObject({ changes: CHANGES });
    expect(done?.data).not.toHaveProperty('fanOut');
  });
});
