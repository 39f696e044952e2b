// Re-derives every annual account's figures from its stored XML, without refetching: after a parser
// fix, `npm run reparse` brings the stored figures in line, with a business change row wherever a
// company's figures changed. Then it retries every filing whose parse failed (document.parse_error,
// its XML kept): one that parses now gets its figures (and loses the error), one that still fails
// keeps the new reason. Filings that still do not parse are counted and left as they are.
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { recordParseError, storeAnnualAccount } from '../store/documentStore.js';
import { parseAnnualAccount } from './annualAccountParser.js';
import { ANNUAL_ACCOUNT_PARSER_VERSION, decodeXmlDocument } from './firmenbuchJobs.js';

export interface ReparseSummary {
  filings: number;
  changed: number;
  failed: number;
  /** Filings whose parse had failed, tried again. */
  retried: number;
  /** Of those, the ones that parse now. */
  recovered: number;
}

export async function reparseAnnualAccounts(sql: Sql, log: Logger, batchSize = 200): Promise<ReparseSummary> {
  const summary: ReparseSummary = { filings: 0, changed: 0, failed: 0, retried: 0, recovered: 0 };
  let after = '';
  for (;;) {
    const batch = await sql<{ documentKey: string; fnr: string; rawXml: string; filedOn: string | null }[]>`
      SELECT document_key, fnr, raw_xml, to_char(filed_on, 'YYYY-MM-DD') AS filed_on
        FROM annual_account WHERE document_key > ${after} ORDER BY document_key LIMIT ${batchSize}`;
    if (batch.length === 0) break;
    for (const row of batch) {
      summary.filings++;
      try {
        const parsed = parseAnnualAccount(row.rawXml);
        const stored = await storeAnnualAccount(sql, {
          documentKey: row.documentKey, fnr: row.fnr, parsed, rawXml: row.rawXml, filedOn: row.filedOn,
          parserVersion: ANNUAL_ACCOUNT_PARSER_VERSION,
        });
        if (stored) summary.changed++;
      } catch (err) {
        summary.failed++;
        log.warn({ documentKey: row.documentKey, err: (err as Error).message }, 'stored filing does not parse');
      }
    }
    after = batch[batch.length - 1]!.documentKey;
  }
  await retryFailedParses(sql, log, summary, batchSize);
  return summary;
}

/** The filings whose parse failed, from their kept XML (document.content), in key order. */
async function retryFailedParses(sql: Sql, log: Logger, summary: ReparseSummary, batchSize: number): Promise<void> {
  let after = '';
  for (;;) {
    // Keys first, content one document at a time: a batch of XML bodies could be large.
    const keys = await sql<{ documentKey: string; fnr: string; filedOn: string | null }[]>`
      SELECT document_key, fnr, to_char(filed_on, 'YYYY-MM-DD') AS filed_on FROM document
       WHERE parse_error IS NOT NULL AND document_key > ${after} ORDER BY document_key LIMIT ${batchSize}`;
    if (keys.length === 0) return;
    for (const { documentKey, fnr, filedOn } of keys) {
      const [doc] = await sql<{ content: Buffer | null }[]>`SELECT content FROM document WHERE document_key = ${documentKey}`;
      if (!doc?.content) continue; // refused or never fetched: nothing to parse
      summary.retried++;
      const xml = decodeXmlDocument(doc.content);
      try {
        const parsed = parseAnnualAccount(xml);
        await storeAnnualAccount(sql, { documentKey, fnr, parsed, rawXml: xml, filedOn, parserVersion: ANNUAL_ACCOUNT_PARSER_VERSION });
        summary.recovered++;
        summary.changed++;
      } catch (err) {
        summary.failed++;
        await recordParseError(sql, documentKey, (err as Error).message);
        log.warn({ documentKey, err: (err as Error).message }, 'failed filing still does not parse');
      }
    }
    after = keys[keys.length - 1]!.documentKey;
  }
}
