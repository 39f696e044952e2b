// The in-memory screener columns on their own: filters, order, paging and the exactness guard. The
// cross-check against Postgres on the same data is test/integration/screenerColumns.test.ts.
import { describe, expect, it } from 'vitest';
import { ScreenerColumns, significantDigits, type ColumnRow } from '../../indexer/search/columnar/screenerColumns.js';
import { KEY_FIGURES, type KeyFigureDefinition } from '../../schemas/keyFigures.js';
import type { ScreenerQuery } from '../../schemas/screenerParameters.js';
import { pick, rng } from '../../bench/syntheticCompanies.js';

const figure = (jsonKey: string): KeyFigureDefinition => {
  const f = KEY_FIGURES.find((k) => k.name.toLowerCase() === jsonKey.toLowerCase());
  if (!f) throw new Error(`no figure ${jsonKey}`);
  return f;
};
const REVENUE = figure('Umsatzerloese');
const TOTAL = figure('BilanzSumme');
const indexOf = (f: KeyFigureDefinition) => KEY_FIGURES.indexOf(f);

function row(fnr: string, values: Partial<Record<'revenue' | 'total', string>>, extra: Partial<ColumnRow> = {}): ColumnRow {
  const figures: Array<string | null> = KEY_FIGURES.map(() => null);
  if (values.revenue !== undefined) figures[indexOf(REVENUE)] = values.revenue;
  if (values.total !== undefined) figures[indexOf(TOTAL)] = values.total;
  return {
    fnr, cityNorm: 'wien', zipCode: '1010', courtCode: '007', legalFormCode: 'GES', oenacePaths: [], tradeKeys: [],
    isActive: true, isScheinunternehmen: false, figures, name: `Firma ${fnr}`, legalFormText: 'GmbH', courtText: 'HG Wien', city: 'Wien',
    hasEdikt: false, hasFiling: values.revenue !== undefined || values.total !== undefined, documentDate: '2024-12-31', ...extra,
  };
}

const query = (q: Partial<ScreenerQuery>): ScreenerQuery => ({ ranges: [], descending: false, page: 1, pageSize: 10, ...q });

describe('screener columns', () => {
  const columns = new ScreenerColumns(2); // grows past its first capacity
  columns.upsert(row('5a', { revenue: '300', total: '10' }));
  columns.upsert(row('3b', { revenue: '100' }, { cityNorm: 'graz', legalFormCode: 'AG' }));
  columns.upsert(row('4c', { revenue: '300' }, { isActive: false, oenacePaths: ['C', 'C10', 'C107'] }));
  columns.upsert(row('1d', {}, { tradeKeys: ['590100'] }));
  columns.upsert(row('2e', { total: '-5.5' }, { isScheinunternehmen: true }));

  it('sorts by a figure with ties by fnr and companies without it last, by fnr, in both directions', () => {
    expect(columns.query(query({ orderBy: REVENUE, descending: true }))).toMatchObject({ total: 5, fnrs: ['4c', '5a', '3b', '1d', '2e'] });
    expect(columns.query(query({ orderBy: REVENUE }))).toMatchObject({ total: 5, fnrs: ['3b', '4c', '5a', '1d', '2e'] });
  });

  it('pages through the order without gaps or repeats', () => {
    const pages = [1, 2, 3].map((page) => columns.query(query({ orderBy: REVENUE, descending: true, page, pageSize: 2 })).fnrs);
    expect(pages).toEqual([['4c', '5a'], ['3b', '1d'], ['2e']]);
  });

  it('never matches a missing figure with a range, and compares negative decimals', () => {
    expect(columns.query(query({ ranges: [{ figure: TOTAL, lte: '0' }], orderBy: TOTAL })).fnrs).toEqual(['2e']);
    expect(columns.query(query({ ranges: [{ figure: REVENUE, gte: '100', lte: '300' }] })).total).toBe(3);
    expect(columns.query(query({ ranges: [{ figure: REVENUE, gte: '100.01' }] })).total).toBe(2);
  });

  it('filters on city (folded), legal form, ÖNACE prefix sets, trade keys and flags', () => {
    expect(columns.query(query({ city: 'GRAZ' })).total).toBe(1);
    expect(columns.query(query({ legalFormCode: 'AG' })).total).toBe(1);
    expect(columns.query(query({ oenacePath: 'C10' })).total).toBe(1);
    expect(columns.query(query({ oenacePath: 'C11' })).total).toBe(0);
    expect(columns.query(query({ gisaLicenseKey: '590100' })).total).toBe(1);
    expect(columns.query(query({ active: false })).total).toBe(1);
    expect(columns.query(query({ isScheinunternehmen: true })).total).toBe(1);
    expect(columns.query(query({ zipCode: '9999' })).total).toBe(0);
  });

  it('replaces a row on upsert and frees its figures when the filing is gone', () => {
    const c = new ScreenerColumns();
    c.upsert(row('1a', { revenue: '10' }));
    c.upsert(row('1a', { revenue: '20' }));
    expect(c.query(query({ ranges: [{ figure: REVENUE, gte: '15' }] })).total).toBe(1);
    c.upsert(row('1a', {}));
    expect(c.query(query({ ranges: [{ figure: REVENUE, gte: '0' }] })).total).toBe(0);
    expect(c.query(query({})).total).toBe(1);
  });

  it('finds a company again whether it was added in fnr order or out of it', () => {
    const c = new ScreenerColumns();
    for (const fnr of ['1a', '2b', '3c', '10d', '0e', '25f']) c.upsert(row(fnr, { revenue: '1' }));
    for (const fnr of ['1a', '2b', '3c', '10d', '0e', '25f']) c.upsert(row(fnr, { revenue: '2' }));
    expect(c.rows).toBe(6);
    expect(c.query(query({ ranges: [{ figure: REVENUE, gte: '2' }] })).total).toBe(6);
  });

  it('answers only what doubles decide exactly: name search, fnr and over-precise numbers go to Postgres', () => {
    expect(columns.supports(query({ ranges: [{ figure: REVENUE, gte: '123456789012.345' }] }))).toBe(true);
    expect(columns.supports(query({ ranges: [{ figure: REVENUE, gte: '1234567890123.4567' }] }))).toBe(false);
    expect(columns.supports(query({ search: 'bau' }))).toBe(false);
    expect(columns.supports(query({ fnr: '1a' }))).toBe(false);
    const c = new ScreenerColumns();
    c.upsert(row('1a', { revenue: '100000000000000001' }));
    expect(c.supports(query({ orderBy: REVENUE }))).toBe(false);
    expect(c.supports(query({ orderBy: TOTAL }))).toBe(true);
  });

  it('writes pages from its cached rows exactly as from fresh ones, and an upsert replaces a cached row', () => {
    const c = new ScreenerColumns(16, 16, 2); // room for two rows as JSON: the third evicts the oldest
    for (const [fnr, revenue] of [['1a', '10'], ['2b', '20'], ['3c', '30']] as const) c.upsert(row(fnr, { revenue }, { name: `Firma "${fnr}" Müller` }));
    const page = () => {
      const { rows } = c.query(query({ orderBy: REVENUE, descending: true }));
      return JSON.parse(c.json(rows).toString('utf8')) as Array<{ fnr: string; name: string; keyFigures: { umsatzerloese: number | null } | null }>;
    };
    const first = page();
    expect(first.map((r) => [r.fnr, r.name, r.keyFigures?.umsatzerloese])).toEqual([['3c', 'Firma "3c" Müller', 30], ['2b', 'Firma "2b" Müller', 20], ['1a', 'Firma "1a" Müller', 10]]);
    expect(page()).toEqual(first); // the same bytes through the cache (and what it evicted)
    c.upsert(row('2b', { revenue: '25' }, { name: 'Umbenannt GmbH' }));
    c.upsert(row('3c', {}));
    expect(page().map((r) => [r.fnr, r.name, r.keyFigures?.umsatzerloese ?? null])).toEqual([['2b', 'Umbenannt GmbH', 25], ['1a', 'Firma "1a" Müller', 10], ['3c', 'Firma 3c', null]]);
    expect(page()[2]!.keyFigures).toBeNull(); // no filing any more
  });

  it('answers a page past the last match with no rows, whatever its number', () => {
    const answer = columns.query(query({ orderBy: REVENUE, page: 10_000_000, pageSize: 1000 }));
    expect(answer).toMatchObject({ total: 5, fnrs: [], rows: [] });
    expect(columns.query(query({ orderBy: REVENUE, page: 3, pageSize: 2 })).fnrs).toEqual(['2e']); // the last one
  });

  it('leaves figures beyond the range of a double to Postgres', () => {
    const c = new ScreenerColumns();
    c.upsert(row('1a', { revenue: `1${'0'.repeat(400)}` }));
    expect(c.supports(query({ orderBy: REVENUE }))).toBe(false);
    expect(c.supports(query({ orderBy: TOTAL }))).toBe(true);
  });

  it('counts significant digits of decimal strings', () => {
    expect(significantDigits('-0012.500')).toBe(3);
    expect(significantDigits('100000000000000001')).toBe(18);
    expect(significantDigits('0.000123')).toBe(3);
    expect(significantDigits('0')).toBe(0);
  });
});

describe('figure orders', () => {
  // Random companies with few distinct values (ties), negatives, -0 and missing figures, added out of fnr order.
  const r = rng(11);
  const VALUES = ['0', '-0', '-250.5', '12.5', '12.5', '300', '300', '7000000', '-99999999.99'];
  const fnrs = Array.from({ length: 400 }, (_, i) => `${1000 + Math.floor(r() * 9000)}${'abdfghikmpstvwxyz'[i % 17]}`);
  const unique = [...new Set(fnrs)];
  const rowsOf = () => unique.map((fnr) => {
    const values: Partial<Record<'revenue' | 'total', string>> = {};
    if (r() < 0.7) values.revenue = pick(r, VALUES);
    if (r() < 0.5) values.total = pick(r, VALUES);
    return row(fnr, values, { isActive: r() < 0.8, cityNorm: pick(r, ['wien', 'graz']) });
  });
  const queries = (): ScreenerQuery[] => {
    const qr = rng(5);
    return Array.from({ length: 400 }, () => {
      const ranges = [];
      if (qr() < 0.6) ranges.push({ figure: pick(qr, [REVENUE, TOTAL]), gte: qr() < 0.5 ? pick(qr, VALUES) : undefined, lte: qr() < 0.5 ? pick(qr, VALUES) : undefined });
      return query({
        ranges, orderBy: pick(qr, [REVENUE, TOTAL]), descending: qr() < 0.5, page: 1 + Math.floor(qr() * 3), pageSize: pick(qr, [1, 5, 20, 100]),
        city: qr() < 0.3 ? 'wien' : undefined, active: qr() < 0.2 ? true : undefined,
      });
    });
  };
  const answers = (c: ScreenerColumns) => queries().map((q) => {
    const a = c.query(q);
    return `${a.total}:${a.fnrs.join(',')}:${c.json(a.rows).toString()}`;
  });

  it('give the same pages as the heap, walked up or down, and the same totals from their ranges', () => {
    const c = new ScreenerColumns(64);
    for (const x of rowsOf()) c.upsert(x);
    c.orderStrategy = 'heap';
    const scanned = answers(c); // no orders yet: scans and heaps throughout
    expect(c.rebuildOrders()).toBe(0);
    c.orderStrategy = 'heap';
    expect(answers(c)).toEqual(scanned); // ranges from the orders, pages from the heap
    c.orderStrategy = 'walk';
    expect(answers(c)).toEqual(scanned); // pages from the orders too
    c.orderStrategy = 'auto';
    expect(answers(c)).toEqual(scanned);
    expect(scanned.filter((a) => !a.startsWith('0:')).length).toBeGreaterThan(250);
  });

  it('are dropped when a value changes and rebuilt with it, and never answer from stale values', () => {
    const c = new ScreenerColumns(64);
    const rows = rowsOf();
    for (const x of rows) c.upsert(x);
    c.rebuildOrders();
    c.orderStrategy = 'walk';
    // A company gets a new top revenue, one loses its filing, a new one comes (out of fnr order).
    c.upsert({ ...rows[0]!, figures: KEY_FIGURES.map((f) => (f === REVENUE ? '999999999' : null)), hasFiling: true });
    c.upsert({ ...rows[1]!, figures: null, hasFiling: false });
    c.upsert(row('1z', { revenue: '-250.5', total: '300' }));
    expect(c.staleOrders).toBeGreaterThanOrEqual(2);
    const q = query({ orderBy: REVENUE, descending: true, pageSize: 3 });
    const stale = c.query(q).fnrs;
    expect(stale[0]).toBe(rows[0]!.fnr);
    c.rebuildOrders();
    expect(c.staleOrders).toBe(0);
    expect(c.query(q).fnrs).toEqual(stale);
    const fresh = new ScreenerColumns(64);
    for (const x of rows.slice(2)) fresh.upsert(x);
    fresh.upsert({ ...rows[0]!, figures: KEY_FIGURES.map((f) => (f === REVENUE ? '999999999' : null)), hasFiling: true });
    fresh.upsert({ ...rows[1]!, figures: null, hasFiling: false });
    fresh.upsert(row('1z', { revenue: '-250.5', total: '300' }));
    fresh.orderStrategy = 'heap';
    c.orderStrategy = 'walk';
    expect(answers(c)).toEqual(answers(fresh));
  });
});
