// The Ediktsdatei register's jobs, each with its payload schema and the rule that makes its job id
// deterministic (the same work enqueued twice is one job).
import { z } from 'zod';
import { isoDate, searchWindow, windowKey, type SearchWindow } from './searchWindows.js';

const unid = z.string().regex(/^[0-9A-Fa-f]{32}$/, '32 hex digits');

export const EDIKTE_JOBS = {
  /**
   * Scheduled (every EDIKTE_POLL_HOURS): until a first full page-through of `All` has completed, starts
   * or resumes it from its stored cursor; afterwards runs the official change recipe on `All` and
   * `Deletions` from the last successful run's date less one day (`from` overrides that date; `full`
   * starts a new page-through).
   */
  poll: {
    name: 'edikte.poll',
    payload: z.object({ full: z.boolean().optional(), from: isoDate.optional() }),
    jobId: (p: { full?: boolean; from?: string }) => `poll.${p.full ? 'full' : 'recipe'}.${p.from ?? 'watermark'}`,
  },
  /**
   * One page (100 entries) of a view within a run: a page of the full page-through (`window` null, each
   * page after the first starting at the AZKey where the one before it ended) or of a search window.
   * Stores the documents (All) or erases the deleted edicts (Deletions), then enqueues the next page.
   */
  page: {
    name: 'edikte.page',
    payload: z.object({
      view: z.enum(['All', 'Deletions']), run: z.string().min(1), window: searchWindow.nullable(), page: z.number().int().min(0),
      /** The page-through's pages after the first: where the page starts (keyset paging), not an offset. */
      after: z.object({ key: z.string().min(1).max(40), skip: z.array(unid).max(100) }).optional(),
    }),
    jobId: (p: { view: string; run: string; window: SearchWindow | null; page: number }) =>
      `page.${p.view}.${p.run}.${p.window ? windowKey(p.window) : 'full'}.${p.page}`,
  },
  /** One edict: fetched (If-Modified-Since `since`), parsed, linked and stored with its change rows. */
  document: {
    name: 'edikte.document',
    payload: z.object({ unid, since: z.string().nullable() }),
    jobId: (p: { unid: string }) => `document.${p.unid.toUpperCase()}`,
  },
  /** Links stored notices again where a company changed since the last time (the change log's business changes). */
  relink: {
    name: 'edikte.relink',
    payload: z.object({}),
    jobId: () => 'relink',
  },
} as const;

export type EdikteJobs = typeof EDIKTE_JOBS;
