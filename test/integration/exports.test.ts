// POST /exports/businesses: by fnr set, list or saved query; CSV (streamed, BOM, formula injection
// escaped) and XLSX read back and checked; default and chosen columns; 204 without rows; 400 above
// 1000 companies by fnr set or list; a saved query exports its first 1000 matches.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../api/accounts/accountStore.js';
import { exportRowsCursor } from '../../api/stores/exportRows.js';
import { KEY_FIGURES, figureParam } from '../../schemas/keyFigures.js';
import { createLogger } from '../../runtime/logger.js';
import { rebuildReadModel } from '../../indexer/indexer.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { seedCompanies } from '../helpers/companies.js';
import { seedCompanies as seedSearchCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { json, type TestHttp } from '../helpers/httpClient.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let db: TestDatabase;
let http: TestHttp;
let alice: { accountId: string; key: string };
let bob: { accountId: string; key: string };
const now = Date.UTC(2025, 2, 14, 12, 0, 0);
const log = createLogger('silent');

const DEFAULT_HEADER = [
  'fnr', 'name', 'legalForm', 'city', 'zipCode', 'isActive', 'isScheinunternehmen', 'hasEdikt', 'documentDate',
  ...KEY_FIGURES.map(figureParam),
];

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ app: { clock: () => now } });
  ({ db, http } = api);
  alice = await accountWithKey(db.sql, 'api');
  bob = await accountWithKey(db.sql, 'pro');
  await seedCompanies(db.sql, [
    {
      fnr: '100a', name: 'Alpha Handel GmbH', legalFormCode: 'GES', courtCode: '066', city: 'Wien', zipCode: '1010',
      filings: [
        { documentDate: '2022-12-31', figures: { umsatzerloese: 100, bilanzSumme: 50 } },
        { documentDate: '2023-12-31', figures: { umsatzerloese: 1234567.89, jahresueberschuss: -1250.5, bilanzSumme: 987654321012.34, employees: 12, eigenkapital: null } },
      ],
      scheinunternehmen: true,
    },
    { fnr: '200b', name: '=HYPERLINK("http://evil.example","click")', city: '+43 Graz', zipCode: '8010', status: 'deleted', edikt: true },
    { fnr: '300c', name: '-Minus KG', legalFormCode: 'KG', city: '@Linz', zipCode: '4020' },
  ]);
});
afterAll(() => api.close());

function exportCall(body: unknown, key = alice.key) {
  return http.request('/api/v1/exports/businesses', {
    method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
}

function readCsv(buffer: Buffer): string[][] {
  return parse(buffer.toString('utf8'), { bom: false, relax_column_count: false }) as string[][];
}

describe('CSV', () => {
  it('exports the fnr set in the order given, UTF-8 with BOM, header of the default columns, streamed', async () => {
    const res = await exportCall({ format: 'csv', fnrs: ['300c', '0100 a', 'nope', '200b'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="companies-2025-03-14.csv"');
    expect(res.headers.get('content-length')).toBeNull(); // streamed (chunked), not buffered
    expect(res.headers.get('x-correlation-id')).toBeTruthy();
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = readCsv(bytes.subarray(3));
    expect(header).toEqual(DEFAULT_HEADER);
    expect(header).toHaveLength(9 + 47);
    expect(rows.map((r) => r[0])).toEqual(['300c', '100a', '200b']);

    const alpha = Object.fromEntries(header!.map((h, i) => [h, rows[1]![i]]));
    expect(alpha).toMatchObject({
      fnr: '100a', name: 'Alpha Handel GmbH', legalForm: 'Gesellschaft mit beschränkter Haftung', city: 'Wien', zipCode: '1010',
      isActive: 'true', isScheinunternehmen: 'true', hasEdikt: 'false', documentDate: '2023-12-31',
      'guv.Umsatzerloese': '1234567.89', 'guv.Jahresueberschuss': '-1250.5', 'bilanz.BilanzSumme': '987654321012.34',
      employees: '12', 'bilanz.Eigenkapital': '', 'guv.Personalaufwand': '',
    });
    const deleted = Object.fromEntries(header!.map((h, i) => [h, rows[2]![i]]));
    expect(deleted).toMatchObject({ isActive: 'false', hasEdikt: 'true', isScheinunternehmen: 'false', documentDate: '', 'guv.Umsatzerloese': '' });
  });

  it('escapes values that start with = + - @ against formula injection, but not negative numbers', async () => {
    const res = await exportCall({ format: 'csv', fnrs: ['200b', '300c', '100a'], columns: ['name', 'city', 'guv.Jahresueberschuss'] });
    const [header, ...rows] = readCsv(Buffer.from(await res.arrayBuffer()).subarray(3));
    expect(header).toEqual(['name', 'city', 'guv.Jahresueberschuss']);
    expect(rows).toEqual([
      [`'=HYPERLINK("http://evil.example","click")`, "'+43 Graz", ''],
      ["'-Minus KG", "'@Linz", ''],
      ['Alpha Handel GmbH', 'Wien', '-1250.5'],
    ]);
  });

  it('takes columns in the order given, extra columns included', async () => {
    const res = await exportCall({ format: 'csv', fnrs: ['100a'], columns: ['employees', 'fnr', 'legalFormCode', 'courtCode', 'street'] });
    const [header, row] = readCsv(Buffer.from(await res.arrayBuffer()).subarray(3));
    expect(header).toEqual(['employees', 'fnr', 'legalFormCode', 'courtCode', 'street']);
    expect(row).toEqual(['12', '100a', 'GES', '066', 'Hauptstraße 1']);
  });

  it('reads rows through a database cursor, one batch of 100 at a time', async () => {
    const fnrs = Array.from({ length: 250 }, () => '100a').map((f, i) => (i % 2 === 0 ? f : '300c'));
    const sizes: number[] = [];
    for await (const batch of exportRowsCursor(db.sql, fnrs)) sizes.push(batch.length);
    expect(sizes).toEqual([100, 100, 50]);
  });

  it('refuses unknown columns with a 400 naming them', async () => {
    const res = await exportCall({ format: 'csv', fnrs: ['100a'], columns: ['fnr', 'revenue'] });
    expect(res.status).toBe(400);
    const { errors } = await json(res);
    expect(Object.keys(errors)).toEqual(['columns.1']);
    expect(errors['columns.1'][0]).toMatch(/^"revenue" is not an export column/);
  });
});

describe('XLSX', () => {
  it('builds a workbook with typed cells and the same escaping, read back with exceljs', async () => {
    const res = await exportCall({ format: 'xlsx', fnrs: ['100a', '200b'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="companies-2025-03-14.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const sheet = workbook.getWorksheet('Companies')!;
    expect(sheet.rowCount).toBe(3);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(DEFAULT_HEADER);
    const cell = (row: number, key: string) => sheet.getRow(row).getCell(DEFAULT_HEADER.indexOf(key) + 1).value;
    expect(cell(2, 'fnr')).toBe('100a');
    expect(cell(2, 'isActive')).toBe(true);
    expect(cell(2, 'isScheinunternehmen')).toBe(true);
    expect(cell(2, 'guv.Umsatzerloese')).toBe(1234567.89);
    expect(cell(2, 'guv.Jahresueberschuss')).toBe(-1250.5);
    expect(cell(2, 'employees')).toBe(12);
    expect(cell(2, 'bilanz.Eigenkapital')).toBeNull();
    expect((cell(2, 'documentDate') as Date).toISOString()).toBe('2023-12-31T00:00:00.000Z');
    expect(cell(3, 'name')).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(cell(3, 'city')).toBe("'+43 Graz");
    expect(cell(3, 'isActive')).toBe(false);
    expect(cell(3, 'hasEdikt')).toBe(true);
  });
});

describe('sources and limits', () => {
  it('exports a list in list order', async () => {
    const list = await json(await http.request('/api/v1/lists', {
      method: 'POST', headers: { 'x-api-key': alice.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'L', fnrs: ['300c', '100a'] }),
    }));
    const res = await exportCall({ format: 'csv', listId: list.id, columns: ['fnr'] });
    expect(readCsv(Buffer.from(await res.arrayBuffer()).subarray(3))).toEqual([['fnr'], ['300c'], ['100a']]);
  });

  it('answers 204 without a body when no rows would result', async () => {
    for (const format of ['csv', 'xlsx']) {
      const res = await exportCall({ format, fnrs: ['999999z'] });
      expect(res.status).toBe(204);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
      expect(res.headers.get('content-disposition')).toBeNull();
    }
    const empty = await json(await http.request('/api/v1/lists', {
      method: 'POST', headers: { 'x-api-key': alice.key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'empty' }),
    }));
    expect((await exportCall({ format: 'csv', listId: empty.id })).status).toBe(204);
  });

  it('refuses more than 1000 companies by fnr set with a 400, not cut short', async () => {
    const res = await exportCall({ format: 'csv', fnrs: Array.from({ length: 1001 }, (_, i) => `${i + 1}a`) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await json(res)).errors.fnrs[0]).toMatch(/at most 1000 companies; larger exports are refused/);
  });

  it('refuses a list of more than 1000 companies with a 400', async () => {
    const [list] = await db.sql<{ id: string }[]>`INSERT INTO company_list (account_id, name) VALUES (${alice.accountId}, 'big') RETURNING id`;
    await db.sql`
      INSERT INTO company_list_member (list_id, fnr, position)
      SELECT ${list!.id}, i || 'x', i FROM generate_series(1, 1001) AS i`;
    const res = await exportCall({ format: 'xlsx', listId: list!.id });
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual({ listId: ['holds more than 1000 companies'] });
  });

  it('exports the first 1000 matches of a saved query, in screener order', async () => {
    await db.sql`
      INSERT INTO company (fnr, name, court_code)
      SELECT i || 'q', 'Q-Firma ' || lpad(i::text, 4, '0'), '999' FROM generate_series(1, 1005) AS i`;
    await rebuildReadModel(db.sql, log);
    const saved = await json(await http.request('/api/v1/queries', {
      method: 'POST', headers: { 'x-api-key': alice.key, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: { courtCode: '999' } }),
    }));
    const res = await exportCall({ format: 'csv', queryId: saved.id, columns: ['fnr', 'name'] });
    expect(res.status).toBe(200);
    const [, ...rows] = readCsv(Buffer.from(await res.arrayBuffer()).subarray(3));
    expect(rows).toHaveLength(1000);
    expect(rows[0]).toEqual(['1q', 'Q-Firma 0001']);
    expect(rows.at(-1)).toEqual(['1000q', 'Q-Firma 1000']);
  });

  it('exports a saved query exactly as GET /businesses answers its filters: umlaut spellings, former names, active first', async () => {
    await seedSearchCompanies(db.sql, [
      { digits: 7001, name: 'Müller Bau GmbH', city: 'Wels', zipCode: '4600', figures: { umsatzerloese: '500' } },
      { digits: 7002, name: 'Mueller Holz GmbH', active: false, city: 'Wels', zipCode: '4600' },
      { digits: 7003, name: 'Zander Handel OG', formerNames: ['Müllerei Zander OG'], city: 'Wels', zipCode: '4600' },
      { digits: 7004, name: 'Aigner Müller KG', city: 'Graz', zipCode: '8010', figures: { umsatzerloese: '900' } },
    ]);
    await rebuildReadModel(db.sql, log);
    for (const filters of [{ search: 'Müller' }, { search: 'mueller', city: 'WELS' }, { search: 'mueller', orderBy: 'guv.Umsatzerloese', orderByDescending: true }]) {
      const saved = await json(await http.request('/api/v1/queries', {
        method: 'POST', headers: { 'x-api-key': alice.key, 'content-type': 'application/json' }, body: JSON.stringify({ filters }),
      }));
      const params = new URLSearchParams(Object.entries(filters).map(([k, v]): [string, string] => [k, String(v)]));
      params.set('pageSize', '1000');
      const screener = await json(await http.request(`/api/v1/businesses?${params}`, { headers: { 'x-api-key': alice.key } }));
      const expected = (screener.data as Array<{ fnr: string }>).map((r) => r.fnr);
      expect(expected.length).toBeGreaterThan(1);
      const res = await exportCall({ format: 'csv', queryId: saved.id, columns: ['fnr'] });
      expect(res.status).toBe(200);
      const [, ...rows] = readCsv(Buffer.from(await res.arrayBuffer()).subarray(3));
      expect(rows.map((r) => r[0])).toEqual(expected);
    }
    // The folded spelling finds both spellings and the former name; the deleted company comes last.
    const all = await json(await http.request('/api/v1/businesses?search=mueller&pageSize=1000', { headers: { 'x-api-key': alice.key } }));
    expect((all.data as Array<{ fnr: string }>).map((r) => r.fnr)).toEqual([seedFnr(7004), seedFnr(7001), seedFnr(7003), seedFnr(7002)]);
  });

  it('answers 204 for a saved query without matches', async () => {
    const saved = await json(await http.request('/api/v1/queries', {
      method: 'POST', headers: { 'x-api-key': alice.key, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: { city: 'Nirgendwo' } }),
    }));
    expect((await exportCall({ format: 'xlsx', queryId: saved.id })).status).toBe(204);
  });

  it('needs exactly one of fnrs, listId, queryId', async () => {
    const none = await exportCall({ format: 'csv' });
    expect(none.status).toBe(400);
    expect((await json(none)).errors).toEqual({ '(body)': ['name the companies by exactly one of fnrs, listId or queryId'] });
    expect((await exportCall({ format: 'csv', fnrs: ['100a'], listId: '00000000-0000-4000-8000-000000000000' })).status).toBe(400);
    expect((await json(await exportCall({ format: 'pdf', fnrs: ['100a'] }))).errors).toHaveProperty('format');
  });

  it("answers 404 for another account's list or saved query", async () => {
    const bobsList = await json(await http.request('/api/v1/lists', {
      method: 'POST', headers: { 'x-api-key': bob.key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'b', fnrs: ['100a'] }),
    }));
    const bobsQuery = await json(await http.request('/api/v1/queries', {
      method: 'POST', headers: { 'x-api-key': bob.key, 'content-type': 'application/json' }, body: JSON.stringify({ filters: { city: 'Wien' } }),
    }));
    expect((await exportCall({ format: 'csv', listId: bobsList.id })).status).toBe(404);
    expect((await exportCall({ format: 'csv', queryId: bobsQuery.id })).status).toBe(404);
    const own = await exportCall({ format: 'csv', queryId: bobsQuery.id, columns: ['fnr'] }, bob.key);
    expect(readCsv(Buffer.from(await own.arrayBuffer()).subarray(3))).toEqual([['fnr'], ['100a']]);
  });

  it('answers 401 to a service key without a session, and bills one request per export', async () => {
    const service = await createApiKey(db.sql, { accountId: null });
    expect((await exportCall({ format: 'csv', fnrs: ['100a'] }, service.key)).status).toBe(401);
    const before = Number((await http.get('/api/v1/courts', { 'x-api-key': bob.key })).headers.get('x-quota-remaining'));
    await (await exportCall({ format: 'csv', fnrs: ['100a'] }, bob.key)).arrayBuffer();
    const after = Number((await http.get('/api/v1/courts', { 'x-api-key': bob.key })).headers.get('x-quota-remaining'));
    expect(before - after).toBe(2);
  });
});
