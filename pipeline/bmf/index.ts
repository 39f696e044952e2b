// The finance ministry's list of bogus companies (Liste der Scheinunternehmen, § 8 SBBG) as a pipeline
// register: one daily poll that downloads the list, applies a new version by diff (with its safety
// valve) and links its listings to companies; a replay walks the list versions of its fixtures.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sql } from '../../runtime/db.js';
import { defineRegister } from '../register.js';
import { MiB } from '../upstream/bodyLimit.js';
import { bmfHandlers } from './bmfJobs.js';
import { BMF_JOBS } from './jobs.js';
import { LsuClient } from './lsuClient.js';

/** Where a fixture directory keeps its list versions: `bmf/lists/*.csv`, served in name order. */
const listsDir = (fixturesDir: string) => join(fixturesDir, 'bmf', 'lists');

async function counts(sql: Sql): Promise<Record<string, number>> {
  const [row] = await sql<{ bogusListings: number; bogusListingsLinked: number; bogusListingsRemoved: number }[]>`
    SELECT count(*) FILTER (WHERE removed_at IS NULL)::int AS bogus_listings,
           count(*) FILTER (WHERE removed_at IS NULL AND fnr IS NOT NULL)::int AS bogus_listings_linked,
           count(*) FILTER (WHERE removed_at IS NOT NULL)::int AS bogus_listings_removed
      FROM bogus_company_listing`;
  return { ...row! };
}

export const bmf = defineRegister({
  name: 'bmf',
  jobs: BMF_JOBS,
  // One request a day: no rate to speak of.
  upstream: (config) => ({
    baseUrl: config.BMF_LSU_URL, ratePerSecond: 1, timeoutMs: config.BMF_LSU_TIMEOUT_MS,
    maxBodyBytes: { records: config.BMF_LSU_MAX_BODY_MB * MiB, documents: config.BMF_LSU_MAX_BODY_MB * MiB },
  }),
  handlers: ({ sql, log, enqueue, upstream, onUpstreamRequest, onRun }) => {
    const client = new LsuClient({ url: upstream.baseUrl, timeoutMs: upstream.timeoutMs, maxBodyBytes: upstream.maxBodyBytes?.records, onRequest: onUpstreamRequest });
    return { handlers: bmfHandlers({ sql, client, enqueue, log, onRun }) };
  },
  schedules: (config) => [{ id: 'bmf.poll', everyMs: Math.round(config.BMF_LSU_POLL_HOURS * 3_600_000), job: 'poll', data: {} }],
  replay: {
    hasFixtures: (dir) => access(listsDir(dir)).then(() => true, () => false),
    // Listings are linked to the companies the other registers stored: the list is applied after them.
    afterOthers: true,
    // Live: the list as it is now. Fixtures: every version, one poll after the other (the fake serves them in order).
    start: async ({ mode, fixturesDir, enqueue }) => {
      if (mode === 'live') return enqueue('poll', {});
      const { listFiles } = await import('./fake/fakeLsu.js');
      const versions = (await listFiles(listsDir(fixturesDir))).length;
      await enqueue('poll', { again: Math.max(0, versions - 1) });
    },
    counts,
  },
  fake: async ({ fixturesDir, faults }) => {
    const { startFakeLsu } = await import('./fake/fakeLsu.js');
    return startFakeLsu({ lists: listsDir(fixturesDir), faults });
  },
});
