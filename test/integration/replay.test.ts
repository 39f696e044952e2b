// Replay of the bundled corpus through the real pipeline (fake upstream -> BullMQ -> Postgres):
// zero failures, every filing's 47 figures equal its expected file, a second replay writes no change
// rows, and injected upstream faults end in the same state without duplicate change rows.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import { replay, type ReplayOptions } from '../../pipeline/replay/replay.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const MALFORMED = new URL('../../fixtures/corpus-malformed/', import.meta.url).pathname;
const log = createLogger('silent');

function options(db: TestDatabase, extra: Partial<ReplayOptions> = {}): ReplayOptions {
  return { sql: db.sql, redisUrl: inject('redisUrl'), log, fixturesDir: CORPUS, prefix: `replay-${randomBytes(4).toString('hex')}`, ...extra };
}

/** Everything a replay produces, in a stable order, to compare two end states. */
async function endState(sql: Sql) {
  return {
    companies: await sql`SELECT fnr, name, status, legal_form_code, court_code, seat, capital_amount FROM company ORDER BY fnr`,
    names: await sql`SELECT fnr, vnr, name, is_current FROM company_name ORDER BY fnr, vnr, name`,
    functions: await sql`SELECT fnr, pnr, function_code, vnr, is_current, since, until FROM company_function ORDER BY 1, 2, 3, 4`,
    holdings: await sql`SELECT fnr, pnr, vnr, capital, paid_in FROM holding ORDER BY 1, 2, 3`,
    persons: await sql`SELECT person_id FROM person ORDER BY 1`,
    documents: await sql`SELECT document_key, fnr, content_type, content IS NOT NULL AS fetched, text_content IS NOT NULL AS has_text FROM document ORDER BY 1`,
    filings: await sql`SELECT document_key, document_date, figures::text AS figures FROM annual_account ORDER BY 1`,
    // Whether a filing's change names latestKeyFigures depends on which of a company's filings was
    // stored first, which the order of jobs decides; both orders are right, so figure changes compare
    // as one kind. Everything else compares field by field.
    changes: await sql`
      SELECT type, fnr, action,
             CASE WHEN changed_fields && ARRAY['latestKeyFigures', 'parsedJahresabschluesse'] THEN '{figures}' ELSE changed_fields END AS fields,
             vnr, document_key, count(*)::int AS n
        FROM change_log GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
  };
}

describe('replay of the bundled corpus', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('ends with zero failures and stores every company', async () => {
    const summary = await replay(options(db));
    expect(summary.failed).toEqual([]);
    expect(summary.failures).toBe(0);
    const companies = readdirSync(join(CORPUS, 'firmenbuch/auszug')).length;
    expect(summary.companies).toBe(companies);
    expect(summary.companies).toBeGreaterThanOrEqual(30);
    expect(summary.filings).toBeGreaterThanOrEqual(8);
    expect(summary.changes).toBeGreaterThan(summary.companies);
  });

  it('stores every fixture filing with exactly its expected 47 figures (null stays null)', async () => {
    const expectedDir = join(CORPUS, 'firmenbuch/expected');
    const files = readdirSync(expectedDir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const file of files) {
      const key = file.replace(/\.json$/, '');
      const expected = JSON.parse(readFileSync(join(expectedDir, file), 'utf8')) as { documentDate: string; figures: Record<string, string | null> };
      const rows = await db.sql<{ key: string; value: string | null }[]>`
        SELECT f.key, CASE WHEN f.value = 'null'::jsonb THEN NULL ELSE f.value::text END AS value
          FROM annual_account a, jsonb_each(a.figures) f WHERE a.document_key = ${key}`;
      expect(rows.length, key).toBe(47);
      expect(Object.fromEntries(rows.map((r) => [r.key, r.value])), key).toEqual(expected.figures);
      const [filing] = await db.sql`SELECT to_char(document_date, 'YYYY-MM-DD') AS d FROM annual_account WHERE document_key = ${key}`;
      expect(filing!.d, key).toBe(expected.documentDate);
    }
  });

  it('writes no new change rows when the same corpus is replayed again', async () => {
    const before = await endState(db.sql);
    const summary = await replay(options(db));
    expect(summary.failures).toBe(0);
    expect(summary.changes).toBe(0);
    expect(await endState(db.sql)).toEqual(before);
  });

  it('reaches the same end state through 429s, 500s, timeouts and truncated bodies, without duplicate change rows', async () => {
    const faulty = await createTestDatabase();
    try {
      const summary = await replay(
        options(faulty, {
          faults: { seed: 7, rate429: 0.1, retryAfterSeconds: 1, rate500: 0.1, rateTimeout: 0.03, timeoutMs: 1500, rateTruncated: 0.1 },
          timeoutMs: 1000,
          backoffDelayMs: 50,
        }),
      );
      expect(summary.failed).toEqual([]);
      expect(await endState(faulty.sql)).toEqual(await endState(db.sql));
    } finally {
      await faulty.drop();
    }
  }, 240_000);

  it('retries 200 answers whose envelope is cut off part-way (5 %) and ends as a clean run, with no failed job', async () => {
    const cut = await createTestDatabase();
    try {
      const summary = await replay(options(cut, { faults: { seed: 11, rateCutOff: 0.05 }, backoffDelayMs: 20 }));
      expect(summary.failed).toEqual([]);
      expect(summary.sources.firmenbuch).toMatchObject({ jobsFailed: 0 });
      // The faults did happen: each cut-off answer cost its job a retry.
      expect(summary.sources.firmenbuch!.jobsRetried).toBeGreaterThan(0);
      expect(await endState(cut.sql)).toEqual(await endState(db.sql));
    } finally {
      await cut.drop();
    }
  }, 120_000);

  it('ends in the same state when a worker is killed mid-run and the run is started again', async () => {
    const killed = await createTestDatabase();
    const fake = await startFakeFirmenbuch({ corpus: CORPUS, port: 0 });
    const prefix = `kill-${randomBytes(4).toString('hex')}`;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', new URL('../helpers/pipelineChild.ts', import.meta.url).pathname], {
        env: { ...process.env, DATABASE_URL: killed.url, REDIS_URL: inject('redisUrl'), FIRMENBUCH_URL: fake.url, QUEUE_PREFIX: prefix, FIXTURES_DIR: CORPUS },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((ready, fail) => {
        child.stdout.on('data', (d: Buffer) => d.toString().includes('started') && ready());
        child.once('exit', (code) => fail(new Error(`worker exited early with ${code}`)));
      });
      // Kill it hard once part of the corpus is stored, with jobs still in flight.
      for (;;) {
        const [row] = await killed.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company`;
        if (row!.n >= 8) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const [partial] = await killed.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company`;
      expect(partial!.n).toBeLessThan(34);

      const summary = await replay(options(killed, { upstreams: { firmenbuch: { baseUrl: fake.url } }, prefix, resume: true, lockDurationMs: 2000, stalledIntervalMs: 1000 }));
      expect(summary.failed).toEqual([]);
      expect(await endState(killed.sql)).toEqual(await endState(db.sql));
    } finally {
      await fake.close();
      await killed.drop();
    }
  }, 120_000);
});

describe('the summary', () => {
  it('counts what the run fetched, not what the database held: a one-company fixture says 1 company', async () => {
    const db = await createTestDatabase();
    try {
      await replay(options(db));
      const [before] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM company`;
      expect(before!.n).toBeGreaterThan(30);
      const summary = await replay(options(db, { fixturesDir: MALFORMED }));
      // The fixture's one company is also in the bundled corpus: its valid filing is held already (not
      // fetched again, so not counted); the malformed one is new and fails.
      expect(summary).toMatchObject({ companies: 1, filings: 0, failures: 1 });
      expect(summary.sources.firmenbuch).toMatchObject({ companies: 1, filings: 0, documents: 0, jobsFailed: 1 });
      expect(summary.persons).toBeGreaterThan(0);
    } finally {
      await db.drop();
    }
  }, 60_000);
});

describe('a malformed filing', () => {
  it('fails alone, keeps its input on the failed job, and the rest of the run succeeds', async () => {
    const db = await createTestDatabase();
    const prefix = `malformed-${randomBytes(4).toString('hex')}`;
    const connection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    try {
      const summary = await replay(options(db, { fixturesDir: MALFORMED, prefix }));
      const manifest = JSON.parse(readFileSync(join(MALFORMED, 'manifest.json'), 'utf8')) as { firmenbuch: { malformedDocuments: string[] } };
      const [badKey] = manifest.firmenbuch.malformedDocuments;
      expect(summary.failures).toBe(1);
      expect(summary.failed[0]).toMatchObject({ job: 'firmenbuch.annualAccount', id: `annualAccount.${badKey}` });
      expect(summary.failed[0]!.reason).toMatch(/does not parse/);
      // The run's other work is done: the company and its valid filing are stored.
      expect(summary.companies).toBe(1);
      expect(summary.filings).toBe(1);
      const queue = new Queue('firmenbuch', { connection, prefix });
      const [failedJob] = await queue.getFailed();
      expect(failedJob!.attemptsMade).toBe(1);
      expect(failedJob!.data).toMatchObject({ documentKey: badKey, failure: { name: 'UnrecoverableInputError' } });
      expect(failedJob!.data.rawInput).toMatch(/^<\?xml/);
      const [stored] = await db.sql`SELECT content IS NOT NULL AS kept FROM document WHERE document_key = ${badKey!}`;
      expect(stored!.kept).toBe(true);
      await queue.obliterate({ force: true });
      await queue.close();
    } finally {
      connection.disconnect();
      await db.drop();
    }
  });
});
