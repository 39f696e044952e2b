// The Firmenbuch register's jobs, named in one place, each with its payload schema and the rule that
// makes its job id deterministic: the same work enqueued twice (a repeated crawl, a replay) is one job.
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-mm-dd');
const fnr = z.string().regex(/^\d{1,6}[a-z]$/, 'canonical fnr');

export const FIRMENBUCH_JOBS = {
  /**
   * Scheduled (hourly for companies, every 15 minutes for documents): enqueues the change-feed windows
   * from the stored watermark (less a few days of overlap) up to today, each at most 7 days long.
   */
  poll: {
    name: 'firmenbuch.poll',
    payload: z.object({ feed: z.enum(['company', 'document']) }),
    jobId: (p: { feed: string }) => `poll.${p.feed}`,
  },
  /** Poll VERAENDERUNGENFIRMA for one window (at most 7 days) and enqueue a company job per change. */
  companyChanges: {
    name: 'firmenbuch.companyChanges',
    payload: z.object({ from: isoDate, to: isoDate }),
    jobId: (p: { from: string; to: string }) => `companyChanges.${p.from}.${p.to}`,
  },
  /** Poll VERAENDERUNGENURKUNDE for one window and enqueue a document-list job per company. */
  documentChanges: {
    name: 'firmenbuch.documentChanges',
    payload: z.object({ from: isoDate, to: isoDate }),
    jobId: (p: { from: string; to: string }) => `documentChanges.${p.from}.${p.to}`,
  },
  /** SUCHEFIRMA for one name prefix of one legal form (pipeline/firmenbuch/backfill.ts). */
  backfill: {
    name: 'firmenbuch.backfill',
    payload: z.object({ legalForm: z.string().min(1), prefix: z.string().min(1), ortnr: z.string().regex(/^\d$/).optional() }),
    jobId: (p: { legalForm: string; prefix: string; ortnr?: string }) =>
      `backfill.${p.legalForm}.${Buffer.from(p.prefix).toString('base64url')}.${p.ortnr ?? 'all'}`,
  },
  /** Fetch AUSZUG_V2 for one company and store it with its change row; then list its documents. */
  company: {
    name: 'firmenbuch.company',
    payload: z.object({ fnr, vnr: z.string().nullish() }),
    jobId: (p: { fnr: string; vnr?: string | null }) => `company.${p.fnr}.${p.vnr ?? 'crawl'}`,
  },
  /** SUCHEURKUNDE for one company: store the listing, enqueue the annual accounts to fetch. */
  documentList: {
    name: 'firmenbuch.documentList',
    payload: z.object({ fnr }),
    jobId: (p: { fnr: string }) => `documentList.${p.fnr}`,
  },
  /** URKUNDE for one annual account: store the bytes, parse XML into figures or PDF into text. */
  annualAccount: {
    name: 'firmenbuch.annualAccount',
    payload: z.object({ fnr, documentKey: z.string().min(1) }),
    jobId: (p: { documentKey: string }) => `annualAccount.${p.documentKey}`,
  },
} as const;

export type FirmenbuchJobs = typeof FIRMENBUCH_JOBS;
