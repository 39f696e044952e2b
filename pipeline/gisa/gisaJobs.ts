// The GISA job handlers. Each lookup targets one company or one person (GISA forbids bulk listing),
// stores what it found in one transaction (licenceStore.ts) and is idempotent.
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import type { TradeLicence } from '../../schemas/tradeRecords.js';
import type { CallQuota } from '../jobs/callQuota.js';
import type { FanOutSupport } from '../jobs/fanOut.js';
import type { EnqueueMany, Handlers, RegisterRunReport } from '../register.js';
import { storeCatalogue } from './catalogue.js';
import { extractPollReserve, type GisaClient } from './gisaClient.js';
import { extractHandler } from './extractJob.js';
import { followHandler } from './follow.js';
import { GisaNotFoundError } from './gisaXml.js';
import type { GisaJobs } from './jobs.js';
import { markChecked, storeLicenceLookup } from './licenceStore.js';

export interface GisaJobDeps {
  sql: Sql;
  client: GisaClient;
  enqueueMany: EnqueueMany<GisaJobs>;
  log: Logger;
  dataQuota?: CallQuota;
  /** Backpressure and progress of the change-log follower's fan-out; without, it enqueues in slices only. */
  fanOut?: FanOutSupport;
  /** A follow run done: reported with the change-log position as watermark (follow.ts). */
  onRun?: (event: RegisterRunReport) => void;
  /** Extract polling: first status after this long, then every `pollMs` (GISA-V2: 2 s, then 10 s). */
  firstPollMs?: number;
  pollMs?: number;
}

/** Calls a re-checked company costs on average (the search plus its licences' details). */
const CALLS_PER_COMPANY = 2;
/** A company checked more recently than this is not re-checked yet. */
const RECHECK_MIN_AGE = '1 day';

const nameKey = (s: string | null) => (s ?? '').normalize('NFC').trim().toLowerCase();

type Hit = { gisaZahl: string; endedOn: string | null };

/** The hits worth a GetGewerbeV2: all but licences stored as ended that the hit still shows ended (they do not change). */
async function worthFetching(sql: Sql, hits: Hit[]): Promise<string[]> {
  const stored = new Map((await sql<Hit[]>`
    SELECT gisa_zahl, to_char(ended_on, 'YYYY-MM-DD') AS ended_on FROM trade_license WHERE gisa_zahl = ANY(${hits.map((h) => h.gisaZahl)})`)
    .map((r) => [r.gisaZahl, r.endedOn]));
  return hits.filter((h) => !(h.endedOn && stored.get(h.gisaZahl) === h.endedOn)).map((h) => h.gisaZahl);
}

export function gisaHandlers(deps: GisaJobDeps): Handlers<GisaJobs> {
  const { sql, client, enqueueMany, log } = deps;

  const fetchLicence = async ({ gisaZahl, person }: { gisaZahl: string; person?: { firstName: string | null; lastName: string; birthDate: string } }) => {
    let licence: TradeLicence;
    try {
      licence = await client.licence(gisaZahl);
    } catch (err) {
      // GISA no longer knows it: a stored licence is removed (a `deleted` trade change), an unknown one ignored.
      if (err instanceof GisaNotFoundError) return storeLicenceLookup(sql, { licences: [], gone: [gisaZahl] });
      throw err;
    }
    // A person's search may be phonetic or by wildcard: only the person with this name and birth date is theirs.
    if (person && !(licence.holder.type === 'natural' && licence.holder.birthDate === person.birthDate
      && nameKey(licence.holder.lastName) === nameKey(person.lastName) && nameKey(licence.holder.firstName) === nameKey(person.firstName))) {
      return { skipped: 'another holder' };
    }
    return storeLicenceLookup(sql, { licences: [licence], gone: [] });
  };

  /** Search by FN; each licence that may have changed, and each stored one the search no longer shows, is its own job. */
  const lookupCompany = (licenceJob: 'licence' | 'recheckLicence') => async ({ fnr, cause }: { fnr: string; cause: string }) => {
    const search = await client.searchCompany(fnr);
    if (search.capped) log.warn({ fnr }, 'GISA search hit its 250-hit cap; later licences of this company are not reached');
    const hits = search.hits.filter((h) => h.holderFnr === null || h.holderFnr === fnr);
    const storedHere = (await sql<{ gisaZahl: string }[]>`SELECT gisa_zahl FROM trade_license WHERE fnr = ${fnr}`).map((r) => r.gisaZahl);
    const missing = storedHere.filter((z) => !hits.some((h) => h.gisaZahl === z));
    const wanted = [...new Set([...(await worthFetching(sql, hits)), ...missing])];
    await enqueueMany(licenceJob, wanted.map((gisaZahl) => ({ gisaZahl, cause })));
    await markChecked(sql, { fnr });
    return { hits: hits.length, toFetch: wanted.length };
  };

  return {
    catalogue: async () => {
      const keys = await client.tradeKeys();
      const kinds = await client.tradeKinds();
      return storeCatalogue(sql, keys, kinds);
    },

    follow: followHandler({ sql, enqueueMany, fanOut: deps.fanOut, onRun: deps.onRun }),

    recheck: async () => {
      // A minute's worth of the quota: the re-check jobs run after every event-driven job (priority) and
      // the limiter holds all of them to the quota, so they use what the events leave. Companies still
      // queued from the last run are selected again under the same job id, so the queue does not grow.
      // The poll reserve stays free for running extracts (gisaClient.ts).
      const limit = deps.dataQuota?.limit.max ?? 200;
      const used = (await deps.dataQuota?.used()) ?? 0;
      const budget = Math.floor((limit - extractPollReserve(limit)) / CALLS_PER_COMPANY);
      // Companies the re-check has not seen yet join it (never checked: they come first within their group).
      await sql`
        INSERT INTO gisa_company_check (fnr, is_active)
        SELECT c.fnr, c.status = 'active' FROM company c
         WHERE NOT EXISTS (SELECT 1 FROM gisa_company_check g WHERE g.fnr = c.fnr) LIMIT 10000
        ON CONFLICT (fnr) DO NOTHING`;
      const due = await sql<{ fnr: string }[]>`
        SELECT fnr FROM gisa_company_check
         WHERE checked_at IS NULL OR checked_at < now() - ${RECHECK_MIN_AGE}::interval
         ORDER BY is_active DESC, checked_at ASC NULLS FIRST, fnr LIMIT ${budget}`;
      // One lookup per company and day: a company still queued from an earlier run keeps its job.
      const day = new Date().toISOString().slice(0, 10);
      await enqueueMany('recheckCompany', due.map((r) => ({ fnr: r.fnr, cause: `r${day}` })));
      return { budget, used, enqueued: due.length };
    },

    company: lookupCompany('licence'),
    recheckCompany: lookupCompany('recheckLicence'),
    licence: fetchLicence,
    recheckLicence: fetchLicence,

    person: async (p) => {
      const search = await client.searchPerson({ firstName: p.firstName, lastName: p.lastName, birthDate: p.birthDate });
      const wanted = await worthFetching(sql, search.hits);
      await enqueueMany('licence', wanted.map((gisaZahl) => ({ gisaZahl, cause: `p${Buffer.from(p.personId).toString('base64url')}`, person: p })));
      await markChecked(sql, { personId: p.personId });
      return { hits: search.hits.length, toFetch: wanted.length };
    },

    extract: extractHandler({ sql, client, firstPollMs: deps.firstPollMs, pollMs: deps.pollMs }),
  };
}
