// Replay: runs the real ingestion pipeline over a fixture directory (or a real upstream) until the
// queues drain, and summarises what the database holds afterwards. Operators use it to load the
// bundled corpus, tests use it with injected faults, benchmarks with synthetic corpora.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { safeChangeBound } from '../../runtime/changeLog.js';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { changeWindows } from '../firmenbuch/changeWindows.js';
import { startFakeFirmenbuch, type FaultOptions } from '../firmenbuch/fake/fakeUpstream.js';
import { QUEUES } from '../jobs/names.js';
import { startPipeline } from '../pipelineWorker.js';

/** The corpus shipped with the project (fixtures/corpus, layout in its README). */
export const BUNDLED_CORPUS = resolve(import.meta.dirname, '../../fixtures/corpus');

export interface ReplayManifest {
  firmenbuch: { changesFrom: string; changesTo: string };
}

export interface ReplaySummary {
  companies: number;
  persons: number;
  filings: number;
  figures: number;
  changes: number;
  failures: number;
  durationMs: number;
  failed: Array<{ job: string; id: string | undefined; reason: string }>;
}

export interface ReplayOptions {
  sql: Sql;
  redisUrl: string;
  log: Logger;
  fixturesDir: string;
  /** A real (or separately running) upstream base URL instead of the bundled fake. */
  upstreamUrl?: string;
  upstreamApiKey?: string;
  faults?: FaultOptions;
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

export async function readManifest(fixturesDir: string): Promise<ReplayManifest> {
  return JSON.parse(await readFile(join(fixturesDir, 'manifest.json'), 'utf8')) as ReplayManifest;
}

async function clearQueues(redisUrl: string, prefix: string): Promise<void> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  try {
    for (const name of Object.values(QUEUES)) {
      const q = new Queue(name, { connection, prefix });
      await q.obliterate({ force: true });
      await q.close();
    }
  } finally {
    connection.disconnect();
  }
}

async function databaseTotals(sql: Sql) {
  const [row] = await sql<{ companies: number; persons: number; filings: number; figures: number }[]>`
    SELECT (SELECT count(*)::int FROM company) AS companies,
           (SELECT count(*)::int FROM person) AS persons,
           (SELECT count(*)::int FROM annual_account) AS filings,
           (SELECT coalesce(sum((SELECT count(*) FROM jsonb_each(figures) WHERE value <> 'null'::jsonb)), 0)::int FROM annual_account) AS figures`;
  return row!;
}

export async function replay(options: ReplayOptions): Promise<ReplaySummary> {
  const started = performance.now();
  const manifest = await readManifest(options.fixturesDir);
  const prefix = options.prefix ?? 'replay';
  // Each replay starts from empty queues so its counts are its own; its data is in the fixtures.
  if (!options.resume) await clearQueues(options.redisUrl, prefix);

  const fake = options.upstreamUrl
    ? null
    : await startFakeFirmenbuch({ corpus: options.fixturesDir, port: 0, faults: options.faults, apiKey: options.upstreamApiKey });
  const baseUrl = options.upstreamUrl ?? fake!.url;
  const changesBefore = await safeChangeBound(options.sql);

  let done = 0;
  let failed = 0;
  const pipeline = await startPipeline({
    sql: options.sql,
    redisUrl: options.redisUrl,
    log: options.log,
    firmenbuch: { baseUrl, apiKey: options.upstreamApiKey, timeoutMs: options.timeoutMs ?? 30_000, ratePerSecond: options.ratePerSecond ?? 1000 },
    concurrency: options.concurrency ?? 8,
    backoffDelayMs: options.backoffDelayMs ?? 200,
    lockDurationMs: options.lockDurationMs,
    stalledIntervalMs: options.stalledIntervalMs,
    prefix,
    onOutcome: (e) => {
      if (e.outcome === 'completed') done++;
      if (e.outcome === 'failed') failed++;
    },
  });

  try {
    const { changesFrom, changesTo } = manifest.firmenbuch;
    for (const w of changeWindows(changesFrom, changesTo)) {
      await pipeline.enqueue('companyChanges', w);
      await pipeline.enqueue('documentChanges', w);
    }
    const ticker = setInterval(() => {
      void pipeline.counts().then((c) => {
        const q = c[QUEUES.firmenbuch]!;
        options.onProgress?.({ done, failed, pending: (q.waiting ?? 0) + (q.active ?? 0) + (q.delayed ?? 0) + (q.prioritized ?? 0) });
      });
    }, 500);
    try {
      await pipeline.drained();
    } finally {
      clearInterval(ticker);
    }
    const failedJobs = await pipeline.queues[QUEUES.firmenbuch]!.getFailed(0, 1000);
    const totals = await databaseTotals(options.sql);
    const [changes] = await options.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log WHERE id >= ${changesBefore}`;
    options.onProgress?.({ done, failed, pending: 0 });
    return {
      ...totals,
      changes: changes!.n,
      failures: failedJobs.length,
      durationMs: Math.round(performance.now() - started),
      failed: failedJobs.map((j) => ({ job: j.name, id: j.id, reason: j.failedReason })),
    };
  } finally {
    await pipeline.close();
    await fake?.close();
  }
}
