// Re-derives every annual account's figures from its stored XML, without refetching: after a parser
// fix, `npm run reparse` brings the stored figures in line, with a business change row wherever a
// company's figures changed. Filings that still do not parse are counted and left as they are.
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { storeAnnualAccount } from '../store/documentStore.js';
import { parseAnnualAccount } from './annualAccountParser.js';
import { ANNUAL_ACCOUNT_PARSER_VERSION } from './firmenbuchJobs.js';

export interface ReparseSummary {
  filings: number;
  changed: number;
  failed: number;
}

export async function reparseAnnualAccounts(sql: Sql, log: Logger, batchSize = 200): Promise<ReparseSummary> {
  const summary: ReparseSummary = { filings: 0, changed: 0, failed: 0 };
  let after = '';
  for (;;) {
    const batch = await sql<{ documentKey: string; fnr: string; rawXml: string; filedOn: string | null }[]>`
      SELECT document_key, fnr, raw_xml, to_char(filed_on, 'YYYY-MM-DD') AS filed_on
        FROM annual_account WHERE document_key > ${after} ORDER BY document_key LIMIT ${batchSize}`;
    if (batch.length === 0) return summary;
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
}
