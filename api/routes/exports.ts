// POST /exports/businesses: companies named by an fnr set, a list or a saved query, as CSV or Excel
// workbook. Account-bound (exports by list or saved query need an account, and the contract counts
// exports among the per-account features). Nothing is stored and no link is returned.
//   - CSV is streamed as the database cursor delivers rows (one batch in memory at a time): UTF-8
//     with BOM, comma-separated, a header row of column keys, formula injection escaped.
//   - The workbook is streamed too (exceljs's streaming writer: each row is written to the zip as it
//     comes, inline strings, no shared-string table), so an export holds one batch of rows in memory.
//   - At most EXPORT_CONCURRENCY exports run at once per process (../exportGate.ts): others wait a
//     moment, then get 503 with Retry-After.
//   - No rows: 204 without a body, never an empty file.
//   - More than 1000 companies by fnr set or list: 400, refused rather than cut short.
//   - A saved query exports its first 1000 matches in screener order.
import type * as ExcelJsModule from 'exceljs';
import { Readable, Transform, pipeline } from 'node:stream';
import Router from '@koa/router';
import { stringify } from 'csv-stringify';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import { fnrFilterValue } from '../../schemas/identifiers.js';
import type { Clock } from '../clock.js';
import { badRequest, notFound } from '../errors.js';
import { ExportGate } from '../exportGate.js';
import { bodyOf } from '../middleware/requestBody.js';
import { cellValue, csvCell, DEFAULT_EXPORT_COLUMNS, EXPORT_COLUMNS, type ExportColumn } from '../presenters/exportColumns.js';
import { requireAccount } from '../requestState.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import { savedQueryMatches } from '../screener/screenerQuery.js';
import { exportRowsCursor, type ExportRow } from '../stores/exportRows.js';
import { listMemberFnrs } from '../stores/lists.js';
import { getSavedQuery } from '../stores/savedQueries.js';
import { parseBody } from '../validation.js';

export const MAX_EXPORT_COMPANIES = 1000;
const CSV_TYPE = 'text/csv; charset=utf-8';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const columnKeys = [...EXPORT_COLUMNS.keys()] as [string, ...string[]];

export const ExportBusinesses = z
  .strictObject({
    format: z.enum(['csv', 'xlsx'], { error: 'must be csv or xlsx' }),
    fnrs: z
      .array(z.string({ error: 'must be a string' }))
      .min(1, 'must hold at least one company')
      .max(MAX_EXPORT_COMPANIES, `must hold at most ${MAX_EXPORT_COMPANIES} companies; larger exports are refused, not cut short`)
      .optional()
      .meta({ description: 'Companies by fnr (normalised like the fnr filter), exported in this order; unknown fnrs give no row.' }),
    listId: z.uuid({ error: 'must be the id of one of your lists' }).optional().meta({ description: 'One of your lists, in list order.' }),
    queryId: z.uuid({ error: 'must be the id of one of your saved queries' }).optional()
      .meta({ description: 'One of your saved queries: its first 1000 matches in screener order.' }),
    columns: z
      .array(z.enum(columnKeys, {
        error: (issue) => `${String(JSON.stringify(issue.input)).slice(0, 100)} is not an export column: ${columnKeys.slice(0, 9).join(', ')}, a figure such as guv.Umsatzerloese, legalFormCode, courtCode or street`,
      }))
      .min(1, 'must name at least one column')
      .optional()
      .meta({ description: 'Columns in the order wanted. Default: fnr, name, legalForm, city, zipCode, isActive, isScheinunternehmen, hasEdikt, documentDate and the 47 figures.' }),
  })
  .refine((b) => [b.fnrs, b.listId, b.queryId].filter((v) => v !== undefined).length === 1, {
    error: 'name the companies by exactly one of fnrs, listId or queryId',
    path: ['(body)'],
  })
  .meta({ id: 'ExportBusinesses' });

type ExportRequest = z.infer<typeof ExportBusinesses>;

/** The companies to export, in output order, never more than 1000. */
async function resolveCompanies(sql: Sql, search: SearchBackend, accountId: string, input: ExportRequest): Promise<string[]> {
  if (input.fnrs) return [...new Set(input.fnrs.map(fnrFilterValue))];
  if (input.listId) {
    const members = await listMemberFnrs(sql, accountId, input.listId);
    if (!members) throw notFound(`You have no list ${input.listId}.`);
    if (members.length > MAX_EXPORT_COMPANIES) {
      throw badRequest(`The list holds ${members.length} companies; exports are limited to ${MAX_EXPORT_COMPANIES} and larger ones are refused, not cut short.`, {
        listId: [`holds more than ${MAX_EXPORT_COMPANIES} companies`],
      });
    }
    return members;
  }
  const saved = await getSavedQuery(sql, accountId, input.queryId!);
  if (!saved) throw notFound(`You have no saved query ${input.queryId}.`);
  // The search backend of GET /businesses: the same companies in the same order as the screener answers.
  return savedQueryMatches(sql, search, saved.filters, MAX_EXPORT_COMPANIES);
}

function chosenColumns(keys: string[] | undefined): ExportColumn[] {
  return keys ? [...new Set(keys)].map((k) => EXPORT_COLUMNS.get(k)!) : [...DEFAULT_EXPORT_COLUMNS];
}

/** The first batch of the cursor, so that an export without rows is a 204 before any header is sent. */
async function openRows(sql: Sql, fnrs: string[]) {
  const iterator = exportRowsCursor(sql, fnrs)[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return undefined;
  async function* rows(): AsyncGenerator<ExportRow> {
    try {
      yield* first.value;
      for (let batch = await iterator.next(); !batch.done; batch = await iterator.next()) yield* batch.value;
    } finally {
      // Closes the cursor when the client goes away mid-stream, too.
      await iterator.return?.();
    }
  }
  return rows();
}

function fileName(clock: Clock, extension: string): string {
  return `companies-${new Date(clock()).toISOString().slice(0, 10)}.${extension}`;
}

function sendCsv(ctx: Context, rows: AsyncGenerator<ExportRow>, columns: ExportColumn[], log: Logger): void {
  const toRecord = new Transform({
    objectMode: true,
    transform(row: ExportRow, _enc, done) {
      done(null, columns.map((c) => csvCell(c, row)));
    },
  });
  const csv = stringify({ bom: true, header: true, columns: columns.map((c) => c.key), record_delimiter: 'windows' });
  pipeline(Readable.from(rows), toRecord, csv, (err) => {
    if (err && err.name !== 'AbortError') log.error({ err, correlationId: ctx.state.correlationId as string }, 'CSV export failed mid-stream');
  });
  ctx.type = CSV_TYPE;
  ctx.body = csv;
}

/** Writes the workbook into `out` row by row as the cursor delivers them; ends `out` when done. */
type WorkbookWriter = typeof ExcelJsModule.stream.xlsx.WorkbookWriter;

const DATE_STYLE: Partial<ExcelJsModule.Style> = { numFmt: 'yyyy-mm-dd' };
const PLAIN_STYLE: Partial<ExcelJsModule.Style> = {};
/** Rows written between two turns of the event loop, so one turn stays a few milliseconds long. */
const ROWS_PER_TURN = 5;

async function writeWorkbook(Writer: WorkbookWriter, out: Transform, rows: AsyncGenerator<ExportRow>, columns: ExportColumn[]): Promise<void> {
  const workbook = new Writer({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Companies', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.key, key: c.key, width: c.kind === 'text' ? 30 : 16, ...(c.kind === 'date' ? { style: { numFmt: 'yyyy-mm-dd' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  // One style object per column kind: exceljs caches a style's id by object, and would otherwise
  // work out the style of every cell anew.
  const styles = columns.map((c) => (c.kind === 'date' ? DATE_STYLE : PLAIN_STYLE));
  let written = 0;
  for await (const row of rows) {
    const added = sheet.addRow(columns.map((c) => {
      const value = cellValue(c, row);
      return c.kind === 'date' && typeof value === 'string' ? new Date(`${value}T00:00:00Z`) : value;
    }));
    added.eachCell((cell, i) => {
      cell.style = styles[i - 1]!;
    });
    added.commit();
    // Rows of one cursor batch arrive without a pause: let other requests in between.
    if (++written % ROWS_PER_TURN === 0) await new Promise((next) => setImmediate(next));
  }
  sheet.commit();
  await workbook.commit();
}

/** Joins the zip writer's many small pieces into chunks of `size` bytes: one socket write each, not one per piece. */
function coalesced(size = 64 * 1024): Transform {
  let parts: Buffer[] = [];
  let length = 0;
  const take = () => {
    const joined = Buffer.concat(parts, length);
    parts = [];
    length = 0;
    return joined;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      length += chunk.length;
      done(null, length >= size ? take() : undefined);
    },
    flush(done) {
      done(null, length > 0 ? take() : undefined);
    },
  });
}

function sendWorkbook(ctx: Context, Writer: WorkbookWriter, rows: AsyncGenerator<ExportRow>, columns: ExportColumn[], log: Logger): void {
  const out = coalesced();
  // A failure after the first bytes cannot become a ProblemDetails: the download is cut off, and logged.
  writeWorkbook(Writer, out, rows, columns).catch((err: unknown) => {
    log.error({ err, correlationId: ctx.state.correlationId as string }, 'XLSX export failed mid-stream');
    out.destroy(err as Error);
  });
  // The client went away: stop reading rows (closes the cursor).
  ctx.res.once('close', () => {
    if (!out.writableEnded) void rows.return(undefined);
  });
  ctx.type = XLSX_TYPE;
  ctx.body = out;
}

export function exportRouter(sql: Sql, search: SearchBackend, log: Logger, clock: Clock, gate = new ExportGate()): Router {
  const router = new Router();

  router.post('/exports/businesses', async (ctx) => {
    const accountId = requireAccount(ctx);
    const input = parseBody(ExportBusinesses, bodyOf(ctx));
    const columns = chosenColumns(input.columns);
    const release = await gate.enter(ctx);
    try {
      const fnrs = await resolveCompanies(sql, search, accountId, input);
      // exceljs loads with the first workbook asked for, not with the API (~8 MB of heap every full
      // collection would mark, ~3 ms each), and before the cursor opens: a failed import must not leave it open.
      const excel = input.format === 'xlsx' ? (await import('exceljs')).default : null;
      const rows = fnrs.length > 0 ? await openRows(sql, fnrs) : undefined;
      if (!rows) {
        ctx.status = 204;
        return;
      }
      ctx.attachment(fileName(clock, input.format));
      if (input.format === 'csv') sendCsv(ctx, rows, columns, log);
      else sendWorkbook(ctx, excel!.stream.xlsx.WorkbookWriter, rows, columns, log);
    } catch (err) {
      // Held until the response closes once a body streams; an answer without one frees it now.
      release();
      throw err;
    }
  });

  return router;
}
