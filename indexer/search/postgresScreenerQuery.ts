// Builds the Postgres screener SQL over the company_search read model. Pure: a ScreenerQuery in,
// SQL text with $n placeholders and its values out, so the query shape is unit-tested.
//
// Sorting by a figure puts companies without that figure last in both directions. To keep the figure's
// btree usable for the common "sort by a filtered figure" case, the rows with the figure and those
// without are two ordered, limited branches; the outer ORDER BY only merges at most offset+limit rows.
import { KEY_FIGURES, figureColumn } from '../../schemas/keyFigures.js';
import type { ScreenerQuery } from '../../schemas/screenerParameters.js';

export interface SqlQuery {
  text: string;
  values: unknown[];
}

export const RESULT_COLUMNS = [
  'fnr', 'name', 'legal_form_code', 'legal_form_text', 'court_code', 'court_text', 'city', 'zip_code', 'is_active',
  'is_scheinunternehmen', 'has_edikt', 'document_key', 'document_date', ...KEY_FIGURES.map(figureColumn),
];

/** `%term%` for LIKE, with LIKE's own characters in the term escaped. */
function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function buildWhere(q: ScreenerQuery, values: unknown[] = []): { sql: string; values: unknown[] } {
  const conditions: string[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (q.search !== undefined) conditions.push(`all_names_norm LIKE ${param(likeContains(normaliseForSearch(q.search)))}`);
  if (q.fnr !== undefined) conditions.push(`fnr = ${param(q.fnr)}`);
  if (q.city !== undefined) conditions.push(`city_norm = ${param(normaliseForSearch(q.city))}`);
  if (q.zipCode !== undefined) conditions.push(`zip_code = ${param(q.zipCode)}`);
  if (q.courtCode !== undefined) conditions.push(`court_code = ${param(q.courtCode)}`);
  if (q.legalFormCode !== undefined) conditions.push(`legal_form_code = ${param(q.legalFormCode)}`);
  if (q.oenacePath !== undefined) conditions.push(`oenace_paths @> ARRAY[${param(q.oenacePath)}::text]`);
  if (q.gisaLicenseKey !== undefined) conditions.push(`trade_keys @> ARRAY[${param(q.gisaLicenseKey)}::text]`);
  if (q.active !== undefined) conditions.push(`is_active = ${param(q.active)}`);
  if (q.isScheinunternehmen !== undefined) conditions.push(`is_scheinunternehmen = ${param(q.isScheinunternehmen)}`);
  for (const range of q.ranges) {
    // A null figure never satisfies a comparison: not reported is not zero.
    const column = figureColumn(range.figure);
    if (range.gte !== undefined) conditions.push(`${column} >= ${param(range.gte)}::numeric`);
    if (range.lte !== undefined) conditions.push(`${column} <= ${param(range.lte)}::numeric`);
  }
  return { sql: conditions.length === 0 ? 'true' : conditions.join(' AND '), values };
}

/**
 * The same folding as the SQL function search_norm(): lower case, ä -> ae (ö, ü, ß likewise), accents
 * dropped, anything else to single spaces.
 */
export function normaliseForSearch(value: string): string {
  return value
    .toLowerCase()
    .replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss')
    .normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function buildPageQuery(q: ScreenerQuery, table = 'company_search'): SqlQuery {
  const { sql: where, values } = buildWhere(q);
  const columns = RESULT_COLUMNS.join(', ');
  const offset = (q.page - 1) * q.pageSize;
  values.push(q.pageSize, offset);
  const limit = `$${values.length - 1}`;
  const skip = `$${values.length}`;
  if (q.orderByName) {
    // In the order of the (name_norm text_pattern_ops, fnr) index, read backwards when descending.
    const [names, fnrs] = q.descending ? ['USING ~>~', 'DESC'] : ['USING ~<~', 'ASC'];
    return { text: `SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY name_norm ${names}, fnr ${fnrs} LIMIT ${limit} OFFSET ${skip}`, values };
  }
  if (!q.orderBy) {
    return {
      text: `SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY is_active DESC, name_norm, fnr LIMIT ${limit} OFFSET ${skip}`,
      values,
    };
  }
  const column = figureColumn(q.orderBy);
  const direction = q.descending ? 'DESC' : 'ASC';
  // A range filter on the sort figure already excludes companies without it: then the null branch
  // could never match, and Postgres would still scan the table for it.
  if (q.ranges.some((r) => r.figure === q.orderBy)) {
    return {
      text: `SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${column} ${direction}, fnr LIMIT ${limit} OFFSET ${skip}`,
      values,
    };
  }
  values.push(offset + q.pageSize);
  const branchLimit = `$${values.length}`;
  return {
    text:
      `SELECT ${columns} FROM (` +
      `(SELECT ${columns}, 0 AS sort_part FROM ${table} WHERE ${where} AND ${column} IS NOT NULL ORDER BY ${column} ${direction}, fnr LIMIT ${branchLimit})` +
      ` UNION ALL ` +
      `(SELECT ${columns}, 1 AS sort_part FROM ${table} WHERE ${where} AND ${column} IS NULL ORDER BY fnr LIMIT ${branchLimit})` +
      `) page ORDER BY sort_part, ${column} ${direction}, fnr LIMIT ${limit} OFFSET ${skip}`,
    values,
  };
}

export function buildCountQuery(q: ScreenerQuery, table = 'company_search'): SqlQuery {
  const { sql: where, values } = buildWhere(q);
  return { text: `SELECT count(*)::int AS total FROM ${table} WHERE ${where}`, values };
}
