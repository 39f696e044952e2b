// Copies the monthly usage counters from Redis (where admission.ts counts them) to Postgres
// usage_counter, every few seconds and once more on graceful shutdown. There is never a database
// write per request.
//
// Durability: Redis holds each subject's absolute monthly total; Postgres receives that total with
// GREATEST, so a flush can be repeated or reordered without harm. If Redis loses its data (a crash
// without persistence), the counts since the last flush are lost, at most one flush interval. The
// month's usage hash carries a `__seeded` marker: a hash without it was created after such a loss,
// so before anything of that month is flushed, the Postgres totals are added back into Redis (once,
// guarded by HSETNX on the marker, even with several API processes). Until that happens (at most
// one interval), quota checks see only the counts since the loss.
import type { Redis } from 'ioredis';
import type { Logger } from '../../runtime/logger.js';
import type { Sql } from '../../runtime/db.js';
import type { Clock } from '../clock.js';
import { dirtyKey, lastUsedKey, USAGE_TTL_SECONDS, usageKey } from './admission.js';
import { monthKey, monthStartDate } from './calendar.js';
import { flushDailyUsage } from './dailyUsage.js';

export const DEFAULT_FLUSH_INTERVAL_MS = 5_000;
const SEEDED_FIELD = '__seeded';

// KEYS[1] usage hash; ARGV[1] ttl, then subject/value pairs from Postgres. Returns 1 when it seeded.
const SEED_SCRIPT = `
if redis.call('HSETNX', KEYS[1], '${SEEDED_FIELD}', '1') == 0 then return 0 end
for i = 2, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1])) end
return 1
`;

type SeedCommand = (usageHash: string, ttl: number, ...pairs: (string | number)[]) => Promise<number>;

export interface FlushResult {
  /** Subject-months written to Postgres. */
  counters: number;
  /** Months whose Redis counts were restored from Postgres first. */
  seeded: string[];
}

export interface UsageFlusher {
  /** Restores the current month from Postgres if Redis lost it; call before serving. */
  prepare(): Promise<void>;
  flushNow(): Promise<FlushResult>;
  start(): void;
  /** Stops the timer and writes what is left (graceful shutdown). */
  stop(): Promise<void>;
}

export interface UsageFlusherOptions {
  redis: Redis;
  sql: Sql;
  prefix: string;
  clock: Clock;
  log: Logger;
  intervalMs?: number;
}

interface CounterRow {
  subject: string;
  month: string;
  requests: number;
}

export function createUsageFlusher(options: UsageFlusherOptions): UsageFlusher {
  const { redis, sql, prefix, clock, log } = options;
  const intervalMs = options.intervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  if (!(redis as unknown as { apiSeedUsage?: SeedCommand }).apiSeedUsage) {
    redis.defineCommand('apiSeedUsage', { numberOfKeys: 1, lua: SEED_SCRIPT });
  }
  const seedCommand = (redis as unknown as { apiSeedUsage: SeedCommand }).apiSeedUsage.bind(redis);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<FlushResult> | undefined;

  /** Adds the Postgres totals of a month into a Redis hash that has lost them. */
  async function seedMonth(month: string): Promise<boolean> {
    const stored = await sql<{ subject: string; requests: number }[]>`
      SELECT subject, requests FROM usage_counter WHERE month = ${monthStartDate(month)} AND requests > 0`;
    const pairs = stored.flatMap((r) => [r.subject, r.requests]);
    const seeded = (await seedCommand(usageKey(prefix, month), USAGE_TTL_SECONDS, ...pairs)) === 1;
    if (seeded && stored.length > 0) log.warn({ month, subjects: stored.length }, 'usage counters restored from Postgres after a Redis data loss');
    return seeded;
  }

  async function ensureSeeded(month: string, seeded: string[]): Promise<void> {
    if ((await redis.hexists(usageKey(prefix, month), SEEDED_FIELD)) === 1) return;
    if (await seedMonth(month)) seeded.push(month);
  }

  /** Takes the set of counters touched since the last flush, atomically, so none is taken twice. */
  async function takeDirty(): Promise<string[]> {
    const results = await redis.multi().smembers(dirtyKey(prefix)).del(dirtyKey(prefix)).exec();
    return (results?.[0]?.[1] as string[] | undefined) ?? [];
  }

  async function readCounters(members: string[], seeded: string[]): Promise<CounterRow[]> {
    const byMonth = new Map<string, string[]>();
    for (const member of members) {
      const split = member.indexOf('|');
      const month = member.slice(0, split);
      byMonth.set(month, [...(byMonth.get(month) ?? []), member.slice(split + 1)]);
    }
    const rows: CounterRow[] = [];
    for (const [month, subjects] of byMonth) {
      // Never write totals of a month that lost its Postgres share: restore it first.
      await ensureSeeded(month, seeded);
      const values = await redis.hmget(usageKey(prefix, month), ...subjects);
      subjects.forEach((subject, i) => {
        const requests = Number(values[i] ?? 0);
        if (requests > 0) rows.push({ subject, month: monthStartDate(month), requests });
      });
    }
    return rows;
  }

  async function writeCounters(rows: CounterRow[]): Promise<void> {
    if (rows.length === 0) return;
    await sql`
      INSERT INTO usage_counter (subject, month, requests, updated_at)
      SELECT subject, month::date, requests, now()
        FROM unnest(${rows.map((r) => r.subject)}::text[], ${rows.map((r) => r.month)}::text[], ${rows.map((r) => r.requests)}::bigint[])
             AS t(subject, month, requests)
      ON CONFLICT (subject, month) DO UPDATE
         SET requests = GREATEST(usage_counter.requests, EXCLUDED.requests), updated_at = now()`;
  }

  async function flushLastUsed(): Promise<void> {
    const results = await redis.multi().hgetall(lastUsedKey(prefix)).del(lastUsedKey(prefix)).exec();
    const lastUsed = (results?.[0]?.[1] as Record<string, string> | undefined) ?? {};
    const ids = Object.keys(lastUsed);
    if (ids.length === 0) return;
    try {
      await sql`
        UPDATE api_key k SET last_used_at = GREATEST(k.last_used_at, to_timestamp(t.ms / 1000.0))
          FROM unnest(${ids}::uuid[], ${ids.map((id) => Number(lastUsed[id]))}::float8[]) AS t(id, ms)
         WHERE k.id = t.id`;
    } catch (err) {
      await redis.hset(lastUsedKey(prefix), lastUsed);
      throw err;
    }
  }

  async function flush(): Promise<FlushResult> {
    const seeded: string[] = [];
    await ensureSeeded(monthKey(clock()), seeded);
    const members = await takeDirty();
    try {
      const rows = await readCounters(members, seeded);
      await writeCounters(rows);
      await flushLastUsed();
      await flushDailyUsage(redis, sql, prefix);
      return { counters: rows.length, seeded };
    } catch (err) {
      // Put the counters back so the next flush writes them; totals are absolute, so nothing doubles.
      if (members.length > 0) await redis.sadd(dirtyKey(prefix), ...members);
      throw err;
    }
  }

  /** One flush at a time: a tick that finds one running waits for it and then runs its own. */
  async function flushNow(): Promise<FlushResult> {
    while (running) await running.catch(() => undefined);
    running = flush();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  return {
    async prepare() {
      await ensureSeeded(monthKey(clock()), []);
    },
    flushNow,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        flushNow().catch((err: unknown) => log.error({ err }, 'usage flush failed; retrying at the next interval'));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flushNow();
    },
  };
}
