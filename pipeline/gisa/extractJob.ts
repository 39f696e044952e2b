// The extract job: StartGISAAuszug under the 10/min quota, GetAuszugStatus until the GISA job is
// Completed, GetAuszug, stored with the request's state (trade_extract_request, which the API's
// extract source reads). The GISA job's id is kept on the BullMQ job, so a pause for the data quota or
// a transport fault resumes polling that GISA job instead of starting (and paying for) another. A GISA
// job still Working after `maxPollMs` fails the extract as unavailable, for good: polling on would only
// spend the data quota, and the next request starts a new one.
import { DelayedError, type Job } from 'bullmq';
import type { Sql } from '../../runtime/db.js';
import { UnrecoverableInputError, UpstreamThrottledError, UpstreamUnavailableError } from '../jobs/errors.js';
import { GisaExtractQuotaError, GisaJobLostError, type GisaClient } from './gisaClient.js';
import { GisaNotFoundError } from './gisaXml.js';

export interface ExtractRequest {
  gisaZahl: string;
  language: 'de' | 'en';
  historical: boolean;
  day: string;
}

export interface ExtractJobDeps {
  sql: Sql;
  client: GisaClient;
  /** First status after this long, then every `pollMs` (GISA-V2: 2 s, then 10 s). */
  firstPollMs?: number;
  pollMs?: number;
  /** Longest a GISA job is polled, from its start (pauses included). */
  maxPollMs?: number;
}

/** GISA completes an extract within seconds; five minutes of Working (30 polls) is a job that will not. */
export const EXTRACT_MAX_POLL_MS = 5 * 60_000;

/** The GISA job never completed: the extract fails at once (no retry), the API answers unavailable. */
export class GisaExtractTimeoutError extends UnrecoverableInputError {}

/** The GISA job an extract job polls: its id and when it was started (ms since the epoch). */
interface GisaJobRef {
  id: number;
  startedAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const VIENNA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vienna', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Austrian calendar day (yyyy-mm-dd) of `at`: "today's extract" is today's in Vienna, not in UTC. */
export function viennaDay(at: Date = new Date()): string {
  return VIENNA_DAY.format(at);
}

export async function setExtractState(sql: Sql, p: ExtractRequest, state: string, error: string | null): Promise<void> {
  await sql`
    INSERT INTO trade_extract_request (gisa_zahl, language, historical, day, state, error)
    VALUES (${p.gisaZahl}, ${p.language}, ${p.historical}, ${p.day}, ${state}, ${error})
    ON CONFLICT (gisa_zahl, language, historical, day) DO UPDATE SET state = EXCLUDED.state, error = EXCLUDED.error, updated_at = now()`;
}

async function keepGisaJob(job: Job, ref: GisaJobRef | undefined): Promise<void> {
  const { gisaJob: _old, ...data } = job.data as Record<string, unknown>;
  await job.updateData(ref ? { ...data, gisaJob: ref } : data);
}

export function extractHandler(deps: ExtractJobDeps) {
  const { sql, client } = deps;
  return async (p: ExtractRequest, job: Job) => {
    const [have] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM trade_extract WHERE gisa_zahl = ${p.gisaZahl} AND language = ${p.language} AND historical = ${p.historical}
         AND (fetched_at AT TIME ZONE 'Europe/Vienna')::date = ${p.day}::date`;
    if (have!.n > 0) return { stored: true };
    let ref = (job.data as { gisaJob?: GisaJobRef }).gisaJob;
    try {
      if (!ref) {
        ref = { id: await client.startExtract(p.gisaZahl, p.language, p.historical), startedAt: Date.now() };
        await keepGisaJob(job, ref);
        await setExtractState(sql, p, 'pending', null);
        await sleep(deps.firstPollMs ?? 2000);
      }
      const maxPollMs = deps.maxPollMs ?? EXTRACT_MAX_POLL_MS;
      while ((await client.extractStatus(ref.id)) !== 'Completed') {
        if (Date.now() - ref.startedAt >= maxPollMs) {
          throw new GisaExtractTimeoutError(`GISA extract job ${ref.id} still not completed after ${Math.round(maxPollMs / 1000)} s`);
        }
        await sleep(deps.pollMs ?? 10_000);
      }
      const pdf = await client.extract(ref.id);
      await sql.begin(async (tx) => {
        await tx`
          INSERT INTO trade_extract (gisa_zahl, language, historical, content) VALUES (${p.gisaZahl}, ${p.language}, ${p.historical}, ${pdf})
          ON CONFLICT (gisa_zahl, language, historical) DO UPDATE SET content = EXCLUDED.content, fetched_at = now()`;
        await setExtractState(tx as unknown as Sql, p, 'done', null);
      });
      return { bytes: pdf.length, gisaJob: ref.id };
    } catch (err) {
      if (err instanceof GisaExtractQuotaError) {
        // Only this job waits for the extract quota; the data lookups go on.
        await job.moveToDelayed(Date.now() + err.retryAfterMs, job.token);
        throw new DelayedError();
      }
      // The data quota (or a 429): not a failure. The queue pauses, the job goes back to waiting without
      // using an attempt and polls the same GISA job when it runs again; the request stays pending.
      if (err instanceof UpstreamThrottledError) throw err;
      if (err instanceof GisaNotFoundError) {
        await setExtractState(sql, p, 'unknown', err.message);
        throw err;
      }
      await setExtractState(sql, p, 'pending', (err as Error).message).catch(() => undefined);
      if (err instanceof GisaJobLostError) {
        // An expired or foreign job id: the retry starts a new extract job.
        await keepGisaJob(job, undefined);
        throw new UpstreamUnavailableError('gisa', 200, err.message, { cause: err });
      }
      throw err;
    }
  };
}
