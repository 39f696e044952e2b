// Sparse screener rows (`fields=` on GET /businesses): which parts of a row an answer carries. A
// 1000-row page of all 47 figures is about 1.5 MB; most clients want a handful of columns. Names are
// the export's column names where both have the column (fnr, name, legalForm, city, zipCode, the
// flags, documentDate, figure parameter names such as guv.Umsatzerloese); `court` and `keyFigures`
// (every figure) are the screener's own. Rows keep their shape: fnr always, the chosen top-level
// fields in their usual order, and keyFigures (documentDate plus the chosen figures; null without a
// filing) when any figure, documentDate or keyFigures is named.
import { KEY_FIGURES, figureJsonKey, figureParam } from './keyFigures.js';
import type { PresentedScreenerRow } from './screenerRecords.js';

/** Top-level fields of a screener row besides fnr and keyFigures, in presentScreenerRow's order. */
export const SCREENER_BASE_FIELDS = ['name', 'legalForm', 'court', 'city', 'zipCode', 'isActive', 'isScheinunternehmen', 'hasEdikt'] as const;
export type ScreenerBaseField = (typeof SCREENER_BASE_FIELDS)[number];

export interface ScreenerFields {
  /** The chosen top-level fields (fnr is always there). */
  readonly base: ReadonlySet<ScreenerBaseField>;
  /** Whether rows carry keyFigures at all. */
  readonly keyFigures: boolean;
  /** The chosen figures as indexes into KEY_FIGURES, ascending (written in KEY_FIGURES order). */
  readonly figures: readonly number[];
}

const FIGURE_INDEX: ReadonlyMap<string, number> = new Map(KEY_FIGURES.map((f, i) => [figureParam(f), i]));
const BASE = new Set<string>(SCREENER_BASE_FIELDS);

/** Every name `fields` accepts, for messages and the OpenAPI description. */
export const SCREENER_FIELD_NAMES: readonly string[] = ['fnr', ...SCREENER_BASE_FIELDS, 'keyFigures', 'documentDate', ...FIGURE_INDEX.keys()];

/** `fields` as sent (comma-separated names; blanks around names ignored) -> the choice, or the names it does not know. */
export function parseScreenerFields(text: string): { fields: ScreenerFields } | { unknown: string[] } | { empty: true } {
  const names = text.split(',').map((n) => n.trim()).filter((n) => n !== '');
  if (names.length === 0) return { empty: true };
  const unknown = [...new Set(names.filter((n) => n !== 'fnr' && n !== 'keyFigures' && n !== 'documentDate' && !BASE.has(n) && !FIGURE_INDEX.has(n)))];
  if (unknown.length > 0) return { unknown };
  const named = new Set(names);
  const figures = named.has('keyFigures')
    ? KEY_FIGURES.map((_, i) => i)
    : [...FIGURE_INDEX].filter(([name]) => named.has(name)).map(([, i]) => i).sort((a, b) => a - b);
  return {
    fields: {
      base: new Set(SCREENER_BASE_FIELDS.filter((f) => named.has(f))),
      keyFigures: named.has('keyFigures') || named.has('documentDate') || figures.length > 0,
      figures,
    },
  };
}

type SparseRow = Partial<PresentedScreenerRow> & { fnr: string; keyFigures?: Record<string, unknown> | null };

/** A presented row cut down to `fields`, keys in the same order as the JSON writer's (screenerRecords.ts). */
export function projectScreenerRow(row: PresentedScreenerRow, fields: ScreenerFields): SparseRow {
  const out: Record<string, unknown> = { fnr: row.fnr };
  for (const f of SCREENER_BASE_FIELDS) if (fields.base.has(f)) out[f] = row[f];
  if (fields.keyFigures) {
    const all = row.keyFigures as Record<string, unknown> | null;
    if (all === null) out.keyFigures = null;
    else {
      const kept: Record<string, unknown> = { documentDate: all.documentDate };
      for (const i of fields.figures) {
        const key = figureJsonKey(KEY_FIGURES[i]!);
        kept[key] = all[key];
      }
      out.keyFigures = kept;
    }
  }
  return out as SparseRow;
}
