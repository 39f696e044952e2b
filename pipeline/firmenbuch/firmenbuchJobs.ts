// The Firmenbuch job handlers. Each is small and idempotent: it fetches one thing, stores it with its
// change rows in one transaction, and enqueues the follow-up work with deterministic job ids.
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { fnrCheckLetter } from '../../schemas/identifiers.js';
import { UnrecoverableInputError } from '../jobs/errors.js';
import type { Enqueue, JobHandlers } from '../jobs/runJob.js';
import { storeCompanyExtract } from '../store/companyStore.js';
import { storeAnnualAccount, storeDocumentContent, storeDocumentListings } from '../store/documentStore.js';
import { parseAnnualAccount } from './annualAccountParser.js';
import { SEARCH_CAP, splitCappedTask } from './backfill.js';
import { addDays, changeWindows } from './changeWindows.js';
import type { FirmenbuchClient } from './firmenbuchClient.js';

/** Bump when the annual-account parser changes what it derives; `npm run reparse` re-derives older rows. */
export const ANNUAL_ACCOUNT_PARSER_VERSION = 1;

export const ANNUAL_ACCOUNT_TYPE = '48';

export interface FirmenbuchJobDeps {
  sql: Sql;
  client: FirmenbuchClient;
  enqueue: Enqueue;
  log: Logger;
}

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

/** Moves a feed's watermark forward to `to` once that window lies wholly in the past. */
async function advanceWatermark(sql: Sql, feed: 'company' | 'document', to: string): Promise<void> {
  if (to >= today()) return;
  await sql`
    INSERT INTO crawl_state (source, key, watermark) VALUES ('firmenbuch', ${WATERMARK_KEY[feed]}, ${to})
    ON CONFLICT (source, key) DO UPDATE SET watermark = greatest(crawl_state.watermark, EXCLUDED.watermark), updated_at = now()`;
}

export function firmenbuchHandlers(deps: FirmenbuchJobDeps): JobHandlers {
  const { sql, client, enqueue, log } = deps;
  return {
    poll: async ({ feed }) => {
      const [state] = await sql<{ watermark: string | null }[]>`
        SELECT watermark FROM crawl_state WHERE source = 'firmenbuch' AND key = ${WATERMARK_KEY[feed]}`;
      const from = addDays(state?.watermark ?? addDays(today(), -1), -OVERLAP_DAYS);
      const windows = changeWindows(from, today());
      for (const w of windows) await enqueue(feed === 'company' ? 'companyChanges' : 'documentChanges', w);
      return { windows: windows.length, from };
    },

    backfill: async (task) => {
      const result = await client.searchCompanies({
        firmenwortlaut: `${task.prefix}*`, exakteSuche: true, suchbereich: 1, rechtsform: task.legalForm, ortnr: task.ortnr,
      });
      if (result.hits.length >= SEARCH_CAP) {
        const children = splitCappedTask(task);
        if (children.length > 0) {
          for (const child of children) await enqueue('backfill', child);
          return { capped: true, split: children.length };
        }
        log.warn({ task }, 'backfill search still capped at 1000 hits after every split; the rest of this prefix is not reached');
      }
      for (const hit of result.hits) await enqueue('company', { fnr: hit.fnr, vnr: null });
      return { companies: result.hits.length };
    },

    companyChanges: async ({ from, to }) => {
      const result = await client.companyChanges(from, to);
      for (const change of result.changes) await enqueue('company', { fnr: change.fnr, vnr: change.vnr });
      await advanceWatermark(sql, 'company', to);
      return { changes: result.changes.length };
    },

    documentChanges: async ({ from, to }) => {
      const result = await client.documentChanges(from, to);
      // The document feed carries only the FN digits (KEY prefix): the check letter follows from them.
      const fnrs = new Set<string>();
      for (const doc of result.documents) {
        if (doc.fnrDigits) fnrs.add(doc.fnrDigits + fnrCheckLetter(Number(doc.fnrDigits)));
      }
      for (const fnr of fnrs) await enqueue('documentList', { fnr });
      await advanceWatermark(sql, 'document', to);
      return { documents: result.documents.length, companies: fnrs.size };
    },

    company: async ({ fnr, vnr }) => {
      const { extract } = await client.extract(fnr);
      if (extract.fnr !== fnr) log.warn({ requested: fnr, answered: extract.fnr }, 'register answered another FN');
      const stored = await storeCompanyExtract(sql, extract, { vnr: vnr ?? null });
      if (stored.action === 'created') await enqueue('documentList', { fnr: extract.fnr });
      return { action: stored.action, changedFields: stored.changedFields };
    },

    documentList: async ({ fnr }) => {
      const result = await client.listDocuments(fnr);
      const listings = result.documents.filter((d) => d.fnr === null || d.fnr === fnr);
      // Annual accounts are fetched eagerly (their figures feed the screener); other documents on demand.
      // The store reads the company's unfetched annual accounts in the round trip of its writes.
      const stored = await storeDocumentListings(sql, fnr, listings, { unfetchedOfType: ANNUAL_ACCOUNT_TYPE });
      const pending = stored.unfetched ?? [];
      for (const documentKey of pending) await enqueue('annualAccount', { fnr, documentKey });
      return { created: stored.created.length, updated: stored.updated.length, toFetch: pending.length };
    },

    annualAccount: async ({ fnr, documentKey }) => {
      const doc = await client.document(documentKey);
      if (!doc.content) throw new UnrecoverableInputError(`document ${documentKey} came without content`);
      const [meta] = await sql<{ contentType: string | null; filedOn: string | null }[]>`
        SELECT content_type, to_char(filed_on, 'YYYY-MM-DD') AS filed_on FROM document WHERE document_key = ${documentKey}`;
      const contentType = doc.contentType ?? meta?.contentType ?? (documentKey.endsWith('_PDF') ? 'application/pdf' : 'application/xml');
      if (contentType.includes('pdf')) {
        // Loaded on the first PDF only: pdf.js is large (about 150 MB more RSS under tsx) and most
        // annual accounts are XML.
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
        await storeDocumentContent(sql, documentKey, doc.content, null);
        throw new UnrecoverableInputError(`annual account ${documentKey} does not parse: ${(err as Error).message}`, xml, { cause: err });
      }
      let stored;
      try {
        stored = await storeAnnualAccount(sql, {
          documentKey, fnr, parsed, rawXml: xml, filedOn: meta?.filedOn ?? null, parserVersion: ANNUAL_ACCOUNT_PARSER_VERSION,
          content: doc.content,
        });
      } catch (err) {
        await storeDocumentContent(sql, documentKey, doc.content, null).catch(() => undefined);
        throw err;
      }
      return { kind: 'xml', changed: stored !== null, documentDate: parsed.documentDate };
    },
  };
}
