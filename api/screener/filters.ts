// The canonical form of a screener filter set (docs/contract/api-decisions.md "Request bodies"):
// fnr normalised, numbers as numbers, booleans as booleans, empty values dropped, keys sorted. Two
// filter sets are equal when their canonical forms are. Saved queries store this form. Names and
// kinds are the screener's parameters (schemas/screenerParameters.ts), and every value must also pass
// the screener's own parameter schema, so a saved query holds nothing GET /businesses would refuse.
import type { z } from 'zod';
import { FIGURE_BY_PARAM } from '../../schemas/keyFigures.js';
import { fnrFilterValue } from '../../schemas/identifiers.js';
import {
  ORDER_BY_NAME, PAGING_PARAMETERS, SCREENER_FILTERS, screenerFilterShape, type CanonicalFilters, type FilterKind, type FilterValue,
} from '../../schemas/screenerParameters.js';
import type { FieldErrors } from '../errors.js';

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** One value in its canonical type, or the reason it is not acceptable. */
function canonicalValue(kind: FilterKind, value: unknown): { value: FilterValue } | { error: string } {
  if (typeof value === 'object') return { error: 'must be a single value, not a list or an object' };
  switch (kind) {
    case 'text':
      return typeof value === 'string' || typeof value === 'number' ? { value: String(value).trim() } : { error: 'must be a string' };
    case 'fnr':
      return typeof value === 'string' ? { value: fnrFilterValue(value) } : { error: 'must be a string' };
    case 'boolean':
      if (value === true || value === 'true') return { value: true };
      if (value === false || value === 'false') return { value: false };
      return { error: 'must be true or false' };
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
      return Number.isFinite(n) ? { value: n } : { error: 'must be a number' };
    }
    case 'figureName':
      return typeof value === 'string' && (FIGURE_BY_PARAM.has(value.trim()) || value.trim() === ORDER_BY_NAME)
        ? { value: value.trim() }
        : { error: 'must be name or name a figure, for example guv.Umsatzerloese or bilanz.BilanzSumme' };
  }
}

export interface CanonicalResult {
  filters: CanonicalFilters;
  /** The text two equal filter sets share (sorted-key JSON). */
  canonical: string;
  /** Problems keyed `<path>.<filter name>`; empty when the set is acceptable. */
  errors: FieldErrors;
}

/** Validates a filter set and brings it to canonical form; `path` prefixes the error keys. */
export function canonicalFilters(raw: Record<string, unknown>, path = 'filters'): CanonicalResult {
  const filters: CanonicalFilters = {};
  const errors: FieldErrors = {};
  for (const name of Object.keys(raw).sort()) {
    const kind = SCREENER_FILTERS.get(name);
    if (!kind) {
      errors[`${path}.${name}`] = [PAGING_PARAMETERS.has(name) ? 'is chosen when a query runs and is not saved with it' : 'is not a screener filter'];
      continue;
    }
    if (isEmpty(raw[name])) continue;
    const result = canonicalValue(kind, raw[name]);
    if ('error' in result) {
      errors[`${path}.${name}`] = [result.error];
      continue;
    }
    // As the screener takes it in a query string: the text sent, and the text an export will send.
    const schema = (screenerFilterShape as Record<string, z.ZodType>)[name]!;
    const texts = typeof raw[name] === 'string' && typeof result.value === 'number' ? [(raw[name] as string).trim(), parameterText(result.value)] : [parameterText(result.value)];
    const problems = texts.flatMap((text) => {
      const parsed = schema.safeParse(text);
      return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
    });
    if (problems.length > 0) errors[`${path}.${name}`] = [...new Set(problems)];
    else filters[name] = result.value;
  }
  return { filters, canonical: JSON.stringify(filters), errors };
}

/** A stored value as query-string text; numbers as plain decimals (the screener refuses 1e-7). */
function parameterText(value: FilterValue): string {
  return typeof value === 'number' ? plainDecimal(value) : String(value);
}

/** A number's shortest round-trip digits without an exponent: 1e-7 -> "0.0000001", 1e21 -> "1000000000000000000000". */
export function plainDecimal(n: number): string {
  const text = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, whole, fraction = '', exponent] = m;
  const digits = whole! + fraction;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A canonical filter set as the screener's query parameters. */
export function filterParams(filters: CanonicalFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).map(([name, value]) => [name, parameterText(value)]));
}
