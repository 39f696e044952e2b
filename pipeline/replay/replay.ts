// Replay: runs the real ingestion pipeline for the named registers until the queues drain, and
// summarises what the database holds afterwards. In `fixtures` mode each register's fake serves its
// part of a fixture directory; in `live` mode the configured upstreams are crawled. Operators use it
// to load the bundled corpus or to catch up from a register, tests with injected faults, benchmarks
// with synthetic corpora.
import { resolve } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../runtime/config.js';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { safeChangeBound } from '../../runtime/changeLog.js';
import type { UpstreamAuthenticationError } from '../jobs/errors.js';
import { workId } from '../jobs/runJob.js';
import { PENDING_STATES, startPipeline, upstreamOf } from '../pipelineWorker.js';
import { assertReachable } from '../upstream/reachable.js';
import type { AnyRegister, FakeUpstream, FaultRates, JobTable, UpstreamSettings } from '../register.js';
import { REGISTERS } from '../registers.js';

/** The corpus shipped with the project (fixtures/corpus, layout in its README). */
export const BUNDLED_CORPUS = resolve(import.meta.dirname, '../../fixtures/corpus');

export interface FailedJob {
  source: string;
  job: string;
  id: string | undefined;
  reason: string;
}

/** What this run fetched, stored, changed and failed (not what the database held before). */
export interface ReplaySummary {
  companies: number;
  persons: number;
  filings: number;
  figures: number;
  changes: number;
  failures: number;
  durationMs: number;
  /** Per register: jobs completed, retried (a transport fault or a 429) and failed in this run, and what the database holds of it. */
  sources: Record<string, Record<string, number>>;
  failed: FailedJob[];
}

export interface ReplayOptions {
  sql: Sql;
  redisUrl: string;
  log: Logger;
  /** Registers to replay (default: every one of registers.ts that has fixtures, or all of them live). */
  registers?: readonly AnyRegister[];
  mode?: 'fixtures' | 'live';
  /** Fixture directory of `fixtures` mode (default the bundled corpus). */
  fixturesDir?: string;
  /** Read once by the entry point: live upstreams and their credentials. */
  config?: Config;
  /** Per register: settings that replace the configured ones (in fixtures mode: an already running fake). */
  upstreams?: Record<string, Partial<UpstreamSettings>>;
  /** The change window (yyyy-mm-dd, inclusive); unset, each register's default. */
  from?: string;
  to?: string;
  /** Walk whole registers instead of change windows. */
  backfill?: boolean;
  faults?: FaultRates;
  concurrency?: number;
  ratePerSecond?: number;
  /** Client timeout; short when timeouts are injected so a replay does not wait minutes. */
  timeoutMs?: number;
  backoffDelayMs?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Keep the queues as they are (a restarted run continues a killed one) instead of clearing them. */
  resume?: boolean;
  /** Redis key prefix of the replay's queues, kept apart from a running service's. */
  prefix?: string;
  onProgress?: (progress: { done: number; failed: number; pending: number }) => void;
}

async function clearQueues(redisUrl: string, prefix: string, registers: readonly AnyRegister[]): Promise<void> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  try {
    for (const register of registers) {
      const q = new Queue(register.name, { connection, prefix });
      await q.obliterate({ force: true });
      await q.close();
    }
  } finally {
    connection.disconnect();
  }
}

/** The summary's headline counts: what the run's registers report under these names, added up. */
function runTotals(sources: Record<string, Record<string, number>>) {
  const total = (name: string) => Object.values(sources).reduce((sum, counts) => sum + (counts[name] ?? 0), 0);
  return { companies: total('companies'), persons: total('persons'), filings: total('filings'), figures: total('figures') };
}

/** The registers a fixtures replay covers: those with data in the directory. */
async function withFixtures(registers: readonly AnyRegister[], dir: string): Promise<AnyRegister[]> {
  const has = await Promise.all(registers.map((r) => r.replay.hasFixtures(dir)));
  return registers.filter((_, i) => has[i]);
}

export async function replay(options: ReplayOptions): Promise<ReplaySummary> {
  const started = performance.now();
  const mode = options.mode ?? 'fixtures';
  const fixturesDir = options.fixturesDir ?? BUNDLED_CORPUS;
  const named = options.registers ?? REGISTERS;
  const registers = mode === 'fixtures' ? await withFixtures(named, fixturesDir) : [...named];
  const prefix = options.prefix ?? 'replay';
  // Each replay starts from empty queues so its counts are its own; its data is in the fixtures.
  if (!options.resume) await clearQueues(options.redisUrl, prefix, registers);

  const fakes: FakeUpstream[] = [];
  const upstreams: Record<string, Partial<UpstreamSettings>> = {};
  try {
    for (const register of registers) {
      const given = options.upstreams?.[register.name];
      const settings: Partial<UpstreamSettings> = { ratePerSecond: options.ratePerSecond ?? (mode === 'fixtures' ? 1000 : undefined), timeoutMs: options.timeoutMs, ...given };
      if (mode === 'fixtures' && !given?.baseUrl) {
        if (!register.fake) throw new Error(`register ${register.name} has fixtures but no fake upstream to serve them`);
        const fake = await register.fake({ fixturesDir, faults: options.faults, credentials: given?.credentials });
        fakes.push(fake);
        settings.baseUrl = fake.url;
      }
      upstreams[register.name] = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
    }
    for (const register of registers) {
      const { baseUrl } = upstreamOf(register, options.config ?? loadConfig({}), upstreams[register.name]);
      await assertReachable(register.name, baseUrl);
    }
    return await run(options, { mode, fixturesDir, registers, prefix, upstreams, started });
  } finally {
    for (const fake of fakes) await fake.close();
  }
}

interface RunPlan {
  mode: 'fixtures' | 'live';
  fixturesDir: string;
  registers: AnyRegister[];
  prefix: string;
  upstreams: Record<string, Partial<UpstreamSettings>>;
  started: number;
}

async function run(options: ReplayOptions, plan: RunPlan): Promise<ReplaySummary> {
  const changesBefore = await safeChangeBound(options.sql);
  const jobs = new Map(plan.registers.map((r) => [r.name, { completed: 0, retried: 0, payloads: new Map<string, unknown[]>() }]));
  // A refused login ends the replay with its reason: pausing the queue, as the service does, would
  // leave it waiting for an operator.
  const refused = new AbortController();
  let refusal: UpstreamAuthenticationError | null = null;
  const pipeline = await startPipeline({
    onAuthenticationError: (err) => {
      refusal ??= err;
      refused.abort();
    },
    sql: options.sql,
    redisUrl: options.redisUrl,
    log: options.log,
    registers: plan.registers,
    config: options.config,
    upstreams: plan.upstreams,
    concurrency: options.concurrency ?? 8,
    backoffDelayMs: options.backoffDelayMs ?? 200,
    lockDurationMs: options.lockDurationMs,
    stalledIntervalMs: options.stalledIntervalMs,
    prefix: plan.prefix,
    onOutcome: (e) => {
      const counter = jobs.get(e.register);
      if (counter && e.outcome === 'completed') {
        counter.completed++;
        const list = counter.payloads.get(e.job) ?? [];
        list.push(e.payload);
        counter.payloads.set(e.job, list);
      }
      if (counter && (e.outcome === 'retry' || e.outcome === 'throttled')) counter.retried++;
    },
  });

  try {
    const start = (register: AnyRegister) => register.replay.start({
      mode: plan.mode, fixturesDir: plan.fixturesDir, from: options.from, to: options.to, backfill: options.backfill ?? false,
      enqueue: (key, payload) => pipeline.enqueue(register, key, payload),
      enqueueMany: (key, payloads) => pipeline.enqueueMany(register, key, payloads),
    });
    for (const register of plan.registers.filter((r) => !r.replay.afterOthers)) await start(register);
    const progress = async () => {
      const counts = await pipeline.counts();
      const pending = Object.values(counts).reduce((sum, c) => sum + PENDING_STATES.reduce((s, st) => s + (c[st] ?? 0), 0), 0);
      const done = [...jobs.values()].reduce((s, c) => s + c.completed, 0);
      const failedNow = Object.values(counts).reduce((s, c) => s + (c.failed ?? 0), 0);
      options.onProgress?.({ done, failed: failedNow, pending });
    };
    const ticker = setInterval(() => void progress(), 500);
    try {
      await pipeline.drained(200, refused.signal);
      // Registers that follow the change log start once the others have stored what they crawled.
      const followers = refusal ? [] : plan.registers.filter((r) => r.replay.afterOthers);
      for (const register of followers) await start(register);
      if (followers.length > 0) await pipeline.drained(200, refused.signal);
    } finally {
      clearInterval(ticker);
    }
    if (refusal) throw refusal;
    const failed: FailedJob[] = [];
    const sources: Record<string, Record<string, number>> = {};
    for (const register of plan.registers) {
      const failedJobs = await pipeline.queues[register.name]!.getFailed(0, 1000);
      failed.push(...failedJobs.map((j) => ({ source: register.name, job: j.name, id: workId(j), reason: j.failedReason })));
      const counter = jobs.get(register.name)!;
      const run = Object.fromEntries(Object.entries(register.jobs as JobTable).map(([key, def]) => [key, counter.payloads.get(def.name) ?? []]));
      sources[register.name] = { jobsCompleted: counter.completed, jobsRetried: counter.retried, jobsFailed: failedJobs.length, ...(await register.replay.counts(options.sql, run)) };
    }
    const totals = runTotals(sources);
    const [changes] = await options.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log WHERE id >= ${changesBefore}`;
    await progress();
    return {
      ...totals,
      changes: changes!.n,
      failures: failed.length,
      durationMs: Math.round(performance.now() - plan.started),
      sources,
      failed,
    };
  } finally {
    await pipeline.close();
  }
}
