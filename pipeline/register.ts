// What a register plugs into the pipeline with: its queue, its jobs (named, with payload schemas and
// deterministic ids), the handlers that work them, its schedules, how a replay starts it, and the
// fake upstream that serves its fixtures. pipeline/registers.ts lists the registers; the worker, the
// job runner, the scheduler, replay and the entry points iterate that list and know no register.
import type { Job } from 'bullmq';
import type { z } from 'zod';
import type { Config } from '../runtime/config.js';
import type { Sql } from '../runtime/db.js';
import type { Logger } from '../runtime/logger.js';
import type { CallQuota, QuotaLimit } from './jobs/callQuota.js';
import type { FanOutSupport } from './jobs/fanOut.js';
import type { RegisterRunEvent } from '../runtime/metrics.js';

/** One kind of job: a name unique across registers (`<register>.<job>`), its payload and its id rule. */
export interface JobDef<P = unknown> {
  name: string;
  payload: z.ZodType<P>;
  /** The same work enqueued twice (a repeated crawl, a replay) gets the same id, so it is one job. */
  jobId: (payload: P) => string;
  /** BullMQ priority (1 highest); jobs without one run before every prioritised job. */
  priority?: number;
}

// `any` here is the existential "some payload": each entry keeps its own type in `typeof JOBS`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JobTable = Record<string, JobDef<any>>;
export type PayloadOf<D extends JobDef<any>> = z.output<D['payload']>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type JobKey<J extends JobTable> = keyof J & string;

export type Handlers<J extends JobTable> = { [K in JobKey<J>]: (payload: PayloadOf<J[K]>, job: Job) => Promise<unknown> };
export type Enqueue<J extends JobTable> = <K extends JobKey<J>>(key: K, payload: PayloadOf<J[K]>) => Promise<void>;
/** Several jobs of one kind in one round trip to Redis (a change window fans out to hundreds). */
export type EnqueueMany<J extends JobTable> = <K extends JobKey<J>>(key: K, payloads: Array<PayloadOf<J[K]>>) => Promise<void>;

/** Where a register's upstream is and how hard the pipeline may call it. */
export interface UpstreamSettings {
  baseUrl: string;
  /** Requests (jobs started) per second for the register's queue, shared by every worker. */
  ratePerSecond: number;
  timeoutMs?: number;
  /** Largest answer accepted, in bytes: data answers, and document downloads (which are larger). */
  maxBodyBytes?: { records: number; documents: number };
  /** API keys, user names, passwords: whatever the upstream takes. */
  credentials?: Record<string, string | undefined>;
  /** Per-call quotas by name (GISA: `data`, `extract`), enforced across workers by RegisterDeps.quota. */
  quotas?: Record<string, QuotaLimit>;
  /** Register-specific timings (poll intervals), in milliseconds. */
  tuning?: Record<string, number>;
}

export interface UpstreamRequestEvent {
  operation: string;
  status: number | 'error';
  durationMs: number;
}

export interface RegisterDeps<J extends JobTable> {
  sql: Sql;
  log: Logger;
  enqueue: Enqueue<J>;
  enqueueMany: EnqueueMany<J>;
  upstream: UpstreamSettings;
  /** The named quota of upstream.quotas, shared in Redis by every worker of every process using the same key. */
  quota: (name: string) => CallQuota | undefined;
  onUpstreamRequest?: (event: UpstreamRequestEvent) => void;
  /** A crawl run's outcome for /metrics: last success, items fetched, links by evidence, refusals. */
  onRun?: (event: RegisterRunReport) => void;
  /** Backpressure and progress for jobs that fan out widely (pipeline/jobs/fanOut.ts). */
  fanOut?: FanOutSupport;
}

type WithoutRegister<E> = E extends unknown ? Omit<E, 'register'> : never;
/** RegisterRunEvent without the register's name (the pipeline adds it). */
export type RegisterRunReport = WithoutRegister<RegisterRunEvent>;

export interface RegisterRuntime<J extends JobTable> {
  handlers: Handlers<J>;
  /** Releases what the handlers hold (keep-alive connections). */
  close?: () => void;
}

/** A repeatable job: `npm start` keeps one scheduler per entry. */
export type Schedule<J extends JobTable> = { [K in JobKey<J>]: { id: string; everyMs: number; job: K; data: PayloadOf<J[K]> } }[JobKey<J>];

/** How a replay starts a register's crawl. */
export interface ReplayStart<J extends JobTable> {
  /** `fixtures`: the register's fake serves the fixture directory; `live`: the configured upstream. */
  mode: 'fixtures' | 'live';
  fixturesDir: string;
  /** The change window (inclusive dates); unset, the register's default (fixtures: their range; live: recent days). */
  from?: string;
  to?: string;
  /** Walk the whole register instead of a change window. */
  backfill: boolean;
  enqueue: Enqueue<J>;
  enqueueMany: EnqueueMany<J>;
}

/** The payloads of a replay's completed jobs, by job. */
export type ReplayRun<J extends JobTable> = { [K in JobKey<J>]?: Array<PayloadOf<J[K]>> };

export interface FakeUpstream {
  url: string;
  close: () => Promise<void>;
}

/** Transport faults a fake injects: probabilities per request, drawn in this order from one number. */
export interface FaultRates {
  /** Seed of the PRNG the faults are drawn from (default 1): the same seed and request order give the same faults. */
  seed?: number;
  rate429?: number;
  /** Retry-After of an injected 429 (default 1). */
  retryAfterSeconds?: number;
  rate500?: number;
  rateTimeout?: number;
  /** How long a timed-out request is held before the connection is closed without an answer (default 30000). */
  timeoutMs?: number;
  /** Full Content-Length, part of the body, then the connection drops. */
  rateTruncated?: number;
  /** HTTP 200 without Content-Length whose body ends cleanly part-way through the document. */
  rateCutOff?: number;
  /** HTTP 401: the upstream refuses the caller (drawn after the others). */
  rate401?: number;
}

export interface FakeOptions {
  fixturesDir: string;
  faults?: FaultRates;
  credentials?: Record<string, string | undefined>;
}

export interface Register<J extends JobTable = JobTable> {
  /** The source name (`--sources`), also the name of its queue. */
  name: string;
  jobs: J;
  upstream: (config: Config) => UpstreamSettings;
  handlers: (deps: RegisterDeps<J>) => RegisterRuntime<J>;
  schedules: (config: Config) => Array<Schedule<J>>;
  replay: {
    /** Whether `fixturesDir` holds data for this register. */
    hasFixtures: (fixturesDir: string) => Promise<boolean>;
    /** Start once the other registers' queues have drained: the register follows what they stored (the change log). */
    afterOthers?: boolean;
    start: (start: ReplayStart<J>) => Promise<void>;
    /** What this run fetched and stored, from the payloads of its completed jobs, for the replay summary. */
    counts: (sql: Sql, run: ReplayRun<J>) => Promise<Record<string, number>>;
  };
  fake?: (options: FakeOptions) => Promise<FakeUpstream>;
}

/** A register of any job table, as the list holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRegister = Register<any>;

/** Identity with the type checked: the module of a register ends in `export const x = defineRegister({...})`. */
export function defineRegister<J extends JobTable>(register: Register<J>): Register<J> {
  return register;
}
