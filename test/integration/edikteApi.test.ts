// Court notices on the read side, through the whole app: a company's hasEdikt set by a stored notice
// reaches the screener within 2 s through the running indexer (both Postgres backends); a person's
// profile lists their own open proceedings and the open notices of the companies they hold a current
// function in, not those of companies they left; a deleted edict shows in the feed as a deletion,
// every change of it answers the tombstone, and the company's profile drops it.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../api/app.js';
import { indexOnce, rebuildReadModel, startIndexer } from '../../indexer/indexer.js';
import { columnarSearch } from '../../indexer/search/columnar/columnarSearch.js';
import { postgresSearch } from '../../indexer/search/postgresSearch.js';
import { edikte } from '../../pipeline/edikte/index.js';
import { parseNoticeDocument } from '../../pipeline/edikte/iwgParser.js';
import { storeNotices } from '../../pipeline/edikte/noticeStore.js';
import { startFakeIwg, type FakeIwg } from '../../pipeline/edikte/fake/fakeIwg.js';
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import { replay } from '../../pipeline/replay/replay.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, serve } from '../helpers/httpClient.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';
import type { TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = resolve(import.meta.dirname, '../../fixtures/corpus');
const EDIKTE = join(CORPUS, 'edikte');
const log = createLogger('silent');
const labels = JSON.parse(readFileSync(join(EDIKTE, 'links.json'), 'utf8')) as Array<{ ediktId: string; unid: string; case: string }>;
const caseOf = (text: string) => labels.find((l) => l.case === text)!;
const noticeOf = (text: string) => parseNoticeDocument(readFileSync(join(EDIKTE, 'documents', `${caseOf(text).unid}.json`), 'utf8'));

describe('hasEdikt in the screener', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({
      plan: 'api',
      prepare: async (db: TestDatabase) => {
        await seedCompanies(db.sql, [
          { digits: 287541, name: 'Alpenländische Metallbau GmbH', city: 'Leoben', zipCode: '8700' },
          { digits: 156207, name: 'Tauernkraft Energiehandel GmbH', city: 'Salzburg', zipCode: '5020' },
        ]);
        await rebuildReadModel(db.sql, log);
        while ((await indexOnce(db.sql)) > 0);
      },
    });
  });
  afterAll(() => api.close());

  const backends = [
    { name: 'postgres read model', fnr: seedFnr(287541), edict: 'FN as stored', make: async () => ({ search: postgresSearch(api.db.sql), close: async () => undefined }) },
    {
      name: 'screener columns', fnr: seedFnr(156207), edict: 'FN with a space',
      make: async () => {
        const search = columnarSearch(api.db.sql, { log });
        await search.ready;
        return { search, close: () => search.close() };
      },
    },
  ];

  it.each(backends)('follows a stored notice within 2 s ($name)', async ({ make, fnr, edict }) => {
    const backend = await make();
    const { key } = await accountWithKey(api.db.sql);
    const client = await serve(createApp({ sql: api.db.sql, log, access: api.access.access, search: backend.search }), { 'x-api-key': key });
    const indexer = startIndexer(api.db.sql, log);
    const flag = async () => ((await json(await client.get(`/api/v1/businesses?fnr=${fnr}`))).data as Array<{ hasEdikt: boolean }>)[0]?.hasEdikt;
    try {
      expect(await flag()).toBe(false);
      const last = (await api.db.sql<{ last: number }[]>`SELECT coalesce(max(id), 0)::int AS last FROM change_log`)[0]!.last;
      const started = Date.now();
      expect(await storeNotices(api.db.sql, [{ notice: noticeOf(edict), raw: '{}' }])).toEqual([expect.objectContaining({ action: 'created', fnr, evidence: 'register-fn' })]);
      let seenAfter = Number.POSITIVE_INFINITY;
      while (Date.now() - started < 5000) {
        if (await flag()) {
          seenAfter = Date.now() - started;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(seenAfter).toBeLessThan(2000);
      // The business change the screener followed, as the company's feed shows it: hasEdikt named.
      const feed = await json(await client.get(`/api/v1/businesses/changes?sinceId=${last}&fnr=${fnr}`));
      expect(feed.data).toEqual([expect.objectContaining({ type: 'business', fnr, action: 'updated', changedFields: ['hasEdikt'] })]);
    } finally {
      await indexer.close();
      await client.close();
      await backend.close();
    }
  });
});

describe('people, notices and deletions after a replay of the corpus', () => {
  let api: TestApi;
  let fake: FakeIwg;
  const crawl = (db: TestDatabase, from?: string) => replay({
    sql: db.sql, redisUrl: inject('redisUrl'), log, registers: [edikte], fixturesDir: CORPUS, prefix: `edk-api-${randomBytes(4).toString('hex')}`,
    upstreams: { edikte: { baseUrl: fake.url } }, from,
  });
  beforeAll(async () => {
    // The register as it stood before the corpus' deletions of 22 November.
    fake = await startFakeIwg({ corpus: EDIKTE, now: '2026-11-21' });
    api = await startTestApi({
      plan: 'api',
      prepare: async (db) => {
        await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, registers: [firmenbuch], fixturesDir: CORPUS, prefix: `edk-api-fb-${randomBytes(4).toString('hex')}` });
        expect((await crawl(db)).failures).toBe(0);
      },
    });
  });
  afterAll(async () => {
    await api.close();
    await fake.close();
  });

  const notices = async (personId: string) => {
    const body = await json(await api.http.get(`/api/v1/people/${encodeURIComponent(personId)}`));
    return { has: body.hasOpenNotices as boolean, list: body.openNotices as Array<{ ediktId: string; relation: string; fnr?: string; proceeding: { code: string } }> };
  };

  it('lists a person\'s own open proceedings and those of the companies of their current functions', async () => {
    const leitner = await notices('gerhard-leitner-1966-02-21');
    expect(leitner.has).toBe(true);
    expect(leitner.list.map((n) => [n.relation, n.fnr ?? null, n.proceeding.code]).sort()).toEqual([
      ['company', '211904z', 'SVME'], ['company', '33918f', 'KV'], ['debtor', null, 'SRV'],
    ]);
    expect(leitner.list.find((n) => n.relation === 'debtor')!.ediktId).toBe(caseOf('GF of 33918f, VM of 211904z').ediktId);
    // Her managing-director function in 512309x ended, but she is still its shareholder (GS), and a limited partner of 512308w.
    expect((await notices('elisabeth-höller-1959-09-09')).list.map((n) => n.fnr).sort()).toEqual(['512308w', '512309x']);
  });

  it('leaves out the notices of companies a person has left, and closed proceedings', async () => {
    // Left the board of 17742t in 2016, which has an open notice: only his own proceeding.
    const gruener = await notices('johann-grüner-1952-06-16');
    expect(gruener.list.map((n) => n.relation)).toEqual(['debtor']);
    // Her own debt settlement is closed; her two companies' notices are open.
    const schoeberl = await notices('eva-schöberl-1975-06-12');
    expect(schoeberl.list.map((n) => `${n.relation}:${n.fnr}`).sort()).toEqual(['company:211904z', 'company:402287z']);
    // A namesake with another birth date is another person; the register's Gerhard Leitner has no second SRV.
    expect((await notices('gerhard-leitner-1966-02-21')).list.filter((n) => n.relation === 'debtor')).toHaveLength(1);
    // His company's two open notices: one under its name, one under its former name.
    const company = expect.objectContaining({ relation: 'company', fnr: '17742t' });
    expect(await notices('karl-riml-1961-08-08')).toEqual({ has: true, list: [company, company] });
  });

  it('finds a person\'s own proceeding whatever the notice\'s spelling of the name: case, umlaut written out', async () => {
    // The register's Johann Grüner, born 1952-06-16; a second court spells him JOHANN GRUENER.
    const own = noticeOf('left the board of 17742t in 2016');
    const spelt = { ...own, ediktId: '864001S0099926001', unid: null, debtor: { ...own.debtor, name: 'JOHANN GRUENER', firstName: 'JOHANN', lastName: 'GRUENER', personId: 'johann-gruener-1952-06-16' } };
    await storeNotices(api.db.sql, [{ notice: spelt, raw: '{}' }]);
    try {
      const gruener = await notices('johann-grüner-1952-06-16');
      expect(gruener.list.filter((n) => n.relation === 'debtor').map((n) => n.ediktId).sort()).toEqual([own.ediktId, spelt.ediktId].sort());
    } finally {
      await api.db.sql`DELETE FROM court_notice WHERE edikt_id = ${spelt.ediktId}`;
    }
  });

  it('reports a deletion in the feed, answers the tombstone for every change of the edict, and drops it from the profile', async () => {
    const deleted = caseOf('the register deletes this edict later (Deletions view)');
    const steyrtal = labels.filter((l) => l.case === deleted.case).map((l) => l.ediktId).find((id) => id.startsWith('499'))!;
    expect(await json(await api.http.get('/api/v1/businesses/667215z'))).toMatchObject({ hasEdikt: true, openNotices: [expect.objectContaining({ ediktId: steyrtal })] });
    const [row] = await api.db.sql<{ last: number }[]>`SELECT max(id)::int AS last FROM change_log`;
    const last = row!.last;
    fake.setNow('2026-11-24');
    expect((await crawl(api.db, '2026-11-20')).failures).toBe(0);

    const feed = await json(await api.http.get(`/api/v1/edikte/changes?sinceId=${last}`));
    const deletion = (feed.data as Array<{ id: number; ediktId: string; action: string; fnr: string | null }>).find((c) => c.ediktId === steyrtal)!;
    expect(deletion).toMatchObject({ action: 'deleted', fnr: '667215z' });
    const tombstone = {
      ediktId: steyrtal, aktenzeichen: null, court: null, proceeding: null, debtor: { type: null, name: null, fnr: null, personId: null, address: null },
      openedOn: null, firstPublishedOn: null, lastPublishedOn: null, isOpen: null, deletedAt: '2026-11-22T05:12:41.000Z', blocks: [],
      link: { evidence: null, confidence: null, candidates: [] },
    };
    expect((await json(await api.http.get(`/api/v1/edikte/changes/${deletion.id}`))).notice).toEqual(tombstone);
    const created = await api.db.sql<{ id: number }[]>`SELECT id FROM change_log WHERE type = 'edikt' AND edikt_id = ${steyrtal} AND action = 'created'`;
    expect((await json(await api.http.get(`/api/v1/edikte/changes/${created[0]!.id}`))).notice).toEqual(tombstone);
    expect(await json(await api.http.get('/api/v1/businesses/667215z'))).toMatchObject({ hasEdikt: false, openNotices: [] });
  });
});
