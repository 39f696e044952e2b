// Bounded fan-out (issue 22 finding 7): a job that found a lot of follow-up work (a change window with
// 100k changes once queued 100k jobs in seconds) enqueues it in slices, and only while its register's
// queue holds fewer than `maxWaiting` waiting jobs. Past that it parks itself as a delayed job (holding
// no worker slot, so the work it enqueued can drain) and goes on later.
//
// The items and how many are enqueued are kept on the job (data.fanOut, progress), so a run that
// resumes, after a park or after its worker died, starts at the slice it stopped at instead of fetching
// the window again; a slice enqueued twice is one job per item (deterministic ids).
import { DelayedError, type Job } from 'bullmq';
import type { FanOutProgress } from '../../runtime/fanOutProgress.js';

export interface FanOutLimits {
  /** Items enqueued per round trip (and per progress update). */
  slice: number;
  /** Waiting jobs in the register's queue from which the fan-out parks. */
  maxWaiting: number;
  /** How long it parks before it looks again. */
  parkMs: number;
}

export const DEFAULT_FAN_OUT_LIMITS: FanOutLimits = { slice: 1000, maxWaiting: 10_000, parkMs: 10_000 };

/** What the pipeline gives a register for bounded fan-out (RegisterDeps.fanOut). */
export interface FanOutSupport {
  /** Jobs waiting in the register's queue now. */
  backlog: () => Promise<number>;
  /** Where progress goes (Redis, read by /metrics); `enqueued === total` means done. */
  report: (p: FanOutProgress) => Promise<void>;
  limits?: Partial<FanOutLimits>;
}

interface Stored<T> {
  items: T[];
  meta: Record<string, number>;
}

export interface FanOut<T> {
  job: Job;
  /** Names this run in the progress (`<from>..<to>`). */
  window: string;
  /** Fetches the items (and figures to keep beside them); not called when the run resumes. */
  fetch: () => Promise<{ items: T[]; meta?: Record<string, number> }>;
  enqueue: (slice: T[]) => Promise<void>;
  /** Without: slices only, no backpressure and no progress outside the job. */
  support?: FanOutSupport;
}

/**
 * Enqueues every item, slice by slice; resolves with the total and the kept figures once all are
 * enqueued, or parks the job (throws DelayedError, which BullMQ takes as "moved to delayed").
 */
export async function fanOut<T>(f: FanOut<T>): Promise<{ total: number; meta: Record<string, number> }> {
  const limits = { ...DEFAULT_FAN_OUT_LIMITS, ...f.support?.limits };
  const { job } = f;
  const kept = (job.data as { fanOut?: Stored<T> }).fanOut;
  let state: Stored<T>;
  let done = 0;
  let persisted = kept !== undefined;
  if (kept) {
    state = kept;
    done = Math.min((job.progress as { enqueued?: number } | undefined)?.enqueued ?? 0, kept.items.length);
  } else {
    const fetched = await f.fetch();
    state = { items: fetched.items, meta: fetched.meta ?? {} };
  }
  const persist = async () => {
    if (persisted) return;
    await job.updateData({ ...job.data, fanOut: state });
    persisted = true;
  };
  const total = state.items.length;
  const progress = async (enqueued: number) => {
    await job.updateProgress({ enqueued, total });
    await f.support?.report({ job: job.name, window: f.window, enqueued, total });
  };
  // More than one slice: a worker dying between slices must not lose the items.
  if (total > limits.slice) await persist();
  while (done < total) {
    if (f.support && (await f.support.backlog()) >= limits.maxWaiting) {
      await persist();
      await progress(done);
      await job.moveToDelayed(Date.now() + limits.parkMs, job.token);
      throw new DelayedError(`fan-out parked at ${done} of ${total}: the queue holds ${limits.maxWaiting} or more waiting jobs`);
    }
    const slice = state.items.slice(done, done + limits.slice);
    await f.enqueue(slice);
    done += slice.length;
    if (done < total) await progress(done);
  }
  await progress(total);
  // The items are not needed once enqueued; the finished job stays on the board for a day.
  if (persisted) {
    const { fanOut: _items, ...data } = job.data as Record<string, unknown>;
    await job.updateData(data);
  }
  return { total, meta: state.meta };
}
