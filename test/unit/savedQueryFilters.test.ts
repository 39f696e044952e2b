// The canonical form of a screener filter set (api-decisions.md): fnr normalised, numbers as numbers,
// booleans as booleans, empty values dropped, keys sorted; names from the screener's parameter list,
// with the 47 figure ranges derived from schemas/keyFigures.ts.
import { describe, expect, it } from 'vitest';
import { canonicalFilters, filterParams, plainDecimal } from '../../api/screener/filters.js';
import { KEY_FIGURES, figureParam } from '../../schemas/keyFigures.js';
import { SCREENER_FILTERS, screenerFilters } from '../../schemas/screenerParameters.js';

describe('canonical filters', () => {
  it('makes spellings of the same filter set equal', () => {
    const a = canonicalFilters({ fnr: '034853 f', 'guv.Umsatzerloese_gte': '1000000.50', active: 'true', city: 'Wien', zipCode: '' });
    const b = canonicalFilters({ city: ' Wien ', active: true, 'guv.Umsatzerloese_gte': 1000000.5, fnr: '34853f', search: null });
    expect(a.errors).toEqual({});
    expect(a.canonical).toBe(b.canonical);
    expect(a.canonical).toBe('{"active":true,"city":"Wien","fnr":"34853f","guv.Umsatzerloese_gte":1000000.5}');
  });

  it('keeps case: an upper-case fnr is a different filter (it matches nothing)', () => {
    expect(canonicalFilters({ fnr: '34853F' }).canonical).not.toBe(canonicalFilters({ fnr: '34853f' }).canonical);
  });

  it('knows every figure range of the key-figure list, and orderBy on any figure', () => {
    for (const figure of KEY_FIGURES) {
      expect(SCREENER_FILTERS.get(`${figureParam(figure)}_gte`)).toBe('number');
      expect(SCREENER_FILTERS.get(`${figureParam(figure)}_lte`)).toBe('number');
      expect(canonicalFilters({ orderBy: figureParam(figure) }).errors).toEqual({});
    }
    expect(SCREENER_FILTERS.size).toBe(7 + 1 + 2 + 47 * 2 + 2);
  });

  it('names unknown filters, paging parameters and bad values', () => {
    const { errors } = canonicalFilters({ colour: 'red', page: 1, active: 'ja', employees_lte: '1e', orderBy: 'guv.Nope', city: ['a'] });
    expect(errors).toEqual({
      'filters.active': ['must be true or false'],
      'filters.city': ['must be a single value, not a list or an object'],
      'filters.colour': ['is not a screener filter'],
      'filters.employees_lte': ['must be a number'],
      'filters.orderBy': ['must be name or name a figure, for example guv.Umsatzerloese or bilanz.BilanzSumme'],
      'filters.page': ['is chosen when a query runs and is not saved with it'],
    });
  });

  it("holds nothing GET /businesses would refuse: the screener's own parameter rules apply", () => {
    const { errors, filters } = canonicalFilters({
      zipCode: '12', courtCode: 'Wien', legalFormCode: 'gmbh', oenaceCode: 'X99.1234', gisaLicenseKey: 'abc', fnr: 'x'.repeat(21),
      'guv.Umsatzerloese_gte': '1e6', employees_gte: ' 10 ', city: 'Wien',
    });
    expect(Object.keys(errors).sort()).toEqual([
      'filters.courtCode', 'filters.fnr', 'filters.gisaLicenseKey', 'filters.guv.Umsatzerloese_gte',
      'filters.legalFormCode', 'filters.oenaceCode', 'filters.zipCode',
    ]);
    expect(errors['filters.zipCode']).toEqual(['must be a four-digit Austrian zip code']);
    expect(errors['filters.guv.Umsatzerloese_gte']).toEqual(['must be a decimal number such as 1500000 or -250.5']);
    // What passes is kept in canonical form.
    expect(filters).toEqual({ city: 'Wien', employees_gte: 10 });
  });

  it('stores numbers whose printed form has an exponent so that the screener still takes them back', () => {
    const { filters, errors } = canonicalFilters({ 'guv.Umsatzerloese_gte': '0.0000001', 'bilanz.BilanzSumme_lte': 1e21, employees_gte: -2.5e-8 });
    expect(errors).toEqual({});
    expect(filters).toEqual({ 'guv.Umsatzerloese_gte': 1e-7, 'bilanz.BilanzSumme_lte': 1e21, employees_gte: -2.5e-8 });
    const params = filterParams(filters);
    expect(params).toEqual({ 'guv.Umsatzerloese_gte': '0.0000001', 'bilanz.BilanzSumme_lte': '1000000000000000000000', employees_gte: '-0.000000025' });
    expect(screenerFilters.strict().safeParse(params).success).toBe(true);
  });

  it('prints decimals without exponents and keeps their digits', () => {
    for (const [n, text] of [[1e-7, '0.0000001'], [1.5e-25, '0.00000000000000000000000015'], [1e21, '1000000000000000000000'], [1.25e22, '12500000000000000000000'], [123.45, '123.45'], [-0, '0'], [-3e-7, '-0.0000003']] as const) {
      expect(plainDecimal(n)).toBe(text);
      expect(Number(plainDecimal(n))).toBe(n === 0 ? 0 : n);
    }
  });
});
