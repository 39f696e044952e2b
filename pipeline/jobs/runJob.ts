// Runs one job: validates its payload against the schema in names.ts, calls the handler, and lets the
// error's type decide what BullMQ does next (see errors.ts). A job that fails for good keeps its
// input: the payload stays on the failed job, and the raw upstream input is added to its data.
import { UnrecoverableError, Worker, type Job, type Queue } from 'bullmq';
import type { Logger } from '../../runtime/logger.js';
import { isUnrecoverable, UpstreamThrottledError } from './errors.js';
import { JOB_BY_NAME, JOBS, type JobKey, type JobPayload } from './names.js';

export type JobHandlers = { [K in JobKey]: (payload: JobPayload<K>, job: Job) => Promise<unknown> };
export type Enqueue = <K extends JobKey>(key: K, payload: JobPayload<K>) => Promise<void>;
/** Several jobs of one kind in one round trip to Redis (a change window fans out to hundreds). */
export type EnqueueMany = <K extends JobKey>(key: K, payloads: Array<JobPayload<K>>) => Promise<void>;

/** Raw inputs larger than this are cut when stored on a failed job (the full bytes stay in Postgres). */
const MAX_STORED_INPUT = 2_000_000;

export interface JobRunnerDeps {
  handlers: JobHandlers;
  queues: Record<string, Queue>;
  log: Logger;
  onOutcome?: (event: { job: string; outcome: 'completed' | 'failed' | 'retry' | 'throttled'; durationMs: number }) => void;
}

export function jobProcessor(deps: JobRunnerDeps) {
  return async (job: Job): Promise<unknown> => {
    const key = JOB_BY_NAME.get(job.name);
    const started = performance.now();
    const outcome = (o: 'completed' | 'failed' | 'retry' | 'throttled') =>
      deps.onOutcome?.({ job: job.name, outcome: o, durationMs: performance.now() - started });
    if (!key) {
      outcome('failed');
      throw new UnrecoverableError(`unknown job name ${job.name}`);
    }
    const parsed = JOBS[key].payload.safeParse(job.data);
    if (!parsed.success) {
      outcome('failed');
      throw new UnrecoverableError(`invalid payload for ${job.name}: ${parsed.error.message}`);
    }
    try {
      const handler = deps.handlers[key] as (payload: unknown, job: Job) => Promise<unknown>;
      const result = await handler(parsed.data, job);
      outcome('completed');
      return result;
    } catch (err) {
      if (err instanceof UpstreamThrottledError || (err as Error).name === 'UpstreamThrottledError') {
        // Pause the whole upstream queue; the job goes back to waiting without using an attempt.
        outcome('throttled');
        await deps.queues[JOBS[key].queue]!.rateLimit((err as UpstreamThrottledError).retryAfterMs);
        throw Worker.RateLimitError();
      }
      if (isUnrecoverable(err)) {
        outcome('failed');
        const rawInput = (err as { rawInput?: string }).rawInput;
        await job.updateData({
          ...job.data,
          failure: { name: (err as Error).name, message: (err as Error).message, at: new Date().toISOString() },
          ...(rawInput ? { rawInput: rawInput.slice(0, MAX_STORED_INPUT) } : {}),
        });
        deps.log.warn({ job: job.name, jobId: job.id, err: (err as Error).message }, 'job failed for good; input kept on the job');
        throw new UnrecoverableError(`${(err as Error).name}: ${(err as Error).message}`);
      }
      outcome('retry');
      throw err;
    }
  };
}

/** Job options: exponential backoff for transient errors; failed jobs are kept with their input. */
export function jobOptions(backoffDelayMs = 1000) {
  return {
    attempts: 8,
    backoff: { type: 'exponential', delay: backoffDelayMs },
    // Completed jobs are removed so a later crawl with the same deterministic id is not ignored.
    removeOnComplete: true,
    removeOnFail: false,
  } as const;
}

export function enqueuer(queues: Record<string, Queue>, backoffDelayMs?: number): Enqueue {
  const opts = jobOptions(backoffDelayMs);
  return async (key, payload) => {
    const def = JOBS[key];
    const data = def.payload.parse(payload);
    await queues[def.queue]!.add(def.name, data, { ...opts, jobId: (def.jobId as (p: unknown) => string)(data) });
  };
}

/** Bulk adds with the same options and deterministic ids as `enqueuer`: a job already there is not added again. */
export function bulkEnqueuer(queues: Record<string, Queue>, backoffDelayMs?: number): EnqueueMany {
  const opts = jobOptions(backoffDelayMs);
  return async (key, payloads) => {
    const def = JOBS[key];
    const jobs = payloads.map((payload) => {
      const data = def.payload.parse(payload);
      return { name: def.name, data, opts: { ...opts, jobId: (def.jobId as (p: unknown) => string)(data) } };
    });
    for (let i = 0; i < jobs.length; i += 1000) await queues[def.queue]!.addBulk(jobs.slice(i, i + 1000));
  };
}
