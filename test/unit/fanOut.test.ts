// Bounded fan-out (pipeline/jobs/fanOut.ts) on a stand-in job: what it keeps on the job so a run that
// dies part-way resumes where it stopped without asking the register again, how it parks, and what a
// small window costs. The queue side is in test/integration/windowFanOut.test.ts.
import { DelayedError, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { fanOut, type FanOutSupport } from '../../pipeline/jobs/fanOut.js';
import type { FanOutProgress } from '../../runtime/fanOutProgress.js';

function standInJob(data: Record<string, unknown> = { from: '2026-01-05', to: '2026-01-11' }) {
  const job = {
    name: 'firmenbuch.companyChanges', data, progress: 0 as unknown, token: 'lock-1', dataWrites: 0, delayedUntil: null as number | null,
    updateData: async (d: Record<string, unknown>) => void ((job.data = d), job.dataWrites++),
    updateProgress: async (p: unknown) => void (job.progress = p),
    moveToDelayed: async (at: number, token: string) => void (job.delayedUntil = token === 'lock-1' ? at : null),
  };
  return job;
}

const items = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);

describe('fanOut', () => {
  it('a run that dies part-way resumes at the slice it stopped at, without fetching again', async () => {
    const job = standInJob();
    const enqueued: string[] = [];
    let fetches = 0;
    let slices = 0;
    const run = () => fanOut({
      job: job as unknown as Job, window: '2026-01-05..2026-01-11',
      fetch: async () => ((fetches++), { items: items(2500), meta: { documents: 7 } }),
      enqueue: async (slice) => {
        if (++slices === 2) throw new Error('worker died');
        enqueued.push(...slice);
      },
    });
    await expect(run()).rejects.toThrow('worker died');
    expect(enqueued).toHaveLength(1000);
    expect(job.progress).toEqual({ enqueued: 1000, total: 2500 });
    expect((job.data as { fanOut: { items: string[] } }).fanOut.items).toHaveLength(2500);

    const result = await run();
    expect(fetches).toBe(1);
    expect(result).toEqual({ total: 2500, meta: { documents: 7 } });
    expect(enqueued).toEqual(items(2500));
    expect(job.progress).toEqual({ enqueued: 2500, total: 2500 });
    // Done: the items leave the job, its payload stays.
    expect(job.data).toEqual({ from: '2026-01-05', to: '2026-01-11' });
  });

  it('parks while the queue holds the bound of waiting jobs, keeping items and progress, and reports it', async () => {
    const job = standInJob();
    const reports: FanOutProgress[] = [];
    let backlog = 0;
    const support: FanOutSupport = { backlog: async () => backlog, report: async (p) => void reports.push(p), limits: { slice: 100, maxWaiting: 250, parkMs: 5000 } };
    const enqueued: string[] = [];
    const run = () => fanOut({
      job: job as unknown as Job, window: 'w', support, fetch: async () => ({ items: items(420) }),
      enqueue: async (slice) => {
        enqueued.push(...slice);
        backlog += slice.length;
      },
    });
    const before = Date.now();
    const parked = await run().catch((e: unknown) => e);
    expect(parked).toBeInstanceOf(DelayedError);
    expect(enqueued).toHaveLength(300);
    expect(job.delayedUntil).toBeGreaterThanOrEqual(before + 5000);
    expect(job.progress).toEqual({ enqueued: 300, total: 420 });
    expect(reports.at(-1)).toEqual({ job: 'firmenbuch.companyChanges', window: 'w', enqueued: 300, total: 420 });

    backlog = 0;
    await run();
    expect(enqueued).toEqual(items(420));
    expect(reports.at(-1)).toEqual({ job: 'firmenbuch.companyChanges', window: 'w', enqueued: 420, total: 420 });
  });

  it('parks before the first slice too, and a window of one slice is then kept on the job', async () => {
    const job = standInJob();
    const support: FanOutSupport = { backlog: async () => 10_000, report: async () => undefined, limits: { slice: 1000, maxWaiting: 10_000 } };
    const parked = await fanOut({ job: job as unknown as Job, window: 'w', support, fetch: async () => ({ items: items(5) }), enqueue: async () => undefined })
      .catch((e: unknown) => e);
    expect(parked).toBeInstanceOf(DelayedError);
    expect((job.data as { fanOut: { items: string[] } }).fanOut.items).toEqual(items(5));
  });

  it('a window of one slice costs one enqueue and writes nothing to the job data', async () => {
    const job = standInJob();
    const slices: string[][] = [];
    const result = await fanOut({ job: job as unknown as Job, window: 'w', fetch: async () => ({ items: items(40) }), enqueue: async (s) => void slices.push(s) });
    expect(result.total).toBe(40);
    expect(slices).toEqual([items(40)]);
    expect(job.dataWrites).toBe(0);
  });
});
