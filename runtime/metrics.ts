// Prometheus metrics shared by the processes: queue depth, job outcomes and durations, upstream
// latency and 429s. One registry per process; /metrics on the API serves it.
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { readFanOuts } from './fanOutProgress.js';

/**
 * What a register reports of one crawl run: a success, with the items it fetched and (when it links
 * records to companies) its current links by evidence; or input it refused to apply (`reason` is a
 * short code, a metric label).
 */
export type RegisterRunEvent =
  | { register: string; outcome: 'success'; itemsFetched: number; linksByEvidence?: Record<string, number>; watermark?: string }
  | { register: string; outcome: 'refused'; reason: string };

export interface ServiceMetrics {
  registry: Registry;
  jobOutcome: (e: { register: string; job: string; outcome: 'completed' | 'failed' | 'retry' | 'throttled' | 'deferred'; durationMs: number }) => void;
  upstreamRequest: (e: { upstream: string; operation: string; status: number | 'error'; durationMs: number }) => void;
  registerRun: (e: RegisterRunEvent) => void;
  /** Queues whose depth, and unfinished fan-outs (change windows enqueueing their work), are read at every scrape. */
  watchQueues: (queues: Queue[]) => void;
  /** A gauge read at every scrape (the indexer registers its lag here). */
  gauge: (name: string, help: string, read: () => Promise<number>) => void;
}

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed'] as const;

export function createMetrics(): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const jobs = new Counter({ name: 'pipeline_jobs_total', help: 'Job runs by register, job and outcome (completed, failed, retry, throttled, deferred)', labelNames: ['register', 'job', 'outcome'], registers: [registry] });
  const jobSeconds = new Histogram({
    name: 'pipeline_job_duration_seconds', help: 'Job run time', labelNames: ['job'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers: [registry],
  });
  const requests = new Counter({ name: 'upstream_requests_total', help: 'Upstream requests by HTTP status', labelNames: ['upstream', 'operation', 'status'], registers: [registry] });
  const throttled = new Counter({ name: 'upstream_throttled_total', help: 'Upstream 429 answers', labelNames: ['upstream'], registers: [registry] });
  const requestSeconds = new Histogram({
    name: 'upstream_request_duration_seconds', help: 'Upstream request latency', labelNames: ['upstream', 'operation'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60], registers: [registry],
  });
  const lastSuccess = new Gauge({ name: 'pipeline_register_last_success_timestamp_seconds', help: 'When a register last completed a crawl run (Unix seconds)', labelNames: ['register'], registers: [registry] });
  const fetched = new Counter({ name: 'pipeline_register_items_fetched_total', help: 'Items (records, list rows) a register fetched in successful runs', labelNames: ['register'], registers: [registry] });
  const links = new Gauge({ name: 'pipeline_register_links', help: 'Records linked to companies by evidence, as of the last successful run', labelNames: ['register', 'evidence'], registers: [registry] });
  const refused = new Counter({ name: 'pipeline_register_refused_total', help: 'Upstream input a register refused to apply, by reason', labelNames: ['register', 'reason'], registers: [registry] });
  const watched: Queue[] = [];
  new Gauge({
    name: 'queue_jobs', help: 'Jobs per queue and state', labelNames: ['queue', 'state'], registers: [registry],
    async collect() {
      this.reset();
      for (const q of watched) {
        const counts = await q.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) this.set({ queue: q.name, state }, counts[state] ?? 0);
      }
    },
  });
  new Gauge({
    name: 'pipeline_fanout_items',
    help: 'Fan-outs in progress (a change window enqueueing its companies in slices): items enqueued and in total, by register, job and window; a window leaves once all are enqueued',
    labelNames: ['register', 'job', 'window', 'state'], registers: [registry],
    async collect() {
      this.reset();
      for (const q of watched) {
        for (const f of await readFanOuts(q)) {
          this.set({ register: q.name, job: f.job, window: f.window, state: 'enqueued' }, f.enqueued);
          this.set({ register: q.name, job: f.job, window: f.window, state: 'total' }, f.total);
        }
      }
    },
  });
  return {
    registry,
    jobOutcome: (e) => {
      jobs.inc({ register: e.register, job: e.job, outcome: e.outcome });
      jobSeconds.observe({ job: e.job }, e.durationMs / 1000);
    },
    upstreamRequest: (e) => {
      requests.inc({ upstream: e.upstream, operation: e.operation, status: String(e.status) });
      if (e.status === 429) throttled.inc({ upstream: e.upstream });
      requestSeconds.observe({ upstream: e.upstream, operation: e.operation }, e.durationMs / 1000);
    },
    registerRun: (e) => {
      if (e.outcome === 'refused') {
        refused.inc({ register: e.register, reason: e.reason });
        return;
      }
      lastSuccess.set({ register: e.register }, Date.now() / 1000);
      fetched.inc({ register: e.register }, e.itemsFetched);
      for (const [evidence, n] of Object.entries(e.linksByEvidence ?? {})) links.set({ register: e.register, evidence }, n);
    },
    watchQueues: (queues) => watched.push(...queues),
    gauge: (name, help, read) => {
      new Gauge({
        name, help, registers: [registry],
        async collect() {
          this.set(await read());
        },
      });
    },
  };
}
