// The Ediktsdatei (court notices of insolvency proceedings, IWG REST interface) as a pipeline register:
// its queue and jobs, the handlers with their IWG client, the schedules (the change recipe every
// EDIKTE_POLL_HOURS, re-linking every EDIKTE_RELINK_MINUTES), how a replay starts it (after the
// registers whose companies it links to), what it counts, and the fake IWG interface.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sql } from '../../runtime/db.js';
import { defineRegister } from '../register.js';
import { MiB } from '../upstream/bodyLimit.js';
import { edikteHandlers } from './edikteJobs.js';
import { IwgClient } from './iwgClient.js';
import { EDIKTE_JOBS } from './jobs.js';

/** Where a fixture directory keeps the register (fixtures/corpus/edikte/README.md). */
const fixturesOf = (dir: string) => join(dir, 'edikte');

/** When a run started, from its page jobs' run ids (`full-2026-11-25T11:31:05.123Z`, `All-2026-11-25T14:00:00.008Z`). */
function runStart(run?: { page?: Array<{ run: string }> }): Date | null {
  const starts = (run?.page ?? []).map((p) => /(\d{4}-\d{2}-\d{2}T[\d:.]+Z)$/.exec(p.run)?.[1]).filter((m): m is string => !!m).sort();
  return starts.length > 0 ? new Date(starts[0]!) : null;
}

/**
 * What a replay did: the notices it fetched (with content) and how many of them are linked to a
 * company, and the edicts it erased. Without the run's jobs: what the database holds.
 */
async function counts(sql: Sql, run?: { page?: Array<{ run: string }> }): Promise<Record<string, number>> {
  const since = run ? runStart(run) ?? new Date() : null;
  const [row] = await sql<{ notices: number; noticeLinks: number; noticeCandidates: number; noticesDeleted: number }[]>`
    SELECT count(*) FILTER (WHERE deleted_at IS NULL)::int AS notices,
           count(*) FILTER (WHERE deleted_at IS NULL AND fnr IS NOT NULL)::int AS notice_links,
           count(*) FILTER (WHERE deleted_at IS NULL AND fnr IS NULL AND link_candidates <> '[]')::int AS notice_candidates,
           count(*) FILTER (WHERE deleted_at IS NOT NULL)::int AS notices_deleted
      FROM court_notice
     WHERE ${since === null ? sql`true` : sql`(deleted_at IS NULL AND last_fetched_at >= ${since}) OR (deleted_at IS NOT NULL AND updated_at >= ${since})`}`;
  return { ...row! };
}

export const edikte = defineRegister({
  name: 'edikte',
  jobs: EDIKTE_JOBS,
  upstream: (config) => ({
    baseUrl: config.EDIKTE_URL,
    ratePerSecond: config.EDIKTE_RATE_PER_SECOND,
    timeoutMs: config.EDIKTE_TIMEOUT_MS,
    maxBodyBytes: { records: config.EDIKTE_MAX_BODY_MB * MiB, documents: config.EDIKTE_MAX_BODY_MB * MiB },
    credentials: { user: config.EDIKTE_USER, password: config.EDIKTE_PASSWORD },
  }),
  handlers: ({ sql, log, enqueue, enqueueMany, upstream, onUpstreamRequest, onRun }) => {
    const client = new IwgClient({
      baseUrl: upstream.baseUrl, user: upstream.credentials?.user, password: upstream.credentials?.password, timeoutMs: upstream.timeoutMs,
      ratePerSecond: upstream.ratePerSecond, onRequest: onUpstreamRequest, maxBodyBytes: upstream.maxBodyBytes?.records,
    });
    return { handlers: edikteHandlers({ sql, client, enqueue, enqueueMany, log, onRun }), close: () => client.close() };
  },
  schedules: (config) => [
    { id: 'edikte.poll', everyMs: Math.round(config.EDIKTE_POLL_HOURS * 3_600_000), job: 'poll', data: {} },
    { id: 'edikte.relink', everyMs: Math.round(config.EDIKTE_RELINK_MINUTES * 60_000), job: 'relink', data: {} },
  ],
  replay: {
    hasFixtures: async (dir) => {
      const present = (path: string) => access(path).then(() => true, () => false);
      return (await present(join(fixturesOf(dir), 'documents'))) || present(join(fixturesOf(dir), 'documents.ndjson'));
    },
    // Notices link to the companies the other registers stored: start once those are in.
    afterOthers: true,
    // The first replay pages through everything; a later one runs the change recipe (from --from when given).
    start: async ({ from, backfill, enqueue }) => enqueue('poll', { ...(backfill ? { full: true } : {}), ...(from ? { from } : {}) }),
    counts,
  },
  fake: async ({ fixturesDir, faults, credentials }) => {
    // Loaded only when a replay serves fixtures: the fake is a test double.
    const { startFakeIwg } = await import('./fake/fakeIwg.js');
    return startFakeIwg({ corpus: fixturesOf(fixturesDir), faults, credentials: { user: credentials?.user, password: credentials?.password } });
  },
});
