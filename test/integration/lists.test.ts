// Company lists (/lists) against the spec's membership state table, transition by transition, plus
// create, patch (only carried fields; settings merged, null removes a key), delete (touches nothing
// else), unknown fnrs (400 listing them, nothing applied) and account isolation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../api/accounts/accountStore.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { seedCompanies } from '../helpers/companies.js';
import { json, type JsonBody, type TestHttp } from '../helpers/httpClient.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let db: TestDatabase;
let http: TestHttp;
let alice: { accountId: string; key: string };
let bob: { accountId: string; key: string };
const FNRS = ['1a', '2b', '3d', '4f', '5g', '6h'];

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  ({ db, http } = api);
  alice = await accountWithKey(db.sql, 'api');
  bob = await accountWithKey(db.sql, 'api');
  await seedCompanies(db.sql, FNRS.map((fnr) => ({ fnr, name: `Firma ${fnr} GmbH` })));
});
afterAll(() => api.close());
beforeEach(async () => {
  await db.sql`DELETE FROM company_list`;
});

function call(method: string, path: string, body?: unknown, key = alice.key) {
  return http.request(`/api/v1${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
async function create(body: unknown, key = alice.key): Promise<JsonBody> {
  const res = await call('POST', '/lists', body, key);
  expect(res.status).toBe(200);
  return json(res);
}
async function add(id: string, fnrs: string[]): Promise<JsonBody> {
  const res = await call('POST', `/lists/${id}/add`, { fnrs });
  expect(res.status).toBe(200);
  return json(res);
}
async function remove(id: string, fnrs: string[]): Promise<JsonBody> {
  const res = await call('POST', `/lists/${id}/remove`, { fnrs });
  expect(res.status).toBe(200);
  return json(res);
}

describe('endpoints that take no query parameters', () => {
  it('answer a parameter sent anyway with a 400 naming it, as every other endpoint does', async () => {
    const list = await create({ name: 'Leads' });
    const saved = await call('POST', '/queries', { name: 'Wien', filters: { city: 'Wien' } });
    expect(saved.status).toBe(200);
    const queryId = (await json(saved)).id as string;
    try {
      const paths = [
        '/lists', `/lists/${list.id}`, '/queries', `/queries/${queryId}`, `/businesses/${FNRS[0]}`, '/people/erika-muster-1970-01-01',
        '/documents/download/287541_6090202302204_000___000_30_38400002_XML', '/edikte/changes/1',
      ];
      for (const path of paths) {
        const res = await call('GET', `${path}?foo=1`);
        expect(res.status, path).toBe(400);
        expect((await json(res)).errors, path).toEqual({ foo: ['is not a parameter of this endpoint'] });
      }
      // Without it, the same paths answer as before (an unknown change id with its 404).
      expect((await call('GET', `/lists/${list.id}`)).status).toBe(200);
      expect((await call('GET', `/businesses/${FNRS[0]}`)).status).toBe(200);
      expect((await call('GET', '/edikte/changes/1')).status).toBe(404);
    } finally {
      await db.sql`DELETE FROM saved_query WHERE id = ${queryId}`;
    }
  });
});

describe('POST /lists', () => {
  it('creates an empty list with the list record', async () => {
    const list = await create({ name: 'Leads' });
    expect(list).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Leads', fnrs: [], removedFnrs: [], memberCount: 0, settings: {},
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
  });

  it('creates a list already holding companies, in the order given, normalised and without duplicates', async () => {
    const list = await create({ name: 'Leads', fnrs: ['3d', '0001a', '3d', ' 2 b'], settings: { view: 'table', gone: null } });
    expect(list).toMatchObject({ fnrs: ['3d', '1a', '2b'], memberCount: 3, settings: { view: 'table' } });
  });

  it('refuses more than 1000 companies, an empty name and unknown fields', async () => {
    const tooMany = await call('POST', '/lists', { name: 'x', fnrs: Array.from({ length: 1001 }, () => '1a') });
    expect(tooMany.status).toBe(400);
    expect((await json(tooMany)).errors).toEqual({ fnrs: ['must hold at most 1000 companies'] });
    expect((await call('POST', '/lists', { name: '' })).status).toBe(400);
    expect((await json(await call('POST', '/lists', { name: 'x', colour: 'red' }))).errors).toEqual({ colour: ['is not a field of this request'] });
  });

  it('refuses unknown fnrs with a 400 listing them, and creates nothing', async () => {
    const res = await call('POST', '/lists', { name: 'x', fnrs: ['1a', '999999z', '42x'] });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.detail).toContain('999999z, 42x');
    expect(body.errors).toEqual({ 'fnrs.1': ['999999z names no company'], 'fnrs.2': ['42x names no company'] });
    expect(await json(await call('GET', '/lists'))).toEqual([]);
  });
});

describe('membership state table', () => {
  it('not on list --add--> on list: appended at the end, order of existing members kept', async () => {
    const list = await create({ name: 'L', fnrs: ['3d', '1a'] });
    const after = await add(list.id, ['5g', '2b']);
    expect(after.fnrs).toEqual(['3d', '1a', '5g', '2b']);
    expect(after.memberCount).toBe(4);
    expect(after.removedFnrs).toEqual([]);
  });

  it('on list --add--> unchanged: a member keeps its place', async () => {
    const list = await create({ name: 'L', fnrs: ['3d', '1a', '2b'] });
    const after = await add(list.id, ['3d', '4f']);
    expect(after.fnrs).toEqual(['3d', '1a', '2b', '4f']);
  });

  it('on list --remove--> in the removed set: taken off the list and recorded as removed', async () => {
    const list = await create({ name: 'L', fnrs: ['3d', '1a', '2b'] });
    const after = await remove(list.id, ['1a']);
    expect(after.fnrs).toEqual(['3d', '2b']);
    expect(after.removedFnrs).toEqual(['1a']);
    expect(after.memberCount).toBe(2);
  });

  it('in the removed set --add--> on list: appended at the end, leaves the removed set', async () => {
    const list = await create({ name: 'L', fnrs: ['3d', '1a', '2b'] });
    await remove(list.id, ['1a', '3d']);
    const after = await add(list.id, ['1a']);
    expect(after.fnrs).toEqual(['2b', '1a']);
    expect(after.removedFnrs).toEqual(['3d']);
  });

  it('not on list --remove--> unchanged; in the removed set --remove--> unchanged', async () => {
    const list = await create({ name: 'L', fnrs: ['1a'] });
    const notOn = await remove(list.id, ['2b']);
    expect(notOn).toMatchObject({ fnrs: ['1a'], removedFnrs: [] });
    await remove(list.id, ['1a']);
    const again = await remove(list.id, ['1a']);
    expect(again).toMatchObject({ fnrs: [], removedFnrs: ['1a'] });
  });

  it('applies nothing of an add or remove that names an unknown company', async () => {
    const list = await create({ name: 'L', fnrs: ['1a', '2b'] });
    await remove(list.id, ['2b']);
    for (const verb of ['add', 'remove']) {
      const res = await call('POST', `/lists/${list.id}/${verb}`, { fnrs: ['3d', '2b', '1a', 'nope'] });
      expect(res.status).toBe(400);
      expect((await json(res)).errors).toEqual({ 'fnrs.3': ['nope names no company'] });
    }
    expect(await json(await call('GET', `/lists/${list.id}`))).toMatchObject({ fnrs: ['1a'], removedFnrs: ['2b'] });
  });

  it('refuses an empty or oversized member set', async () => {
    const list = await create({ name: 'L' });
    expect((await call('POST', `/lists/${list.id}/add`, { fnrs: [] })).status).toBe(400);
    expect((await call('POST', `/lists/${list.id}/add`, { fnrs: Array.from({ length: 1001 }, () => '1a') })).status).toBe(400);
    expect((await call('POST', `/lists/${list.id}/add`)).status).toBe(400);
  });
});

describe('GET /lists', () => {
  it('lists the caller\'s lists oldest first, with their members', async () => {
    const first = await create({ name: 'first', fnrs: ['1a'] });
    const second = await create({ name: 'second' });
    await create({ name: 'bob', fnrs: ['2b'] }, bob.key);
    const lists = await json(await call('GET', '/lists'));
    expect(lists.map((l: { id: string }) => l.id)).toEqual([first.id, second.id]);
    expect(lists[0]).toEqual(first);
  });
});

describe('PATCH /lists/{id}', () => {
  it('writes only carried fields and merges settings key by key; null removes a key', async () => {
    const list = await create({ name: 'L', fnrs: ['1a'], settings: { view: 'table', sort: 'name', pageSize: 50 } });
    const renamed = await json(await call('PATCH', `/lists/${list.id}`, { name: 'Renamed' }));
    expect(renamed).toMatchObject({ name: 'Renamed', fnrs: ['1a'], settings: { view: 'table', sort: 'name', pageSize: 50 } });
    const merged = await json(await call('PATCH', `/lists/${list.id}`, { settings: { sort: 'city', pageSize: null, colour: 'blue' } }));
    expect(merged).toMatchObject({ name: 'Renamed', settings: { view: 'table', sort: 'city', colour: 'blue' } });
    expect(merged.settings).not.toHaveProperty('pageSize');
    const unchanged = await json(await call('PATCH', `/lists/${list.id}`, {}));
    expect(unchanged).toEqual(merged);
  });

  it('refuses fields other than name and settings', async () => {
    const list = await create({ name: 'L' });
    const res = await call('PATCH', `/lists/${list.id}`, { fnrs: ['1a'] });
    expect(res.status).toBe(400);
  });
});

describe('DELETE /lists/{id}', () => {
  it('deletes the list and touches nothing else: other lists with the same companies, the companies, saved queries', async () => {
    const doomed = await create({ name: 'doomed', fnrs: ['1a', '2b'] });
    await remove(doomed.id, ['2b']);
    const kept = await create({ name: 'kept', fnrs: ['2b', '1a'] });
    await remove(kept.id, ['2b']);
    const bobs = await create({ name: 'bobs', fnrs: ['1a'] }, bob.key);
    await call('POST', '/queries', { filters: { fnr: '1a' } });
    const res = await call('DELETE', `/lists/${doomed.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await call('GET', `/lists/${doomed.id}`)).status).toBe(404);
    expect(await json(await call('GET', `/lists/${kept.id}`))).toMatchObject({ fnrs: ['1a'], removedFnrs: ['2b'] });
    expect(await json(await call('GET', `/lists/${bobs.id}`, undefined, bob.key))).toMatchObject({ fnrs: ['1a'] });
    expect(await json(await call('GET', '/queries'))).toHaveLength(1);
    const [companies] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company`;
    expect(companies!.n).toBe(FNRS.length);
    const rows = await db.sql`SELECT 1 FROM company_list_member WHERE list_id = ${doomed.id} UNION ALL SELECT 1 FROM company_list_removed WHERE list_id = ${doomed.id}`;
    expect(rows).toHaveLength(0);
  });
});

describe('account isolation', () => {
  it("answers 404 for another account's list on every route and leaves it alone", async () => {
    const bobs = await create({ name: 'bobs', fnrs: ['1a'] }, bob.key);
    for (const [method, path, body] of [
      ['GET', `/lists/${bobs.id}`], ['PATCH', `/lists/${bobs.id}`, { name: 'mine' }], ['DELETE', `/lists/${bobs.id}`],
      ['POST', `/lists/${bobs.id}/add`, { fnrs: ['2b'] }], ['POST', `/lists/${bobs.id}/remove`, { fnrs: ['1a'] }],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect(await json(await call('GET', `/lists/${bobs.id}`, undefined, bob.key))).toEqual(bobs);
  });

  it('answers 400 for a malformed id', async () => {
    expect((await json(await call('GET', '/lists/abc'))).errors).toEqual({ id: ['must be an id (a UUID)'] });
  });

  it('answers 401 to a service key without a session, before billing', async () => {
    const service = await createApiKey(db.sql, { accountId: null, plan: 'free' });
    // One of alice's lists: even a real id gives a key without an account nothing.
    const { id } = await json(await call('POST', '/lists', { name: 'alice only' }));
    const routes = [
      ['GET', '/lists'], ['POST', '/lists', { name: 'x' }], ['GET', `/lists/${id}`], ['PATCH', `/lists/${id}`, { name: 'y' }],
      ['DELETE', `/lists/${id}`], ['POST', `/lists/${id}/add`, { fnrs: ['1a'] }], ['POST', `/lists/${id}/remove`, { fnrs: ['1a'] }],
    ] as const;
    for (const [method, path, body] of routes) {
      const res = await call(method, path, body, service.key);
      expect(res.status).toBe(401);
      expect(Object.keys(await json(res))).toEqual(['error']);
    }
    expect((await call('GET', '/courts', undefined, service.key)).headers.get('x-quota-remaining')).toBe('99');
    expect((await json(await call('GET', `/lists/${id}`))).name).toBe('alice only');
  });
});
