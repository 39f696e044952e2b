// Profile, people, graph and document download answers for the replayed corpus, checked against what
// the fixtures contain: a corporate shareholder chain, a person with functions in two companies, a
// company with two filings, stored and live documents, and the register being down.
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { correlationId } from '../../api/middleware/correlationId.js';
import { errorHandler } from '../../api/middleware/errorHandler.js';
import { companyProfileRouter } from '../../api/routes/companyProfile.js';
import { documentsRouter, REGISTER_UNAVAILABLE } from '../../api/routes/documents.js';
import { graphRouter } from '../../api/routes/graph.js';
import { peopleRouter } from '../../api/routes/people.js';
import { parseAuszug } from '../../pipeline/firmenbuch/extractParser.js';
import { startFakeFirmenbuch, type FakeFirmenbuch } from '../../pipeline/firmenbuch/fakeUpstream.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { replay } from '../../pipeline/replay/replay.js';
import { createLogger } from '../../runtime/logger.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const log = createLogger('silent');
const fixtureExtract = (fnr: string) => parseAuszug(readFileSync(`${CORPUS}firmenbuch/auszug/${fnr}.xml`, 'utf8'));
const expectedFigures = (key: string) =>
  JSON.parse(readFileSync(`${CORPUS}firmenbuch/expected/${key}.json`, 'utf8')) as { documentDate: string; figures: Record<string, string | null> };

let db: TestDatabase;
let http: TestHttp;
let fake: FakeFirmenbuch;
let upstreamDown = false;

beforeAll(async () => {
  db = await createTestDatabase();
  await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, fixturesDir: CORPUS, prefix: `read-${process.pid}` });
  fake = await startFakeFirmenbuch({ corpus: CORPUS, port: 0 });
  const live = new FirmenbuchClient({ baseUrl: fake.url, timeoutMs: 2000 });
  const down = new FirmenbuchClient({ baseUrl: 'http://127.0.0.1:9/unreachable', timeoutMs: 500 });
  const app = new Koa();
  app.silent = true;
  app.use(correlationId());
  app.use(errorHandler(log));
  const api = new Router({ prefix: '/api/v1' });
  for (const router of [
    peopleRouter(db.sql),
    graphRouter(db.sql),
    documentsRouter({ sql: db.sql, firmenbuch: { document: (key) => (upstreamDown ? down : live).document(key) } }),
    companyProfileRouter(db.sql),
  ]) api.use(router.routes());
  app.use(api.routes());
  http = await serve(app);
});
afterAll(async () => {
  await http.close();
  await fake.close();
  await db.drop();
});

describe('company profile', () => {
  it('answers the fields of the extract for a company held by another company', async () => {
    const extract = fixtureExtract('287541f');
    const body = await json(await http.get('/api/v1/businesses/287541f'));
    expect(body).toMatchObject({
      fnr: '287541f', name: extract.name, isActive: true, isScheinunternehmen: false, hasEdikt: false,
      legalForm: { code: extract.legalForm!.code }, court: { code: extract.court!.code }, euid: extract.euid,
    });
    const current = extract.addresses.find((a) => a.isCurrent)!;
    expect(body.addresses[0]).toMatchObject({ zipCode: current.zipCode, city: current.city, isCurrent: true });
    const corporate = extract.holdings.find((h) => h.holderKind === 'company')!;
    expect(body.shareholders).toContainEqual(expect.objectContaining({ type: 'company', fnr: corporate.holderFnr, capital: Number(corporate.capital) }));
    expect(body.functions.length).toBe(extract.functions.filter((f) => extract.parties.some((p) => p.pnr === f.pnr)).length);
    expect(new Date(body.lastCrawledAt).getTime()).toBeGreaterThan(Date.now() - 600_000);
  });

  it('carries the latest filing by documentDate as latestKeyFigures, all filings in parsedJahresabschluesse', async () => {
    const body = await json(await http.get('/api/v1/businesses/301466h'));
    expect(body.parsedJahresabschluesse).toHaveLength(2);
    const dates = body.parsedJahresabschluesse.map((f: { documentDate: string }) => f.documentDate);
    expect(dates).toEqual([...dates].sort().reverse());
    const latest = body.parsedJahresabschluesse[0];
    const expected = expectedFigures(latest.documentKey);
    expect(body.latestKeyFigures.documentDate).toBe(expected.documentDate);
    for (const [key, value] of Object.entries(expected.figures)) {
      expect(body.latestKeyFigures[key], key).toBe(value === null ? null : Number(value));
    }
    expect(body.annualAccountDocuments).toHaveLength(2);
  });

  it('matches the path segment exactly: leading zeros and upper case are 404s', async () => {
    for (const path of ['/api/v1/businesses/0287541f', '/api/v1/businesses/287541F', '/api/v1/businesses/999999z']) {
      const res = await http.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    }
  });
});

describe('people', () => {
  it('gives one person with functions in two companies under one personId', async () => {
    const body = await json(await http.get('/api/v1/people/gerhard-leitner-1966-02-21'));
    expect(body).toMatchObject({ personId: 'gerhard-leitner-1966-02-21', firstName: 'Gerhard', lastName: 'Leitner', birthDate: '1966-02-21' });
    expect(new Set(body.functions.map((f: { fnr: string }) => f.fnr))).toEqual(new Set(['211904z', '33918f']));
    expect(body.hasOpenNotices).toBe(false);
  });

  it('searches by last name and by company, and autocompletes names', async () => {
    const byName = await json(await http.get('/api/v1/people?lastName=leit'));
    expect(byName.data.map((p: { personId: string }) => p.personId)).toContain('gerhard-leitner-1966-02-21');
    const byCompany = await json(await http.get('/api/v1/people?fnr=0033918%20f'));
    expect(byCompany.data.map((p: { personId: string }) => p.personId)).toContain('gerhard-leitner-1966-02-21');
    const names = await json(await http.get('/api/v1/people/names?search=gerhard%20le'));
    expect(names.data[0]).toEqual({ personId: 'gerhard-leitner-1966-02-21', name: 'Gerhard Leitner', birthDate: '1966-02-21' });
    expect((await http.get('/api/v1/people/nobody-x-x')).status).toBe(404);
  });
});

describe('graph', () => {
  it('follows the corporate shareholder chain with typed edges', async () => {
    const depth1 = await json(await http.get('/api/v1/graph?fnr=287541f&depth=1'));
    const ids1 = depth1.nodes.map((n: { id: string }) => n.id);
    expect(ids1).toContain('company:388410t');
    expect(ids1).not.toContain('company:211904z');
    expect(depth1.edges).toContainEqual(expect.objectContaining({ source: 'company:388410t', target: 'company:287541f', type: 'holding' }));
    const depth2 = await json(await http.get('/api/v1/graph?fnr=287541f&depth=2'));
    const ids2 = depth2.nodes.map((n: { id: string }) => n.id);
    expect(ids2).toEqual(expect.arrayContaining(['company:211904z', 'company:294417t']));
    expect(depth2.truncated).toBe(false);
    expect(depth2.edges.every((e: { type: string }) => e.type === 'holding' || e.type === 'function')).toBe(true);
  });

  it('starts from a person and refuses both or neither start', async () => {
    const body = await json(await http.get('/api/v1/graph?personId=gerhard-leitner-1966-02-21'));
    expect(body.nodes.map((n: { id: string }) => n.id)).toEqual(expect.arrayContaining(['person:gerhard-leitner-1966-02-21', 'company:211904z', 'company:33918f']));
    expect((await http.get('/api/v1/graph')).status).toBe(400);
    expect((await http.get('/api/v1/graph?fnr=287541f&personId=x')).status).toBe(400);
    expect((await http.get('/api/v1/graph?fnr=287541f&depth=4')).status).toBe(400);
  });
});

describe('document download', () => {
  it('serves a stored XML filing and a stored PDF in their own types', async () => {
    const xml = await http.get('/api/v1/documents/download/301466_7290202403011_000___000_30_38400010_XML');
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(Buffer.from(await xml.arrayBuffer())).toEqual(readFileSync(`${CORPUS}firmenbuch/dokumente/301466_7290202403011_000___000_30_38400010_XML.xml`));
    const pdf = await http.get('/api/v1/documents/download/455190_4580202505512_000___000_30_38400017_PDF');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('fetches a document the pipeline does not hold from the register, and answers 503 text/plain when it is down', async () => {
    const key = '667215_4990202606120_000___000_00_38400018_PDF';
    upstreamDown = true;
    const down = await http.get(`/api/v1/documents/download/${key}`);
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await down.text()).toBe(REGISTER_UNAVAILABLE);
    upstreamDown = false;
    const live = await http.get(`/api/v1/documents/download/${key}`);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await live.arrayBuffer())).toEqual(readFileSync(`${CORPUS}firmenbuch/dokumente/${key}.pdf`));
    const unknown = await http.get('/api/v1/documents/download/999999_0000000000000_000___000_00_1_XML');
    expect(unknown.status).toBe(404);
  });
});
