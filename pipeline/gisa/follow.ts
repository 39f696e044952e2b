// gisa.follow: the event-driven half of the crawl. Reads the business changes of the change log after
// a stored cursor; each company the company register changed gets a GISA lookup, and each person those
// companies name (see personsToLookUp) one. Only the company register's own changes count: a filing,
// a court notice, the BMF list or derived fields say nothing about trade licences, and following them
// (GISA's own changes above all) would make every lookup cause the next.
// The lookups are enqueued as a bounded fan-out (pipeline/jobs/fanOut.ts): in slices, parked while the
// queue holds PIPELINE_MAX_WAITING_JOBS; the cursor moves, and the next page is chained, only once a
// page is enqueued whole. Then the run is reported (/api/v1/status, /metrics) with the cursor as a time:
// the recording time of the last change read, or the time of the read once the log is read to its end
// (register_status compares watermarks as text, and a lag needs a time).
import type { Job } from 'bullmq';
import { readChanges, type ChangeRow } from '../../runtime/changeLog.js';
import type { Sql } from '../../runtime/db.js';
import { fanOut, type FanOutSupport } from '../jobs/fanOut.js';
import type { EnqueueMany, RegisterRunReport } from '../register.js';
import { COMPANY_REGISTER_FIELDS } from '../store/companyStore.js';
import type { GisaJobs } from './jobs.js';

/** Change-log entries read per follow run; a full page enqueues the next run once it is enqueued. */
export const FOLLOW_PAGE = 1000;
const CURSOR_KEY = 'change-cursor';

export interface FollowDeps {
  sql: Sql;
  enqueueMany: EnqueueMany<GisaJobs>;
  fanOut?: FanOutSupport;
  onRun?: (event: RegisterRunReport) => void;
}

type Person = { personId: string; firstName: string | null; lastName: string; birthDate: string };
type FollowItem = { company: { fnr: string; cause: string } } | { person: Person };

/** Written by the Firmenbuch store: it carries the register entry (vnr) or names a field of the extract. */
export function fromCompanyRegister(c: Pick<ChangeRow, 'action' | 'vnr' | 'changedFields'>): boolean {
  return c.vnr !== null || c.action !== 'updated' || c.changedFields.some((f) => COMPANY_REGISTER_FIELDS.has(f));
}

/** The persons these companies name with a birth date who were never looked up. */
async function personsToLookUp(sql: Sql, fnrs: string[]): Promise<Person[]> {
  return sql<Person[]>`
    SELECT DISTINCT p.person_id, p.first_name, p.last_name, to_char(p.birth_date, 'YYYY-MM-DD') AS birth_date
      FROM company_party cp JOIN person p ON p.person_id = cp.person_id
     WHERE cp.fnr = ANY(${fnrs}) AND p.birth_date IS NOT NULL AND p.last_name IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM gisa_person_check g WHERE g.person_id = p.person_id)
     ORDER BY p.person_id`;
}

export function followHandler(deps: FollowDeps) {
  const { sql, enqueueMany } = deps;
  return async ({ after }: { after?: number }, job: Job) => {
    const [state] = await sql<{ watermark: string | null }[]>`SELECT watermark FROM crawl_state WHERE source = 'gisa' AND key = ${CURSOR_KEY}`;
    const cursor = Math.max(after ?? 0, Number(state?.watermark ?? 0));
    const { total, meta } = await fanOut<FollowItem>({
      job, window: `after ${cursor}`, support: deps.fanOut,
      fetch: async () => {
        const readAt = Date.now();
        const changes = await readChanges(sql, { type: 'business', afterId: cursor, limit: FOLLOW_PAGE });
        const followedUntil = changes.length === FOLLOW_PAGE ? changes.at(-1)!.recordedAt.getTime() : readAt;
        const byCompany = new Map<string, number>();
        for (const c of changes) if (c.fnr && fromCompanyRegister(c)) byCompany.set(c.fnr, c.id);
        const fnrs = [...byCompany.keys()];
        const persons = fnrs.length > 0 ? await personsToLookUp(sql, fnrs) : [];
        const items: FollowItem[] = [
          ...fnrs.map((fnr) => ({ company: { fnr, cause: `c${byCompany.get(fnr)}` } })),
          ...persons.map((person) => ({ person })),
        ];
        return { items, meta: { changes: changes.length, last: changes.at(-1)?.id ?? cursor, followedUntil, companies: fnrs.length, persons: persons.length } };
      },
      enqueue: async (slice) => {
        await enqueueMany('company', slice.flatMap((i) => ('company' in i ? [i.company] : [])));
        await enqueueMany('person', slice.flatMap((i) => ('person' in i ? [i.person] : [])));
      },
    });
    const last = meta.last ?? cursor;
    if (last > cursor) {
      await sql`
        INSERT INTO crawl_state (source, key, watermark) VALUES ('gisa', ${CURSOR_KEY}, ${String(last)})
        ON CONFLICT (source, key) DO UPDATE SET watermark = greatest(crawl_state.watermark::bigint, EXCLUDED.watermark::bigint)::text, updated_at = now()`;
    }
    if (meta.changes === FOLLOW_PAGE) await enqueueMany('follow', [{ after: last }]);
    deps.onRun?.({ outcome: 'success', itemsFetched: meta.changes ?? 0, ...(meta.followedUntil ? { watermark: new Date(meta.followedUntil).toISOString() } : {}) });
    return { changes: meta.changes ?? 0, companies: meta.companies ?? 0, persons: meta.persons ?? 0, enqueued: total, cursor: last };
  };
}
