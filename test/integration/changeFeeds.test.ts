// The change feeds: the spec's polling recipe under a concurrent writer sees every change exactly
// once and never a gap; the page and total caps; sinceId/since/fnr; the aggregated feed; single
// court-notice changes.
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correlationId } from '../../api/middleware/correlationId.js';
import { errorHandler } from '../../api/middleware/errorHandler.js';
import { changeFeedRouter } from '../../api/routes/changeFeeds.js';
import { recordChanges } from '../../pipeline/store/changeLog.js';
import { createLogger } from '../../runtime/logger.js';
import { insertChanges, insertRolledBack } from '../helpers/changeRows.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
let http: TestHttp;

beforeAll(async () => {
  db = await createTestDatabase({ max: 10 });
  const app = new Koa();
  app.silent = true;
  app.use(correlationId());
  app.use(errorHandler(createLogger('silent')));
  const api = new Router({ prefix: '/api/v1' });
  const feeds = changeFeedRouter(db.sql, createLogger('silent'));
  api.use(feeds.routes());
  app.use(api.routes());
  http = await serve(app);
});
afterAll(async () => {
  await http.close();
  await db.drop();
});

async function page(path: string) {
  const res = await http.get(path);
  expect(res.status, path).toBe(200);
  return json(res) as Promise<{ data: Array<{ id: number } & Record<string, unknown>>; totalRecords: number; totalPages: number; pageNumber: number; pageSize: number }>;
}

describe('polling recipe', () => {
  it('a consumer following the recipe under a concurrent writer gets every change once and never sees a gap', async () => {
    const [start] = await db.sql<{ max: number }[]>`SELECT coalesce(max(id), 0)::int AS max FROM change_log`;
    let writing = true;
    const writer = (async () => {
      for (let t = 0; t < 60; t++) {
        const conn = await db.sql.reserve();
        try {
          await conn`BEGIN`;
          await conn`INSERT INTO change_log (type, fnr, action, changed_fields) VALUES ('business', ${`${t}a`}, 'updated', '{name}')`;
          // Some transactions stay open while later ones commit: ids become visible out of order.
          if (t % 4 === 0) await new Promise((r) => setTimeout(r, 15));
          await conn`COMMIT`;
        } finally {
          conn.release();
        }
      }
    })();
    const others = (async () => {
      for (let t = 0; t < 40; t++) {
        await db.sql.begin((tx) => recordChanges(tx, [{ type: 'document', fnr: `${t}b`, action: 'created', changedFields: [], documentKey: `K${t}` }]));
      }
    })();
    void Promise.all([writer, others]).then(() => {
      writing = false;
    });

    const pageSize = 7;
    let watermark = start!.max;
    const seen: number[] = [];
    let sawGap = false;
    for (let idle = 0; idle < 3; ) {
      const done = !writing;
      let highest = watermark;
      for (let p = 1; ; p++) {
        const body = await page(`/api/v1/globalchanges?sinceId=${watermark}&page=${p}&pageSize=${pageSize}`);
        for (const c of body.data) {
          if (c.id <= watermark) sawGap = true;
          seen.push(c.id);
          highest = Math.max(highest, c.id);
        }
        if (body.data.length < pageSize) break;
      }
      if (highest === watermark && done) idle++;
      watermark = highest;
      await new Promise((r) => setTimeout(r, 3));
    }
    const committed = (await db.sql<{ id: number }[]>`SELECT id FROM change_log WHERE id > ${start!.max} ORDER BY id`).map((r) => r.id);
    expect(sawGap).toBe(false);
    expect([...new Set(seen)].sort((a, b) => a - b)).toEqual(committed);
    expect(committed).toHaveLength(100);
  });
});

describe('feed parameters and caps', () => {
  let first = 0;
  beforeAll(async () => {
    await db.sql`DELETE FROM change_log`;
    const ids = await db.sql.begin((tx) =>
      recordChanges(tx, Array.from({ length: 1005 }, (_, i) => ({ type: 'business' as const, fnr: i % 5 === 0 ? '34853f' : `${i}x`, action: 'updated' as const, changedFields: ['name'] }))),
    );
    first = ids[0]!;
    // A court-notice change keeps the notice's row as to_jsonb writes it (schemas/courtNoticeRecords.ts).
    await db.sql`INSERT INTO court_notice (edikt_id, aktenzeichen, court_code, court_name, proceeding_code, proceeding_text, debtor_type, debtor_name,
                   debtor_address, fnr, link_evidence, link_confidence, first_published_on, last_published_on, opened_on, blocks, is_open, raw)
                 VALUES ('458015S0001225001', '12 S 12/25x', '458', 'LG Innsbruck', 'KV', 'Konkursverfahren', 'J', 'Alpen Holz GmbH',
                   '{"street": "Museumstraße 1", "zipCode": "6020", "city": "Innsbruck"}', '34853f', 'register-fn', 0.95, '2025-03-04', '2025-03-05',
                   '2025-03-03', '[{"publishedOn": "2025-03-04", "name": "Eröffnung", "text": "Konkurs eröffnet.", "decidedOn": "2025-03-03"}]', true,
                   '{"internal": "not for clients"}')`;
    await db.sql`UPDATE court_notice SET deleted_at = '2025-06-01 12:34:56.789+00' WHERE edikt_id = '458015S0001225001'`;
    // Written as a writer in Vienna would: to_jsonb renders timestamptz in the session's TimeZone.
    const [notice] = await db.sql.begin(async (tx) => {
      await tx`SET LOCAL TimeZone = 'Europe/Vienna'`;
      return tx<{ row: Record<string, unknown> }[]>`SELECT to_jsonb(n) AS row FROM court_notice n WHERE edikt_id = '458015S0001225001'`;
    });
    await db.sql.begin((tx) =>
      recordChanges(tx, [
        { type: 'edikt', fnr: '34853f', action: 'created', changedFields: ['opened'], ediktId: '458015S0001225001', snapshot: notice!.row },
        { type: 'trade', fnr: null, action: 'updated', changedFields: ['wording'], gisaZahl: '123456784' },
      ]),
    );
  });

  it('caps totalRecords at 1000 x pageSize and totalPages at 1000, exact below the cap', async () => {
    const capped = await page('/api/v1/businesses/changes?sinceId=0&pageSize=1');
    expect(capped.totalRecords).toBe(1000);
    expect(capped.totalPages).toBe(1000);
    const exact = await page('/api/v1/businesses/changes?sinceId=0&pageSize=2');
    expect(exact.totalRecords).toBe(1005);
    expect(exact.totalPages).toBe(503);
    const byFnr = await page('/api/v1/businesses/changes?fnr=034853%20f&pageSize=1');
    expect(byFnr.totalRecords).toBe(201);
    expect(byFnr.data[0]).toMatchObject({ fnr: '34853f', type: 'business', action: 'updated', changedFields: ['name'] });
  });

  it('refuses page 1001 and pageSize above 1000 with a 400 naming the parameter, on every feed, and takes page 1000 and pageSize 1000', async () => {
    const feeds = ['/globalchanges', '/businesses/changes', '/documents/changes', '/edikte/changes', '/trades/changes'];
    const refused: Array<[string, string]> = [
      ...feeds.flatMap((f): Array<[string, string]> => [[`${f}?page=1001`, 'page'], [`${f}?pageSize=1001`, 'pageSize']]),
      ['/edikte/changes?sinceId=-1', 'sinceId'], ['/globalchanges?since=yesterday', 'since'],
    ];
    for (const [path, parameter] of refused) {
      const res = await http.get(`/api/v1${path}`);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect(Object.keys((await json(res)).errors), path).toEqual([parameter]);
    }
    for (const f of feeds) {
      const last = await page(`/api/v1${f}?sinceId=0&page=1000&pageSize=1000`);
      expect({ pageNumber: last.pageNumber, pageSize: last.pageSize, data: last.data }, f).toEqual({ pageNumber: 1000, pageSize: 1000, data: [] });
    }
  });

  it('treats sinceId as exclusive and since as inclusive; the same id appears in the typed and global feeds', async () => {
    const after = await page(`/api/v1/businesses/changes?sinceId=${first}&pageSize=1`);
    expect(after.data[0]!.id).toBe(first + 1);
    const [row] = await db.sql<{ recordedAt: Date }[]>`SELECT recorded_at FROM change_log WHERE type = 'edikt'`;
    const since = await page(`/api/v1/globalchanges?since=${encodeURIComponent(row!.recordedAt.toISOString())}&pageSize=1000`);
    expect(since.data.map((c) => c.type)).toEqual(['edikt', 'trade']);
    const edikt = await page('/api/v1/edikte/changes?sinceId=0');
    expect(edikt.data).toEqual([expect.objectContaining({ id: since.data[0]!.id, ediktId: '458015S0001225001', fnr: '34853f' })]);
    const trade = await page('/api/v1/trades/changes?sinceId=0');
    expect(trade.data[0]).toMatchObject({ type: 'trade', gisaZahl: '123456784', fnr: null });
  });

  it('answers the aggregated feed with four arrays, each cut at maxResultsPerType', async () => {
    const res = await http.get('/api/v1/globalchanges/aggregated?maxResultsPerType=3');
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(['businessChanges', 'documentChanges', 'ediktChanges', 'globalChanges']);
    expect(body.businessChanges).toHaveLength(3);
    expect(body.ediktChanges).toHaveLength(1);
    expect(body.documentChanges).toEqual([]);
    expect(body.globalChanges.map((c: { id: number }) => c.id)).toEqual([first, first + 1, first + 2]);
    expect((await http.get('/api/v1/globalchanges/aggregated?maxResultsPerType=2001')).status).toBe(400);
  });

  it('answers one court notice by its change id, as the change left it', async () => {
    const edikt = await page('/api/v1/edikte/changes?sinceId=0');
    const body = await json(await http.get(`/api/v1/edikte/changes/${edikt.data[0]!.id}`));
    expect(body).toEqual({
      id: edikt.data[0]!.id, type: 'edikt', fnr: '34853f', recordedAt: edikt.data[0]!.recordedAt, action: 'created', changedFields: ['opened'],
      ediktId: '458015S0001225001',
      notice: {
        ediktId: '458015S0001225001', aktenzeichen: '12 S 12/25x', court: { code: '458', text: 'LG Innsbruck' },
        proceeding: { code: 'KV', text: 'Konkursverfahren' },
        debtor: { type: 'J', name: 'Alpen Holz GmbH', fnr: '34853f', personId: null, address: { street: 'Museumstraße 1', zipCode: '6020', city: 'Innsbruck' } },
        openedOn: '2025-03-03', firstPublishedOn: '2025-03-04', lastPublishedOn: '2025-03-05', isOpen: true, deletedAt: '2025-06-01T12:34:56.789Z',
        blocks: [{ publishedOn: '2025-03-04', name: 'Eröffnung', text: 'Konkurs eröffnet.', decidedOn: '2025-03-03' }],
        link: { evidence: 'register-fn', confidence: 0.95, candidates: [] },
      },
    });
    expect((await http.get(`/api/v1/edikte/changes/${first}`)).status).toBe(404);
    expect((await http.get('/api/v1/edikte/changes/abc')).status).toBe(400);
  });
});

// Totals past a few thousand changes come from sealed blocks of ids (0012); deep pages start from them.
describe('totals and deep pages over many blocks', () => {
  let from = 0;
  beforeAll(async () => {
    const [last] = await db.sql<{ id: number }[]>`SELECT coalesce(max(id), 0)::int AS id FROM change_log`;
    from = last!.id;
    await insertChanges(db.sql, 3000);
    await insertRolledBack(db.sql, 2100); // at least one whole block without a row
    await insertChanges(db.sql, 6500);
  });

  const plainIds = async (sinceId: number, type?: string) =>
    (await db.sql<{ id: number }[]>`SELECT id FROM change_log WHERE id > ${sinceId} ${type ? db.sql`AND type = ${type}` : db.sql``} ORDER BY id`).map((r) => r.id);

  it('caps totalRecords at 1000 x pageSize and is exact below it, at cursors inside blocks, global and typed', async () => {
    const capped = await page('/api/v1/globalchanges?sinceId=0&pageSize=5');
    expect(capped.totalRecords).toBe(5000);
    expect(capped.totalPages).toBe(1000);
    for (const sinceId of [0, from + 1, from + 1500, from + 4099, from + 7000]) {
      const all = await plainIds(sinceId);
      const exact = await page(`/api/v1/globalchanges?sinceId=${sinceId}&pageSize=20`);
      expect(exact.totalRecords, `sinceId ${sinceId}`).toBe(all.length);
      expect(exact.totalPages).toBe(Math.ceil(all.length / 20));
      expect(exact.data.map((c) => c.id)).toEqual(all.slice(0, 20));
      const documents = await plainIds(sinceId, 'document');
      const typed = await page(`/api/v1/documents/changes?sinceId=${sinceId}&pageSize=5`);
      expect(typed.totalRecords, `documents after ${sinceId}`).toBe(documents.length);
      expect(typed.data.map((c) => c.id)).toEqual(documents.slice(0, 5));
    }
    // Around the cap of pageSize 5 (5000): cursors with 4999, 5000 and 5001 changes after them.
    const all = await plainIds(0);
    for (const [following, expected] of [[4999, 4999], [5000, 5000], [5001, 5000]] as const) {
      const body = await page(`/api/v1/globalchanges?sinceId=${all[all.length - following - 1]}&pageSize=5`);
      expect([body.totalRecords, body.totalPages], `${following} following`).toEqual([expected, 1000]);
    }
    // Caps from 1000 to 7000 against cursors inside blocks: the sealed blocks alone reach the cap,
    // or the head brings the count to it, or only the tail does, or nothing does (0015's shortcuts).
    for (const sinceId of [from + 1, from + 700, from + 2500, from + 5555]) {
      const following = (await plainIds(sinceId)).length;
      for (const pageSize of [1, 2, 3, 5, 7]) {
        const body = await page(`/api/v1/globalchanges?sinceId=${sinceId}&pageSize=${pageSize}`);
        expect(body.totalRecords, `sinceId ${sinceId}, pageSize ${pageSize}`).toBe(Math.min(following, 1000 * pageSize));
      }
    }
  });

  it('a consumer paging through the backlog with the recipe gets every change once, deep pages included', async () => {
    for (const [path, type] of [['/api/v1/globalchanges', undefined], ['/api/v1/businesses/changes', 'business']] as const) {
      const seen: number[] = [];
      for (let p = 1; ; p++) {
        const body = await page(`${path}?sinceId=${from}&page=${p}&pageSize=1000`);
        seen.push(...body.data.map((c) => c.id));
        if (body.data.length < 1000) break;
      }
      expect(seen).toEqual(await plainIds(from, type));
    }
  });
});
