// GET /businesses/names as a user types (issue 23.3): one and two letters find later words too, a
// company number in the spellings users type (or its start) finds the company, every hit says why it
// matched, and a missing `search` is a 400 in the contract's words. Both ways autocomplete is served
// (the read model alone, which the Elasticsearch configuration uses too, and the screener columns'
// name index in front of it) give the same answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { columnarSearch } from '../../indexer/search/columnar/columnarSearch.js';
import { postgresSearch } from '../../indexer/search/postgresSearch.js';
import type { SearchBackend } from '../../indexer/search/searchBackend.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { seedFnr, seedSearchable } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

const log = createLogger('silent');
let api: TestApi;
let columns: SearchBackend & { close(): Promise<void> };
const clients: Array<{ name: string; http: TestHttp }> = [];

beforeAll(async () => {
  api = await startTestApi({
    prepare: (db) =>
      seedSearchable(db.sql, [
        { digits: 4711, name: 'Vorarlberger Alpenbank AG', legalForm: 'AG', city: 'Feldkirch' },
        { digits: 47110, name: 'Bodensee Schifffahrt GmbH', city: 'Bregenz' },
        { digits: 4001, name: 'Alpenländische Metallbau GmbH', city: 'Leoben' },
        { digits: 4002, name: 'Almhütte Huber KG', formerNames: ['Berghof Huber KG'], city: 'Schladming' },
        { digits: 4003, name: 'Zirbenholz Tischlerei GmbH', city: 'Murau' },
      ]),
  });
  columns = columnarSearch(api.db.sql, { log }) as SearchBackend & { close(): Promise<void> };
  await columns.ready;
  for (const [name, search] of [['read model', postgresSearch(api.db.sql)], ['screener columns', columns]] as const) {
    const { key } = await accountWithKey(api.db.sql, 'api');
    clients.push({ name, http: await serve(createApp({ sql: api.db.sql, log, access: api.access.access, search }), { 'x-api-key': key }) });
  }
});
afterAll(async () => {
  for (const c of clients) await c.http.close();
  await columns.close();
  await api.close();
});

interface Hit { fnr: string; name: string; matchedOn: string; matchedName: string }
type Page = { data: Hit[]; totalRecords: number };

/** The same request through both backends: equal answers, the first returned. */
async function names(search: string, extra = ''): Promise<Page> {
  const answers: Page[] = [];
  for (const c of clients) {
    const res = await c.http.get(`/api/v1/businesses/names?${new URLSearchParams({ search })}${extra}`);
    expect(res.status, `${c.name}: ${search}`).toBe(200);
    answers.push(await json(res));
  }
  expect(answers[1], `screener columns agree with the read model on ${search}`).toEqual(answers[0]);
  return answers[0]!;
}

const fnrsOf = (page: Page) => page.data.map((d) => d.fnr);

describe('one and two letters', () => {
  it('find names that start with them and names with a later word that does', async () => {
    for (const term of ['A', 'Al', 'al']) {
      const page = await names(term);
      expect(fnrsOf(page), term).toContain(seedFnr(4711));
      expect(fnrsOf(page), term).toContain(seedFnr(4001));
      expect(page.data.find((d) => d.fnr === seedFnr(4711))).toMatchObject({ matchedOn: 'word', matchedName: 'Vorarlberger Alpenbank AG' });
      // Names starting with the letters come first.
      expect(page.data[0]!.matchedOn, term).toBe('name');
      expect(page.totalRecords).toBe(page.data.length);
    }
    expect(fnrsOf(await names('Z'))).toEqual([seedFnr(4003)]);
    expect(fnrsOf(await names('Ti'))).toEqual([seedFnr(4003)]);
  });
});

describe('company numbers', () => {
  it('find the company in the spellings users type, with or without check letter', async () => {
    const fnr = seedFnr(4711);
    const letter = fnr.slice(-1);
    for (const term of ['4711', fnr, `FN ${fnr}`, `FN 4711 ${letter.toUpperCase()}`, `fn4711${letter}`, '004711', `FN 004711${letter}`, ` 4711 `]) {
      const page = await names(term);
      expect(page.data[0], term).toMatchObject({ fnr, matchedOn: 'fnr', matchedName: 'Vorarlberger Alpenbank AG' });
    }
    // A wrong check letter names no company.
    const wrong = 'abdfghikmpstvwxyz'.split('').find((l) => l !== letter)!;
    expect(fnrsOf(await names(`4711${wrong}`))).toEqual([]);
  });

  it('find every company whose number starts with the digits, the exact number first, then in fnr order', async () => {
    expect(fnrsOf(await names('4711'))).toEqual([seedFnr(4711), seedFnr(47110)]);
    // Without an exact number: dictionary order ('47110f' < '4711d'), on every page alike.
    const page = await names('471');
    expect(fnrsOf(page)).toEqual([seedFnr(47110), seedFnr(4711)]);
    expect(page.data.map((d) => d.matchedOn)).toEqual(['fnr', 'fnr']);
    expect(page.totalRecords).toBe(2);
    expect(await names('471', '&pageSize=1')).toMatchObject({ totalRecords: 2, data: [{ fnr: seedFnr(47110) }] });
    expect(await names('471', '&pageSize=1&page=2')).toMatchObject({ totalRecords: 2, data: [{ fnr: seedFnr(4711) }] });
    expect(fnrsOf(await names('400'))).toEqual([seedFnr(4001), seedFnr(4002), seedFnr(4003)]);
  });
});

describe('why a hit matched', () => {
  it('names the band and the name that matched', async () => {
    expect((await names('Alpenl')).data).toEqual([
      expect.objectContaining({ fnr: seedFnr(4001), matchedOn: 'name', matchedName: 'Alpenländische Metallbau GmbH' }),
    ]);
    expect((await names('Berghof')).data).toEqual([
      expect.objectContaining({ fnr: seedFnr(4002), name: 'Almhütte Huber KG', matchedOn: 'formerName', matchedName: 'Berghof Huber KG' }),
    ]);
    expect((await names('metallb')).data).toEqual([expect.objectContaining({ fnr: seedFnr(4001), matchedOn: 'word' })]);
    expect((await names('Alpenlendische Metallbau')).data[0]).toMatchObject({ fnr: seedFnr(4001), matchedOn: 'fuzzy', matchedName: 'Alpenländische Metallbau GmbH' });
  });
});

describe('a missing search', () => {
  it('is a 400 saying what the parameter is for', async () => {
    const res = await clients[0]!.http.get('/api/v1/businesses/names');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    const body = await json(res);
    expect(body.errors.search).toEqual(['is required: the start of a company name (current or former) or a company number (fnr) to find']);
    expect((await json(await clients[0]!.http.get('/api/v1/businesses/names?search=%20'))).errors.search).toEqual(['must not be empty']);
  });
});
