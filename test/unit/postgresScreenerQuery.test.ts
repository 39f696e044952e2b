import { describe, expect, it } from 'vitest';
import { buildCountQuery, buildPageQuery, normaliseForSearch } from '../../indexer/search/postgresScreenerQuery.js';
import { oenaceEdv, toScreenerQuery } from '../../indexer/search/screenerFilters.js';
import { FIGURE_BY_PARAM } from '../../schemas/keyFigures.js';
import { screenerFilters } from '../../schemas/screenerParameters.js';

const query = (params: Record<string, string>, paging = { page: 1, pageSize: 10 }) =>
  toScreenerQuery(screenerFilters.strict().parse(params), paging);

describe('screener filters', () => {
  it('accepts _gte/_lte on every one of the 47 figures and orderBy on every base', () => {
    for (const base of FIGURE_BY_PARAM.keys()) {
      const q = query({ [`${base}_gte`]: '1', [`${base}_lte`]: '2.5', orderBy: base });
      expect(q.ranges).toEqual([{ figure: FIGURE_BY_PARAM.get(base), gte: '1', lte: '2.5' }]);
      expect(q.orderBy).toBe(FIGURE_BY_PARAM.get(base));
    }
    expect(FIGURE_BY_PARAM.size).toBe(47);
  });

  it('rejects malformed numbers, unknown orderBy values and unknown parameters', () => {
    expect(screenerFilters.strict().safeParse({ 'guv.Umsatzerloese_gte': '1e6' }).success).toBe(false);
    expect(screenerFilters.strict().safeParse({ 'guv.Umsatzerloese_gte': '1,5' }).success).toBe(false);
    expect(screenerFilters.strict().safeParse({ orderBy: 'guv.Umsatz' }).success).toBe(false);
    expect(screenerFilters.strict().safeParse({ 'guv.Umsatz_gte': '1' }).success).toBe(false);
  });

  it('normalises fnr as the contract says and never folds case', () => {
    expect(query({ fnr: ' 034853 f' }).fnr).toBe('34853f');
    expect(query({ fnr: '34853F' }).fnr).toBe('34853F');
  });

  it('turns any spelling of an ÖNACE code into the EDV path', () => {
    expect(oenaceEdv('C 10.71-1')).toBe('C10711');
    expect(oenaceEdv('c 10.7')).toBe('C107');
    expect(oenaceEdv('C')).toBe('C');
  });
});

describe('Postgres screener SQL', () => {
  it('puts every filter into the WHERE clause as parameters', () => {
    const q = query({
      search: 'Müller', city: 'Wien', zipCode: '1010', courtCode: '007', legalFormCode: 'GES', gisaLicenseKey: '123',
      active: 'true', isScheinunternehmen: 'false', 'bilanz.BilanzSumme_gte': '1000000', employees_lte: '50',
    });
    const sql = buildCountQuery({ ...q, oenacePath: 'C107' });
    expect(sql.text).toBe(
      'SELECT count(*)::int AS total FROM company_search WHERE all_names_norm LIKE $1 AND city_norm = $2 AND zip_code = $3 ' +
        'AND court_code = $4 AND legal_form_code = $5 AND oenace_paths @> ARRAY[$6::text] AND trade_keys @> ARRAY[$7::text] ' +
        'AND is_active = $8 AND is_scheinunternehmen = $9 AND fig_bilanzsumme >= $10::numeric AND fig_employees <= $11::numeric',
    );
    expect(sql.values).toEqual(['%mueller%', 'wien', '1010', '007', 'GES', 'C107', '123', true, false, '1000000', '50']);
  });

  it('escapes LIKE characters in the search term', () => {
    expect(buildCountQuery(query({ search: '100%_a' })).values).toEqual(['%100 a%']);
    expect(buildCountQuery(query({ search: 'a\\b' })).values).toEqual(['%a b%']);
  });

  it('sorts by a figure with missing values last in both directions, in two index-friendly branches', () => {
    const sql = buildPageQuery(query({ 'bilanz.BilanzSumme_gte': '5', orderBy: 'guv.Umsatzerloese', orderByDescending: 'true' }, { page: 3, pageSize: 10 }));
    expect(sql.text).toContain('AND fig_umsatzerloese IS NOT NULL ORDER BY fig_umsatzerloese DESC, fnr LIMIT $4');
    expect(sql.text).toContain('AND fig_umsatzerloese IS NULL ORDER BY fnr LIMIT $4');
    expect(sql.text).toMatch(/ORDER BY sort_part, fig_umsatzerloese DESC, fnr LIMIT \$2 OFFSET \$3$/);
    expect(sql.values).toEqual(['5', 10, 20, 30]);
  });

  it('drops the null branch when the sort figure is itself range-filtered (it could never match)', () => {
    const sql = buildPageQuery(query({ 'guv.Umsatzerloese_gte': '5', orderBy: 'guv.Umsatzerloese', orderByDescending: 'true' }, { page: 3, pageSize: 10 }));
    expect(sql.text).toMatch(/WHERE fig_umsatzerloese >= \$1::numeric ORDER BY fig_umsatzerloese DESC, fnr LIMIT \$2 OFFSET \$3$/);
    expect(sql.text).not.toContain('UNION');
    expect(sql.values).toEqual(['5', 10, 20]);
  });

  it('orders by activity and name when no figure is chosen', () => {
    const sql = buildPageQuery(query({}, { page: 1, pageSize: 1000 }));
    expect(sql.text).toMatch(/WHERE true ORDER BY is_active DESC, name_norm, fnr LIMIT \$1 OFFSET \$2$/);
    expect(sql.values).toEqual([1000, 0]);
  });

  it('folds names like the database does', () => {
    expect(normaliseForSearch('Müller & Söhne Ges.m.b.H. – Straße')).toBe('mueller soehne ges m b h strasse');
    expect(normaliseForSearch('Café Zoë')).toBe('cafe zoe');
  });
});
