// The Ediktsdatei job handlers. Each is idempotent: a poll decides what the crawl does next; a page job
// reads one page of a view and fetches, parses, links and stores its documents in one batch (All) or
// erases its deleted edicts (Deletions); a document job does one edict that its page could not (its
// stores share a transaction with those of concurrent jobs, group commit); re-linking follows the
// change log's business changes. A job per page rather than per document: BullMQ's cost per job was
// most of the pipeline's per edict.
import type { Sql } from '../../runtime/db.js';
import type { ViewEntry } from '../../schemas/courtNoticeRecords.js';
import type { Logger } from '../../runtime/logger.js';
import { readChanges } from '../../runtime/changeLog.js';
import { UnrecoverableInputError, UpstreamThrottledError } from '../jobs/errors.js';
import { GroupCommit } from '../jobs/groupCommit.js';
import type { Enqueue, EnqueueMany, Handlers, RegisterRunReport } from '../register.js';
import {
  addFetched, completeFullCrawl, fullCrawl, fullPageDone, linkCursor, recipeWatermark, setLinkCursor, startChangeRun, startFullCrawl, takeFetched,
  windowDone, windowSplit, type PageStart,
} from './crawlState.js';
import { MAX_PAGE_SIZE, type IwgClient } from './iwgClient.js';
import { entrySortKey, IwgContentError } from './iwgParser.js';
import type { EdikteJobs } from './jobs.js';
import {
  deleteNotices, heldCourts, heldKeys, noticeLinkCounts, noticesNaming, relinkNotices, storeNotices, type Linker, type NoticeStoreItem, type NoticeStoreResult,
} from './noticeStore.js';
import {
  SEARCH_CAP, addDays, splitByCourt, splitByKeys, splitKind, splitWindow, windowKey, windowSearch, type SearchWindow,
} from './searchWindows.js';

/**
 * A search that still reaches the server's cap where it cannot be split further: the run cannot know it
 * has everything, so it fails (its watermark stays) rather than complete with a gap.
 */
export class SearchCapError extends UnrecoverableInputError {}

export interface EdikteJobDeps {
  sql: Sql;
  client: IwgClient;
  enqueue: Enqueue<EdikteJobs>;
  enqueueMany: EnqueueMany<EdikteJobs>;
  log: Logger;
  onRun?: (event: RegisterRunReport) => void;
  /** The clock (tests set it); default the real time. */
  now?: () => Date;
  link?: Linker;
}

/** Most edicts of one kind in one transaction. */
const MAX_BATCH = 64;
/** Documents a page job fetches at once. */
const PAGE_FETCH_CONCURRENCY = 16;
/** Business changes re-linking reads per run; a larger backlog is taken by the next run. */
const RELINK_BATCH = 5000;

const VIENNA_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vienna', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Publication dates are Vienna dates. */
export const viennaDate = (at: Date) => VIENNA_DATE.format(at);

/** Stores a batch, falling back to one transaction per edict so a bad one fails alone. */
async function storeEach(sql: Sql, items: NoticeStoreItem[], link?: Linker): Promise<Array<NoticeStoreResult | Error>> {
  try {
    return await storeNotices(sql, items, link);
  } catch (err) {
    if (items.length === 1) return [err instanceof Error ? err : new Error(String(err))];
  }
  const results: Array<NoticeStoreResult | Error> = [];
  for (const item of items) results.push(...(await storeEach(sql, [item], link)));
  return results;
}

/**
 * Where the page after a full one starts: at the sort key of its last entry that has one, without the
 * entries of this page a start there reads again (that key's, and those without a key). A page wholly
 * of the key it started at adds its entries to what it skipped.
 */
export function followingStart(entries: ViewEntry[], after?: PageStart): PageStart {
  const keys = entries.map(entrySortKey);
  const key = keys.filter((k): k is string => k !== null).at(-1);
  if (key === undefined) throw new IwgContentError('Ediktsdatei view page has no entry with an AZKey or Aktenzeichen to page on from', JSON.stringify(entries));
  const skip = entries.filter((_, i) => keys[i] === null || keys[i] === key).map((e) => e.unid);
  if (key !== after?.key) return { key, skip };
  const all = [...new Set([...after.skip, ...skip])];
  if (all.length > MAX_PAGE_SIZE) throw new IwgContentError(`more than ${MAX_PAGE_SIZE} entries of All sort at ${key}: the page-through cannot page on`, JSON.stringify(entries));
  return { key, skip: all };
}

export function edikteHandlers(deps: EdikteJobDeps): Handlers<EdikteJobs> {
  const { sql, client, enqueue, enqueueMany, log } = deps;
  const now = deps.now ?? (() => new Date());
  const notices = new GroupCommit<NoticeStoreItem, NoticeStoreResult>((items) => storeEach(sql, items, deps.link), {
    maxBatch: MAX_BATCH, key: (item) => item.notice.ediktId,
  });
  /**
   * A run completed: the data holds everything published before `watermark` (a date). One report per
   * run (a completed page-through or change run), never per page: /metrics and /api/v1/status take a
   * success as a finished crawl. A run of All reports the edicts stored since the last report.
   */
  const runDone = async (watermark: string, view: 'All' | 'Deletions') => deps.onRun?.({
    outcome: 'success', itemsFetched: view === 'All' ? await takeFetched(sql) : 0, linksByEvidence: await noticeLinkCounts(sql), watermark,
  });

  /** The @modified stored per document (If-Modified-Since of the next fetch). */
  async function storedModified(unids: string[]): Promise<Map<string, string | null>> {
    if (unids.length === 0) return new Map();
    const known = await sql<{ unid: string; modified: Date | null }[]>`
      SELECT unid, source_modified_at AS modified FROM court_notice WHERE unid = ANY(${unids}::text[])`;
    return new Map(known.map((k) => [k.unid, k.modified?.toISOString() ?? null]));
  }

  /**
   * Fetches a page's documents (PAGE_FETCH_CONCURRENCY at a time) and stores them in one batch. A
   * document whose fetch fails on a transport fault or whose answer does not read gets a job of its
   * own, which retries it or fails it alone with its input kept. After a 429 or a refused login the
   * page fetches no more: the rest go to jobs of their own, whose runs pause the queue while the
   * upstream keeps refusing (failing the page instead would refetch all of it on every retry).
   */
  async function fetchDocuments(unids: string[]): Promise<{ stored: number; unchanged: number; deferred: number }> {
    const since = await storedModified(unids);
    const fetched = new Map<string, NoticeStoreItem>();
    const deferred: Array<{ unid: string; since: string | null }> = [];
    let unchanged = 0;
    let next = 0;
    let stop = false;
    const claim = () => (stop || next >= unids.length ? -1 : next++);
    await Promise.all(Array.from({ length: Math.min(PAGE_FETCH_CONCURRENCY, unids.length) }, async () => {
      for (let i = claim(); i >= 0; i = claim()) {
        const unid = unids[i]!;
        try {
          const got = await client.document(unid, since.get(unid) ?? null);
          if (got.status === 'not-modified') unchanged++;
          if (got.status !== 'ok') continue;
          // One edict per AZKey in a batch: the newest document, should two unids carry it.
          const prior = fetched.get(got.notice.ediktId);
          if (!prior || (got.notice.modifiedAt ?? '') > (prior.notice.modifiedAt ?? '')) fetched.set(got.notice.ediktId, { notice: got.notice, raw: got.raw, fetchedAt: now() });
        } catch (err) {
          if (err instanceof UpstreamThrottledError) stop = true;
          deferred.push({ unid, since: since.get(unid) ?? null });
        }
      }
    }));
    // Those no lane reached (after a stop).
    for (let i = next; i < unids.length; i++) deferred.push({ unid: unids[i]!, since: since.get(unids[i]!) ?? null });
    const items = [...fetched.values()];
    const results = items.length > 0 ? await storeEach(sql, items, deps.link) : [];
    results.forEach((r, i) => {
      if (r instanceof Error) deferred.push({ unid: items[i]!.notice.unid!, since: null });
    });
    if (deferred.length > 0) await enqueueMany('document', deferred);
    const stored = results.filter((r) => !(r instanceof Error)).length;
    await addFetched(sql, stored);
    return { stored, unchanged, deferred: deferred.length };
  }

  async function runComplete(view: 'All' | 'Deletions', run: string): Promise<void> {
    log.info({ view, run }, 'Ediktsdatei change run complete');
    const watermark = await recipeWatermark(sql, view);
    if (watermark) await runDone(watermark, view);
  }

  async function finishWindow(view: 'All' | 'Deletions', run: string, window: SearchWindow): Promise<void> {
    if ((await windowDone(sql, view, run, window)) === 'complete') await runComplete(view, run);
  }

  /** The windows a capped one splits into (null: none, it is a leaf); a day of deletions by what is held here. */
  async function splitCapped(view: 'All' | 'Deletions', window: SearchWindow): Promise<SearchWindow[] | null> {
    switch (splitKind(view, window)) {
      case 'dates':
      case 'states':
        return splitWindow(window, viennaDate(now()));
      case 'courts':
        return splitByCourt(window, await heldCourts(sql));
      case 'keys':
        return splitByKeys(window, await heldKeys(sql, window.court!));
      default:
        return null;
    }
  }

  /**
   * A page of the first page-through of All. Keyset paging: a page after the first starts at the AZKey
   * where the one before it ended (Domino's startkeys), so an edict deleted before the cursor while the
   * crawl runs shifts nothing (with offsets, the next page would start one entry late and skip one).
   * Pages run side by side: the next one is enqueued before this one's documents are fetched.
   */
  async function pageThrough(run: string, page: number, after?: PageStart): Promise<unknown> {
    const result = await client.viewPage('All', page, after ? { startKey: after.key } : {});
    const skip = new Set(after?.skip ?? []);
    const entries = result.entries.filter((e) => !skip.has(e.unid));
    const following = result.entries.length === MAX_PAGE_SIZE ? followingStart(result.entries, after) : null;
    if (following) await enqueue('page', { view: 'All', run, window: null, page: page + 1, after: following });
    const documents = await fetchDocuments(entries.map((e) => e.unid));
    // Its cursor moves over the pages done in a row, so a restart continues where it stood.
    const state = await fullPageDone(sql, run, page, following, result.total);
    if (state === 'stale') return { stale: true };
    const startedOn = state === 'complete' ? await completeFullCrawl(sql, run, viennaDate(now())) : null;
    if (startedOn) {
      log.info({ run, total: result.total }, 'Ediktsdatei full page-through complete');
      await runDone(startedOn, 'All');
    }
    return { entries: entries.length, total: result.total, ...documents, more: following !== null };
  }

  return {
    poll: async ({ full, from }) => {
      const at = now();
      const today = viennaDate(at);
      const state = await fullCrawl(sql);
      if (full || !state.completedOn) {
        const crawl = !full && state.crawl ? state.crawl : await startFullCrawl(sql, today, at);
        await enqueue('page', { view: 'All', run: crawl.run, window: null, page: crawl.nextPage, ...(crawl.nextStart ? { after: crawl.nextStart } : {}) });
        return { crawl: 'full', run: crawl.run, page: crawl.nextPage };
      }
      const runs: Record<string, string> = {};
      for (const view of ['All', 'Deletions'] as const) {
        const watermark = (await recipeWatermark(sql, view)) ?? state.crawl?.startedOn ?? today;
        const root: SearchWindow = { from: from ?? addDays(watermark, -1), to: null };
        const run = `${view}-${at.toISOString()}`;
        await startChangeRun(sql, view, run, today, root);
        await enqueue('page', { view, run, window: root, page: 0 });
        runs[view] = root.from;
      }
      await enqueue('relink', {});
      return { crawl: 'recipe', from: runs };
    },

    page: async ({ view, run, window, page, after }) => {
      if (window === null) return pageThrough(run, page, after);
      const result = await client.viewPage(view, page, { search: windowSearch(view, window) });
      // Capped: the total says so on the first page; without Content-Range, a full page that reaches the
      // cap's count does (the pages read so far are stored, the split windows read them again).
      const capped = result.total !== null
        ? page === 0 && result.total >= SEARCH_CAP
        : (page + 1) * MAX_PAGE_SIZE >= SEARCH_CAP && result.entries.length === MAX_PAGE_SIZE;
      if (capped) {
        const children = await splitCapped(view, window);
        if (children === null) {
          deps.onRun?.({ outcome: 'refused', reason: 'search-cap' });
          const message = `Ediktsdatei search of ${view} ${windowKey(window)} still reaches the cap of ${SEARCH_CAP} and cannot be split further: ` +
            `run ${run} fails and its watermark stays`;
          log.error({ view, run, window: windowKey(window) }, message);
          throw new SearchCapError(message);
        }
        const state = await windowSplit(sql, view, run, window, children);
        if (state === 'stale') return { stale: true };
        await enqueueMany('page', children.map((w) => ({ view, run, window: w, page: 0 })));
        // A day of deletions of which nothing is held here splits into no window: it is done.
        if (state === 'complete') await runComplete(view, run);
        return { capped: result.total ?? (page + 1) * MAX_PAGE_SIZE, split: children.length };
      }
      const more = result.total !== null ? (page + 1) * MAX_PAGE_SIZE < result.total : result.entries.length === MAX_PAGE_SIZE;
      let documents = { stored: 0, unchanged: 0, deferred: 0 };
      let erased = 0;
      if (view === 'All') documents = await fetchDocuments(result.entries.map((e) => e.unid));
      else {
        const deletions = result.entries.filter((e) => e.ediktId && e.deletedAt).map((e) => ({ ediktId: e.ediktId!, deletedAt: e.deletedAt! }));
        erased = (await deleteNotices(sql, deletions)).length;
      }
      if (more) await enqueue('page', { view, run, window, page: page + 1 });
      else await finishWindow(view, run, window);
      return { entries: result.entries.length, total: result.total, ...documents, erased, more };
    },

    document: async ({ unid, since }) => {
      const fetched = await client.document(unid, since);
      if (fetched.status !== 'ok') return { status: fetched.status };
      const stored = await notices.submit({ notice: fetched.notice, raw: fetched.raw, fetchedAt: now() });
      await addFetched(sql, 1);
      return stored;
    },

    relink: async () => {
      const cursor = await linkCursor(sql);
      const changes = await readChanges(sql, { afterId: cursor, type: 'business', limit: RELINK_BATCH });
      if (changes.length === 0) return { changes: 0 };
      // Changes this register made itself (a company's notices) cannot move a link.
      const fnrs = [...new Set(changes.filter((c) => c.fnr && c.changedFields.some((f) => f !== 'hasEdikt' && f !== 'openNotices')).map((c) => c.fnr!))];
      const relinked = await relinkNotices(sql, await noticesNaming(sql, fnrs), deps.link);
      await setLinkCursor(sql, changes[changes.length - 1]!.id);
      if (changes.length === RELINK_BATCH) await enqueue('relink', {});
      return { changes: changes.length, companies: fnrs.length, relinked };
    },
  };
}
