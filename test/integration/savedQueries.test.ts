// Saved queries (/queries): newest first, de-duplication by canonical filters, updateId, get, delete,
// delete all, unknown filter names, account isolation (another account's id is a 404; a service key
// without a session is a 401 and not billed; with a session cookie it acts for that account).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, createSession } from '../../api/accounts/accountStore.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, type TestHttp } from '../helpers/httpClient.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let db: TestDatabase;
let http: TestHttp;
let alice: { accountId: string; key: string };
let bob: { accountId: string; key: string };
let now = Date.UTC(2025, 2, 14, 12, 0, 0);

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ app: { clock: () => now } });
  ({ db, http } = api);
  alice = await accountWithKey(db.sql, 'api');
  bob = await accountWithKey(db.sql, 'api');
});
afterAll(() => api.close());
beforeEach(async () => {
  await db.sql`DELETE FROM saved_query`;
});

function call(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
  return http.request(`/api/v1${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const save = (key: string, body: unknown) => call('POST', '/queries', key, body);

describe('POST /queries', () => {
  it('answers the saved-query record with its filters in canonical form', async () => {
    const res = await save(alice.key, {
      name: 'Große in Wien',
      filters: { zipCode: '1010', 'guv.Umsatzerloese_gte': '1000000', active: 'true', fnr: ' 034853 f', city: 'Wien', search: '', legalFormCode: null },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Große in Wien',
      filters: { active: true, city: 'Wien', fnr: '34853f', 'guv.Umsatzerloese_gte': 1000000, zipCode: '1010' },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: body.createdAt,
    });
    expect(Object.keys(body.filters)).toEqual(['active', 'city', 'fnr', 'guv.Umsatzerloese_gte', 'zipCode']);
  });

  it('updates the existing record when the filters are equal in canonical form (no second row)', async () => {
    const first = await json(await save(alice.key, { name: 'A', filters: { city: 'Graz', 'bilanz.BilanzSumme_lte': 5e6, orderByDescending: false } }));
    const again = await save(alice.key, { name: 'B', filters: { orderByDescending: 'false', 'bilanz.BilanzSumme_lte': '5000000', city: ' Graz ', zipCode: '' } });
    const second = await json(again);
    expect(second.id).toBe(first.id);
    expect(second.name).toBe('B');
    expect(second.createdAt).toBe(first.createdAt);
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    const unnamed = await json(await save(alice.key, { filters: { city: 'Graz', 'bilanz.BilanzSumme_lte': 5000000, orderByDescending: false } }));
    expect(unnamed).toMatchObject({ id: first.id, name: 'B' }); // a save without a name keeps the name
    expect(await json(await call('GET', '/queries', alice.key))).toHaveLength(1);
  });

  it('keeps equal filters of different accounts apart', async () => {
    const a = await json(await save(alice.key, { filters: { city: 'Linz' } }));
    const b = await json(await save(bob.key, { filters: { city: 'Linz' } }));
    expect(a.id).not.toBe(b.id);
  });

  it('with updateId edits that record and keeps its id', async () => {
    const pinned = await json(await save(alice.key, { name: 'mine', filters: { city: 'Linz' } }));
    const res = await save(alice.key, { filters: { city: 'Steyr' }, updateId: pinned.id });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: pinned.id, name: 'mine', filters: { city: 'Steyr' } });
    expect((await json(await call('GET', '/queries', alice.key))).map((q: { id: string }) => q.id)).toEqual([pinned.id]);
  });

  it('with updateId onto filters another record has, folds that record into the pinned one', async () => {
    const other = await json(await save(alice.key, { filters: { city: 'Wels' } }));
    const pinned = await json(await save(alice.key, { filters: { city: 'Linz' } }));
    const res = await json(await save(alice.key, { filters: { city: 'Wels' }, updateId: pinned.id }));
    expect(res).toMatchObject({ id: pinned.id, filters: { city: 'Wels' } });
    const all = await json(await call('GET', '/queries', alice.key));
    expect(all.map((q: { id: string }) => q.id)).toEqual([pinned.id]);
    expect((await call('GET', `/queries/${other.id}`, alice.key)).status).toBe(404);
  });

  it("answers 404 for an updateId that is unknown or another account's, and changes nothing", async () => {
    const bobs = await json(await save(bob.key, { filters: { city: 'Wien' } }));
    const res = await save(alice.key, { filters: { city: 'Graz' }, updateId: bobs.id });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await save(alice.key, { filters: { city: 'Graz' }, updateId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect(await json(await call('GET', `/queries/${bobs.id}`, bob.key))).toMatchObject({ filters: { city: 'Wien' } });
    expect(await json(await call('GET', '/queries', alice.key))).toEqual([]);
  });

  it('answers 400 with errors naming unknown filter names, paging parameters and bad values', async () => {
    const res = await save(alice.key, {
      filters: { city: 'Wien', colour: 'red', 'guv.Umsatz_gte': 1, page: 2, pageSize: 10, countOnly: true, active: 'yes', 'employees_gte': 'many', orderBy: 'nombre' },
    });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Object.keys(body.errors).sort()).toEqual([
      'filters.active', 'filters.colour', 'filters.countOnly', 'filters.employees_gte', 'filters.guv.Umsatz_gte', 'filters.orderBy',
      'filters.page', 'filters.pageSize',
    ]);
    expect(body.errors['filters.colour']).toEqual(['is not a screener filter']);
    expect(body).toMatchObject({ status: 400, instance: '/api/v1/queries', traceId: expect.any(String), correlationId: body.traceId });
    expect(await json(await call('GET', '/queries', alice.key))).toEqual([]);
  });

  it('accepts every figure of schemas/keyFigures.ts as a range filter', async () => {
    const res = await save(alice.key, { filters: { 'bilanz.AktiveLatenteSteuern_gte': 1, 'guv.ZinsAufwendungen_lte': -5.5, employees_gte: 10 } });
    expect(res.status).toBe(200);
  });

  it('answers 400 for a missing or malformed body, unknown body fields and a bad updateId', async () => {
    expect((await call('POST', '/queries', alice.key)).status).toBe(400);
    const wrong = await json(await save(alice.key, { filter: {}, name: '' }));
    expect(Object.keys(wrong.errors).sort()).toEqual(['filter', 'filters', 'name']);
    expect((await json(await save(alice.key, { filters: {}, updateId: 'x' }))).errors).toHaveProperty('updateId');
  });

  it('accepts text/json and application/*+json bodies and refuses others with 415', async () => {
    const body = JSON.stringify({ filters: { city: 'Krems' } });
    for (const type of ['text/json', 'application/vnd.queries+json']) {
      const res = await http.request('/api/v1/queries', { method: 'POST', headers: { 'x-api-key': alice.key, 'content-type': type }, body });
      expect(res.status).toBe(200);
    }
    const refused = await http.request('/api/v1/queries', { method: 'POST', headers: { 'x-api-key': alice.key, 'content-type': 'text/plain' }, body });
    expect(refused.status).toBe(415);
    expect(await json(refused)).toMatchObject({ title: 'Unsupported Media Type', status: 415 });
  });
});

describe('GET /queries', () => {
  it('lists the caller\'s saved queries newest first; a re-save moves a record to the top', async () => {
    const a = await json(await save(alice.key, { filters: { city: 'A' } }));
    const b = await json(await save(alice.key, { filters: { city: 'B' } }));
    const c = await json(await save(alice.key, { filters: { city: 'C' } }));
    await save(bob.key, { filters: { city: 'D' } });
    const ids = async () => (await json(await call('GET', '/queries', alice.key))).map((q: { id: string }) => q.id);
    expect(await ids()).toEqual([c.id, b.id, a.id]);
    await save(alice.key, { filters: { city: 'A' } });
    expect(await ids()).toEqual([a.id, c.id, b.id]);
  });

  it('answers text/json or text/plain when Accept asks', async () => {
    await save(alice.key, { filters: { city: 'A' } });
    const res = await call('GET', '/queries', alice.key, undefined, { accept: 'text/plain' });
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(JSON.parse(await res.text())).toHaveLength(1);
  });
});

describe('GET and DELETE /queries/{id}', () => {
  it('gets and deletes own records; another account\'s id is a 404 and stays', async () => {
    const mine = await json(await save(alice.key, { filters: { city: 'A' } }));
    const bobs = await json(await save(bob.key, { filters: { city: 'A' } }));
    expect(await json(await call('GET', `/queries/${mine.id}`, alice.key))).toEqual(mine);
    const foreign = await call('GET', `/queries/${bobs.id}`, alice.key);
    expect(foreign.status).toBe(404);
    expect(await json(foreign)).toMatchObject({ title: 'Not Found', status: 404, instance: `/api/v1/queries/${bobs.id}` });
    expect((await call('DELETE', `/queries/${bobs.id}`, alice.key)).status).toBe(404);
    const deleted = await call('DELETE', `/queries/${mine.id}`, alice.key);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await call('GET', `/queries/${mine.id}`, alice.key)).status).toBe(404);
    expect((await call('DELETE', `/queries/${mine.id}`, alice.key)).status).toBe(404);
    expect((await call('GET', `/queries/${bobs.id}`, bob.key)).status).toBe(200);
  });

  it('answers 400 for an id that is not an id', async () => {
    const res = await call('GET', '/queries/123', alice.key);
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual({ id: ['must be an id (a UUID)'] });
    expect((await call('DELETE', '/queries/123', alice.key)).status).toBe(400);
  });

  it('DELETE /queries/all deletes every saved query of the caller and nothing else', async () => {
    await save(alice.key, { filters: { city: 'A' } });
    await save(alice.key, { filters: { city: 'B' } });
    const bobs = await json(await save(bob.key, { filters: { city: 'A' } }));
    const res = await call('DELETE', '/queries/all', alice.key);
    expect(res.status).toBe(204);
    expect(await json(await call('GET', '/queries', alice.key))).toEqual([]);
    expect(await json(await call('GET', '/queries', bob.key))).toEqual([bobs]);
    expect((await call('DELETE', '/queries/all', alice.key)).status).toBe(204);
  });
});

describe('service keys and sessions', () => {
  it('answers 401 { error } on every /queries route for a key without an account, unbilled', async () => {
    const service = await createApiKey(db.sql, { accountId: null, plan: 'free' });
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path, body] of [
      ['GET', '/queries'], ['POST', '/queries', { filters: {} }], ['GET', `/queries/${id}`], ['DELETE', `/queries/${id}`], ['DELETE', '/queries/all'],
    ] as const) {
      const res = await call(method, path, service.key, body);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(await json(res))).toEqual(['error']);
    }
    // Public data still works for it, and that first billed call is the key's first of the month.
    const courts = await call('GET', '/courts', service.key);
    expect(courts.status).toBe(200);
    expect(courts.headers.get('x-quota-remaining')).toBe('99');
  });

  it("with a session cookie acts for the session's account; an expired session is a 401", async () => {
    const service = await createApiKey(db.sql, { accountId: null });
    const mine = await json(await save(alice.key, { filters: { city: 'A' } }));
    const session = await createSession(db.sql, alice.accountId, { hours: 1, now: new Date(now) });
    const cookie = { cookie: `session=${session.token}` };
    const res = await call('GET', '/queries', service.key, undefined, cookie);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual([mine]);
    now += 2 * 3_600_000;
    expect((await call('GET', '/queries', service.key, undefined, cookie)).status).toBe(401);
  });
});
