// gisa.recheck (every minute): the rolling re-check with a minute's worth of the data quota (less the
// extract polls' reserve). The jobs run after every event-driven job (priority) and the limiter holds
// all of them to the quota, so they use what the events leave. Items still queued from the last run
// are selected again under the same job id (one per item and day), so the queue does not grow.
//   - companies: active first, then the longest unchecked (never checked first), then by fnr;
//   - licences held without a company link (sole traders the register names; their person is searched
//     once): by GISA-Zahl, the longest unchecked first.
// Their shares of the calls follow their sizes (one call per licence, about two per company), so both
// passes take about as long; a share the due items do not use goes to the companies.
import type { Sql } from '../../runtime/db.js';
import type { CallQuota } from '../jobs/callQuota.js';
import type { EnqueueMany } from '../register.js';
import { extractPollReserve } from './gisaClient.js';
import type { GisaJobs } from './jobs.js';

/** Calls a re-checked company costs on average (the search plus its licences' details). */
export const CALLS_PER_COMPANY = 2;
/** Anything checked more recently than this is not re-checked yet. */
const RECHECK_MIN_AGE = '1 day';

export interface RecheckDeps {
  sql: Sql;
  enqueueMany: EnqueueMany<GisaJobs>;
  dataQuota?: CallQuota;
}

/** The calls for sole traders' licences out of `calls`: by their share of a full pass's calls, at least one while there are any. */
export function soleTraderShare(calls: number, sizes: { companies: number; soleLicences: number }): number {
  if (sizes.soleLicences === 0 || calls <= 0) return 0;
  const share = Math.round((calls * sizes.soleLicences) / (sizes.soleLicences + CALLS_PER_COMPANY * sizes.companies));
  return Math.min(calls, Math.max(1, share));
}

export function recheckHandler(deps: RecheckDeps) {
  const { sql, enqueueMany } = deps;
  return async () => {
    const limit = deps.dataQuota?.limit.max ?? 200;
    const used = (await deps.dataQuota?.used()) ?? 0;
    const calls = limit - extractPollReserve(limit);
    // Companies the re-check has not seen yet join it (never checked: they come first within their group).
    await sql`
      INSERT INTO gisa_company_check (fnr, is_active)
      SELECT c.fnr, c.status = 'active' FROM company c
       WHERE NOT EXISTS (SELECT 1 FROM gisa_company_check g WHERE g.fnr = c.fnr) LIMIT 10000
      ON CONFLICT (fnr) DO NOTHING`;
    const [sizes] = await sql<{ companies: number; soleLicences: number }[]>`
      SELECT (SELECT count(*) FROM gisa_company_check)::int AS companies, (SELECT count(*) FROM trade_license WHERE fnr IS NULL)::int AS sole_licences`;
    const licences = await sql<{ gisaZahl: string }[]>`
      SELECT gisa_zahl FROM trade_license
       WHERE fnr IS NULL AND (last_crawled_at IS NULL OR last_crawled_at < now() - ${RECHECK_MIN_AGE}::interval)
       ORDER BY last_crawled_at ASC NULLS FIRST, gisa_zahl LIMIT ${soleTraderShare(calls, sizes!)}`;
    const budget = Math.floor((calls - licences.length) / CALLS_PER_COMPANY);
    const due = await sql<{ fnr: string }[]>`
      SELECT fnr FROM gisa_company_check
       WHERE checked_at IS NULL OR checked_at < now() - ${RECHECK_MIN_AGE}::interval
       ORDER BY is_active DESC, checked_at ASC NULLS FIRST, fnr LIMIT ${budget}`;
    // One lookup per item and day: an item still queued from an earlier run keeps its job.
    const day = new Date().toISOString().slice(0, 10);
    await enqueueMany('recheckLicence', licences.map((r) => ({ gisaZahl: r.gisaZahl, cause: `r${day}` })));
    await enqueueMany('recheckCompany', due.map((r) => ({ fnr: r.fnr, cause: `r${day}` })));
    return { budget, used, enqueued: due.length, licences: licences.length };
  };
}
