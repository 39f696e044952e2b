// OpenAPI entry of the export (exports.ts): the request schema is the one the route validates with;
// the column list is the one the export writes.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { accountBoundResponses, curlSample, problemResponses, requestJsonContent, TAGS } from '../openapi/common.js';
import { EXPORT_COLUMNS } from '../presenters/exportColumns.js';
import { ExportBusinesses, XLSX_TYPE } from './exports.js';

export function registerExportDocs(registry: OpenAPIRegistry): void {
  const columnList = [...EXPORT_COLUMNS.values()].map((c) => `\`${c.key}\` (${c.label})`).join(', ');
  registry.registerPath({
    method: 'post', path: '/exports/businesses', tags: [TAGS.account.name], operationId: 'exportCompanies',
    ...curlSample('POST', '/exports/businesses', { body: { format: 'csv', fnrs: ['30435h', '402287z'], columns: ['fnr', 'name', 'city', 'guv.Umsatzerloese'] }, output: 'companies.csv' }),
    summary: 'Export companies named by an fnr set, a list or a saved query to CSV or an Excel workbook',
    description:
      'Exactly one of `fnrs`, `listId`, `queryId`. CSV: UTF-8 with BOM, comma-separated, CRLF line ends, a header row of ' +
      'column keys, streamed as produced; text values starting with = + - @ (or a tab or carriage return) are prefixed ' +
      "with an apostrophe against formula injection; numbers are written as plain decimals; booleans as true/false; " +
      'dates as yyyy-mm-dd. Workbook: one sheet `Companies`, typed cells (numbers, booleans, dates), the same text escaping. ' +
      `Account-bound: a key without an account needs a session cookie. Columns: ${columnList}.`,
    request: { body: { required: true, content: requestJsonContent(ExportBusinesses) } },
    responses: {
      200: {
        description: 'The file, as an attachment (Content-Disposition)',
        content: {
          'text/csv': { schema: { type: 'string' } },
          [XLSX_TYPE]: { schema: { type: 'string', format: 'binary' } },
        },
      },
      204: { description: 'No rows would result: no body, no empty file' },
      ...problemResponses(400, 404, 415),
      ...accountBoundResponses(),
    },
  });
}
