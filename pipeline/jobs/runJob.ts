// Runs one job of a register: validates its payload against the register's job table, calls the
// handler, and lets the error's type decide what BullMQ does next (see errors.ts). A job that fails
// for good keeps its input: the payload stays on the failed job, and the raw upstream input is added
// to its data.
import { DelayedError, UnrecoverableError, Worker, type Job, type Queue } from 'bullmq';
import type { Logger } from '../../runtime/logger.js';
import type { AnyRegister, Enqueue, EnqueueMany, JobDef, JobTable } from '../register.js';
import { isUnrecoverable, UpstreamAuthenticationError, UpstreamThrottledError } from './errors.js';

/** Raw inputs larger than this are cut when stored on a failed job (the full bytes stay in Postgres). */
const MAX_STORED_INPUT = 2_000_000;

/** `deferred`: the job moved itself to delayed (a parked fan-out, an extract waiting for its quota); no attempt used. */
export type JobOutcome = 'completed' | 'failed' | 'retry' | 'throttled' | 'deferred';

export interface JobOutcomeEvent {
  register: string;
  job: string;
  outcome: JobOutcome;
  durationMs: number;
  /** The job's payload, once it validated. */
  payload?: unknown;
}

export interface JobRunnerDeps {
  register: AnyRegister;
  handlers: Record<string, (payload: unknown, job: Job) => Promise<unknown>>;
  /** The register's own queue: a 429 pauses it and no other. */
  queue: Queue;
  log: Logger;
  onOutcome?: (event: JobOutcomeEvent) => void;
  /**
   * Set by a replay: a refused login fails its job and is told here (the replay ends with it) instead
   * of pausing the queue, which would keep a replay waiting for an operator who is not there.
   */
  onAuthenticationError?: (err: UpstreamAuthenticationError) => void;
}

export function jobProcessor(deps: JobRunnerDeps) {
  const byName = new Map(Object.entries(deps.register.jobs as JobTable).map(([key, def]) => [def.name, { key, def }]));
  return async (job: Job): Promise<unknown> => {
    const entry = byName.get(job.name);
    const started = performance.now();
    const validated: { payload?: unknown } = {};
    const outcome = (o: JobOutcome) =>
      deps.onOutcome?.({ register: deps.register.name, job: job.name, outcome: o, durationMs: performance.now() - started, payload: validated.payload });
    if (!entry) {
      outcome('failed');
      throw new UnrecoverableError(`unknown job name ${job.name} on queue ${deps.register.name}`);
    }
    const parsed = entry.def.payload.safeParse(job.data);
    if (!parsed.success) {
      outcome('failed');
      throw new UnrecoverableError(`invalid payload for ${job.name}: ${parsed.error.message}`);
    }
    validated.payload = parsed.data;
    try {
      const result = await deps.handlers[entry.key]!(parsed.data, job);
      outcome('completed');
      return result;
    } catch (err) {
      if (err instanceof DelayedError) {
        outcome('deferred');
        throw err;
      }
      if (err instanceof UpstreamAuthenticationError && deps.onAuthenticationError) {
        outcome('failed');
        deps.onAuthenticationError(err);
        throw new UnrecoverableError(`${err.name}: ${err.message}`);
      }
      if (err instanceof UpstreamAuthenticationError) {
        outcome('throttled');
        deps.log.error({ register: deps.register.name, job: job.name, err: err.message }, `${err.message}; the ${deps.register.name} queue pauses for ${Math.round(err.retryAfterMs / 60_000)} min`);
        await deps.queue.rateLimit(err.retryAfterMs);
        throw Worker.RateLimitError();
      }
      if (err instanceof UpstreamThrottledError) {
        // Pause this register's queue; the job goes back to waiting without using an attempt.
        outcome('throttled');
        await deps.queue.rateLimit(err.retryAfterMs);
        throw Worker.RateLimitError();
      }
      if (isUnrecoverable(err)) {
        outcome('failed');
        await job.updateData({
          ...job.data,
          failure: { name: err.name, message: err.message, at: new Date().toISOString() },
          ...(err.rawInput ? { rawInput: err.rawInput.slice(0, MAX_STORED_INPUT) } : {}),
        });
        deps.log.warn({ job: job.name, jobId: workId(job), err: err.message }, 'job failed for good; input kept on the job');
        throw new UnrecoverableError(`${err.name}: ${err.message}`);
      }
      // A transport fault on the last attempt ends the job: it counts and is logged as a failure.
      const attempts = job.opts.attempts ?? 1;
      if (job.attemptsMade + 1 >= attempts) {
        outcome('failed');
        deps.log.warn({ job: job.name, jobId: workId(job), attempts, err: (err as Error).message }, 'job failed after its last attempt');
      } else {
        outcome('retry');
      }
      throw err;
    }
  };
}

/** How many finished jobs the board keeps as the recent history of each queue. */
export interface JobHistory {
  count: number;
  ageSeconds: number;
}

export const DEFAULT_JOB_HISTORY: JobHistory = { count: 1000, ageSeconds: 24 * 3600 };

/** Job options: exponential backoff for transient errors; failed jobs are kept with their input. */
export function jobOptions(backoffDelayMs = 1000, history: JobHistory = DEFAULT_JOB_HISTORY) {
  return {
    attempts: 8,
    backoff: { type: 'exponential', delay: backoffDelayMs },
    removeOnComplete: { count: history.count, age: history.ageSeconds },
    removeOnFail: false,
  } as const;
}

/** The id a job's deterministic key is known by: its deduplication id (see enqueuers). */
export function workId(job: Job): string | undefined {
  return job.deduplicationId ?? job.id;
}

// The deterministic id is the job's deduplication id, not its job id: the same work enqueued while
// it waits is one job, and enqueued while it runs, one more run after it (keepLastIfActive), so a
// change that arrives mid-run is not lost; finished jobs stay on the board as history without
// blocking the next crawl of the same work, as a finished job with that job id would.
function jobFor<J extends JobTable>(jobs: J, key: string, payload: unknown, opts: ReturnType<typeof jobOptions>) {
  const def = jobs[key] as JobDef | undefined;
  if (!def) throw new Error(`no job ${key}`);
  const data = def.payload.parse(payload);
  return { name: def.name, data, opts: { ...opts, ...(def.priority ? { priority: def.priority } : {}), deduplication: { id: def.jobId(data), keepLastIfActive: true } } };
}

/** Adds jobs of one register, deduplicated by their deterministic ids. */
export function enqueuers<J extends JobTable>(jobs: J, queue: Queue, backoffDelayMs?: number, history?: JobHistory): { enqueue: Enqueue<J>; enqueueMany: EnqueueMany<J> } {
  const opts = jobOptions(backoffDelayMs, history);
  return {
    enqueue: async (key, payload) => {
      const job = jobFor(jobs, key, payload, opts);
      await queue.add(job.name, job.data, job.opts);
    },
    enqueueMany: async (key, payloads) => {
      const all = payloads.map((payload) => jobFor(jobs, key, payload, opts));
      for (let i = 0; i < all.length; i += 1000) await queue.addBulk(all.slice(i, i + 1000));
    },
  };
}
