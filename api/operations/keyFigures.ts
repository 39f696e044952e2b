// GET /keyfigures: the catalogue of the 47 screener figures, built from schemas/keyFigures.ts (the one
// list of them), so a client can build its filters from data: parameter name, meaning, unit, and the
// sign as filed (expenses are negative: `_lte` with a negative bound finds the large ones).
// Served from memory; searchable and paged like the other catalogues (api/routes/catalogues.ts mounts it).
import { z } from 'zod';
import { normaliseForSearch } from '../../indexer/search/postgresScreenerQuery.js';
import {
  KEY_FIGURES, figureFilterExample, figureJsonKey, figureParam, figureSignConvention, figureUnit, type KeyFigureDefinition,
} from '../../schemas/keyFigures.js';
import { presentPage, type ListEnvelope } from '../presenters/envelope.js';
import { pagingShape } from '../validation.js';

export const keyFigureQuery = z.object({
  search: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional().meta({
    description: 'Part of the parameter name, the German or the English meaning (case-insensitive, ä = ae).',
    example: 'aufwand',
  }),
  group: z.enum(['bilanz', 'guv', 'employees'], { error: 'must be bilanz, guv or employees' }).optional().meta({
    description: '`bilanz` balance sheet, `guv` profit and loss, `employees` the headcount.',
  }),
  sign: z.enum(['positive', 'negative', 'signed'], { error: 'must be positive, negative or signed' }).optional().meta({
    description: '`negative`: the expenses, stored negative as filed; `signed`: results and equity, either sign; `positive`: the rest.',
  }),
  ...pagingShape(),
});
export type KeyFigureQuery = z.infer<typeof keyFigureQuery>;

export interface KeyFigureEntry {
  parameter: string;
  jsonKey: string;
  group: KeyFigureDefinition['group'];
  name: string;
  meaningDe: string;
  meaningEn: string;
  unit: 'EUR' | 'persons';
  sign: KeyFigureDefinition['sign'];
  signConvention: string;
  filterExample: string;
  position: string;
  sources: { legacy: string[]; jab4: string[] };
}

export function keyFigureEntry(f: KeyFigureDefinition): KeyFigureEntry {
  return {
    parameter: figureParam(f), jsonKey: figureJsonKey(f), group: f.group, name: f.name, meaningDe: f.labelDe, meaningEn: f.label,
    unit: figureUnit(f), sign: f.sign, signConvention: figureSignConvention(f), filterExample: figureFilterExample(f).query,
    position: f.position, sources: { legacy: [...f.legacy], jab4: [...f.jab4] },
  };
}

const ENTRIES = KEY_FIGURES.map((f) => ({ entry: keyFigureEntry(f), text: normaliseForSearch(`${figureParam(f)} ${f.labelDe} ${f.label}`) }));

/** The page of figures matching the query, in the spec's order (balance sheet, profit and loss, employees). */
export function keyFigurePage(q: KeyFigureQuery): ListEnvelope<KeyFigureEntry> {
  const term = q.search === undefined ? undefined : normaliseForSearch(q.search);
  const matches = ENTRIES.filter(({ entry, text }) =>
    (term === undefined || text.includes(term)) && (!q.group || entry.group === q.group) && (!q.sign || entry.sign === q.sign));
  const from = (q.page - 1) * q.pageSize;
  return presentPage(matches.slice(from, from + q.pageSize).map((m) => m.entry), q.page, q.pageSize, matches.length);
}
