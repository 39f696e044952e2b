// The GISA job handlers. Each lookup targets one company or one person (GISA forbids bulk listing),
// stores what it found in one transaction (licenceStore.ts) and is idempotent.
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import type { TradeLicence, TradeLicenceHit } from '../../schemas/tradeRecords.js';
import type { CallQuota } from '../jobs/callQuota.js';
import type { FanOutSupport } from '../jobs/fanOut.js';
import type { EnqueueMany, Handlers, RegisterRunReport } from '../register.js';
import { storeCatalogue } from './catalogue.js';
import type { GisaClient } from './gisaClient.js';
import { extractHandler } from './extractJob.js';
import { followHandler } from './follow.js';
import { GisaNotFoundError } from './gisaXml.js';
import type { GisaJobs } from './jobs.js';
import { markChecked, storeLicenceLookup } from './licenceStore.js';
import { recheckHandler } from './recheck.js';

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
  /** Longest an extract's GISA job is polled (default EXTRACT_MAX_POLL_MS). */
  maxPollMs?: number;
}


const nameKey = (s: string | null) => (s ?? '').normalize('NFC').trim().toLowerCase();

type Person = { firstName: string | null; lastName: string | null; birthDate: string | null };

/** The register person a search was for: same birth date, family and given name (a search may be phonetic or by wildcard). */
function samePerson(holder: Person, person: Person): boolean {
  return holder.birthDate === person.birthDate && nameKey(holder.lastName) === nameKey(person.lastName) && nameKey(holder.firstName) === nameKey(person.firstName);
}

/** A hit that names another holder (a namesake born on another day, a legal person) is not worth a GetGewerbeV2. */
function maybeTheirs(hit: TradeLicenceHit, person: Person): boolean {
  if (hit.holderFnr !== null && hit.holderPerson === null) return false;
  if (hit.holderPerson === null || hit.holderPerson.birthDate === null) return true; // the detail decides
  return samePerson(hit.holderPerson, person);
}

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
    if (person && !(licence.holder.type === 'natural' && samePerson(licence.holder, person))) {
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

    recheck: recheckHandler({ sql, enqueueMany, dataQuota: deps.dataQuota }),

    company: lookupCompany('licence'),
    recheckCompany: lookupCompany('recheckLicence'),
    licence: fetchLicence,
    recheckLicence: fetchLicence,

    person: async (p) => {
      const search = await client.searchPerson({ firstName: p.firstName, lastName: p.lastName, birthDate: p.birthDate });
      // Namesakes the search may answer (another birth date) are dropped here; a hit without one, by the licence job.
      const wanted = await worthFetching(sql, search.hits.filter((h) => maybeTheirs(h, p)));
      await enqueueMany('licence', wanted.map((gisaZahl) => ({ gisaZahl, cause: `p${Buffer.from(p.personId).toString('base64url')}`, person: p })));
      await markChecked(sql, { personId: p.personId });
      return { hits: search.hits.length, toFetch: wanted.length };
    },

    extract: extractHandler({ sql, client, firstPollMs: deps.firstPollMs, pollMs: deps.pollMs, maxPollMs: deps.maxPollMs }),
  };
}
