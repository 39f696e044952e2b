// Paging defaults and combined feed filters, through the whole app (key, limits, quota):
// - a request without pageSize gets 10 rows on list endpoints (screener, name indexes, people,
//   catalogues) and 100 on the five change feeds, with totals for that page size;
// - `since` (inclusive, on recordedAt) combined with `sinceId` (exclusive) answers exactly the
//   intersection of both filters, with exact totals, when each filter drops rows the other keeps.
// Expectations come from the tables through plain SQL or from the rows this file writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOnce, rebuildReadModel } from '../../indexer/indexer.js';
import { createLogger } from '../../runtime/logger.js';
import { insertChanges } from '../helpers/changeRows.js';
import { json, type TestHttp } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const log = createLogger('silent');
let db: TestDatabase;
let http: TestHttp;

const COMPANIES = 13;
const PEOPLE = 14;

let api: TestApi | undefined;
beforeAll(async () => {
  // This file sends hundreds of requests within a minute; the burst limit is not what it tests.
  api = await startTestApi({
    access: { burstLimit: 100_000 },
    plan: 'api',
    prepare: async (db) => {
      await seedCompanies(db.sql, Array.from({ length: COMPANIES }, (_, i) => ({ digits: 5100 + i, name: `Pagetest Handels ${String.fromCharCode(65 + i)} GmbH` })));
      await rebuildReadModel(db.sql, log);
      while ((await indexOnce(db.sql)) > 0);
      await db.sql`
        INSERT INTO person (person_id, first_name, last_name, name_norm)
        SELECT 'anna-pagetest' || i || '-x', 'Anna', 'Pagetest' || i, 'anna pagetest' || i FROM generate_series(1, ${PEOPLE}::int) i`;
      // Well over 100 changes of every type (40% business, 30% document, 20% edikt, 10% trade).
      await insertChanges(db.sql, 1500);
    },
  });
  ({ db, http } = api);
});
afterAll(() => api?.close());

interface Page { data: Record<string, unknown>[]; pageNumber: number; pageSize: number; totalRecords: number; totalPages: number }

async function page(path: string): Promise<Page> {
  const res = await http.get(path);
  expect(res.status, path).toBe(200);
  return (await json(res)) as Page;
}

describe('default page size 10 on list endpoints', () => {
  const lists = [
    '/api/v1/businesses',
    '/api/v1/businesses?search=pagetest',
    '/api/v1/people',
    '/api/v1/people?lastName=pagetest',
    '/api/v1/people/names?search=anna%20pagetest',
    '/api/v1/oenace',
    '/api/v1/oenace?level=2',
    '/api/v1/legalforms',
    '/api/v1/courts',
    '/api/v1/assignmentfunctions',
    '/api/v1/addresses/cities',
    '/api/v1/addresses/zipcodes',
    '/api/v1/addresses/locations',
  ];

  it.each(lists)('%s without pageSize answers the first 10 of its matches', async (path) => {
    const body = await page(path);
    // The same query with an explicit page of 1000: its first rows are the default pages' rows.
    const all = await page(`${path}${path.includes('?') ? '&' : '?'}pageSize=1000`);
    expect(all.data).toHaveLength(Math.min(1000, all.totalRecords));
    expect({ pageNumber: body.pageNumber, pageSize: body.pageSize, totalRecords: body.totalRecords, totalPages: body.totalPages }).toEqual({
      pageNumber: 1, pageSize: 10, totalRecords: all.totalRecords, totalPages: Math.ceil(all.totalRecords / 10),
    });
    expect(body.data).toEqual(all.data.slice(0, 10));
    const second = await page(`${path}${path.includes('?') ? '&' : '?'}page=2`);
    expect(second.pageSize).toBe(10);
    expect(second.data).toEqual(all.data.slice(10, 20));
  });

  // /businesses/names: only the page size and rows here. Its totalRecords is the number of candidates
  // fetched up to the requested page (10 on page 1 of 13 matches), not every match: api/routes/businesses.ts
  // is owned elsewhere, so that is reported rather than asserted here.
  it('/api/v1/businesses/names without pageSize answers 10 names, the first 10 of a page of 1000', async () => {
    const body = await page('/api/v1/businesses/names?search=pagetest');
    const all = await page('/api/v1/businesses/names?search=pagetest&pageSize=1000');
    expect(all.data).toHaveLength(COMPANIES);
    expect([body.pageNumber, body.pageSize, body.data.length]).toEqual([1, 10, 10]);
    expect(body.data).toEqual(all.data.slice(0, 10));
  });

  it('cuts at 10 where there are more: the seeded companies, people and the larger catalogues', async () => {
    const counts = async (sql: string) => (await db.sql.unsafe<{ n: number }[]>(sql))[0]!.n;
    const expected: Array<[string, number]> = [
      ['/api/v1/businesses', await counts('SELECT count(*)::int AS n FROM company')],
      ['/api/v1/businesses?search=pagetest', COMPANIES],
      ['/api/v1/people', await counts('SELECT count(*)::int AS n FROM person')],
      ['/api/v1/people?lastName=pagetest', PEOPLE],
      ['/api/v1/courts', await counts('SELECT count(*)::int AS n FROM court')],
      ['/api/v1/legalforms', await counts('SELECT count(*)::int AS n FROM legal_form')],
      ['/api/v1/oenace?level=2', await counts("SELECT count(*)::int AS n FROM oenace_class WHERE version = '2008' AND level = 2")],
    ];
    for (const [path, total] of expected) {
      expect(total, path).toBeGreaterThan(10);
      const body = await page(path);
      expect([body.data.length, body.pageSize, body.totalRecords, body.totalPages], path).toEqual([10, 10, total, Math.ceil(total / 10)]);
    }
    const companies = await page('/api/v1/businesses?search=pagetest');
    expect(companies.data.every((c) => String(c.name).startsWith('Pagetest Handels'))).toBe(true);
    expect(new Set(companies.data.map((c) => c.fnr)).size).toBe(10);
    expect(companies.data.every((c) => Array.from({ length: COMPANIES }, (_, i) => seedFnr(5100 + i)).includes(String(c.fnr)))).toBe(true);
  });
});

describe('default page size 100 on the five change feeds', () => {
  const feeds = [
    ['/api/v1/globalchanges', null],
    ['/api/v1/businesses/changes', 'business'],
    ['/api/v1/documents/changes', 'document'],
    ['/api/v1/edikte/changes', 'edikt'],
    ['/api/v1/trades/changes', 'trade'],
  ] as const;

  const ids = async (type: string | null, afterId = 0) =>
    (await db.sql<{ id: number }[]>`SELECT id FROM change_log WHERE id > ${afterId} ${type ? db.sql`AND type = ${type}` : db.sql``} ORDER BY id`).map((r) => Number(r.id));

  it.each(feeds)('%s without pageSize answers 100 changes', async (path, type) => {
    const all = await ids(type);
    expect(all.length, 'enough changes to fill more than one default page').toBeGreaterThan(100);
    for (const query of ['', '?sinceId=0', '?page=2', `?sinceId=${all[7]}`]) {
      const body = await page(`${path}${query}`);
      const afterId = query.startsWith('?sinceId=') ? Number(query.slice('?sinceId='.length)) : 0;
      const matching = all.filter((id) => id > afterId);
      const pageNumber = query === '?page=2' ? 2 : 1;
      expect({ pageNumber: body.pageNumber, pageSize: body.pageSize, totalRecords: body.totalRecords, totalPages: body.totalPages }, `${path}${query}`).toEqual({
        pageNumber, pageSize: 100, totalRecords: matching.length, totalPages: Math.ceil(matching.length / 100),
      });
      expect(body.data.map((c) => c.id), `${path}${query}`).toEqual(matching.slice((pageNumber - 1) * 100, pageNumber * 100));
      if (type) expect(body.data.every((c) => c.type === type)).toBe(true);
    }
  });
});

describe('since combined with sinceId', () => {
  // Changes whose recordedAt does not follow their ids (as when a transaction that started earlier
  // commits later: recordedAt is its start), so each filter drops rows the other keeps.
  const base = Date.parse('2024-05-01T08:00:00.000Z');
  const minutes = [5, 1, 9, 3, 7, 0, 11, 2, 8, 4, 10, 6, 9, 3];
  const types = ['business', 'document', 'business', 'edikt', 'business', 'trade', 'document', 'business', 'edikt', 'business', 'document', 'business', 'trade', 'business'] as const;
  interface Written { id: number; type: string; fnr: string; recordedAt: string }
  const written: Written[] = [];
  let watermark = 0;

  beforeAll(async () => {
    const [top] = await db.sql<{ id: number }[]>`SELECT coalesce(max(id), 0)::int AS id FROM change_log`;
    watermark = top!.id;
    for (const [i, type] of types.entries()) {
      const recordedAt = new Date(base + minutes[i]! * 60_000).toISOString();
      const fnr = i % 3 === 0 ? '88001m' : `${88100 + i}x`;
      const [row] = await db.sql<{ id: number }[]>`
        INSERT INTO change_log (type, fnr, action, changed_fields, document_key, edikt_id, gisa_zahl, recorded_at)
        VALUES (${type}, ${fnr}, 'updated', '{name}', ${type === 'document' ? `DK${i}` : null}, ${type === 'edikt' ? `ED${i}` : null},
                ${type === 'trade' ? `GZ${i}` : null}, ${recordedAt})
        RETURNING id`;
      written.push({ id: Number(row!.id), type, fnr, recordedAt });
    }
  });

  /** Every page of a feed query (pageSize 3 unless given), in order. */
  async function allPages(path: string, pageSize = 3): Promise<{ ids: number[]; first: Page; entries: Record<string, unknown>[] }> {
    const first = await page(`${path}&pageSize=${pageSize}`);
    const entries = [...first.data];
    for (let p = 2; p <= first.totalPages; p++) {
      const next = await page(`${path}&pageSize=${pageSize}&page=${p}`);
      expect(next.totalRecords).toBe(first.totalRecords);
      entries.push(...next.data);
    }
    return { ids: entries.map((e) => Number(e.id)), first, entries };
  }

  const cases = [
    // [rows after this many written ones, since = base + this many minutes]
    [3, 4],
    [5, 6],
    [3, 9],
    [8, 5],
  ] as const;

  it.each(cases)('sinceId after %i written changes, since at minute %i: exactly the intersection, exact totals', async (skip, sinceMinute) => {
    const sinceId = written[skip - 1]?.id ?? watermark;
    const since = new Date(base + sinceMinute * 60_000).toISOString();
    const afterId = written.filter((w) => w.id > sinceId);
    const fromSince = written.filter((w) => w.recordedAt >= since);
    const both = written.filter((w) => w.id > sinceId && w.recordedAt >= since);
    // Each filter drops rows the other keeps: the intersection is smaller than either.
    expect(afterId.some((w) => w.recordedAt < since)).toBe(true);
    expect(fromSince.some((w) => w.id <= sinceId)).toBe(true);
    expect(both.length).toBeGreaterThan(0);

    const q = `sinceId=${sinceId}&since=${encodeURIComponent(since)}`;
    const global = await allPages(`/api/v1/globalchanges?${q}`);
    expect(global.ids).toEqual(both.map((w) => w.id));
    expect([global.first.totalRecords, global.first.totalPages]).toEqual([both.length, Math.ceil(both.length / 3)]);
    expect(global.entries.map((e) => ({ id: e.id, type: e.type, fnr: e.fnr, recordedAt: e.recordedAt }))).toEqual(both);

    // Each filter alone answers its own, larger set (sinceId alone also brings nothing older than the watermark).
    expect((await allPages(`/api/v1/globalchanges?sinceId=${sinceId}`)).ids).toEqual(afterId.map((w) => w.id));
    const sinceOnly = await allPages(`/api/v1/globalchanges?since=${encodeURIComponent(since)}`, 1000);
    expect(sinceOnly.ids.filter((id) => id > watermark)).toEqual(fromSince.map((w) => w.id));

    for (const type of ['business', 'document', 'edikt', 'trade']) {
      const path = { business: '/api/v1/businesses/changes', document: '/api/v1/documents/changes', edikt: '/api/v1/edikte/changes', trade: '/api/v1/trades/changes' }[type]!;
      const expected = both.filter((w) => w.type === type).map((w) => w.id);
      const typed = await allPages(`${path}?${q}`);
      expect(typed.ids, `${type}: ${q}`).toEqual(expected);
      expect(typed.first.totalRecords, `${type}: ${q}`).toBe(expected.length);
    }
    // With fnr as a third filter.
    const byFnr = await allPages(`/api/v1/globalchanges?${q}&fnr=088001%20m`);
    expect(byFnr.ids).toEqual(both.filter((w) => w.fnr === '88001m').map((w) => w.id));
    expect(byFnr.first.totalRecords).toBe(both.filter((w) => w.fnr === '88001m').length);
  });

  it('since is inclusive to the millisecond, sinceId exclusive, also together', async () => {
    const target = written[6]!; // minute 11, the latest recordedAt written
    const at = encodeURIComponent(target.recordedAt);
    const justAfter = encodeURIComponent(new Date(Date.parse(target.recordedAt) + 1).toISOString());
    expect((await page(`/api/v1/globalchanges?sinceId=${watermark}&since=${at}`)).data.map((e) => e.id)).toEqual([target.id]);
    expect((await page(`/api/v1/globalchanges?sinceId=${watermark}&since=${justAfter}`)).totalRecords).toBe(0);
    expect((await page(`/api/v1/globalchanges?sinceId=${target.id}&since=${at}`)).totalRecords).toBe(0);
    expect((await page(`/api/v1/globalchanges?sinceId=${target.id - 1}&since=${at}`)).data.map((e) => e.id)).toEqual([target.id]);
  });
});
