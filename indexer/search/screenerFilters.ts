// From the screener's parsed parameters (schemas/screenerParameters.ts) to the ScreenerQuery both
// search backends take.
import { KEY_FIGURES, figureParam } from '../../schemas/keyFigures.js';
import { ORDER_BY_NAME, type FigureRange, type ScreenerFilterInput, type ScreenerQuery } from '../../schemas/screenerParameters.js';

/**
 * ÖNACE code in any spelling to the EDV form ('C 10.71-1' -> 'C10711', 'c10.7' -> 'C107'). Codes
 * without a section letter ('10.71') are resolved by the caller against the catalogue.
 */
export function oenaceEdv(code: string): string {
  return code.replace(/[\s.-]/g, '').toUpperCase();
}

export function toScreenerQuery(input: ScreenerFilterInput, paging: { page: number; pageSize: number }, oenacePath?: string): ScreenerQuery {
  const ranges: FigureRange[] = [];
  for (const figure of KEY_FIGURES) {
    const base = figureParam(figure);
    const gte = (input as Record<string, string | undefined>)[`${base}_gte`];
    const lte = (input as Record<string, string | undefined>)[`${base}_lte`];
    if (gte !== undefined || lte !== undefined) ranges.push({ figure, gte, lte });
  }
  return {
    search: input.search,
    fnr: input.fnr,
    city: input.city,
    zipCode: input.zipCode,
    courtCode: input.courtCode,
    legalFormCode: input.legalFormCode,
    oenacePath,
    gisaLicenseKey: input.gisaLicenseKey,
    active: input.active,
    isScheinunternehmen: input.isScheinunternehmen,
    ranges,
    orderBy: input.orderBy ? KEY_FIGURES.find((f) => figureParam(f) === input.orderBy) : undefined,
    orderByName: input.orderBy === ORDER_BY_NAME,
    descending: input.orderByDescending ?? false,
    page: paging.page,
    pageSize: paging.pageSize,
  };
}
