// The Firmenbuch job handlers. Each is small and idempotent: it fetches one thing, stores it with its
// change rows in one transaction, and enqueues the follow-up work with deterministic job ids. Stores
// of jobs running at the same time share a transaction (group commit, ../jobs/groupCommit.ts); each
// job still gets its own result or error.
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { fnrCheckLetter } from '../../schemas/identifiers.js';
import { UnrecoverableInputError } from '../jobs/errors.js';
import { fanOut, type FanOutSupport } from '../jobs/fanOut.js';
import { GroupCommit } from '../jobs/groupCommit.js';
import { UpstreamBodyTooLargeError } from '../upstream/bodyLimit.js';
import type { Enqueue, EnqueueMany, Handlers } from '../register.js';
import type { AnnualAccountBatchItem, CompanyStoreItem, DocumentContent, DocumentListingsItem } from '../../schemas/firmenbuchRecords.js';
import { storeCompanyExtracts, type CompanyStoreResult } from '../store/companyStore.js';
import {
  refuseDocumentContent,
  storeAnnualAccountsBatch,
  storeDocumentContent,
  storeUnparsedDocument,
  storeDocumentListingsBatch,
  type DocumentStoreResult,
} from '../store/documentStore.js';
import { parseAnnualAccount } from './annualAccountParser.js';
import { SEARCH_CAP, splitCappedTask } from './backfill.js';
import { addDays, changeWindows } from './changeWindows.js';
import type { FirmenbuchClient } from './firmenbuchClient.js';
import type { FirmenbuchJobs } from './jobs.js';

/** Bump when the annual-account parser changes what it derives; `npm run reparse` re-derives older rows. */
export const ANNUAL_ACCOUNT_PARSER_VERSION = 1;

export const ANNUAL_ACCOUNT_TYPE = '48';

export interface FirmenbuchJobDeps {
  sql: Sql;
  client: FirmenbuchClient;
  enqueue: Enqueue<FirmenbuchJobs>;
  /** Bulk adds for fan-out (change windows, search hits); one `enqueue` per job without it. */
  enqueueMany?: EnqueueMany<FirmenbuchJobs>;
  log: Logger;
  /** Reports a change window read whole (items fetched, the feed's watermark after it). */
  onRun?: (run: { outcome: 'success'; itemsFetched: number; watermark?: string }) => void;
  /** Backpressure and progress of a change window's fan-out; without, it is enqueued in slices only. */
  fanOut?: FanOutSupport;
}

/** Most stores of one kind in one transaction: bounds a batch's statement size and lock set. */
const MAX_BATCH = 32;
const MAX_FILING_BATCH_BYTES = 8_000_000;

/** XML documents are encoded as their declaration says, ISO-8859-1 without one (HVD XSD documentation). */
export function decodeXmlDocument(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /<\?xml[^>]*encoding=["']([^"']+)["']/i.exec(head)?.[1]?.toLowerCase();
  const encoding = declared === undefined ? 'latin1' : /utf-?8/.test(declared) ? 'utf8' : /8859-1|latin-?1/.test(declared) ? 'latin1' : 'utf8';
  return bytes.toString(encoding as BufferEncoding).replace(/^\uFEFF/, '');
}

/** Days re-read before the watermark on every poll: the register may publish a day's entries late. */
const OVERLAP_DAYS = 2;
const WATERMARK_KEY = { company: 'company-changes', document: 'document-changes' } as const;

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Moves a feed's watermark forward to the last day the window has read whole: `to`, or yesterday for
 * a window that reaches today (the register may still publish today's entries). Only a window that
 * starts at or before the day after the watermark moves it, so a later window finishing before an
 * earlier one cannot skip the earlier one's days (the next poll reads them again). Returns the
 * watermark after the move.
 */
async function advanceWatermark(sql: Sql, feed: 'company' | 'document', from: string, to: string): Promise<string | null> {
  const through = to < today() ? to : addDays(today(), -1);
  const [row] = await sql<{ watermark: string | null }[]>`
    INSERT INTO crawl_state (source, key, watermark) VALUES ('firmenbuch', ${WATERMARK_KEY[feed]}, ${through})
    ON CONFLICT (source, key) DO UPDATE SET watermark = greatest(crawl_state.watermark, EXCLUDED.watermark), updated_at = now()
      WHERE crawl_state.watermark IS NULL OR crawl_state.watermark >= ${addDays(from, -1)}
    RETURNING watermark`;
  return row?.watermark ?? null;
}

export function firmenbuchHandlers(deps: FirmenbuchJobDeps): Handlers<FirmenbuchJobs> {
  const { sql, client, enqueue, log } = deps;
  const enqueueAll: EnqueueMany<FirmenbuchJobs> = deps.enqueueMany ?? (async (key, payloads) => {
    for (const payload of payloads) await enqueue(key, payload);
  });
  // Keyed by company: two stores of one company never share a transaction.
  const companies = new GroupCommit<CompanyStoreItem, CompanyStoreResult>((items) => storeCompanyExtracts(sql, items), {
    maxBatch: MAX_BATCH, key: (item) => item.extract.fnr,
  });
  const listings = new GroupCommit<DocumentListingsItem, DocumentStoreResult & { unfetched?: string[] }>(
    (items) => storeDocumentListingsBatch(sql, items, { unfetchedOfType: ANNUAL_ACCOUNT_TYPE }),
    { maxBatch: MAX_BATCH, key: (item) => item.fnr },
  );
  // Filings carry their bytes twice (document content, raw XML): a few large ones fill a batch.
  const filings = new GroupCommit<AnnualAccountBatchItem, { changeIds: number[] } | null>((items) => storeAnnualAccountsBatch(sql, items), {
    maxBatch: MAX_BATCH, key: (item) => item.fnr, size: (item) => item.rawXml.length + (item.content?.length ?? 0), maxSize: MAX_FILING_BATCH_BYTES,
  });
  /** Decodes, parses and stores a fetched annual account: XML into figures, PDF into text; the bytes always. */
  async function storeAnnualAccount(fnr: string, documentKey: string, doc: DocumentContent) {
    if (!doc.content) throw new UnrecoverableInputError(`document ${documentKey} came without content`);
    // The listing's content type and filing date are read only when the document does not name its
    // type; otherwise the store takes the filing date from the document row in its own statement.
    let filedOn: string | null | undefined;
    let contentType = doc.contentType;
    if (!contentType) {
      const [meta] = await sql<{ contentType: string | null; filedOn: string | null }[]>`
        SELECT content_type, to_char(filed_on, 'YYYY-MM-DD') AS filed_on FROM document WHERE document_key = ${documentKey}`;
      contentType = meta?.contentType ?? (documentKey.endsWith('_PDF') ? 'application/pdf' : 'application/xml');
      filedOn = meta?.filedOn ?? null;
    }
    if (contentType.includes('pdf')) {
      // Loaded on the first PDF only: pdf.js adds much RSS (docs/memory.md) and most annual
      // accounts are XML.
      const { extractPdfText } = await import('../documents/pdfText.js');
      const { text, pages } = await extractPdfText(doc.content);
      await storeDocumentContent(sql, documentKey, doc.content, text);
      return { kind: 'pdf', pages };
    }
    // The bytes are always kept: a filing that does not parse (or cannot be stored) keeps its input in
    // the database as well as on the job. A filing that parses stores bytes and figures in one transaction.
    const xml = decodeXmlDocument(doc.content);
    let parsed;
    try {
      parsed = parseAnnualAccount(xml);
    } catch (err) {
      // Kept with the reason: the profile says the filing failed, and npm run reparse retries it.
      await storeUnparsedDocument(sql, documentKey, doc.content, (err as Error).message);
      throw new UnrecoverableInputError(`annual account ${documentKey} does not parse: ${(err as Error).message}`, xml, { cause: err });
    }
    let stored;
    try {
      stored = await filings.submit({
        documentKey, fnr, parsed, rawXml: xml, filedOn, parserVersion: ANNUAL_ACCOUNT_PARSER_VERSION, content: doc.content,
      });
    } catch (err) {
      await storeDocumentContent(sql, documentKey, doc.content, null).catch(() => undefined);
      throw err;
    }
    return { kind: 'xml', changed: stored !== null, documentDate: parsed.documentDate };
  }

  return {
    poll: async ({ feed }) => {
      const [state] = await sql<{ watermark: string | null }[]>`
        SELECT watermark FROM crawl_state WHERE source = 'firmenbuch' AND key = ${WATERMARK_KEY[feed]}`;
      const from = addDays(state?.watermark ?? addDays(today(), -1), -OVERLAP_DAYS);
      const windows = changeWindows(from, today());
      await enqueueAll(feed === 'company' ? 'companyChanges' : 'documentChanges', windows);
      return { windows: windows.length, from };
    },

    backfill: async (task) => {
      const result = await client.searchCompanies({
        firmenwortlaut: `${task.prefix}*`, exakteSuche: true, suchbereich: 1, rechtsform: task.legalForm, ortnr: task.ortnr,
      });
      if (result.hits.length >= SEARCH_CAP) {
        const children = splitCappedTask(task);
        if (children.length > 0) {
          await enqueueAll('backfill', children);
          return { capped: true, split: children.length };
        }
        log.warn({ task }, 'backfill search still capped at 1000 hits after every split; the rest of this prefix is not reached');
      }
      await enqueueAll('company', result.hits.map((hit) => ({ fnr: hit.fnr, vnr: null })));
      return { companies: result.hits.length };
    },

    // A window's companies are enqueued in bounded slices (pipeline/jobs/fanOut.ts); the watermark moves
    // only once all are enqueued.
    companyChanges: async ({ from, to }, job) => {
      const { total } = await fanOut({
        job, window: `${from}..${to}`, support: deps.fanOut,
        fetch: async () => ({ items: (await client.companyChanges(from, to)).changes.map((change) => ({ fnr: change.fnr, vnr: change.vnr })) }),
        enqueue: (slice) => enqueueAll('company', slice),
      });
      const watermark = await advanceWatermark(sql, 'company', from, to);
      deps.onRun?.({ outcome: 'success', itemsFetched: total, ...(watermark ? { watermark } : {}) });
      return { changes: total, watermark };
    },

    documentChanges: async ({ from, to }, job) => {
      const { total, meta } = await fanOut({
        job, window: `${from}..${to}`, support: deps.fanOut,
        fetch: async () => {
          const result = await client.documentChanges(from, to);
          // The document feed carries only the FN digits (KEY prefix): the check letter follows from them.
          const fnrs = new Set<string>();
          for (const doc of result.documents) {
            if (doc.fnrDigits) fnrs.add(doc.fnrDigits + fnrCheckLetter(Number(doc.fnrDigits)));
          }
          return { items: [...fnrs].map((fnr) => ({ fnr })), meta: { documents: result.documents.length } };
        },
        enqueue: (slice) => enqueueAll('documentList', slice),
      });
      await advanceWatermark(sql, 'document', from, to);
      deps.onRun?.({ outcome: 'success', itemsFetched: meta.documents ?? 0 });
      return { documents: meta.documents ?? 0, companies: total };
    },

    company: async ({ fnr, vnr }) => {
      const { extract } = await client.extract(fnr);
      if (extract.fnr !== fnr) log.warn({ requested: fnr, answered: extract.fnr }, 'register answered another FN');
      const stored = await companies.submit({ extract, vnr: vnr ?? null });
      // A new company's documents are listed, unless a listing stored them lately (the document feed
      // got there first): fetching the same list again would change nothing.
      if (stored.action === 'created' && !stored.listedLately) await enqueue('documentList', { fnr: extract.fnr });
      return { action: stored.action, changedFields: stored.changedFields };
    },

    documentList: async ({ fnr }) => {
      const result = await client.listDocuments(fnr);
      const relevant = result.documents.filter((d) => d.fnr === null || d.fnr === fnr);
      // Annual accounts are fetched eagerly (their figures feed the screener); other documents on demand.
      // The store reads the company's unfetched annual accounts in the round trip of its writes.
      const stored = await listings.submit({ fnr, listings: relevant });
      const pending = stored.unfetched ?? [];
      await enqueueAll('annualAccount', pending.map((documentKey) => ({ fnr, documentKey })));
      return { created: stored.created.length, updated: stored.updated.length, toFetch: pending.length };
    },

    annualAccount: async ({ fnr, documentKey }) => {
      // A large document keeps its read slot until it is stored (heldDocument): at most two in memory at once.
      const { doc, release } = await client.heldDocument(documentKey).catch(async (err: unknown) => {
        // Too large to take: recorded on the document (listings stop asking for it), and the job fails.
        if (err instanceof UpstreamBodyTooLargeError) await refuseDocumentContent(sql, documentKey, err.message);
        throw err;
      });
      try {
        return await storeAnnualAccount(fnr, documentKey, doc);
      } finally {
        release();
      }
    },
  };
}
