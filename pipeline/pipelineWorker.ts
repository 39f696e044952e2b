// The pipeline process: for every register of registers.ts a BullMQ queue, a worker with the
// register's own rate limit, and its repeatable schedules; a graceful close (workers finish their
// active jobs before the connections go).
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../runtime/config.js';
import type { Sql } from '../runtime/db.js';
import type { Logger } from '../runtime/logger.js';
import { recordRegisterRun } from '../runtime/registerStatus.js';
import type { RegisterRunEvent } from '../runtime/metrics.js';
import { reportFanOut } from '../runtime/fanOutProgress.js';
import { quotaKey, redisCallQuota } from './jobs/callQuota.js';
import type { FanOutLimits } from './jobs/fanOut.js';
import { enqueuers, jobOptions, jobProcessor, type JobHistory, type JobRunnerDeps } from './jobs/runJob.js';
import type { AnyRegister, JobKey, JobTable, PayloadOf, Register, UpstreamSettings } from './register.js';
import { REGISTERS } from './registers.js';

export interface PipelineOptions {
  sql: Sql;
  redisUrl: string;
  log: Logger;
  /** The registers to run (default: every one in registers.ts). */
  registers?: readonly AnyRegister[];
  /** Read once by the entry point; the registers take their upstream settings and schedules from it (default: the defaults). */
  config?: Config;
  /** Per register name: settings that replace the configured ones (a fake's URL, a test's rate). */
  upstreams?: Record<string, Partial<UpstreamSettings>>;
  concurrency: number;
  /** Start the registers' repeatable schedules (npm start); replays enqueue their work themselves. */
  schedules?: boolean;
  /**
   * How long a worker's lock on a job lasts and how often stalled jobs (their worker died) are looked
   * for; a killed worker's jobs are taken up again after about lock + interval. Defaults 30 s / 30 s.
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** First retry delay; doubles per attempt (default 1 s). */
  backoffDelayMs?: number;
  /** Finished jobs kept per queue for the board (default 1000, at most a day old). */
  history?: JobHistory;
  /** Bounded fan-out of change windows (default: slices of 1000, PIPELINE_MAX_WAITING_JOBS, a 10 s park). */
  fanOut?: Partial<FanOutLimits>;
  /** Key prefix in Redis, so tests and replays can run beside a live pipeline. */
  prefix?: string;
  /** Run workers in this process (default). False gives queues only, e.g. for the API's admin pages. */
  work?: boolean;
  onOutcome?: JobRunnerDeps['onOutcome'];
  /** A replay's: a refused login fails its job and ends the run (JobRunnerDeps) instead of pausing the queue. */
  onAuthenticationError?: JobRunnerDeps['onAuthenticationError'];
  onUpstreamRequest?: (event: { upstream: string; operation: string; status: number | 'error'; durationMs: number }) => void;
  onRegisterRun?: (event: RegisterRunEvent) => void;
}

export interface Pipeline {
  registers: readonly AnyRegister[];
  /** Queue per register name. */
  queues: Record<string, Queue>;
  enqueue: <J extends JobTable, K extends JobKey<J>>(register: Register<J>, key: K, payload: PayloadOf<J[K]>) => Promise<void>;
  enqueueMany: <J extends JobTable, K extends JobKey<J>>(register: Register<J>, key: K, payloads: Array<PayloadOf<J[K]>>) => Promise<void>;
  /** Resolves once no queue has waiting, delayed, active or prioritised jobs left, or `stop` is aborted. */
  drained: (pollMs?: number, stop?: AbortSignal) => Promise<void>;
  counts: () => Promise<Record<string, Record<string, number>>>;
  close: () => Promise<void>;
}

export const PENDING_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

/** A register's upstream settings: the configured ones with the caller's replacements. */
export function upstreamOf(register: AnyRegister, config: Config, overrides?: Partial<UpstreamSettings>): UpstreamSettings {
  const configured = register.upstream(config);
  return { ...configured, ...overrides, credentials: { ...configured.credentials, ...overrides?.credentials } };
}

export async function startPipeline(options: PipelineOptions): Promise<Pipeline> {
  const registers = options.registers ?? REGISTERS;
  const config = options.config ?? loadConfig({});
  const prefix = options.prefix ?? 'bull';
  // BullMQ workers block on Redis; they need a connection that never gives up on a request.
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const connections = [connection];
  const defaultJobOptions = jobOptions(options.backoffDelayMs, options.history);
  const queues: Record<string, Queue> = {};
  const adders = new Map<string, ReturnType<typeof enqueuers>>();
  const workers: Worker[] = [];
  const closers: Array<() => void> = [];

  for (const register of registers) {
    const queue = new Queue(register.name, { connection, prefix, defaultJobOptions });
    queues[register.name] = queue;
    const add = enqueuers(register.jobs, queue, options.backoffDelayMs, options.history);
    adders.set(register.name, add);
    const upstream = upstreamOf(register, config, options.upstreams?.[register.name]);
    const runtime = register.handlers({
      sql: options.sql, log: options.log, upstream, ...add,
      quota: (name) => {
        const limit = upstream.quotas?.[name];
        return limit && redisCallQuota(connection, quotaKey(prefix, register.name, name, upstream.credentials?.apiKey), limit);
      },
      onUpstreamRequest: (e) => options.onUpstreamRequest?.({ upstream: register.name, ...e }),
      onRun: (e) => {
        const event = { register: register.name, ...e } as RegisterRunEvent;
        options.onRegisterRun?.(event);
        recordRegisterRun(options.sql, event).catch((err: unknown) => options.log.warn({ err, register: register.name }, 'could not record the crawl run'));
      },
      fanOut: {
        backlog: () => queue.getJobCountByTypes('waiting', 'prioritized'),
        report: (p) => reportFanOut(queue, p),
        limits: { maxWaiting: config.PIPELINE_MAX_WAITING_JOBS, ...options.fanOut },
      },
    });
    if (runtime.close) closers.push(runtime.close);

    if (options.work ?? true) {
      const workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
      connections.push(workerConnection);
      const processor = jobProcessor({
        register, handlers: runtime.handlers, queue, log: options.log, onOutcome: options.onOutcome, onAuthenticationError: options.onAuthenticationError,
      });
      const worker = new Worker(register.name, processor, {
        connection: workerConnection,
        prefix,
        concurrency: options.concurrency,
        lockDuration: options.lockDurationMs ?? 30_000,
        stalledInterval: options.stalledIntervalMs ?? 30_000,
        // A job whose worker died is run again (jobs are idempotent); twice is a pattern worth failing on.
        maxStalledCount: 2,
        // BullMQ's limiter is global per queue, and a queue is one register's upstream.
        limiter: { max: upstream.ratePerSecond, duration: 1000 },
      });
      worker.on('error', (err) => options.log.error({ err, register: register.name }, 'worker error'));
      workers.push(worker);
    }

    if (options.schedules) {
      for (const schedule of register.schedules(config)) {
        const def = register.jobs[schedule.job]!;
        await queue.upsertJobScheduler(schedule.id, { every: schedule.everyMs }, { name: def.name, data: schedule.data, opts: defaultJobOptions });
      }
    }
  }

  const adderOf = (register: AnyRegister) => {
    const add = adders.get(register.name);
    if (!add) throw new Error(`register ${register.name} is not part of this pipeline`);
    return add;
  };

  const counts = async () => {
    const result: Record<string, Record<string, number>> = {};
    for (const [name, q] of Object.entries(queues)) result[name] = await q.getJobCounts(...PENDING_STATES, 'completed', 'failed');
    return result;
  };

  return {
    registers,
    queues,
    enqueue: (register, key, payload) => adderOf(register).enqueue(key, payload),
    enqueueMany: (register, key, payloads) => adderOf(register).enqueueMany(key, payloads),
    counts,
    drained: async (pollMs = 200, stop?: AbortSignal) => {
      while (!stop?.aborted) {
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
      for (const close of closers) close();
    },
  };
}
