// The Ediktsdatei crawl end to end against the fake IWG interface, on the bundled Firmenbuch corpus:
// the first page-through stores every edict as parsed and links the legal persons (precision and
// recall over the labelled set, printed and held to the targets); a second crawl without upstream
// change writes no change row; a changed edict writes one; a deleted one becomes a tombstone with its
// earlier snapshots erased; transport faults end in the same state; a search that reaches the 5000
// cap is split until it does not and loses nothing; the page-through resumes from its cursor; a
// notice is linked once its company appears.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { edikte } from '../../pipeline/edikte/index.js';
import { edikteHandlers, viennaDate } from '../../pipeline/edikte/edikteJobs.js';
import { IwgClient } from '../../pipeline/edikte/iwgClient.js';
import type { EdikteJobs } from '../../pipeline/edikte/jobs.js';
import { storeNotices } from '../../pipeline/edikte/noticeStore.js';
import { IwgCorpus } from '../../pipeline/edikte/fake/iwgCorpus.js';
import { azKeyOf, iwgDocument } from '../../pipeline/edikte/fake/iwgDocuments.js';
import { startFakeIwg, type FakeIwg, type FakeIwgOptions } from '../../pipeline/edikte/fake/fakeIwg.js';
import { syntheticEdict } from '../../pipeline/edikte/fake/syntheticEdikte.js';
import { parseNoticeDocument } from '../../pipeline/edikte/iwgParser.js';
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import type { JobKey, PayloadOf, RegisterRunReport } from '../../pipeline/register.js';
import { replay, type ReplayOptions } from '../../pipeline/replay/replay.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import type { ParsedNotice } from '../../schemas/courtNoticeRecords.js';
import { seedCompanies, seedFnr } from '../helpers/seedCompanies.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = resolve(import.meta.dirname, '../../fixtures/corpus');
const EDIKTE = join(CORPUS, 'edikte');
const log = createLogger('silent');
const credentials = { user: 'iwg-test', password: 'geheim' };
const labels = JSON.parse(readFileSync(join(EDIKTE, 'links.json'), 'utf8')) as Array<{
  ediktId: string; unid: string; debtorType: 'J' | 'N'; truth: string | null; clear: boolean; case: string;
}>;
const expected = (unid: string) => JSON.parse(readFileSync(join(EDIKTE, 'expected', `${unid}.json`), 'utf8')) as ParsedNotice;
/** The day before the corpus' deletions: every edict is published. */
const BEFORE_DELETIONS = '2026-11-21';

async function withCompanies(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, registers: [firmenbuch], fixturesDir: CORPUS, prefix: `edk-fb-${randomBytes(4).toString('hex')}` });
  return db;
}

function crawl(db: TestDatabase, fake: FakeIwg, extra: Partial<ReplayOptions> = {}) {
  return replay({
    sql: db.sql, redisUrl: inject('redisUrl'), log, registers: [edikte], fixturesDir: CORPUS, prefix: `edk-${randomBytes(4).toString('hex')}`,
    upstreams: { edikte: { baseUrl: fake.url, credentials } }, ...extra,
  });
}

const changeCount = async (sql: Sql) => (await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM change_log`)[0]!.n;

/** Every notice and change, in a stable order, to compare two end states. */
async function endState(sql: Sql) {
  return {
    notices: await sql`
      SELECT edikt_id, debtor_name, debtor_person_id, fnr, link_evidence, link_confidence::text, link_candidates, blocks, is_open, deleted_at
        FROM court_notice ORDER BY edikt_id`,
    changes: await sql`SELECT type, fnr, action, changed_fields, edikt_id, count(*)::int AS n FROM change_log GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
  };
}

describe('a crawl of the bundled Ediktsdatei corpus', () => {
  let db: TestDatabase;
  let fake: FakeIwg;
  beforeAll(async () => {
    db = await withCompanies();
    fake = await startFakeIwg({ corpus: EDIKTE, credentials, now: BEFORE_DELETIONS });
  });
  afterAll(async () => {
    await fake.close();
    await db.drop();
  });

  it('pages through All and stores every edict as parsed, with one change each and hasEdikt for each newly flagged company', async () => {
    const before = await changeCount(db.sql);
    const summary = await crawl(db, fake);
    expect(summary.failed).toEqual([]);
    expect(summary.sources.edikte).toMatchObject({ jobsFailed: 0, notices: labels.length });
    const rows = await db.sql<{ ediktId: string; unid: string; debtorName: string | null; debtorPersonId: string | null; debtorFnr: string | null; blocks: unknown; isOpen: boolean; first: string | null; last: string | null }[]>`
      SELECT edikt_id, unid, debtor_name, debtor_person_id, debtor_fnr, blocks, is_open,
             to_char(first_published_on, 'YYYY-MM-DD') AS first, to_char(last_published_on, 'YYYY-MM-DD') AS last
        FROM court_notice ORDER BY edikt_id`;
    expect(rows).toHaveLength(labels.length);
    for (const row of rows) {
      const want = expected(row.unid);
      expect({ ediktId: row.ediktId, name: row.debtorName, personId: row.debtorPersonId, fnr: row.debtorFnr, blocks: row.blocks, isOpen: row.isOpen, first: row.first, last: row.last }, row.unid).toEqual({
        ediktId: want.ediktId, name: want.debtor.name, personId: want.debtor.personId, fnr: want.debtor.fnr, blocks: want.blocks, isOpen: want.isOpen,
        first: want.firstPublishedOn, last: want.lastPublishedOn,
      });
    }
    const changes = await db.sql<{ type: string; action: string; n: number }[]>`SELECT type, action, count(*)::int AS n FROM change_log WHERE id > ${before} GROUP BY 1, 2 ORDER BY 1, 2`;
    const flagged = await db.sql<{ n: number }[]>`SELECT count(DISTINCT n.fnr)::int AS n FROM court_notice n JOIN company c USING (fnr)`;
    expect(changes).toEqual([{ type: 'business', action: 'updated', n: flagged[0]!.n }, { type: 'edikt', action: 'created', n: labels.length }]);
    expect(summary.changes).toBe(labels.length + flagged[0]!.n);
    // Freshness for GET /status and /metrics: the page-through is complete as of the day it started.
    const [status] = await db.sql<{ lastSuccessAt: Date | null; watermark: string | null }[]>`SELECT last_success_at, watermark FROM register_status WHERE register = 'edikte'`;
    expect(status!.lastSuccessAt).not.toBeNull();
    expect(status!.watermark).toBe(viennaDate(new Date()));
  });

  it('links every legal person with clear evidence to its company and no trap: precision and recall over the labelled set', async () => {
    const rows = await db.sql<{ ediktId: string; fnr: string | null; evidence: string | null; confidence: number | null }[]>`
      SELECT edikt_id, fnr, link_evidence AS evidence, link_confidence::float8 AS confidence FROM court_notice`;
    const linked = new Map(rows.map((r) => [r.ediktId, r]));
    const legal = labels.filter((l) => l.debtorType === 'J');
    const asserted = legal.filter((l) => linked.get(l.ediktId)?.fnr);
    const correct = asserted.filter((l) => linked.get(l.ediktId)!.fnr === l.truth);
    const clear = legal.filter((l) => l.clear);
    const found = clear.filter((l) => linked.get(l.ediktId)?.fnr === l.truth);
    const precision = correct.length / asserted.length;
    const recall = found.length / clear.length;
    const traps = legal.filter((l) => l.truth === null);
    console.log(`Ediktsdatei linking over ${legal.length} labelled legal-person edicts (${clear.length} with clear evidence, ${traps.length} traps): ` +
      `${asserted.length} asserted, precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`);
    expect(asserted.filter((l) => linked.get(l.ediktId)!.fnr !== l.truth).map((l) => l.case), 'wrongly asserted').toEqual([]);
    expect(clear.filter((l) => !found.includes(l)).map((l) => l.case), 'clear evidence not linked').toEqual([]);
    expect(precision).toBeGreaterThanOrEqual(0.99);
    expect(recall).toBeGreaterThanOrEqual(0.95);
    // Every asserted link reaches the threshold; natural persons are never linked to a company.
    for (const l of asserted) expect(linked.get(l.ediktId)!.confidence).toBeGreaterThanOrEqual(0.9);
    for (const l of labels.filter((x) => x.debtorType === 'N')) expect(linked.get(l.ediktId)!.fnr).toBeNull();
    // A namesake is kept for review, below the threshold.
    const namesake = await db.sql<{ candidates: Array<{ fnr: string; confidence: number }> }[]>`
      SELECT link_candidates AS candidates FROM court_notice WHERE edikt_id = ${labels.find((l) => l.case === 'namesake at another seat')!.ediktId}`;
    expect(namesake[0]!.candidates).toEqual([expect.objectContaining({ fnr: '98231h', evidence: 'name', confidence: 0.6 })]);
    // A valid FN whose company bears another name is kept for review, with a warning, and never asserted.
    const slip = await db.sql<{ candidates: unknown[]; warnings: string[] }[]>`
      SELECT link_candidates AS candidates, data_warnings AS warnings FROM court_notice
       WHERE edikt_id = ${labels.find((l) => l.case === 'a valid FN of another company (a slip in the notice)')!.ediktId}`;
    expect(slip[0]).toEqual({ candidates: [expect.objectContaining({ fnr: '156207t', evidence: 'register-fn', confidence: 0.5 })], warnings: ['fnr-name-mismatch'] });
    // The former name: asserted with the whole address; elsewhere only a candidate.
    const [former, formerElsewhere] = await Promise.all(['the company\'s former name with its whole address (0.90)', 'a company\'s former name at another address'].map((c) =>
      db.sql<{ fnr: string | null; confidence: number | null; candidates: unknown[] }[]>`
        SELECT fnr, link_confidence::float8 AS confidence, link_candidates AS candidates FROM court_notice WHERE edikt_id = ${labels.find((l) => l.case === c)!.ediktId}`));
    expect(former![0]).toMatchObject({ fnr: '17742t', confidence: 0.9 });
    expect(formerElsewhere![0]).toMatchObject({ fnr: null, candidates: [expect.objectContaining({ fnr: '17742t', evidence: 'name', confidence: 0.4 })] });
  });

  it('writes no change row when crawled again without an upstream change, by the recipe or a new page-through', async () => {
    const before = await changeCount(db.sql);
    const notModified = fake.stats.notModified;
    const recipe = await crawl(db, fake, { from: '2026-05-01' });
    expect(recipe.failures).toBe(0);
    const full = await crawl(db, fake, { backfill: true });
    expect(full.failures).toBe(0);
    // Every edict asked for twice, each time answered 304; nothing fetched, so nothing counted.
    expect(fake.stats.notModified - notModified).toBe(2 * labels.length);
    expect([recipe.sources.edikte, full.sources.edikte]).toEqual([expect.objectContaining({ notices: 0 }), expect.objectContaining({ notices: 0 })]);
    expect(await changeCount(db.sql)).toBe(before);
  });

  it('records a changed edict once: a closing block makes it closed, without a company change', async () => {
    const label = labels.find((l) => l.case === 'FN as stored')!;
    const doc = JSON.parse(readFileSync(join(EDIKTE, 'documents', `${label.unid}.json`), 'utf8')) as Record<string, unknown>;
    const bausteine = doc.Bausteine as { data: string };
    fake.corpus.putDocument({
      ...doc, '@modified': '2026-11-21T09:30:00Z', Dat_Akt_Bekanntmachung: '2026-11-21',
      Dat_Alle_Bekanntmachung: [...(doc.Dat_Alle_Bekanntmachung as string[]), '2026-11-21'],
      Bausteine: { ...bausteine, data: `${bausteine.data}<br />\r\n21.11.2026~Aufhebung~Der Konkurs wird aufgehoben.~20.11.2026` },
    });
    const before = await changeCount(db.sql);
    const summary = await crawl(db, fake, { from: '2026-11-20' });
    expect(summary.failures).toBe(0);
    const changes = await db.sql`SELECT type, fnr, action, changed_fields, edikt_id FROM change_log WHERE id > ${before}`;
    expect(changes).toEqual([{ type: 'edikt', fnr: '287541f', action: 'updated', changedFields: ['lastPublishedOn', 'blocks', 'isOpen'], ediktId: label.ediktId }]);
  });

  it('erases a deleted edict to its tombstone, with its earlier snapshots, and reports the deletion', async () => {
    const deleted = labels.filter((l) => l.case === 'the register deletes this edict later (Deletions view)');
    expect(deleted).toHaveLength(2);
    fake.setNow('2026-11-24');
    const before = await changeCount(db.sql);
    const summary = await crawl(db, fake, { from: '2026-11-20' });
    expect(summary.failures).toBe(0);
    for (const { ediktId } of deleted) {
      const [row] = await db.sql`SELECT * FROM court_notice WHERE edikt_id = ${ediktId}`;
      const kept = Object.entries(row!).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0) && v !== false);
      expect(kept.map(([k]) => k).sort()).toEqual(['deletedAt', 'ediktId', 'firstSeenAt', 'updatedAt']);
      const snapshots = await db.sql<{ action: string; snapshot: unknown }[]>`SELECT action, snapshot FROM change_log WHERE type = 'edikt' AND edikt_id = ${ediktId} ORDER BY id`;
      expect(snapshots.map((s) => s.action)).toEqual(['created', 'deleted']);
      for (const s of snapshots) expect(s.snapshot).toEqual({ edikt_id: ediktId, deleted_at: '2026-11-22T05:12:41.000Z' });
    }
    const changes = await db.sql`SELECT type, fnr, action, changed_fields FROM change_log WHERE id > ${before} ORDER BY id`;
    // The person's edict links no company; the company's edict was its only one, so hasEdikt flips.
    expect(changes).toEqual([
      { type: 'edikt', fnr: null, action: 'deleted', changedFields: [] },
      { type: 'edikt', fnr: '667215z', action: 'deleted', changedFields: [] },
      { type: 'business', fnr: '667215z', action: 'updated', changedFields: ['hasEdikt'] },
    ]);
    expect((await db.sql`SELECT 1 FROM change_log WHERE snapshot::text LIKE '%Steyrtal%' OR snapshot::text LIKE '%Favoritenstraße%'`).length).toBe(0);
    // Deleted once is deleted: the next run has nothing to do.
    expect((await crawl(db, fake, { from: '2026-11-20' })).changes).toBe(0);
  });
});

describe('transport faults', () => {
  it('reach the same end state as a clean crawl through 429s, 500s, timeouts, truncated and cut-off bodies', async () => {
    const [clean, faulty] = await Promise.all([withCompanies(), withCompanies()]);
    const fake = await startFakeIwg({ corpus: EDIKTE, credentials, now: BEFORE_DELETIONS });
    try {
      expect((await crawl(clean, fake)).failures).toBe(0);
      fake.setFaults({ seed: 11, rate429: 0.08, retryAfterSeconds: 1, rate500: 0.08, rateTimeout: 0.03, timeoutMs: 1500, rateTruncated: 0.08, rateCutOff: 0.08 });
      const summary = await crawl(faulty, fake, { timeoutMs: 1000, backoffDelayMs: 50 });
      expect(summary.failed).toEqual([]);
      expect(summary.sources.edikte!.jobsRetried).toBeGreaterThan(0);
      expect(await endState(faulty.sql)).toEqual(await endState(clean.sql));
    } finally {
      await fake.close();
      await Promise.all([clean.drop(), faulty.drop()]);
    }
  }, 60_000);
});

/** The handlers with a queue of our own: page jobs run at once, other jobs are collected. */
function handlersWithQueue(db: TestDatabase, fake: FakeIwg, now: string) {
  const queued: Array<{ key: string; payload: unknown }> = [];
  const runs: RegisterRunReport[] = [];
  const client = new IwgClient({ baseUrl: fake.url, timeoutMs: 5000 });
  const enqueue = async <K extends JobKey<EdikteJobs>>(key: K, payload: PayloadOf<EdikteJobs[K]>) => void queued.push({ key, payload });
  const handlers = edikteHandlers({
    sql: db.sql, client, log, now: () => new Date(`${now}T12:00:00Z`), onRun: (r) => runs.push(r),
    enqueue, enqueueMany: async (key, payloads) => {
      for (const p of payloads) await enqueue(key, p);
    },
  });
  return { handlers, queued, runs, close: () => client.close() };
}

/**
 * A database (or the one given), the fake IWG on `corpus` and the handlers against both, at the
 * register's clock `now`; all closed and dropped when the test ends.
 */
async function crawlRig(corpus: IwgCorpus, now: string, options: { db?: TestDatabase; fake?: Omit<FakeIwgOptions, 'corpus' | 'now'> } = {}) {
  const db = options.db ?? await createTestDatabase();
  const fake = await startFakeIwg({ corpus, now, ...options.fake });
  const { close, ...rig } = handlersWithQueue(db, fake, now);
  onTestFinished(async () => {
    close();
    await fake.close();
    await db.drop();
  });
  return { db, fake, ...rig };
}

describe('the change recipe at the 5000 cap', () => {
  it('splits a window that reaches the cap until none does, and loses no edict', async () => {
    // 6,000 edicts first published on three days: the recipe's window reaches the cap.
    const corpus = new IwgCorpus();
    const unids: string[] = [];
    for (let i = 0; i < 6_000; i++) {
      const { spec } = syntheticEdict(i, { seed: 5, from: '2026-11-02', days: 3 });
      corpus.putDocument(iwgDocument(spec));
      unids.push(spec.unid);
    }
    const { db, fake, handlers, queued, runs } = await crawlRig(corpus, '2026-11-10');
    // As if the first page-through had completed on 2 November: the recipe runs from 1 November.
    await db.sql`INSERT INTO crawl_state (source, key, watermark, state) VALUES ('edikte', 'full', '2026-11-02', '{"run":"f","startedOn":"2026-11-02","nextPage":0,"total":0}')`;
    await handlers.poll({}, undefined as never);
    let pages = 0;
    let capped = 0;
    while (queued.length > 0) {
      const job = queued.shift()!;
      expect(job.key, 'a document its page could not fetch').not.toBe('document');
      if (job.key !== 'page') continue;
      pages++;
      const result = (await handlers.page(job.payload as PayloadOf<EdikteJobs['page']>, undefined as never)) as { capped?: number };
      if (result.capped) capped++;
    }
    expect(capped).toBeGreaterThan(1);
    expect(fake.stats.requests.search).toBe(pages);
    const stored = await db.sql<{ unid: string }[]>`SELECT unid FROM court_notice`;
    expect(stored.map((r) => r.unid).sort()).toEqual([...unids].sort());
    const [state] = await db.sql<{ watermark: string }[]>`SELECT watermark FROM crawl_state WHERE source = 'edikte' AND key = 'changes.All'`;
    expect(state!.watermark).toBe('2026-11-10');
    // What /metrics and /api/v1/status hear: one success per completed run (All and Deletions), not
    // per page, each with its watermark and links by evidence; All's carries every edict fetched.
    const successes = runs.filter((r) => r.outcome === 'success');
    expect(successes).toHaveLength(2);
    expect(successes).toEqual([expect.objectContaining({ watermark: '2026-11-10' }), expect.objectContaining({ watermark: '2026-11-10' })]);
    expect(successes.at(-1)).toMatchObject({ itemsFetched: unids.length, linksByEvidence: { none: expect.any(Number) } });
    expect(successes.reduce((n, r) => n + r.itemsFetched, 0)).toBe(unids.length);
  }, 60_000);
});

describe('the 5000 cap answered without Content-Range', () => {
  it('splits a window whose pages reach the cap without a total, and loses no edict', async () => {
    const corpus = new IwgCorpus();
    const unids: string[] = [];
    for (let i = 0; i < 5_300; i++) {
      const { spec } = syntheticEdict(i, { seed: 6, from: '2026-11-02', days: 3 });
      corpus.putDocument(iwgDocument(spec));
      unids.push(spec.unid);
    }
    const { db, handlers, queued } = await crawlRig(corpus, '2026-11-10', { fake: { contentRange: false } });
    await db.sql`INSERT INTO crawl_state (source, key, watermark, state) VALUES ('edikte', 'full', '2026-11-02', '{"run":"f","startedOn":"2026-11-02","nextPage":0,"total":0}')`;
    await handlers.poll({}, undefined as never);
    let capped = 0;
    while (queued.length > 0) {
      const job = queued.shift()!;
      if (job.key !== 'page') continue;
      const result = (await handlers.page(job.payload as PayloadOf<EdikteJobs['page']>, undefined as never)) as { capped?: number; total?: number | null };
      if (result.capped) capped++;
      if (result.total !== undefined) expect(result.total).toBeNull();
    }
    expect(capped).toBeGreaterThan(0);
    const stored = await db.sql<{ unid: string }[]>`SELECT unid FROM court_notice`;
    expect(stored.map((r) => r.unid).sort()).toEqual([...unids].sort());
    const [state] = await db.sql<{ watermark: string }[]>`SELECT watermark FROM crawl_state WHERE source = 'edikte' AND key = 'changes.All'`;
    expect(state!.watermark).toBe('2026-11-10');
  }, 120_000);
});

/** Runs the queued page jobs until none is left; a page job that throws is collected, not rethrown. */
async function drainPages(handlers: ReturnType<typeof handlersWithQueue>['handlers'], queued: Array<{ key: string; payload: unknown }>) {
  const failed: Error[] = [];
  let pages = 0;
  while (queued.length > 0) {
    const job = queued.shift()!;
    expect(job.key, 'a document its page could not fetch').not.toBe('document');
    if (job.key !== 'page') continue;
    pages++;
    await handlers.page(job.payload as PayloadOf<EdikteJobs['page']>, undefined as never).catch((err: Error) => failed.push(err));
  }
  return { failed, pages };
}

/** A recipe that starts from `from`: as if the page-through and earlier runs had completed. */
async function recipeFrom(sql: Sql, watermark: string) {
  await sql`
    INSERT INTO crawl_state (source, key, watermark, state) VALUES
      ('edikte', 'full', '2026-11-01', '{"run":"f","startedOn":"2026-11-01","nextPage":0,"total":0}'),
      ('edikte', 'changes.All', ${watermark}, '{}'), ('edikte', 'changes.Deletions', ${watermark}, '{}')`;
}

describe('the 5000 cap where a day cannot be split by date', () => {
  it('erases every one of more than 5000 deletions of one day, most of them of one court', async () => {
    const db = await createTestDatabase();
    const corpus = new IwgCorpus();
    const items: Array<{ notice: ParsedNotice; raw: string }> = [];
    for (let i = 0; i < 5_150; i++) {
      const { spec } = syntheticEdict(i, { seed: 3, from: '2026-11-02', days: 1 });
      // 5,100 of one court: that court's search of the day reaches the cap too.
      const doc = iwgDocument(i < 5_100 ? { ...spec, courtCode: '007', courtName: 'Handelsgericht Wien', stateCode: '0' } : spec);
      corpus.putDocument(doc);
      items.push({ notice: parseNoticeDocument(JSON.stringify(doc)), raw: '{}' });
    }
    for (let i = 0; i < items.length; i += 1000) await storeNotices(db.sql, items.slice(i, i + 1000));
    for (const { notice } of items) corpus.deleteEdict(notice.ediktId, '2026-11-05T10:00:00Z');
    const { handlers, queued, runs } = await crawlRig(corpus, '2026-11-06', { db });
    await recipeFrom(db.sql, '2026-11-04');
    await handlers.poll({}, undefined as never);
    const { failed } = await drainPages(handlers, queued);
    expect(failed).toEqual([]);
    const [counts] = await db.sql<{ live: number; erased: number }[]>`
      SELECT count(*) FILTER (WHERE deleted_at IS NULL)::int AS live, count(*) FILTER (WHERE deleted_at IS NOT NULL AND debtor_name IS NULL)::int AS erased FROM court_notice`;
    expect(counts).toEqual({ live: 0, erased: items.length });
    const [state] = await db.sql<{ watermark: string }[]>`SELECT watermark FROM crawl_state WHERE source = 'edikte' AND key = 'changes.Deletions'`;
    expect(state!.watermark).toBe('2026-11-06');
    expect(runs.filter((r) => r.outcome === 'refused')).toEqual([]);
  }, 120_000);

  it('fails the run and keeps its watermark when one day of one Bundesland still reaches the cap', async () => {
    const corpus = new IwgCorpus();
    for (let i = 0; i < 5_050; i++) corpus.putDocument(iwgDocument({ ...syntheticEdict(i, { seed: 4, from: '2026-11-05', days: 1 }).spec, stateCode: '3' }));
    const { db, handlers, queued, runs } = await crawlRig(corpus, '2026-11-06');
    await recipeFrom(db.sql, '2026-11-04');
    await handlers.poll({}, undefined as never);
    const { failed } = await drainPages(handlers, queued);
    expect(failed.map((e) => e.constructor.name)).toEqual(['SearchCapError']);
    expect(failed[0]!.message).toContain('2026-11-05..2026-11-05#3');
    const [state] = await db.sql<{ watermark: string }[]>`SELECT watermark FROM crawl_state WHERE source = 'edikte' AND key = 'changes.All'`;
    expect(state!.watermark).toBe('2026-11-04');
    expect(runs).toContainEqual({ outcome: 'refused', reason: 'search-cap' });
    expect(runs.filter((r) => r.outcome === 'success' && r.watermark !== undefined && r.watermark > '2026-11-04')).toHaveLength(1);
  }, 60_000);
});

describe('the first page-through', () => {
  it('resumes from its stored cursor after a restart', async () => {
    const corpus = new IwgCorpus();
    for (let i = 0; i < 250; i++) corpus.putDocument(iwgDocument(syntheticEdict(i, { seed: 9, from: '2026-10-01', days: 20 }).spec));
    const { db, handlers, queued } = await crawlRig(corpus, '2026-11-10');
    await handlers.poll({}, undefined as never);
    const first = queued.shift()!;
    expect(first).toMatchObject({ key: 'page', payload: { view: 'All', window: null, page: 0 } });
    await handlers.page(first.payload as PayloadOf<EdikteJobs['page']>, undefined as never);
    // The process dies here: the queue is lost, the cursor in the database is not.
    queued.length = 0;
    await handlers.poll({}, undefined as never);
    // Page 1 starts where page 0 ended (keyset paging), not at an offset.
    expect(queued[0]).toMatchObject({ key: 'page', payload: { run: (first.payload as { run: string }).run, page: 1, after: { key: expect.any(String) } } });
    const [state] = await db.sql<{ state: { nextPage: number; total: number } }[]>`SELECT state FROM crawl_state WHERE source = 'edikte' AND key = 'full'`;
    expect(state!.state).toMatchObject({ nextPage: 1, total: 250 });
  });
});

describe('the first page-through while the register changes', () => {
  it('stores every edict when one before the cursor is deleted between two pages', async () => {
    const corpus = new IwgCorpus();
    const all: string[] = [];
    for (let i = 0; i < 250; i++) {
      const { spec } = syntheticEdict(i, { seed: 9, from: '2026-10-01', days: 20 });
      corpus.putDocument(iwgDocument(spec));
      all.push(azKeyOf(spec));
    }
    const { db, handlers, queued } = await crawlRig(corpus, '2026-11-10');
    const run = async () => {
      while (queued.length > 0) {
        const job = queued.shift()!;
        if (job.key === 'page') await handlers.page(job.payload as PayloadOf<EdikteJobs['page']>, undefined as never);
        else if (job.key === 'poll') await handlers.poll(job.payload as PayloadOf<EdikteJobs['poll']>, undefined as never);
      }
    };
    await handlers.poll({}, undefined as never);
    await handlers.page(queued.shift()!.payload as PayloadOf<EdikteJobs['page']>, undefined as never);
    // The register deletes the first edict read: every later one moves up a place in the view.
    const [first] = await db.sql<{ id: string }[]>`SELECT min(edikt_id) AS id FROM court_notice`;
    corpus.deleteEdict(first!.id, '2026-11-10T08:00:00Z');
    await run();
    const stored = await db.sql<{ ediktId: string }[]>`SELECT edikt_id FROM court_notice ORDER BY edikt_id`;
    expect(stored.map((r) => r.ediktId)).toEqual([...all].sort());
    // The change recipe that follows erases the deleted one: 249 are left, every one still in All.
    await handlers.poll({}, undefined as never);
    await run();
    const live = await db.sql<{ ediktId: string }[]>`SELECT edikt_id FROM court_notice WHERE deleted_at IS NULL ORDER BY edikt_id`;
    expect(live.map((r) => r.ediktId)).toEqual(all.filter((k) => k !== first!.id).sort());
  });
});

describe('re-linking', () => {
  it('links a stored notice once the company it names appears, and flags the company', async () => {
    const { db, handlers } = await crawlRig(new IwgCorpus(), '2026-11-10');
    const label = labels.find((l) => l.case === 'name + address')!;
    const notice = parseNoticeDocument(readFileSync(join(EDIKTE, 'documents', `${label.unid}.json`), 'utf8'));
    const renamed: ParsedNotice = { ...notice, debtor: { ...notice.debtor, name: 'Spätgründung Logistik AG', address: { street: 'Hauptstraße 1', zipCode: '1010', city: 'Wien', country: 'A' } } };
    const [stored] = await storeNotices(db.sql, [{ notice: renamed, raw: '{}' }]);
    expect(stored).toMatchObject({ action: 'created', fnr: null });
    expect(await handlers.relink({}, undefined as never)).toEqual({ changes: 0 });
    await seedCompanies(db.sql, [{ digits: 777001, name: 'Spätgründung Logistik AG', legalForm: 'AG', city: 'Wien', zipCode: '1010' }]);
    expect(await handlers.relink({}, undefined as never)).toMatchObject({ relinked: 1 });
    const [row] = await db.sql`SELECT fnr, link_evidence, link_confidence::float8 AS confidence FROM court_notice WHERE edikt_id = ${notice.ediktId}`;
    expect(row).toEqual({ fnr: seedFnr(777001), linkEvidence: 'name-address', confidence: 0.98 });
    const changes = await db.sql`SELECT type, fnr, action, changed_fields FROM change_log WHERE fnr = ${seedFnr(777001)} AND type <> 'business' OR changed_fields = '{hasEdikt}' ORDER BY id`;
    expect(changes).toEqual([
      { type: 'edikt', fnr: seedFnr(777001), action: 'updated', changedFields: ['link'] },
      { type: 'business', fnr: seedFnr(777001), action: 'updated', changedFields: ['hasEdikt'] },
    ]);
    // The register's own hasEdikt change moves no link; after it, nothing is new.
    expect(await handlers.relink({}, undefined as never)).toEqual({ changes: 1, companies: 0, relinked: 0 });
    expect(await handlers.relink({}, undefined as never)).toMatchObject({ changes: 0 });
  });
});

describe('re-linking when companies are deleted or renamed', () => {
  it('demotes a name link to a deleted company, never asserts a new one by name, keeps the FN link, and finds a former name', async () => {
    const { db, handlers } = await crawlRig(new IwgCorpus(), '2026-11-10');
    const base = parseNoticeDocument(readFileSync(join(EDIKTE, 'documents', `${labels.find((l) => l.case === 'name + address')!.unid}.json`), 'utf8'));
    const notice = (ediktId: string, name: string, fnrRaw: string | null = null): ParsedNotice => ({
      ...base, ediktId, unid: null,
      debtor: { ...base.debtor, name, fnrRaw, fnr: fnrRaw, address: { street: 'Hauptstraße 1', zipCode: '1010', city: 'Wien', country: 'A' } },
    });
    const link = async (ediktId: string) => (await db.sql<{ fnr: string | null; evidence: string | null; candidates: Array<{ fnr: string; confidence: number }> }[]>`
      SELECT fnr, link_evidence AS evidence, link_candidates AS candidates FROM court_notice WHERE edikt_id = ${ediktId}`)[0];
    const [named, byFn, renamed] = [seedFnr(777011), seedFnr(777012), seedFnr(777013)];
    await seedCompanies(db.sql, [{ digits: 777011, name: 'Abendrot Spedition GmbH' }, { digits: 777012, name: 'Morgenrot Handel GmbH' }]);
    await storeNotices(db.sql, [
      { notice: notice('007038S0000126001', 'Abendrot Spedition GmbH'), raw: '{}' },
      { notice: notice('007038S0000226001', 'Morgenrot Handel GmbH', byFn), raw: '{}' },
      { notice: notice('007038S0000326001', 'Altname Bau GmbH'), raw: '{}' },
    ]);
    expect(await link('007038S0000126001')).toMatchObject({ fnr: named, evidence: 'name-address' });
    expect(await link('007038S0000226001')).toMatchObject({ fnr: byFn, evidence: 'register-fn' });
    await handlers.relink({}, undefined as never);

    // Both companies are deleted from the register; a third, renamed since the notice, appears.
    await seedCompanies(db.sql, [
      { digits: 777011, name: 'Abendrot Spedition GmbH', active: false }, { digits: 777012, name: 'Morgenrot Handel GmbH', active: false },
      { digits: 777013, name: 'Neuname Bau GmbH', formerNames: ['Altname Bau GmbH'] },
    ]);
    const before = await changeCount(db.sql);
    expect(await handlers.relink({}, undefined as never)).toMatchObject({ companies: 3, relinked: 2 });
    // The name link falls to a candidate (a company that no longer exists); the court's FN stays: the notice is about it.
    expect(await link('007038S0000126001')).toMatchObject({ fnr: null, candidates: [{ fnr: named, confidence: 0.7 }] });
    expect(await link('007038S0000226001')).toMatchObject({ fnr: byFn, evidence: 'register-fn' });
    // The notice under the old name finds the renamed company by its former name and address.
    expect(await link('007038S0000326001')).toMatchObject({ fnr: renamed, evidence: 'name-address' });
    const changes = await db.sql`SELECT type, fnr, changed_fields FROM change_log WHERE id > ${before} ORDER BY id`;
    expect(changes).toEqual(expect.arrayContaining([
      { type: 'business', fnr: named, changedFields: ['hasEdikt'] }, { type: 'business', fnr: renamed, changedFields: ['hasEdikt'] },
    ]));
    expect(changes.filter((c) => c.fnr === byFn)).toEqual([]);
    // A new notice naming the deleted company is not asserted either.
    const [fresh] = await storeNotices(db.sql, [{ notice: notice('007038S0000426001', 'Abendrot Spedition GmbH'), raw: '{}' }]);
    expect(fresh).toMatchObject({ action: 'created', fnr: null });
  });
});

describe('the corpus the crawl reads', () => {
  it('holds a document for every labelled edict', () => {
    expect(readdirSync(join(EDIKTE, 'documents')).map((f) => f.replace(/\.json$/, '')).sort()).toEqual(labels.map((l) => l.unid).sort());
  });
});
