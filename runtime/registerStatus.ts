// Freshness per register, shared by the processes: the pipeline records each crawl run it hears
// of, the API answers GET /api/v1/status from it and /metrics exports it.
import type { Queue } from 'bullmq';
import { Gauge, type Registry } from 'prom-client';
import type { Sql } from './db.js';
import type { RegisterRunEvent } from './metrics.js';

export interface RegisterStatus {
  register: string;
  lastSuccessAt: string | null;
  watermark: string | null;
  /** Seconds from the watermark (a date: the end of that day, UTC) to now; null without one. */
  lagSeconds: number | null;
  lastRefusal: { at: string; reason: string } | null;
  /** Null where this process has no view of the queues. */
  queue: { waiting: number; failed: number } | null;
}

export async function recordRegisterRun(sql: Sql, event: RegisterRunEvent): Promise<void> {
  if (event.outcome === 'refused') {
    await sql`
      INSERT INTO register_status (register, last_refusal_at, last_refusal) VALUES (${event.register}, now(), ${event.reason})
      ON CONFLICT (register) DO UPDATE SET last_refusal_at = now(), last_refusal = EXCLUDED.last_refusal, updated_at = now()`;
    return;
  }
  const watermark = event.watermark ?? null;
  await sql`
    INSERT INTO register_status (register, last_success_at, watermark) VALUES (${event.register}, now(), ${watermark})
    ON CONFLICT (register) DO UPDATE SET
      last_success_at = now(),
      watermark = CASE WHEN EXCLUDED.watermark IS NULL THEN register_status.watermark
                       ELSE greatest(register_status.watermark, EXCLUDED.watermark) END,
      updated_at = now()`;
}

function lagSeconds(watermark: string | null, now: number): number | null {
  if (!watermark) return null;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(watermark) ? Date.parse(`${watermark}T00:00:00Z`) + 86_400_000 : Date.parse(watermark);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((now - at) / 1000));
}

/** Every register the database or the given queues know, in name order. */
export async function readRegisterStatus(sql: Sql, queues: Queue[] = [], now = Date.now()): Promise<RegisterStatus[]> {
  const rows = await sql<{ register: string; lastSuccessAt: Date | null; watermark: string | null; lastRefusalAt: Date | null; lastRefusal: string | null }[]>`
    SELECT register, last_success_at, watermark, last_refusal_at, last_refusal FROM register_status`;
  const byName = new Map(rows.map((r) => [r.register, r]));
  const queueByName = new Map(queues.map((q) => [q.name, q]));
  const names = [...new Set([...byName.keys(), ...queueByName.keys()])].sort();
  return Promise.all(names.map(async (register) => {
    const row = byName.get(register);
    const queue = queueByName.get(register);
    const counts = queue ? await queue.getJobCounts('waiting', 'failed') : null;
    return {
      register,
      lastSuccessAt: row?.lastSuccessAt?.toISOString() ?? null,
      watermark: row?.watermark ?? null,
      lagSeconds: lagSeconds(row?.watermark ?? null, now),
      lastRefusal: row?.lastRefusalAt ? { at: row.lastRefusalAt.toISOString(), reason: row.lastRefusal ?? '' } : null,
      queue: counts ? { waiting: counts.waiting ?? 0, failed: counts.failed ?? 0 } : null,
    };
  }));
}

/** /metrics: each register's last success and watermark lag, read from Postgres at every scrape. */
export function registerFreshnessMetrics(registry: Registry, sql: Sql): void {
  let latest: Promise<RegisterStatus[]> | null = null;
  // One read serves both gauges of a scrape.
  const read = () => (latest ??= readRegisterStatus(sql).finally(() => setTimeout(() => (latest = null), 100)));
  new Gauge({
    name: 'register_last_success_timestamp_seconds', help: 'When the register\'s crawl last succeeded (any process)', labelNames: ['register'], registers: [registry],
    async collect() {
      this.reset();
      for (const s of await read()) if (s.lastSuccessAt) this.set({ register: s.register }, Date.parse(s.lastSuccessAt) / 1000);
    },
  });
  new Gauge({
    name: 'register_watermark_lag_seconds', help: 'How far the register\'s watermark is behind now', labelNames: ['register'], registers: [registry],
    async collect() {
      this.reset();
      for (const s of await read()) if (s.lagSeconds !== null) this.set({ register: s.register }, s.lagSeconds);
    },
  });
}
