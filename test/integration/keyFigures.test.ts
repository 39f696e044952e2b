// GET /keyfigures (issue 23.2): the catalogue of the 47 screener figures, from schemas/keyFigures.ts.
// Every figure is there with a parameter the screener takes; the expenses say they are negative as
// filed, and the filter example they give finds what it says on real rows while the naive `_gte`
// finds nothing; the signs agree with every filing of the replay corpus; paged, searchable, strict
// about parameters and billed like the other catalogues.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildReadModel, indexOnce } from '../../indexer/indexer.js';
import { createLogger } from '../../runtime/logger.js';
import { KEY_FIGURES, figureJsonKey, figureParam } from '../../schemas/keyFigures.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, type TestHttp } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const EXPENSES = ['guv.Materialaufwand', 'guv.Personalaufwand', 'guv.Abschreibungen', 'guv.SonstigeBetrieblicheAufwendungen', 'guv.ZinsAufwendungen', 'guv.SteuernVomEinkommen'];

let api: TestApi;
let http: TestHttp;
beforeAll(async () => {
  api = await startTestApi({
    plan: 'api',
    prepare: async (db) => {
      await seedCompanies(db.sql, [
        { digits: 7101, name: 'Große Lohnsumme GmbH', figures: { personalaufwand: '-2500000', jahresueberschuss: '-40000' } },
        { digits: 7102, name: 'Kleine Lohnsumme GmbH', figures: { personalaufwand: '-300000', jahresueberschuss: '120000' } },
      ]);
      await rebuildReadModel(db.sql, createLogger('silent'));
      while ((await indexOnce(db.sql)) > 0);
    },
  });
  ({ http } = api);
});
afterAll(() => api.close());

type Entry = { parameter: string; jsonKey: string; group: string; meaningDe: string; meaningEn: string; unit: string; sign: string; signConvention: string; filterExample: string; position: string; sources: { legacy: string[]; jab4: string[] } };
const all = async (): Promise<Entry[]> => (await json(await http.get('/api/v1/keyfigures?pageSize=100'))).data;

describe('GET /keyfigures', () => {
  it('lists all 47 figures in the spec order, each a parameter the screener takes, with meaning, unit and sources', async () => {
    const entries = await all();
    expect(entries.map((e) => e.parameter)).toEqual(KEY_FIGURES.map(figureParam));
    expect(entries.map((e) => e.jsonKey)).toEqual(KEY_FIGURES.map(figureJsonKey));
    for (const e of entries) {
      expect(e.meaningDe.length, e.parameter).toBeGreaterThan(3);
      expect(e.meaningEn.length, e.parameter).toBeGreaterThan(3);
      expect(e.sources.legacy.length + e.sources.jab4.length, e.parameter).toBeGreaterThan(1);
      expect(e.unit).toBe(e.parameter === 'employees' ? 'persons' : 'EUR');
      expect(e.group).toBe(e.parameter.split('.')[0]);
      const res = await http.get(`/api/v1/businesses/count?${e.filterExample}&orderBy=${e.parameter}`);
      expect(res.status, e.filterExample).toBe(200);
    }
    expect(entries.find((e) => e.parameter === 'guv.Personalaufwand')).toMatchObject({
      meaningDe: 'Personalaufwand', meaningEn: 'personnel expense', position: 'GuV Z 6 (GKV)',
      sources: { legacy: ['HGB_231_2_6'], jab4: ['PERSONALAUFWAND'] },
    });
  });

  it('marks exactly the expenses negative, with a filter that finds large ones where the naive one finds none', async () => {
    const entries = await all();
    expect(entries.filter((e) => e.sign === 'negative').map((e) => e.parameter)).toEqual(EXPENSES);
    for (const e of entries.filter((x) => x.sign === 'negative')) {
      expect(e.filterExample).toBe(`${e.parameter}_lte=-1000000`);
      expect(e.signConvention).toMatch(/NEGATIVE/);
      expect(e.signConvention).toContain(`${e.parameter}_lte=-1000000`);
    }
    const staff = entries.find((e) => e.parameter === 'guv.Personalaufwand')!;
    const found = await json(await http.get(`/api/v1/businesses?${staff.filterExample}`));
    expect(found.data.map((r: { fnr: string }) => r.fnr)).toEqual([seedFnr(7101)]);
    expect(await json(await http.get('/api/v1/businesses/count?guv.Personalaufwand_gte=1000000'))).toEqual({ count: 0 });
    // Ascending puts the largest expense first, as the sign convention says.
    const sorted = await json(await http.get('/api/v1/businesses?orderBy=guv.Personalaufwand&orderByDescending=false'));
    expect(sorted.data.map((r: { fnr: string }) => r.fnr)).toEqual([seedFnr(7101), seedFnr(7102)]);
    const result = entries.find((e) => e.parameter === 'guv.Jahresueberschuss')!;
    expect(result.sign).toBe('signed');
    const losses = await json(await http.get(`/api/v1/businesses?${result.filterExample}`));
    expect(losses.data.map((r: { fnr: string }) => r.fnr)).toEqual([seedFnr(7101)]);
  });

  it('agrees with the sign of every figure in every filing of the replay corpus', async () => {
    const entries = new Map((await all()).map((e) => [e.jsonKey, e]));
    const dir = 'fixtures/corpus/firmenbuch/expected';
    const wrong: string[] = [];
    let values = 0;
    const walk = (node: unknown, file: string): void => {
      if (Array.isArray(node)) return node.forEach((n) => walk(n, file));
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      if ('bilanzSumme' in record) {
        for (const [key, entry] of entries) {
          const v = record[key];
          if (v === null || v === undefined) continue;
          values++;
          const n = Number(v);
          if ((entry.sign === 'negative' && n > 0) || (entry.sign === 'positive' && n < 0)) wrong.push(`${file} ${key}=${String(v)} (${entry.sign})`);
        }
      }
      Object.values(record).forEach((n) => walk(n, file));
    };
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) walk(JSON.parse(readFileSync(join(dir, file), 'utf8')), file);
    expect(values).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
  });

  it('pages with the list envelope, counting every match on a page past the end', async () => {
    const page = await json(await http.get('/api/v1/keyfigures?pageSize=10&page=5'));
    expect(page).toMatchObject({ pageNumber: 5, pageSize: 10, totalRecords: 47, totalPages: 5 });
    expect(page.data.map((e: Entry) => e.parameter)).toEqual(KEY_FIGURES.slice(40).map(figureParam));
    expect(await json(await http.get('/api/v1/keyfigures?pageSize=10&page=6'))).toEqual({ data: [], pageNumber: 6, pageSize: 10, totalRecords: 47, totalPages: 5 });
    const first = await json(await http.get('/api/v1/keyfigures'));
    expect(first).toMatchObject({ pageNumber: 1, pageSize: 10, totalRecords: 47 });
    expect(first.data).toHaveLength(10);
  });

  it('searches names and meanings with umlauts folded, and filters by group and sign', async () => {
    const search = async (q: string) => (await json(await http.get(`/api/v1/keyfigures?pageSize=100&${q}`))).data.map((e: Entry) => e.parameter);
    expect(await search('search=R%C3%BCckstellungen')).toEqual(['bilanz.Rueckstellungen']);
    expect(await search('search=interest')).toEqual(['guv.ZinsErtraege', 'guv.ZinsAufwendungen']);
    expect(await search('sign=negative')).toEqual(EXPENSES);
    expect(await search('group=guv&search=ergebnis')).toEqual(['guv.Rohergebnis', 'guv.BruttoergebnisVomUmsatz', 'guv.ErgebnisVorSteuern', 'guv.ErgebnisNachSteuern']);
    expect(await search('group=employees')).toEqual(['employees']);
  });

  it('answers unknown and malformed parameters with a 400 keyed by parameter', async () => {
    const res = await http.get('/api/v1/keyfigures?colour=red&sign=minus&pageSize=1001&search=');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Object.keys((await json(res)).errors).sort()).toEqual(['colour', 'pageSize', 'search', 'sign']);
  });

  it('is billed like the other catalogues: a key is needed, and each call costs one request', async () => {
    expect((await http.get('/api/v1/keyfigures', { 'x-api-key': '' })).status).toBe(401);
    const { key } = await accountWithKey(api.db.sql, 'free');
    const first = await http.get('/api/v1/keyfigures', { 'x-api-key': key });
    const second = await http.get('/api/v1/keyfigures?search=x', { 'x-api-key': key });
    const court = await http.get('/api/v1/courts', { 'x-api-key': key });
    expect([first, second, court].map((r) => r.headers.get('x-quota-remaining'))).toEqual(['99', '98', '97']);
    const bad = await http.get('/api/v1/keyfigures?colour=red', { 'x-api-key': key });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-quota-remaining')).toBe('96');
  });
});
