// The BMF poll through the real pipeline (fake BMF -> BullMQ -> Postgres): both list versions walked
// through injected 401s, 429s, 500s, timeouts, truncated and cut-off bodies; an unchanged list that
// costs a 304 and writes nothing; a list cut off on every attempt and a 60 %-shorter list, both refused
// with the reason kept on the job, in crawl_state and in /metrics, and nothing removed.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bmf } from '../../pipeline/bmf/index.js';
import { startFakeLsu, type FakeLsu } from '../../pipeline/bmf/fake/fakeLsu.js';
import { listingsOf, parseLsuList } from '../../pipeline/bmf/lsuParser.js';
import { startPipeline, type Pipeline } from '../../pipeline/pipelineWorker.js';
import { BUNDLED_CORPUS, replay } from '../../pipeline/replay/replay.js';
import type { FaultRates } from '../../pipeline/register.js';
import { createLogger } from '../../runtime/logger.js';
import { createMetrics, type ServiceMetrics } from '../../runtime/metrics.js';
import { readRegisterStatus } from '../../runtime/registerStatus.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const LISTS = new URL('../../fixtures/corpus/bmf/lists/', import.meta.url).pathname;
const V2 = readFileSync(`${LISTS}02-stand-2026-10-15.csv`);
const log = createLogger('silent');

let db: TestDatabase;
let metrics: ServiceMetrics;

/** Runs one poll against a fake serving `lists` until the queue is empty; returns the failed jobs. */
async function poll(lists: string | Buffer[], payload: { again?: number } = {}, faults?: FaultRates) {
  const fake: FakeLsu = await startFakeLsu({ lists, faults });
  const pipeline: Pipeline = await startPipeline({
    sql: db.sql, redisUrl: inject('redisUrl'), log, registers: [bmf], concurrency: 2, prefix: `bmf-${randomBytes(4).toString('hex')}`,
    upstreams: { bmf: { baseUrl: fake.url, timeoutMs: 400 } }, backoffDelayMs: 10, onRegisterRun: metrics.registerRun,
  });
  try {
    await pipeline.enqueue(bmf, 'poll', payload);
    await pipeline.drained(50);
    const failed = await pipeline.queues.bmf!.getFailed();
    return { fake, failed };
  } finally {
    for (const q of Object.values(pipeline.queues)) await q.obliterate({ force: true });
    await pipeline.close();
    await fake.close();
  }
}

async function state() {
  const listings = await db.sql`SELECT listing_key, fnr, removed_at FROM bogus_company_listing ORDER BY listing_key`;
  const [crawl] = await db.sql<{ watermark: string; state: Record<string, unknown> }[]>`SELECT watermark, state FROM crawl_state WHERE source = 'bmf-lsu'`;
  const [log] = await db.sql<{ changes: number }[]>`SELECT count(*)::int AS changes FROM change_log`;
  return { listings, version: crawl?.watermark, changes: log!.changes };
}

const metric = async (name: string) => (await metrics.registry.metrics()).split('\n').filter((l) => l.startsWith(name));

beforeAll(async () => {
  db = await createTestDatabase();
  metrics = createMetrics();
});
afterAll(() => db.drop());

describe('BMF poll', () => {
  it('walks both list versions through every kind of transport fault', async () => {
    // Seed 386 draws each of the six kinds before the first list gets through (on its 7th attempt).
    const faults = { seed: 386, rate401: 0.12, rate429: 0.12, retryAfterSeconds: 1, rate500: 0.12, rateTimeout: 0.12, timeoutMs: 1000, rateTruncated: 0.12, rateCutOff: 0.12 };
    const { fake, failed } = await poll(LISTS, { again: 1 }, faults);
    expect(failed).toEqual([]);
    expect(fake.stats.delivered).toBe(2);
    expect(Object.keys(fake.stats.faults).sort()).toEqual(['401', '429', '500', 'cutoff', 'timeout', 'truncated']);
    const now = await state();
    expect(now.version).toBe('2026-10-15T06:00:02');
    expect(now.listings.filter((l) => l.removedAt === null)).toHaveLength(32);
    expect(now.listings.filter((l) => l.removedAt !== null).map((l) => l.listingKey)).toEqual(['fn:73210m']);

    expect(await metric('pipeline_register_items_fetched_total{register="bmf"}')).toEqual(['pipeline_register_items_fetched_total{register="bmf"} 63']);
    // Every current listing whose FN has a fitting check letter (no company is stored: no name links).
    const withFn = listingsOf(parseLsuList(new TextDecoder('windows-1252').decode(V2))).filter((l) => l.fnrCheckLetterValid).length;
    expect(withFn).toBeGreaterThan(10);
    expect(await metric('pipeline_register_links{register="bmf",evidence="register-fn"}')).toEqual([`pipeline_register_links{register="bmf",evidence="register-fn"} ${withFn}`]);
    const [lastSuccess] = await metric('pipeline_register_last_success_timestamp_seconds{register="bmf"}');
    expect(Math.abs(Number(lastSuccess!.split(' ')[1]) - Date.now() / 1000)).toBeLessThan(60);
    // GET /api/v1/status: the list's watermark is its version (the Stand: footer), with its lag.
    await expect.poll(async () => (await readRegisterStatus(db.sql)).find((r) => r.register === 'bmf')?.watermark).toBe('2026-10-15T06:00:02');
    expect((await readRegisterStatus(db.sql)).find((r) => r.register === 'bmf')!.lagSeconds).toBeGreaterThan(0);
  }, 60_000);

  it('costs a 304 and writes nothing when the list has not changed', async () => {
    const before = await state();
    const { fake, failed } = await poll([V2]);
    expect(failed).toEqual([]);
    expect(fake.stats).toMatchObject({ notModified: 1, delivered: 0 });
    expect(await state()).toEqual(before);
  });

  it('refuses a list cut off on every attempt, keeps it on the job, and removes nothing', async () => {
    const before = await state();
    const { failed } = await poll([V2.subarray(0, 2000)], {}, { rateCutOff: 1 });
    expect(failed).toHaveLength(1);
    expect(failed[0]!.attemptsMade).toBe(8);
    expect(failed[0]!.failedReason).toMatch(/without its Stand: footer.*not applied after 8 attempts/);
    expect((failed[0]!.data as { rawInput?: string }).rawInput).toHaveLength(1000);
    expect(await state()).toEqual(before);
    const [crawl] = await db.sql<{ state: { lastRefusal: { reason: string } } }[]>`SELECT state FROM crawl_state WHERE source = 'bmf-lsu'`;
    expect(crawl!.state.lastRefusal.reason).toBe('no-footer');
    expect(await metric('pipeline_register_refused_total{register="bmf",reason="no-footer"}')).toEqual(['pipeline_register_refused_total{register="bmf",reason="no-footer"} 1']);
  }, 30_000);

  it('refuses a 60 %-shorter list at once, keeps it on the job, and removes nothing', async () => {
    const before = await state();
    const lines = V2.toString('latin1').split('\r\n').filter((l) => l !== '' && !l.startsWith('Stand:'));
    const kept = [lines[0]!, ...lines.slice(1, 1 + Math.floor((lines.length - 1) * 0.4))];
    const shorter = Buffer.from([...kept, '', 'Stand:  16.10.2026 06:00:03', ''].join('\r\n'), 'latin1');
    const { failed } = await poll([shorter]);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.attemptsMade).toBe(1);
    expect(failed[0]!.failedReason).toMatch(/would remove \d+ of 32 current listings/);
    expect((failed[0]!.data as { rawInput?: string }).rawInput).toContain('Stand:  16.10.2026 06:00:03');
    expect(await state()).toEqual(before);
    expect(await metric('pipeline_register_refused_total{register="bmf",reason="too-many-removals"}')).toHaveLength(1);
  });
});

describe('replay of the bundled corpus', () => {
  it('applies both list versions after the companies are stored, links them and counts bogusListings', async () => {
    const fresh = await createTestDatabase();
    try {
      const summary = await replay({ sql: fresh.sql, redisUrl: inject('redisUrl'), log, fixturesDir: BUNDLED_CORPUS, prefix: `bmf-replay-${randomBytes(4).toString('hex')}` });
      expect(summary.failed).toEqual([]);
      expect(summary.sources.bmf).toMatchObject({ bogusListings: 32, bogusListingsRemoved: 1, jobsFailed: 0 });
      const linked = await fresh.sql<{ fnr: string; evidence: string }[]>`
        SELECT fnr, link_evidence AS evidence FROM bogus_company_listing WHERE removed_at IS NULL AND fnr IN (SELECT fnr FROM company) ORDER BY fnr`;
      // Corpus companies on version 2: by FN, and the three listed without one by name + address.
      expect(linked).toEqual([
        { fnr: '124530h', evidence: 'register-fn' }, { fnr: '156207t', evidence: 'register-fn' }, { fnr: '421877h', evidence: 'register-fn' },
        { fnr: '455190y', evidence: 'name-address' }, { fnr: '512309x', evidence: 'name-address' }, { fnr: '584120a', evidence: 'name-address' },
        { fnr: '640215v', evidence: 'register-fn' }, { fnr: '667215z', evidence: 'register-fn' },
      ]);
    } finally {
      await fresh.drop();
    }
  }, 60_000);
});
