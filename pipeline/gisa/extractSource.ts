// The API's TradeExtractSource (runtime/tradeExtractSource.ts) over the GISA queue: a stored extract
// from today (the calendar day in Vienna) is served as is; otherwise an extract job is enqueued (one
// per licence, language, kind and day, so identical requests share it) and its state is read from
// Postgres (trade_extract_request), which the job writes, until the PDF is there or the wait is over.
// Works from an API process that runs no workers: the pipeline's workers take the job.
import type { Queue } from 'bullmq';
import type { Sql } from '../../runtime/db.js';
import type { TradeExtractAnswer, TradeExtractRequest, TradeExtractSource } from '../../runtime/tradeExtractSource.js';
import { enqueuers } from '../jobs/runJob.js';
import { viennaDay } from './extractJob.js';
import { GISA_JOBS } from './jobs.js';

const POLL_MS = 200;
/** Retry-After while the job goes on: GISA's own rhythm (first status after 2 s, then every 10 s). */
const PENDING_RETRY_SECONDS = 10;
const UNAVAILABLE_RETRY_SECONDS = 60;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function gisaExtractSource(sql: Sql, queue: Queue): TradeExtractSource {
  const { enqueue } = enqueuers(GISA_JOBS, queue);
  // Identical requests in this process wait on one promise; across processes the job's id joins them.
  const inFlight = new Map<string, Promise<TradeExtractAnswer>>();

  const stored = async (r: TradeExtractRequest, day: string): Promise<Buffer | null> => {
    const [row] = await sql<{ content: Buffer }[]>`
      SELECT content FROM trade_extract WHERE gisa_zahl = ${r.gisaZahl} AND language = ${r.language} AND historical = ${r.historical}
         AND (fetched_at AT TIME ZONE 'Europe/Vienna')::date = ${day}::date`;
    return row?.content ?? null;
  };

  const state = async (r: TradeExtractRequest, day: string) => {
    const [row] = await sql<{ state: string; error: string | null }[]>`
      SELECT state, error FROM trade_extract_request
       WHERE gisa_zahl = ${r.gisaZahl} AND language = ${r.language} AND historical = ${r.historical} AND day = ${day}`;
    return row ?? null;
  };

  const wait = async (r: TradeExtractRequest, waitMs: number): Promise<TradeExtractAnswer> => {
    const day = viennaDay();
    const have = await stored(r, day);
    if (have) return { kind: 'pdf', content: have };
    const before = await state(r, day);
    if (before?.state === 'unknown') return { kind: 'unknown' };
    // A state left by an earlier failure is cleared, so this request's job reports afresh.
    if (before?.error) await sql`UPDATE trade_extract_request SET error = NULL WHERE gisa_zahl = ${r.gisaZahl} AND language = ${r.language} AND historical = ${r.historical} AND day = ${day}`;
    await enqueue('extract', { ...r, day });
    const deadline = Date.now() + waitMs;
    for (;;) {
      const content = await stored(r, day);
      if (content) return { kind: 'pdf', content };
      const now = await state(r, day);
      if (now?.state === 'unknown') return { kind: 'unknown' };
      if (now?.error) return { kind: 'unavailable', retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS };
      if (Date.now() >= deadline) return { kind: 'pending', retryAfterSeconds: PENDING_RETRY_SECONDS };
      await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    }
  };

  return {
    extract: (r, waitMs) => {
      const key = `${r.gisaZahl}.${r.language}.${r.historical}`;
      const running = inFlight.get(key);
      if (running) return running;
      const answer = wait(r, waitMs).finally(() => inFlight.delete(key));
      inFlight.set(key, answer);
      return answer;
    },
  };
}
