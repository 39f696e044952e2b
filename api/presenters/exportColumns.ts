// Export columns (api-decisions.md "ExportBusinesses"): by default fnr, name, legal form, city, zip
// code, active, Scheinunternehmen, Edikt, documentDate and the 47 figures, in that order; `columns`
// picks and orders any of them plus a few extra ones. Figure columns are named like the screener's
// figure parameters (`guv.Umsatzerloese`) and derived from schemas/keyFigures.ts.
//
// Formula injection: a text value that starts with = + - @ (or a tab or carriage return, which
// spreadsheet programs also strip before evaluating) is prefixed with an apostrophe, so it is shown
// as text, never run as a formula. Numeric columns hold plain decimal numbers, which a spreadsheet
// never evaluates: a negative amount stays `-1250.5`.
import { KEY_FIGURES, figureJsonKey, figureParam } from '../../schemas/keyFigures.js';
import type { ExportRow } from '../stores/exportRows.js';

export type CellKind = 'text' | 'boolean' | 'date' | 'number';
export type CellValue = string | number | boolean | null;

export interface ExportColumn {
  key: string;
  /** English meaning, for the OpenAPI description. */
  label: string;
  kind: CellKind;
  value: (row: ExportRow) => string | boolean | null;
}

const text = (key: string, label: string, value: (row: ExportRow) => string | null): ExportColumn => ({ key, label, kind: 'text', value });
const flag = (key: string, label: string, value: (row: ExportRow) => boolean): ExportColumn => ({ key, label, kind: 'boolean', value });

const BASE_COLUMNS: ExportColumn[] = [
  text('fnr', 'company number', (r) => r.fnr),
  text('name', 'company name', (r) => r.name),
  text('legalForm', 'legal form', (r) => r.legalForm),
  text('city', 'seat city (current address)', (r) => r.city),
  text('zipCode', 'zip code (current address)', (r) => r.zipCode),
  flag('isActive', 'active', (r) => r.isActive),
  flag('isScheinunternehmen', 'on the finance-ministry list of bogus companies', (r) => r.isScheinunternehmen),
  flag('hasEdikt', 'at least one court notice on file', (r) => r.hasEdikt),
  { key: 'documentDate', label: 'documentDate of the latest filing (the year of the figures)', kind: 'date', value: (r) => r.documentDate },
];

const FIGURE_COLUMNS: ExportColumn[] = KEY_FIGURES.map((figure) => ({
  key: figureParam(figure),
  label: figure.label,
  kind: 'number',
  value: (r) => r.figures?.[figureJsonKey(figure)] ?? null,
}));

const EXTRA_COLUMNS: ExportColumn[] = [
  text('legalFormCode', 'legal form code', (r) => r.legalFormCode),
  text('courtCode', 'register court code', (r) => r.courtCode),
  text('street', 'street and house number (current address)', (r) => r.street),
];

export const DEFAULT_EXPORT_COLUMNS: readonly ExportColumn[] = [...BASE_COLUMNS, ...FIGURE_COLUMNS];
export const EXPORT_COLUMNS: ReadonlyMap<string, ExportColumn> = new Map(
  [...DEFAULT_EXPORT_COLUMNS, ...EXTRA_COLUMNS].map((c) => [c.key, c]),
);

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Text that a spreadsheet would run as a formula, made inert with a leading apostrophe. */
export function escapeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One cell as it goes into the file: numbers as numbers, text escaped, missing as null. */
export function cellValue(column: ExportColumn, row: ExportRow): CellValue {
  const raw = column.value(row);
  if (raw === null || typeof raw === 'boolean') return raw;
  if (column.kind === 'number' && PLAIN_NUMBER.test(raw)) return Number(raw);
  if (column.kind === 'date') return raw;
  return escapeFormula(raw);
}

/** The same cell for CSV: decimals exactly as stored (no float round trip), booleans as true/false. */
export function csvCell(column: ExportColumn, row: ExportRow): string {
  const raw = column.value(row);
  if (raw === null) return '';
  if (typeof raw === 'boolean') return raw ? 'true' : 'false';
  if ((column.kind === 'number' && PLAIN_NUMBER.test(raw)) || column.kind === 'date') return raw;
  return escapeFormula(raw);
}
