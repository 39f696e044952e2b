// The company register (Firmenbuch HVD web services) as a pipeline register: its queue and jobs,
// the handlers with their SOAP client, the change-feed polls, how a replay starts it, and the fake.
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sql } from '../../runtime/db.js';
import { defineRegister, type ReplayRun } from '../register.js';
import { backfillRoots, BACKFILL_LEGAL_FORMS } from './backfill.js';
import { addDays, changeWindows } from './changeWindows.js';
import { MiB } from '../upstream/bodyLimit.js';
import { FirmenbuchClient } from './firmenbuchClient.js';
import { firmenbuchHandlers } from './firmenbuchJobs.js';
import { FIRMENBUCH_JOBS, type FirmenbuchJobs } from './jobs.js';

/** Days a live replay polls when no window is named: the last week, up to today. */
const LIVE_DAYS = 7;

async function manifestRange(fixturesDir: string): Promise<{ from: string; to: string }> {
  const manifest = JSON.parse(await readFile(join(fixturesDir, 'manifest.json'), 'utf8')) as { firmenbuch?: { changesFrom?: string; changesTo?: string } };
  const { changesFrom, changesTo } = manifest.firmenbuch ?? {};
  if (!changesFrom || !changesTo) throw new Error(`${fixturesDir}/manifest.json names no firmenbuch.changesFrom/changesTo`);
  return { from: changesFrom, to: changesTo };
}

/** What a run fetched: its companies with their persons, its filings with their figures. */
async function counts(sql: Sql, run: ReplayRun<FirmenbuchJobs>): Promise<Record<string, number>> {
  const fnrs = [...new Set((run.company ?? []).map((p) => p.fnr))];
  const keys = [...new Set((run.annualAccount ?? []).map((p) => p.documentKey))];
  const [row] = await sql<{ companies: number; persons: number; filings: number; figures: number }[]>`
    SELECT (SELECT count(*)::int FROM company WHERE fnr = ANY(${fnrs})) AS companies,
           (SELECT count(DISTINCT person_id)::int FROM company_party WHERE fnr = ANY(${fnrs}) AND person_id IS NOT NULL) AS persons,
           (SELECT count(*)::int FROM annual_account WHERE document_key = ANY(${keys})) AS filings,
           (SELECT coalesce(sum((SELECT count(*) FROM jsonb_each(figures) WHERE value <> 'null'::jsonb)), 0)::int
              FROM annual_account WHERE document_key = ANY(${keys})) AS figures`;
  return { ...row!, documents: keys.length };
}

export const firmenbuch = defineRegister({
  name: 'firmenbuch',
  jobs: FIRMENBUCH_JOBS,
  upstream: (config) => ({
    baseUrl: config.FIRMENBUCH_URL,
    ratePerSecond: config.FIRMENBUCH_RATE_PER_SECOND,
    timeoutMs: config.FIRMENBUCH_TIMEOUT_MS,
    maxBodyBytes: { records: config.FIRMENBUCH_MAX_BODY_MB * MiB, documents: config.FIRMENBUCH_MAX_DOCUMENT_MB * MiB },
    credentials: { apiKey: config.FIRMENBUCH_API_KEY },
  }),
  handlers: ({ sql, log, enqueue, enqueueMany, upstream, onUpstreamRequest, onRun, fanOut }) => {
    const client = new FirmenbuchClient({
      baseUrl: upstream.baseUrl, apiKey: upstream.credentials?.apiKey, timeoutMs: upstream.timeoutMs, onRequest: onUpstreamRequest,
      maxBodyBytes: upstream.maxBodyBytes?.records, maxDocumentBytes: upstream.maxBodyBytes?.documents,
    });
    return { handlers: firmenbuchHandlers({ sql, client, enqueue, enqueueMany, log, onRun, fanOut }), close: () => client.close() };
  },
  schedules: (config) => [
    { id: 'firmenbuch.poll.company', everyMs: config.FIRMENBUCH_COMPANY_POLL_MINUTES * 60_000, job: 'poll', data: { feed: 'company' as const } },
    { id: 'firmenbuch.poll.document', everyMs: config.FIRMENBUCH_DOCUMENT_POLL_MINUTES * 60_000, job: 'poll', data: { feed: 'document' as const } },
  ],
  replay: {
    hasFixtures: (dir) => access(join(dir, 'firmenbuch')).then(() => true, () => false),
    start: async ({ mode, fixturesDir, from, to, backfill, enqueueMany }) => {
      if (backfill) return enqueueMany('backfill', backfillRoots(BACKFILL_LEGAL_FORMS));
      const today = new Date().toISOString().slice(0, 10);
      const fallback = mode === 'fixtures' ? await manifestRange(fixturesDir) : { from: addDays(today, 1 - LIVE_DAYS), to: today };
      const windows = changeWindows(from ?? fallback.from, to ?? fallback.to);
      await enqueueMany('companyChanges', windows);
      await enqueueMany('documentChanges', windows);
    },
    counts,
  },
  fake: async ({ fixturesDir, faults, credentials }) => {
    // Loaded only when a replay serves fixtures: the fake and its corpus reader are test doubles.
    const { startFakeFirmenbuch } = await import('./fake/fakeUpstream.js');
    return startFakeFirmenbuch({ corpus: fixturesDir, port: 0, faults, apiKey: credentials?.apiKey });
  },
});
