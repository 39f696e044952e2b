// How far each bounded fan-out (pipeline/jobs/fanOut.ts: a change window enqueueing its companies in
// slices) has got, kept in Redis beside the register's queue: one hash per queue, a field per job and
// window. In Redis rather than in the worker's memory because the window may resume on another worker
// process, and /metrics is served by the API process (runtime/metrics.ts reads it at every scrape).
import type { Queue } from 'bullmq';

export interface FanOutProgress {
  /** The job that fans out (`firmenbuch.companyChanges`). */
  job: string;
  /** Which run of it (a change window: `2026-01-01..2026-01-07`). */
  window: string;
  enqueued: number;
  total: number;
}

const progressKey = (queue: Queue) => queue.toKey('fanout');
const SEPARATOR = '|';

/** Records the progress; a finished fan-out is removed. */
export async function reportFanOut(queue: Queue, p: FanOutProgress): Promise<void> {
  const client = await queue.getBackend().client;
  const field = `${p.job}${SEPARATOR}${p.window}`;
  if (p.enqueued >= p.total) await client.hdel(progressKey(queue), field);
  else await client.hset(progressKey(queue), { [field]: JSON.stringify({ enqueued: p.enqueued, total: p.total }) });
}

/** The fan-outs of `queue` that have not finished. */
export async function readFanOuts(queue: Queue): Promise<FanOutProgress[]> {
  const client = await queue.getBackend().client;
  const fields = await client.hgetall(progressKey(queue));
  return Object.entries(fields).map(([field, value]) => {
    const cut = field.indexOf(SEPARATOR);
    const { enqueued, total } = JSON.parse(value) as { enqueued: number; total: number };
    return { job: field.slice(0, cut), window: field.slice(cut + 1), enqueued, total };
  });
}
