// The GISA adapter against the fake: which answer becomes which error (and so: retry, pause or fail),
// the extract job, and the catalogue's match with the regulated trades of GewO § 94.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regulatedZiffer } from '../../pipeline/gisa/catalogue.js';
import { startFakeGisa, type FakeGisa } from '../../pipeline/gisa/fake/fakeGisa.js';
import { GisaClient, GisaExtractQuotaError, GisaJobLostError } from '../../pipeline/gisa/gisaClient.js';
import { GisaContentError, GisaNotFoundError } from '../../pipeline/gisa/gisaXml.js';
import { UnrecoverableInputError, UpstreamThrottledError, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;

describe('GISA client against the fake', () => {
  let fake: FakeGisa;
  beforeAll(async () => {
    fake = await startFakeGisa({ fixturesDir: CORPUS, apiKey: 'secret', dataQuota: 5, extractQuota: 1, quotaWindowMs: 60_000, extractPolls: 1 });
  });
  afterAll(async () => {
    await fake.close();
  });
  const client = (apiKey = 'secret') => new GisaClient({ baseUrl: fake.url, apiKey, timeoutMs: 500 });

  it('reads a company\'s hits and a licence, and a person\'s by name and birth date only', async () => {
    const hits = await client().searchCompany('33918f');
    expect(hits.hits.map((h) => h.gisaZahl).sort()).toEqual(['100000054', '100000061', '100000078']);
    const nat = await client().searchPerson({ firstName: 'Gerhard', lastName: 'Leitner', birthDate: '1966-02-21' });
    expect(nat.hits.map((h) => h.gisaZahl).sort()).toEqual(['100000542', '100000559']);
    expect((await client().licence('100000054')).manager?.personId).toBe('gerhard-leitner-1966-02-21');
  });

  it('an unknown GISA-Zahl is GisaNotFoundError (code 1000), unrecoverable', async () => {
    const err = await client().licence('999999999').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GisaNotFoundError);
    expect(err).toBeInstanceOf(UnrecoverableInputError);
  });

  it('a refused key (code 300) pauses the queue instead of failing every job', async () => {
    const err = await client('wrong').licence('100000054').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamThrottledError);
    expect((err as Error).message).toMatch(/GISA_API_KEY/);
  });

  it('a spent quota (HTTP 200, Returncode=ERROR) is throttling; an extract quota only delays extracts', async () => {
    let err: unknown;
    for (let i = 0; i < 10 && !err; i++) err = await client().licence('100000054').then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamThrottledError);
    expect(err).not.toBeInstanceOf(GisaExtractQuotaError);
    const job = await client().startExtract('100000054', 'de', false);
    expect(job).toBeGreaterThan(0);
    const second = await client().startExtract('100000054', 'en', false).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(GisaExtractQuotaError);
  });

  it('transport faults are retried: 500, 429 with Retry-After, a timeout, a body cut off', async () => {
    const fresh = await startFakeGisa({ fixturesDir: CORPUS });
    try {
      const c = new GisaClient({ baseUrl: fresh.url, timeoutMs: 300 });
      fresh.setFaults({ rate500: 1 });
      expect(await c.licence('100000054').catch((e: unknown) => e)).toBeInstanceOf(UpstreamUnavailableError);
      fresh.setFaults({ rate429: 1, retryAfterSeconds: 7 });
      const throttled = await c.licence('100000054').catch((e: unknown) => e);
      expect(throttled).toBeInstanceOf(UpstreamThrottledError);
      expect((throttled as UpstreamThrottledError).retryAfterMs).toBe(7000);
      fresh.setFaults({ rateTimeout: 1, timeoutMs: 2000 });
      expect(await c.licence('100000054').catch((e: unknown) => e)).toBeInstanceOf(UpstreamUnavailableError);
      fresh.setFaults({ rateCutOff: 1 });
      expect(await c.licence('100000054').catch((e: unknown) => e)).toBeInstanceOf(UpstreamUnavailableError);
      fresh.setFaults({ rateTruncated: 1 });
      expect(await c.licence('100000054').catch((e: unknown) => e)).toBeInstanceOf(UpstreamUnavailableError);
      fresh.setFaults(undefined);
      expect((await c.licence('100000054')).gisaZahl).toBe('100000054');
    } finally {
      await fresh.close();
    }
  });

  it('a search without a term (code 1050) is a content error that fails at once', async () => {
    const fresh = await startFakeGisa({ fixturesDir: CORPUS });
    try {
      const err = await new GisaClient({ baseUrl: fresh.url }).searchPerson({ firstName: 'X', lastName: '', birthDate: '2000-01-01' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GisaContentError);
      expect((err as GisaContentError).codes).toEqual(['1050']);
    } finally {
      await fresh.close();
    }
  });

  it('code 310 (unexpected error) is retried; 320 (foreign job id) and 1020 (unknown job id) lose the extract job', async () => {
    const fresh = await startFakeGisa({ fixturesDir: CORPUS });
    try {
      const c = new GisaClient({ baseUrl: fresh.url });
      fresh.failNext('GetGewerbeV2', '310', 'Unerwarteter Fehler');
      const unexpected = await c.licence('100000054').catch((e: unknown) => e);
      expect(unexpected).toBeInstanceOf(UpstreamUnavailableError);
      expect(unexpected).not.toBeInstanceOf(UnrecoverableInputError);
      expect((await c.licence('100000054')).gisaZahl).toBe('100000054');

      const job = await c.startExtract('100000054', 'de', false);
      fresh.failNext('GetAuszugStatus', '320', 'Die Job-ID gehört zu einem anderen API-Key.');
      const foreign = await c.extractStatus(job).catch((e: unknown) => e);
      expect(foreign).toBeInstanceOf(GisaJobLostError);
      expect((foreign as GisaJobLostError).codes).toEqual(['320']);
      // The fake's own 1020: a job id it never handed out.
      const unknown = await c.extractStatus(424242).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(GisaJobLostError);
      expect((unknown as GisaJobLostError).codes).toEqual(['1020']);
      fresh.failNext('GetAuszug', '1020');
      expect(await c.extract(job).catch((e: unknown) => e)).toBeInstanceOf(GisaJobLostError);
    } finally {
      await fresh.close();
    }
  });

  it('an extract job: started, Working, then Completed, then the signed PDF', async () => {
    const fresh = await startFakeGisa({ fixturesDir: CORPUS, extractPolls: 2 });
    try {
      const c = new GisaClient({ baseUrl: fresh.url });
      const job = await c.startExtract('100000016', 'en', true);
      expect(await c.extractStatus(job)).toBe('Working');
      expect(await c.extractStatus(job)).toBe('Working');
      expect(await c.extractStatus(job)).toBe('Completed');
      const pdf = await c.extract(job);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    } finally {
      await fresh.close();
    }
  });
});

describe('catalogue merge with GewO § 94', () => {
  const regulated = (parse(readFileSync(new URL('../../pipeline/catalogues/data/gewo_94_reglementierte_gewerbe.csv', import.meta.url), 'utf8'), { columns: true }) as Array<{ ziffer: string; bezeichnung: string }>)
    .map((r) => ({ ziffer: Number(r.ziffer), name: r.bezeichnung || null }));

  it('matches whole entries, one trade of a combined entry, and ignores notes in parentheses', () => {
    expect(regulatedZiffer('Baumeister, Brunnenmeister', regulated)).toBe(5);
    expect(regulatedZiffer('Tischler; Modellbauer; Bootsbauer; Binder; Drechsler; Bildhauer (verbundenes Handwerk)', regulated)).toBe(71);
    expect(regulatedZiffer('Florist', regulated)).toBe(24);
    expect(regulatedZiffer('Bäcker', regulated)).toBe(3);
    expect(regulatedZiffer('Handelsgewerbe mit Ausnahme der reglementierten Handelsgewerbe', regulated)).toBeNull();
    expect(regulatedZiffer('Werbeagentur', regulated)).toBeNull();
  });
});
