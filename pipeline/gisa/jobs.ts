// The GISA register's jobs. GISA forbids bulk listing: every lookup targets one company (by its
// Firmenbuch number) or one person the company register names (by name and birth date).
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-mm-dd');
const fnr = z.string().regex(/^\d{1,6}[a-z]$/, 'canonical fnr');
const gisaZahl = z.string().regex(/^\d{1,10}$/, 'GISA-Zahl');

const person = z.object({ personId: z.string().min(1), firstName: z.string().nullable(), lastName: z.string().min(1), birthDate: isoDate });
const licencePayload = z.object({
  gisaZahl,
  /** What led here (`c<change id>`, `r<day>`, `p<person>`): part of the job id, so a later lookup is a new job. */
  cause: z.string().min(1),
  /** A person's search found it: stored only when the holder is that person (name and birth date). */
  person: person.optional(),
});

/** Re-check lookups run after every other job (BullMQ runs jobs without a priority first). */
export const RECHECK_PRIORITY = 10;

export const GISA_JOBS = {
  /** Daily: the trade catalogue (GetKatalogGewerbeschluessel/-art) merged with the bundled § 94 list. */
  catalogue: {
    name: 'gisa.catalogue',
    payload: z.object({ day: z.string().min(1) }),
    jobId: (p: { day: string }) => `catalogue.${p.day}`,
  },
  /** Every minute: company changes of the change log after the stored cursor -> company and person lookups. */
  follow: {
    name: 'gisa.follow',
    payload: z.object({ after: z.number().int().min(0).optional() }),
    jobId: (p: { after?: number }) => `follow.${p.after ?? 'cursor'}`,
  },
  /** Every minute: known companies with the quota left over, active and longest-unchecked first. */
  recheck: {
    name: 'gisa.recheck',
    payload: z.object({ minute: z.string().min(1) }),
    jobId: (p: { minute: string }) => `recheck.${p.minute}`,
  },
  /** SearchPersonJur by Firmenbuch number, then GetGewerbeV2 per licence that may have changed. */
  company: {
    name: 'gisa.company',
    payload: z.object({ fnr, cause: z.string().min(1) }),
    jobId: (p: { fnr: string; cause: string }) => `company.${p.fnr}.${p.cause}`,
  },
  /** The same as company, from the rolling re-check: after the event-driven lookups. */
  recheckCompany: {
    name: 'gisa.recheckCompany',
    payload: z.object({ fnr, cause: z.string().min(1) }),
    jobId: (p: { fnr: string; cause: string }) => `recheckCompany.${p.fnr}.${p.cause}`,
    priority: RECHECK_PRIORITY,
  },
  /** GetGewerbeV2 for one licence a search found (or a stored one it no longer found), stored on its own. */
  licence: {
    name: 'gisa.licence',
    payload: licencePayload,
    jobId: (p: { gisaZahl: string; cause: string }) => `licence.${p.gisaZahl}.${p.cause}`,
  },
  /** The same as licence, for the rolling re-check. */
  recheckLicence: {
    name: 'gisa.recheckLicence',
    payload: licencePayload,
    jobId: (p: { gisaZahl: string; cause: string }) => `recheckLicence.${p.gisaZahl}.${p.cause}`,
    priority: RECHECK_PRIORITY,
  },
  /** SearchPersonNat by name and birth date: the licences a register person holds as a sole trader. */
  person: {
    name: 'gisa.person',
    payload: person,
    jobId: (p: { personId: string }) => `person.${Buffer.from(p.personId).toString('base64url')}`,
  },
  /** One signed extract (StartGISAAuszug, GetAuszugStatus, GetAuszug) for the API, once a day per kind. */
  extract: {
    name: 'gisa.extract',
    payload: z.object({ gisaZahl, language: z.enum(['de', 'en']), historical: z.boolean(), day: isoDate }),
    jobId: (p: { gisaZahl: string; language: string; historical: boolean; day: string }) => extractJobId(p),
  },
} as const;

export type GisaJobs = typeof GISA_JOBS;

/** Shared with the API's extract source (runtime/tradeExtractSource.ts), which waits for this job. */
export function extractJobId(p: { gisaZahl: string; language: string; historical: boolean; day: string }): string {
  return `extract.${p.gisaZahl}.${p.language}.${p.historical ? 'h' : 'c'}.${p.day}`;
}
