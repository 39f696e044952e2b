// The Ediktsdatei (court notices of insolvency proceedings, IWG REST interface) as a pipeline register:
// its queue and jobs, the handlers with their IWG client, the schedules (the change recipe every
// EDIKTE_POLL_HOURS, re-linking every EDIKTE_RELINK_MINUTES), how a replay starts it (after the
// registers whose companies it links to), what it counts, and the fake IWG interface.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sql } from '../../runtime/db.js';
import { defineRegister } from '../register.js';
import { edikteHandlers } from './edikteJobs.js';
import { IwgClient } from './iwgClient.js';
import { EDIKTE_JOBS } from './jobs.js';

/** Where a fixture directory keeps the register (fixtures/corpus/edikte/README.md). */
const fixturesOf = (dir: string) => join(dir, 'edikte');

/** What a replay fetched: the notices its document jobs stored, how many are linked to a company, and the deletions. */
async function counts(sql: Sql, run?: { document?: Array<{ unid: string }> }): Promise<Record<string, number>> {
  const unids = run?.document?.map((d) => d.unid.toUpperCase()) ?? null;
  const [row] = await sql<{ notices: number; noticeLinks: number; noticeCandidates: number; noticesDeleted: number }[]>`
    SELECT count(*) FILTER (WHERE deleted_at IS NULL)::int AS notices,
           count(*) FILTER (WHERE deleted_at IS NULL AND fnr IS NOT NULL)::int AS notice_links,
           count(*) FILTER (WHERE deleted_at IS NULL AND fnr IS NULL AND link_candidates <> '[]')::int AS notice_candidates,
           count(*) FILTER (WHERE deleted_at IS NOT NULL)::int AS notices_deleted
      FROM court_notice
     WHERE ${unids === null ? sql`true` : sql`unid = ANY(${unids}::text[]) OR deleted_at IS NOT NULL`}`;
  return { ...row! };
}

export const edikte = defineRegister({
  name: 'edikte',
  jobs: EDIKTE_JOBS,
  upstream: (config) => ({
    baseUrl: config.EDIKTE_URL,
    ratePerSecond: config.EDIKTE_RATE_PER_SECOND,
    timeoutMs: config.EDIKTE_TIMEOUT_MS,
    credentials: { user: config.EDIKTE_USER, password: config.EDIKTE_PASSWORD },
  }),
  handlers: ({ sql, log, enqueue, enqueueMany, upstream, onUpstreamRequest, onRun }) => {
    const client = new IwgClient({
      baseUrl: upstream.baseUrl, user: upstream.credentials?.user, password: upstream.credentials?.password, timeoutMs: upstream.timeoutMs,
      log, onRequest: onUpstreamRequest,
    });
    return { handlers: edikteHandlers({ sql, client, enqueue, enqueueMany, log, onRun }), close: () => client.close() };
  },
  schedules: (config) => [
    { id: 'edikte.poll', everyMs: Math.round(config.EDIKTE_POLL_HOURS * 3_600_000), job: 'poll', data: {} },
    { id: 'edikte.relink', everyMs: Math.round(config.EDIKTE_RELINK_MINUTES * 60_000), job: 'relink', data: {} },
  ],
  replay: {
    hasFixtures: (dir) => access(join(fixturesOf(dir), 'documents')).then(() => true, () => false),
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
