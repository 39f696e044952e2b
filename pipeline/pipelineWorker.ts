// The pipeline process: one BullMQ queue and worker per upstream, the repeatable change-feed polls,
// and a graceful close (workers finish their active jobs before the connections go).
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Sql } from '../runtime/db.js';
import type { Logger } from '../runtime/logger.js';
import { FirmenbuchClient } from './firmenbuch/firmenbuchClient.js';
import { firmenbuchHandlers } from './firmenbuch/firmenbuchJobs.js';
import { JOBS, QUEUES } from './jobs/names.js';
import { bulkEnqueuer, enqueuer, jobOptions, jobProcessor, type Enqueue, type JobRunnerDeps } from './jobs/runJob.js';

export interface PipelineOptions {
  sql: Sql;
  redisUrl: string;
  log: Logger;
  firmenbuch: { baseUrl: string; apiKey?: string; timeoutMs?: number; ratePerSecond: number };
  concurrency: number;
  /** Repeatable polls of the change feeds; off for replays, which enqueue their windows themselves. */
  schedules?: { companyChangesEveryMs: number; documentChangesEveryMs: number } | null;
  /**
   * How long a worker's lock on a job lasts and how often stalled jobs (their worker died) are looked
   * for; a killed worker's jobs are taken up again after about lock + interval. Defaults 30 s / 30 s.
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** First retry delay; doubles per attempt (default 1 s). */
  backoffDelayMs?: number;
  /** Key prefix in Redis, so tests and replays can run beside a live pipeline. */
  prefix?: string;
  /** Run workers in this process (default). False gives queues only, e.g. for the API's admin pages. */
  work?: boolean;
  onOutcome?: JobRunnerDeps['onOutcome'];
  onUpstreamRequest?: (event: { upstream: string; operation: string; status: number | 'error'; durationMs: number }) => void;
}

export interface Pipeline {
  queues: Record<string, Queue>;
  enqueue: Enqueue;
  /** Resolves once no queue has waiting, delayed, active or prioritised jobs left. */
  drained: (pollMs?: number) => Promise<void>;
  counts: () => Promise<Record<string, Record<string, number>>>;
  close: () => Promise<void>;
}

const PENDING_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

export async function startPipeline(options: PipelineOptions): Promise<Pipeline> {
  const prefix = options.prefix ?? 'bull';
  // BullMQ workers block on Redis; they need a connection that never gives up on a request.
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const connections = [connection];
  const defaultJobOptions = jobOptions(options.backoffDelayMs);
  const queues: Record<string, Queue> = {
    [QUEUES.firmenbuch]: new Queue(QUEUES.firmenbuch, { connection, prefix, defaultJobOptions }),
  };
  const enqueue = enqueuer(queues, options.backoffDelayMs);
  const client = new FirmenbuchClient({
    baseUrl: options.firmenbuch.baseUrl,
    apiKey: options.firmenbuch.apiKey,
    timeoutMs: options.firmenbuch.timeoutMs,
    onRequest: (e) => options.onUpstreamRequest?.({ upstream: 'firmenbuch', ...e }),
  });
  const handlers = firmenbuchHandlers({
    sql: options.sql, client, enqueue, enqueueMany: bulkEnqueuer(queues, options.backoffDelayMs), log: options.log,
  });

  const workers: Worker[] = [];
  if (options.work ?? true) {
    const workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    connections.push(workerConnection);
    const worker = new Worker(QUEUES.firmenbuch, jobProcessor({ handlers, queues, log: options.log, onOutcome: options.onOutcome }), {
      connection: workerConnection,
      prefix,
      concurrency: options.concurrency,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      // A job whose worker died is run again (jobs are idempotent); twice is a pattern worth failing on.
      maxStalledCount: 2,
      // The per-upstream rate limit: BullMQ's limiter is global per queue, which is one upstream here.
      limiter: { max: options.firmenbuch.ratePerSecond, duration: 1000 },
    });
    worker.on('error', (err) => options.log.error({ err }, 'firmenbuch worker error'));
    workers.push(worker);
  }

  if (options.schedules) {
    const q = queues[QUEUES.firmenbuch]!;
    await q.upsertJobScheduler('firmenbuch.poll.company', { every: options.schedules.companyChangesEveryMs }, {
      name: JOBS.poll.name, data: { feed: 'company' }, opts: defaultJobOptions,
    });
    await q.upsertJobScheduler('firmenbuch.poll.document', { every: options.schedules.documentChangesEveryMs }, {
      name: JOBS.poll.name, data: { feed: 'document' }, opts: defaultJobOptions,
    });
  }

  const counts = async () => {
    const result: Record<string, Record<string, number>> = {};
    for (const [name, q] of Object.entries(queues)) result[name] = await q.getJobCounts(...PENDING_STATES, 'completed', 'failed');
    return result;
  };

  return {
    queues,
    enqueue,
    counts,
    drained: async (pollMs = 200) => {
      for (;;) {
        const all = await counts();
        const pending = Object.values(all).reduce((sum, c) => sum + PENDING_STATES.reduce((s, st) => s + (c[st] ?? 0), 0), 0);
        if (pending === 0) return;
        await new Promise((r) => setTimeout(r, pollMs));
      }
    },
    close: async () => {
      // Workers first: close() waits for the jobs they are running.
      for (const w of workers) {
        try {
          await w.close();
        } catch (err) {
          options.log.error({ err }, 'closing a worker failed');
        }
      }
      for (const q of Object.values(queues)) await q.close();
      for (const c of connections) c.disconnect();
      client.close();
    },
  };
}
