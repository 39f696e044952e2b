// Stores register documents (Urkundensammlung) and the annual accounts parsed from them, each with
// its change rows in the same transaction: a new document is a document change; a new or re-derived
// filing changes the company's figures, which is a business change.
import type { ParsedAnnualAccount } from '../firmenbuch/annualAccountParser.js';
import type { DocumentListing } from '../firmenbuch/registerParsers.js';
import type { Sql, TransactionSql } from '../../runtime/db.js';
import { recordChanges, type NewChange } from './changeLog.js';

export interface DocumentStoreResult {
  created: string[];
  updated: string[];
  changeIds: number[];
}

const LISTING_FIELDS: Array<[keyof DocumentListing, string]> = [
  ['documentDate', 'documentDate'], ['balanceSheetDate', 'balanceSheetDate'], ['sizeClass', 'sizeClass'],
  ['filedOn', 'filedOn'], ['contentType', 'contentType'], ['sizeBytes', 'sizeBytes'], ['remark', 'remark'],
];

/** Keys of the company's documents of one type whose content has not been fetched yet. */
function unfetchedDocuments(sql: Sql | TransactionSql, fnr: string, documentTypeCode: string) {
  return sql<{ documentKey: string }[]>`
    SELECT document_key FROM document
     WHERE fnr = ${fnr} AND document_type_code = ${documentTypeCode} AND content_fetched_at IS NULL`;
}

/**
 * Upserts a company's document list; unchanged documents write nothing. With `unfetchedOfType`, the
 * result also names the company's documents of that type whose content is still to be fetched (read
 * in the same round trip as the writes, so it includes the documents just listed).
 */
export async function storeDocumentListings(
  sql: Sql,
  fnr: string,
  listings: DocumentListing[],
  options: { unfetchedOfType?: string } = {},
): Promise<DocumentStoreResult & { unfetched?: string[] }> {
  const type = options.unfetchedOfType;
  if (listings.length === 0) {
    const unfetched = type === undefined ? undefined : (await unfetchedDocuments(sql, fnr, type)).map((r) => r.documentKey);
    return { created: [], updated: [], changeIds: [], ...(unfetched ? { unfetched } : {}) };
  }
  return sql.begin(async (tx) => {
    const keys = listings.map((l) => l.key);
    const existing = new Map(
      (await tx<{ documentKey: string; documentDate: string | null; balanceSheetDate: string | null; sizeClass: string | null; filedOn: string | null; contentType: string | null; sizeBytes: number | null; remark: string | null }[]>`
        SELECT document_key, to_char(document_date, 'YYYY-MM-DD') AS document_date,
               to_char(balance_sheet_date, 'YYYY-MM-DD') AS balance_sheet_date, size_class,
               to_char(filed_on, 'YYYY-MM-DD') AS filed_on, content_type, size_bytes, remark
          FROM document WHERE document_key = ANY(${keys}) FOR UPDATE`).map((r) => [r.documentKey, r]),
    );
    const created: string[] = [];
    const updated: string[] = [];
    const changes: NewChange[] = [];
    // The upserts, the change rows and the read of unfetched documents go out as one pipeline.
    const writes: Array<PromiseLike<unknown>> = [];
    for (const l of listings) {
      const before = existing.get(l.key);
      const changed = before
        ? LISTING_FIELDS.filter(([field]) => (before as Record<string, unknown>)[field] !== l[field]).map(([, name]) => name)
        : [];
      if (before && changed.length === 0) continue;
      writes.push(tx`
        INSERT INTO document (document_key, fnr, az, document_type_code, document_type_text, document_date, balance_sheet_date,
                              size_class, vnr, filed_on, content_type, file_extension, size_bytes, remark)
        VALUES (${l.key}, ${fnr}, ${l.az}, ${l.documentType?.code ?? null}, ${l.documentType?.text ?? null}, ${l.documentDate},
                ${l.balanceSheetDate}, ${l.sizeClass}, ${l.vnr}, ${l.filedOn}, ${l.contentType}, ${l.fileExtension},
                ${l.sizeBytes}, ${l.remark})
        ON CONFLICT (document_key) DO UPDATE SET
          az = EXCLUDED.az, document_type_code = EXCLUDED.document_type_code, document_type_text = EXCLUDED.document_type_text,
          document_date = EXCLUDED.document_date, balance_sheet_date = EXCLUDED.balance_sheet_date, size_class = EXCLUDED.size_class,
          vnr = EXCLUDED.vnr, filed_on = EXCLUDED.filed_on, content_type = EXCLUDED.content_type,
          file_extension = EXCLUDED.file_extension, size_bytes = EXCLUDED.size_bytes, remark = EXCLUDED.remark, updated_at = now()`);
      (before ? updated : created).push(l.key);
      changes.push({
        type: 'document', fnr, action: before ? 'updated' : 'created', documentKey: l.key,
        changedFields: before ? changed : [],
      });
    }
    const written = Promise.all(writes);
    const recorded = recordChanges(tx, changes);
    const pending = type === undefined ? undefined : unfetchedDocuments(tx, fnr, type);
    const [, changeIds, unfetched] = await Promise.all([written, recorded, pending]);
    return { created, updated, changeIds, ...(unfetched ? { unfetched: unfetched.map((r) => r.documentKey) } : {}) };
  });
}

/** Keeps a fetched document's bytes (and extracted text for PDFs); content is not a change of its own. */
export async function storeDocumentContent(sql: Sql, key: string, content: Buffer, textContent: string | null): Promise<void> {
  await sql`
    UPDATE document SET content = ${content}, text_content = ${textContent}, content_fetched_at = now(),
           size_bytes = coalesce(size_bytes, ${content.length})
     WHERE document_key = ${key}`;
}

export interface AnnualAccountInput {
  documentKey: string;
  fnr: string;
  parsed: ParsedAnnualAccount;
  rawXml: string;
  filedOn: string | null;
  parserVersion: number;
  /** The document's fetched bytes, stored (as storeDocumentContent does) in the same transaction. */
  content?: Buffer;
}

/**
 * Stores one parsed filing (insert, or update when a re-parse derives different values) and records
 * a business change for the company whose figures it changes. Returns null when nothing changed.
 */
export async function storeAnnualAccount(sql: Sql, input: AnnualAccountInput): Promise<{ changeIds: number[] } | null> {
  const p = input.parsed;
  // jsonb numbers are Postgres numerics: exact, and compared by value (1.50 = 1.5). The object is
  // written as JSON text from the parser's decimal strings, so no value passes through a float.
  for (const [key, value] of Object.entries(p.figures)) {
    if (value !== null && !/^-?\d+(\.\d+)?$/.test(value)) throw new Error(`figure ${key} is not a decimal: ${value}`);
  }
  const figuresJson = `{${Object.entries(p.figures).map(([k, v]) => `${JSON.stringify(k)}:${v ?? 'null'}`).join(',')}}`;
  const content = input.content;
  return sql.begin(async (tx) => {
    // Statements that do not depend on each other's results are pipelined (sent together, in order).
    const [, [before]] = await Promise.all([
      content
        ? tx`
            UPDATE document SET content = ${content}, text_content = ${null}, content_fetched_at = now(),
                   size_bytes = coalesce(size_bytes, ${content.length})
             WHERE document_key = ${input.documentKey}`
        : undefined,
      tx<{ same: boolean }[]>`
        SELECT figures = ${figuresJson}::text::jsonb AND document_date IS NOT DISTINCT FROM ${p.documentDate}::date AS same
          FROM annual_account WHERE document_key = ${input.documentKey} FOR UPDATE`,
    ]);
    if (before?.same) {
      await tx`UPDATE annual_account SET raw_xml = ${input.rawXml}, parser_version = ${input.parserVersion} WHERE document_key = ${input.documentKey}`;
      return null;
    }
    const [, [latest]] = await Promise.all([tx`
      INSERT INTO annual_account (document_key, fnr, document_date, fiscal_year_start, fiscal_year_end, currency, unit, unit_factor,
                                  size_class, format, pnl_method, kind, filed_on, has_positions, figures, warnings, raw_xml,
                                  parser_version, parsed_at)
      VALUES (${input.documentKey}, ${input.fnr}, ${p.documentDate}, ${p.fiscalYearStart}, ${p.fiscalYearEnd}, ${p.currency}, ${p.unit},
              ${p.unitFactor}, ${p.sizeClass}, ${p.format}, ${p.pnlMethod}, ${p.kind}, ${input.filedOn}, ${p.hasPositions},
              ${figuresJson}::text::jsonb, ${p.warnings}, ${input.rawXml}, ${input.parserVersion}, now())
      ON CONFLICT (document_key) DO UPDATE SET
        document_date = EXCLUDED.document_date, fiscal_year_start = EXCLUDED.fiscal_year_start,
        fiscal_year_end = EXCLUDED.fiscal_year_end, currency = EXCLUDED.currency, unit = EXCLUDED.unit,
        unit_factor = EXCLUDED.unit_factor, size_class = EXCLUDED.size_class, format = EXCLUDED.format,
        pnl_method = EXCLUDED.pnl_method, kind = EXCLUDED.kind, filed_on = EXCLUDED.filed_on,
        has_positions = EXCLUDED.has_positions, figures = EXCLUDED.figures, warnings = EXCLUDED.warnings,
        raw_xml = EXCLUDED.raw_xml, parser_version = EXCLUDED.parser_version, parsed_at = now()`,
    tx<{ documentKey: string }[]>`
      SELECT document_key FROM annual_account WHERE fnr = ${input.fnr}
       ORDER BY document_date DESC NULLS LAST, document_key DESC LIMIT 1`]);
    const fields = latest?.documentKey === input.documentKey ? ['latestKeyFigures', 'parsedJahresabschluesse'] : ['parsedJahresabschluesse'];
    const changeIds = await recordChanges(tx, [{ type: 'business', fnr: input.fnr, action: 'updated', changedFields: fields }]);
    return { changeIds };
  });
}
