// The IWG client (pipeline/edikte/iwgClient.ts) against the fake interface (pipeline/edikte/fake/):
// paging and totals, searches and their cap, conditional document fetches, the login form as an
// authentication error that pauses the queue, and every injected transport fault classified so the
// job runner retries, pauses or fails as it should.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IwgAuthenticationError, IwgClient } from '../../pipeline/edikte/iwgClient.js';
import { entrySortKey } from '../../pipeline/edikte/iwgParser.js';
import { startFakeIwg, type FakeIwg } from '../../pipeline/edikte/fake/fakeIwg.js';
import { parseSearch, SearchSyntaxError } from '../../pipeline/edikte/fake/searchQuery.js';
import { UnrecoverableInputError, UpstreamThrottledError, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';

const CORPUS = resolve(import.meta.dirname, '../../fixtures/corpus/edikte');
const credentials = { user: 'iwg-test', password: 'geheim' };
let fake: FakeIwg;
let client: IwgClient;

beforeAll(async () => {
  // Before the corpus' deletions (2026-11-22): every edict is published.
  fake = await startFakeIwg({ corpus: CORPUS, credentials, now: '2026-11-21' });
  client = new IwgClient({ baseUrl: fake.url, ...credentials, timeoutMs: 2000 });
});
afterAll(async () => {
  client.close();
  await fake.close();
});

const failure = async (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);

describe('view pages', () => {
  it('pages All by AZKey, 100 at most, with the total from Content-Range', async () => {
    const first = await client.viewPage('All', 0, { pageSize: 50 });
    expect(first.total).toBe(82);
    expect(first.entries).toHaveLength(50);
    const second = await client.viewPage('All', 1, { pageSize: 50 });
    expect(second.entries).toHaveLength(32);
    const keys = [...first.entries, ...second.entries].map((e) => e.unid);
    expect(new Set(keys).size).toBe(82);
    const big = await client.viewPage('All', 0, { pageSize: 500 });
    expect(big.entries).toHaveLength(82);
  });

  it('finds edicts by publication date with the official recipe, and deletions by Dat_Loeschung', async () => {
    const page = await client.viewPage('All', 0, { search: '([Dat_Akt_Bekanntmachung]>=10.11.2026)OR([Dat_Ori_Bekanntmachung]>=10.11.2026)' });
    expect(page.total).toBeGreaterThan(5);
    expect(page.total).toBeLessThan(82);
    fake.setNow('2026-11-24');
    try {
      const deletions = await client.viewPage('Deletions', 0, { search: '([Dat_Loeschung]>=21.11.2026)' });
      expect(deletions.entries.map((e) => e.deletedAt)).toEqual(['2026-11-22T05:12:41.000Z', '2026-11-22T05:12:41.000Z']);
      expect((await client.viewPage('All', 0)).total).toBe(80);
    } finally {
      fake.setNow('2026-11-21');
    }
  });

  it('starts a page at a key with startkeys, so a deletion before it shifts nothing', async () => {
    const all = (await client.viewPage('All', 0, { pageSize: 100 })).entries;
    const from = await client.viewPage('All', 0, { pageSize: 10, startKey: entrySortKey(all[20]!)! });
    expect(from.entries.map((e) => e.unid)).toEqual(all.slice(20, 30).map((e) => e.unid));
    expect((await client.viewPage('All', 0, { startKey: 'ZZZ' })).entries).toEqual([]);
  });

  it('refuses a search the server cannot read, for good', async () => {
    expect(await failure(client.viewPage('All', 0, { search: '([Dat_Akt_Bekanntmachung]>=' }))).toBeInstanceOf(UnrecoverableInputError);
  });
});

describe('documents', () => {
  it('fetches an edict, answers not-modified for an unchanged one and gone for an unknown unid', async () => {
    const [entry] = (await client.viewPage('All', 0, { pageSize: 1 })).entries;
    const got = await client.document(entry!.unid);
    expect(got.status).toBe('ok');
    const notice = got.status === 'ok' ? got.notice : null;
    expect(notice?.unid).toBe(entry!.unid);
    expect(await client.document(entry!.unid, notice!.modifiedAt)).toEqual({ status: 'not-modified' });
    expect((await client.document(entry!.unid, '2020-01-01T00:00:00Z')).status).toBe('ok');
    expect(await client.document('0123456789ABCDEF0123456789ABCDEF')).toEqual({ status: 'gone' });
  });
});

describe('authentication', () => {
  it('reads Domino\'s login form (HTTP 200) as an authentication error that pauses the queue', async () => {
    for (const wrong of [{}, { user: 'iwg-test', password: 'falsch' }]) {
      const anonymous = new IwgClient({ baseUrl: fake.url, ...wrong });
      const err = await failure(anonymous.viewPage('All', 0));
      anonymous.close();
      expect(err).toBeInstanceOf(IwgAuthenticationError);
      expect(err).toBeInstanceOf(UpstreamThrottledError);
      expect((err as Error).message).toMatch(/EDIKTE_USER and EDIKTE_PASSWORD/);
    }
  });
});

describe('transport faults', () => {
  it.each([
    ['rate429', UpstreamThrottledError],
    ['rate500', UpstreamUnavailableError],
    ['rateTruncated', UpstreamUnavailableError],
    ['rateCutOff', UpstreamUnavailableError],
    ['rateTimeout', UpstreamUnavailableError],
    ['rate401', IwgAuthenticationError],
  ] as const)('%s is classified for the job runner', async (rate, type) => {
    fake.setFaults({ [rate]: 1, timeoutMs: 5000 });
    try {
      const short = new IwgClient({ baseUrl: fake.url, ...credentials, timeoutMs: 300 });
      const err = await failure(short.viewPage('All', 0));
      short.close();
      expect(err).toBeInstanceOf(type);
      if (type === UpstreamUnavailableError) expect(err).not.toBeInstanceOf(UnrecoverableInputError);
    } finally {
      fake.setFaults(undefined);
    }
  });
});

describe('the fake\'s search language', () => {
  const doc = { Dat_Ori_Bekanntmachung: '2026-10-05', Dat_Akt_Bekanntmachung: '2026-11-02T23:00:00Z', Bundesland_Code: '3', Schuldner_Akt_Name: 'Donautal Logistik AG' };
  it.each([
    ['([Dat_Akt_Bekanntmachung]>=03.11.2026)', true],
    ['([Dat_Akt_Bekanntmachung]>=04.11.2026)', false],
    ['([Dat_Ori_Bekanntmachung]>=01.10.2026)AND([Dat_Ori_Bekanntmachung]<=05.10.2026)', true],
    ['([Dat_Ori_Bekanntmachung]>=06.10.2026) OR ([Bundesland_Code]=3)', true],
    ['NOT ([Bundesland_Code]=3)', false],
    ['[Schuldner_Akt_Name] CONTAINS logistik', true],
    ['[Schuldner_Akt_FBNr] IS PRESENT', false],
    ['NOT([Schuldner_Akt_FBNr] IS PRESENT)', true],
  ])('%s -> %s', (query, expected) => {
    expect(parseSearch(query)(doc)).toBe(expected);
  });

  it('refuses what it cannot read', () => {
    for (const bad of ['', '([X]>=', '[X] IS', '([X]=1))', '[X]=1 AND']) expect(() => parseSearch(bad), bad).toThrow(SearchSyntaxError);
  });
});
