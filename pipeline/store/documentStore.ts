// Stores register documents (Urkundensammlung) and the annual accounts parsed from them, each with
// its change rows in the same transaction: a new document is a document change; a new or re-derived
// filing changes the company's figures, which is a business change.
import type {
  AnnualAccountBatchItem, AnnualAccountInput, DocumentListing, DocumentListingsItem, ParsedAnnualAccount,
} from '../../schemas/firmenbuchRecords.js';
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

/** Keys of the company's documents of one type whose content has not been fetched (nor refused) yet. */
function unfetchedDocuments(sql: Sql | TransactionSql, fnr: string, documentTypeCode: string) {
  return sql<{ documentKey: string }[]>`
    SELECT document_key FROM document
     WHERE fnr = ${fnr} AND document_type_code = ${documentTypeCode} AND content_fetched_at IS NULL AND content_refused IS NULL`;
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

/**
 * Keeps the bytes the API fetched live for a client, only if the pipeline has not stored the document
 * meanwhile: the pipeline's copy may carry the PDF's extracted text, which this one must not wipe.
 */
export async function keepFetchedContent(sql: Sql, key: string, content: Buffer): Promise<void> {
  await sql`
    UPDATE document SET content = ${content}, content_fetched_at = now(), size_bytes = coalesce(size_bytes, ${content.length})
     WHERE document_key = ${key} AND content IS NULL`;
}

/** Keeps a fetched document's bytes (and extracted text for PDFs); content is not a change of its own. */
export async function storeDocumentContent(sql: Sql, key: string, content: Buffer, textContent: string | null): Promise<void> {
  await sql`
    UPDATE document SET content = ${content}, text_content = ${textContent}, content_fetched_at = now(),
           size_bytes = coalesce(size_bytes, ${content.length})
     WHERE document_key = ${key}`;
}

/** The longest parse error kept on a document: the parser's message names the element, not the whole input. */
const MAX_PARSE_ERROR_CHARS = 1000;

/**
 * Keeps the bytes of an annual account that does not parse, with the parser's reason: the profile
 * shows the filing as failed, and npm run reparse tries it again. A later successful parse clears it.
 */
export async function storeUnparsedDocument(sql: Sql, key: string, content: Buffer, reason: string): Promise<void> {
  await sql`
    UPDATE document SET content = ${content}, text_content = NULL, content_fetched_at = now(),
           size_bytes = coalesce(size_bytes, ${content.length}), parse_error = ${reason.slice(0, MAX_PARSE_ERROR_CHARS)}
     WHERE document_key = ${key}`;
}

/** A stored annual account that still does not parse: the new reason replaces the old one. */
export async function recordParseError(sql: Sql, key: string, reason: string): Promise<void> {
  await sql`UPDATE document SET parse_error = ${reason.slice(0, MAX_PARSE_ERROR_CHARS)} WHERE document_key = ${key}`;
}

/** Records why a document's content is not stored (too large); its metadata stays as listed. */
export async function refuseDocumentContent(sql: Sql, key: string, reason: string): Promise<void> {
  await sql`UPDATE document SET content_refused = ${reason}, updated_at = now() WHERE document_key = ${key}`;
}

/**
 * Stores one parsed filing (insert, or update when a re-parse derives different values) and records
 * a business change for the company whose figures it changes. Returns null when nothing changed.
 */
export async function storeAnnualAccount(sql: Sql, input: AnnualAccountInput): Promise<{ changeIds: number[] } | null> {
  // The batch writer with one item: one set of statements for both paths.
  return (await annualAccountBatch(sql, [input], [figuresJsonOf(input.parsed)]))[0]!;
}

// ---------------------------------------------------------------------------------------------------
// Batches (group commit, pipeline/jobs/groupCommit.ts): the same writes for several companies in one
// transaction. Every statement has one text whatever the row count (jsonb_to_recordset), so Postgres
// plans it once per connection. When a batch fails, each item is written alone, so a bad one fails
// alone; results come back per item, in order.

type ListingsResult = DocumentStoreResult & { unfetched?: string[] };

async function listingsBatch(sql: Sql, items: DocumentListingsItem[], type: string | undefined): Promise<ListingsResult[]> {
  const keys = items.flatMap((i) => i.listings.map((l) => l.key));
  const fnrs = items.map((i) => i.fnr);
  return sql.begin(async (tx) => {
    // Locked in key order, so two batches sharing documents cannot deadlock on them.
    const existing = new Map(
      (await tx<{ documentKey: string; documentDate: string | null; balanceSheetDate: string | null; sizeClass: string | null; filedOn: string | null; contentType: string | null; sizeBytes: number | null; remark: string | null }[]>`
        SELECT document_key, to_char(document_date, 'YYYY-MM-DD') AS document_date,
               to_char(balance_sheet_date, 'YYYY-MM-DD') AS balance_sheet_date, size_class,
               to_char(filed_on, 'YYYY-MM-DD') AS filed_on, content_type, size_bytes, remark
          FROM document WHERE document_key = ANY(${keys}::text[]) ORDER BY document_key FOR UPDATE`).map((r) => [r.documentKey, r]),
    );
    const results: ListingsResult[] = [];
    const rows: unknown[] = [];
    const changes: NewChange[] = [];
    for (const { fnr, listings } of items) {
      const created: string[] = [];
      const updated: string[] = [];
      for (const l of listings) {
        const before = existing.get(l.key);
        const changed = before
          ? LISTING_FIELDS.filter(([field]) => (before as Record<string, unknown>)[field] !== l[field]).map(([, name]) => name)
          : [];
        if (before && changed.length === 0) continue;
        rows.push({
          document_key: l.key, fnr, az: l.az, document_type_code: l.documentType?.code ?? null, document_type_text: l.documentType?.text ?? null,
          document_date: l.documentDate, balance_sheet_date: l.balanceSheetDate, size_class: l.sizeClass, vnr: l.vnr, filed_on: l.filedOn,
          content_type: l.contentType, file_extension: l.fileExtension, size_bytes: l.sizeBytes, remark: l.remark,
        });
        (before ? updated : created).push(l.key);
        changes.push({ type: 'document', fnr, action: before ? 'updated' : 'created', documentKey: l.key, changedFields: before ? changed : [] });
      }
      results.push({ created, updated, changeIds: [] });
    }
    // The upsert, the change rows and the read of unfetched documents go out as one pipeline.
    const written = rows.length === 0 ? undefined : tx`
      INSERT INTO document (document_key, fnr, az, document_type_code, document_type_text, document_date, balance_sheet_date,
                            size_class, vnr, filed_on, content_type, file_extension, size_bytes, remark)
      SELECT document_key, fnr, az, document_type_code, document_type_text, document_date, balance_sheet_date,
             size_class, vnr, filed_on, content_type, file_extension, size_bytes, remark
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb)
          AS r (document_key text, fnr text, az text, document_type_code text, document_type_text text, document_date date,
                balance_sheet_date date, size_class text, vnr text, filed_on date, content_type text, file_extension text,
                size_bytes bigint, remark text)
      ON CONFLICT (document_key) DO UPDATE SET
        az = EXCLUDED.az, document_type_code = EXCLUDED.document_type_code, document_type_text = EXCLUDED.document_type_text,
        document_date = EXCLUDED.document_date, balance_sheet_date = EXCLUDED.balance_sheet_date, size_class = EXCLUDED.size_class,
        vnr = EXCLUDED.vnr, filed_on = EXCLUDED.filed_on, content_type = EXCLUDED.content_type,
        file_extension = EXCLUDED.file_extension, size_bytes = EXCLUDED.size_bytes, remark = EXCLUDED.remark, updated_at = now()`;
    const recorded = recordChanges(tx, changes);
    const pending = type === undefined ? undefined : tx<{ fnr: string; documentKey: string }[]>`
      SELECT fnr, document_key FROM document
       WHERE fnr = ANY(${fnrs}::text[]) AND document_type_code = ${type} AND content_fetched_at IS NULL`;
    const [, changeIds, unfetched] = await Promise.all([written, recorded, pending]);
    // Change rows were inserted in item order: hand each item its own ids.
    let next = 0;
    for (const r of results) {
      const n = r.created.length + r.updated.length;
      r.changeIds = changeIds.slice(next, next + n);
      next += n;
    }
    if (unfetched) {
      const byFnr = new Map<string, string[]>();
      for (const row of unfetched) {
        const list = byFnr.get(row.fnr);
        if (list) list.push(row.documentKey);
        else byFnr.set(row.fnr, [row.documentKey]);
      }
      items.forEach((item, i) => {
        results[i]!.unfetched = byFnr.get(item.fnr) ?? [];
      });
    }
    return results;
  });
}

/**
 * storeDocumentListings for several companies. A batch whose companies or keys repeat, or whose
 * transaction fails, is written item by item with storeDocumentListings itself.
 */
export async function storeDocumentListingsBatch(
  sql: Sql,
  items: DocumentListingsItem[],
  options: { unfetchedOfType?: string } = {},
): Promise<Array<ListingsResult | Error>> {
  const keys = items.flatMap((i) => i.listings.map((l) => l.key));
  const distinct = new Set(keys).size === keys.length && new Set(items.map((i) => i.fnr)).size === items.length;
  if (distinct && items.length > 1) {
    try {
      return await listingsBatch(sql, items, options.unfetchedOfType);
    } catch {
      // written one by one below
    }
  }
  const results: Array<ListingsResult | Error> = [];
  for (const item of items) {
    try {
      results.push(await storeDocumentListings(sql, item.fnr, item.listings, options));
    } catch (err) {
      results.push(err instanceof Error ? err : new Error(String(err)));
    }
  }
  return results;
}

/** The figures as JSON text with the parser's decimal strings as numbers (never a float on the way). */
function figuresJsonOf(p: ParsedAnnualAccount): string {
  // jsonb numbers are Postgres numerics: exact, and compared by value (1.50 = 1.5).
  for (const [key, value] of Object.entries(p.figures)) {
    if (value !== null && !/^-?\d+(\.\d+)?$/.test(value)) throw new Error(`figure ${key} is not a decimal: ${value}`);
  }
  return `{${Object.entries(p.figures).map(([k, v]) => `${JSON.stringify(k)}:${v ?? 'null'}`).join(',')}}`;
}

/** storeAnnualAccount's writes for filings of distinct companies in one transaction. */
async function annualAccountBatch(sql: Sql, items: AnnualAccountBatchItem[], figures: string[]): Promise<Array<{ changeIds: number[] } | null>> {
  // Row sets as JSON text; figures are spliced in as JSON text so their decimals stay exact.
  const compare = `[${items.map((item, i) => `{"document_key":${JSON.stringify(item.documentKey)},"figures":${figures[i]},"document_date":${JSON.stringify(item.parsed.documentDate)}}`).join(',')}]`;
  return sql.begin(async (tx) => {
    const [, , before] = await Promise.all([
      Promise.all(items.map((item) => item.content
        ? tx`
            UPDATE document SET content = ${item.content}, text_content = ${null}, content_fetched_at = now(),
                   size_bytes = coalesce(size_bytes, ${item.content.length})
             WHERE document_key = ${item.documentKey}`
        : undefined)),
      // A filing that parses now is no longer failed (a reparse, or a new fetch after a parser fix).
      tx`UPDATE document SET parse_error = NULL WHERE document_key = ANY(${items.map((i) => i.documentKey)}::text[]) AND parse_error IS NOT NULL`,
      tx<{ documentKey: string; same: boolean }[]>`
        SELECT a.document_key, a.figures = r.figures AND a.document_date IS NOT DISTINCT FROM r.document_date AS same
          FROM annual_account a JOIN jsonb_to_recordset(${compare}::text::jsonb) AS r (document_key text, figures jsonb, document_date date)
            ON a.document_key = r.document_key
         ORDER BY a.document_key FOR UPDATE OF a`,
    ]);
    const same = new Set(before.filter((r) => r.same).map((r) => r.documentKey));
    const unchanged = items.filter((item) => same.has(item.documentKey));
    const changed = items.map((item, i) => ({ item, figures: figures[i]! })).filter(({ item }) => !same.has(item.documentKey));
    const writes: Array<PromiseLike<unknown> | undefined> = [];
    if (unchanged.length > 0) {
      const rows = unchanged.map((item) => ({ document_key: item.documentKey, raw_xml: item.rawXml, parser_version: item.parserVersion }));
      writes.push(tx`
        UPDATE annual_account a SET raw_xml = r.raw_xml, parser_version = r.parser_version
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) AS r (document_key text, raw_xml text, parser_version integer)
         WHERE a.document_key = r.document_key`);
    }
    let latest: PromiseLike<Array<{ fnr: string; documentKey: string }>> | undefined;
    if (changed.length > 0) {
      const rows = `[${changed.map(({ item, figures: f }) => {
        const p = item.parsed;
        const fields = JSON.stringify({
          document_key: item.documentKey, fnr: item.fnr, document_date: p.documentDate, fiscal_year_start: p.fiscalYearStart,
          fiscal_year_end: p.fiscalYearEnd, currency: p.currency, unit: p.unit, unit_factor: String(p.unitFactor), size_class: p.sizeClass,
          format: p.format, pnl_method: p.pnlMethod, kind: p.kind, filed_on: item.filedOn ?? null, filed_on_of_document: item.filedOn === undefined,
          has_positions: p.hasPositions, warnings: p.warnings, raw_xml: item.rawXml, parser_version: item.parserVersion,
        });
        return `${fields.slice(0, -1)},"figures":${f}}`;
      }).join(',')}]`;
      writes.push(tx`
        INSERT INTO annual_account (document_key, fnr, document_date, fiscal_year_start, fiscal_year_end, currency, unit, unit_factor,
                                    size_class, format, pnl_method, kind, filed_on, has_positions, figures, warnings, raw_xml,
                                    parser_version, parsed_at)
        SELECT r.document_key, r.fnr, r.document_date, r.fiscal_year_start, r.fiscal_year_end, r.currency, r.unit, r.unit_factor,
               r.size_class, r.format, r.pnl_method, r.kind,
               CASE WHEN r.filed_on_of_document THEN (SELECT d.filed_on FROM document d WHERE d.document_key = r.document_key) ELSE r.filed_on END,
               r.has_positions, r.figures, r.warnings, r.raw_xml, r.parser_version, now()
          FROM jsonb_to_recordset(${rows}::text::jsonb)
            AS r (document_key text, fnr text, document_date date, fiscal_year_start date, fiscal_year_end date, currency text, unit text,
                  unit_factor numeric, size_class text, format text, pnl_method text, kind text, filed_on date, filed_on_of_document boolean,
                  has_positions boolean, warnings text[], raw_xml text, parser_version integer, figures jsonb)
        ON CONFLICT (document_key) DO UPDATE SET
          document_date = EXCLUDED.document_date, fiscal_year_start = EXCLUDED.fiscal_year_start,
          fiscal_year_end = EXCLUDED.fiscal_year_end, currency = EXCLUDED.currency, unit = EXCLUDED.unit,
          unit_factor = EXCLUDED.unit_factor, size_class = EXCLUDED.size_class, format = EXCLUDED.format,
          pnl_method = EXCLUDED.pnl_method, kind = EXCLUDED.kind, filed_on = EXCLUDED.filed_on,
          has_positions = EXCLUDED.has_positions, figures = EXCLUDED.figures, warnings = EXCLUDED.warnings,
          raw_xml = EXCLUDED.raw_xml, parser_version = EXCLUDED.parser_version, parsed_at = now()`);
      latest = tx<{ fnr: string; documentKey: string }[]>`
        SELECT DISTINCT ON (fnr) fnr, document_key FROM annual_account WHERE fnr = ANY(${changed.map(({ item }) => item.fnr)}::text[])
         ORDER BY fnr, document_date DESC NULLS LAST, document_key DESC`;
    }
    const [, latestRows] = await Promise.all([Promise.all(writes), latest]);
    const latestOf = new Map((latestRows ?? []).map((r) => [r.fnr, r.documentKey]));
    const changes: NewChange[] = changed.map(({ item }) => ({
      type: 'business', fnr: item.fnr, action: 'updated',
      changedFields: latestOf.get(item.fnr) === item.documentKey ? ['latestKeyFigures', 'parsedJahresabschluesse'] : ['parsedJahresabschluesse'],
    }));
    const changeIds = await recordChanges(tx, changes);
    const idOf = new Map(changed.map(({ item }, i) => [item.documentKey, changeIds[i]!]));
    return items.map((item) => (same.has(item.documentKey) ? null : { changeIds: [idOf.get(item.documentKey)!] }));
  });
}

/**
 * storeAnnualAccount for filings of several companies: one transaction when that succeeds, else one
 * per filing. Filings of the same company are written one after the other, so which of them is the
 * latest is decided as consecutive transactions would.
 */
export async function storeAnnualAccountsBatch(sql: Sql, items: AnnualAccountBatchItem[]): Promise<Array<{ changeIds: number[] } | null | Error>> {
  const results: Array<{ changeIds: number[] } | null | Error> = new Array(items.length);
  const valid: number[] = [];
  const figures: string[] = [];
  items.forEach((item, i) => {
    try {
      figures.push(figuresJsonOf(item.parsed));
      valid.push(i);
    } catch (err) {
      results[i] = err as Error;
    }
  });
  const distinct = new Set(valid.map((i) => items[i]!.fnr)).size === valid.length;
  let done = false;
  if (distinct && valid.length > 1) {
    try {
      const written = await annualAccountBatch(sql, valid.map((i) => items[i]!), figures);
      valid.forEach((i, k) => {
        results[i] = written[k]!;
      });
      done = true;
    } catch {
      // written one by one below
    }
  }
  if (!done) {
    for (const [k, i] of valid.entries()) {
      try {
        results[i] = (await annualAccountBatch(sql, [items[i]!], [figures[k]!]))[0]!;
      } catch (err) {
        results[i] = err instanceof Error ? err : new Error(String(err));
      }
    }
  }
  return results;
}
