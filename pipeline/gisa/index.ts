// The trade register (GISA public interface V2) as a pipeline register: its queue and jobs, the
// handlers with their XML-style client under the key's quotas, the schedules (daily catalogue; every
// minute the change-log follower and the rolling re-check), how a replay starts it, and the fake.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sql } from '../../runtime/db.js';
import { defineRegister } from '../register.js';
import { MiB } from '../upstream/bodyLimit.js';
import { GisaClient } from './gisaClient.js';
import { gisaHandlers } from './gisaJobs.js';
import { GISA_JOBS } from './jobs.js';

const MINUTE = 60_000;
const today = () => new Date().toISOString().slice(0, 10);

/** Licences (and the lookups behind them) this run stored: of the companies and persons it looked up. */
async function counts(sql: Sql, run?: { company?: Array<{ fnr: string }>; recheckCompany?: Array<{ fnr: string }>; person?: Array<{ personId: string }> }): Promise<Record<string, number>> {
  if (!run) {
    const [all] = await sql<{ licenses: number }[]>`SELECT count(*)::int AS licenses FROM trade_license`;
    return { licenses: all!.licenses };
  }
  const fnrs = [...(run.company ?? []), ...(run.recheckCompany ?? [])].map((p) => p.fnr);
  const persons = (run.person ?? []).map((p) => p.personId);
  const [row] = await sql<{ licenses: number }[]>`
    SELECT count(*)::int AS licenses FROM trade_license WHERE fnr = ANY(${fnrs}) OR holder_person_id = ANY(${persons})`;
  return { licenses: row!.licenses, companiesLookedUp: new Set(fnrs).size, personsLookedUp: persons.length };
}

export const gisa = defineRegister({
  name: 'gisa',
  jobs: GISA_JOBS,
  upstream: (config) => ({
    baseUrl: config.GISA_URL,
    // Jobs may start briskly: the per-call quotas below are what bounds the calls.
    ratePerSecond: 50,
    timeoutMs: config.GISA_TIMEOUT_MS,
    maxBodyBytes: { records: config.GISA_MAX_BODY_MB * MiB, documents: config.GISA_MAX_EXTRACT_MB * MiB },
    credentials: { apiKey: config.GISA_API_KEY },
    quotas: {
      data: { max: config.GISA_DATA_CALLS_PER_MINUTE, windowMs: config.GISA_QUOTA_WINDOW_MS },
      extract: { max: config.GISA_EXTRACTS_PER_MINUTE, windowMs: config.GISA_QUOTA_WINDOW_MS },
    },
    tuning: { firstPollMs: config.GISA_EXTRACT_FIRST_POLL_MS, pollMs: config.GISA_EXTRACT_POLL_MS },
  }),
  handlers: ({ sql, log, enqueueMany, upstream, quota, onUpstreamRequest, onRun, fanOut }) => {
    const dataQuota = quota('data');
    const client = new GisaClient({
      baseUrl: upstream.baseUrl, apiKey: upstream.credentials?.apiKey, timeoutMs: upstream.timeoutMs,
      dataQuota, extractQuota: quota('extract'), onRequest: onUpstreamRequest,
      maxBodyBytes: upstream.maxBodyBytes?.records, maxExtractBytes: upstream.maxBodyBytes?.documents,
    });
    return { handlers: gisaHandlers({ sql, client, enqueueMany, log, dataQuota, fanOut, onRun, firstPollMs: upstream.tuning?.firstPollMs, pollMs: upstream.tuning?.pollMs, maxPollMs: upstream.tuning?.maxPollMs }) };
  },
  schedules: () => [
    { id: 'gisa.catalogue', everyMs: 24 * 60 * MINUTE, job: 'catalogue' as const, data: { day: 'daily' } },
    { id: 'gisa.follow', everyMs: MINUTE, job: 'follow' as const, data: {} as { after?: number } },
    { id: 'gisa.recheck', everyMs: MINUTE, job: 'recheck' as const, data: { minute: 'scheduled' } },
  ],
  replay: {
    hasFixtures: (dir) => access(join(dir, 'gisa')).then(() => true, () => false),
    // It follows the change log: the companies and persons the other registers stored in this run.
    afterOthers: true,
    start: async ({ enqueueMany }) => {
      await enqueueMany('catalogue', [{ day: today() }]);
      await enqueueMany('follow', [{}]);
    },
    counts,
  },
  fake: async ({ fixturesDir, faults, credentials }) => {
    // Loaded only when a replay serves fixtures: the fake is a test double.
    const { startFakeGisa } = await import('./fake/fakeGisa.js');
    return startFakeGisa({ fixturesDir, faults, apiKey: credentials?.apiKey });
  },
});
