// Builders of the per-row figure records on hot paths (a 1000-row screener page holds 47,000 figures).
// Objects grown key by key through Object.fromEntries cost about twice as much to build and to
// serialise as object literals of a fixed shape, so the literals are generated once from the figure
// list at module load. The generated source names only our own identifiers (JSON keys and column
// names from schemas/keyFigures.ts, checked below), never input.
import { KEY_FIGURES, figureColumn, figureJsonKey } from './keyFigures.js';

const camel = (column: string) => column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const FIELDS = KEY_FIGURES.map((f) => ({ key: figureJsonKey(f), column: camel(figureColumn(f)) }));
for (const { key, column } of FIELDS) {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key) || !/^[A-Za-z][A-Za-z0-9]*$/.test(column)) throw new Error(`figure identifier not generated safely: ${key} / ${column}`);
}

const compile = <F>(body: string) => new Function('r', 'd', `return { ${body} };`) as F;

export type FigureStrings = Record<string, string | null>;
export type FigureNumbers = Record<string, number | null>;

/** A read-model row (camelCased `fig_*` columns, decimal strings) -> figures by JSON key. */
export const figuresFromColumns = compile<(row: Record<string, unknown>) => FigureStrings>(
  FIELDS.map(({ key, column }) => `${key}: r.${column} ?? null`).join(', '),
);

/** Each figure by JSON key as a JSON number from its stored value; a missing or null figure stays null (never 0). */
const FIGURES_AS_NUMBERS = FIELDS.map(({ key }) => `${key}: r.${key} == null ? null : Number(r.${key})`);

/**
 * The `keyFigures` object of an answer: `documentDate`, then the figures (decimal strings or jsonb
 * numbers by JSON key) as JSON numbers.
 */
export const presentKeyFigures = compile<(figures: Record<string, unknown>, documentDate: string | null) => { documentDate: string | null } & FigureNumbers>(
  ['documentDate: d', ...FIGURES_AS_NUMBERS].join(', '),
);

/** The figures alone (by JSON key, in KEY_FIGURES order) as JSON numbers. */
export const figuresAsNumbers = compile<(figures: Record<string, unknown>) => FigureNumbers>(FIGURES_AS_NUMBERS.join(', '));
