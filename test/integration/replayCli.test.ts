// `npm run replay` as an operator runs it: --upstream against a register whose changes are recent
// ingests them (the default window is the last 7 days up to today), --from/--to name another window,
// --backfill walks the whole register, and an unknown --sources name is a usage error (exit 2).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays } from '../../pipeline/firmenbuch/changeWindows.js';
import { loadFirmenbuchCorpus, type FirmenbuchCorpus } from '../../pipeline/firmenbuch/fake/corpus.js';
import { startFakeFirmenbuch, type FakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
const CLI = new URL('../../runtime/cli/replay.ts', import.meta.url).pathname;
const GENERIC = new Set(['Neueintragung', 'Änderung', 'Löschung']);
const today = new Date().toISOString().slice(0, 10);

let corpus: FirmenbuchCorpus;
let fake: FakeFirmenbuch;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runReplay(args: string[], db?: TestDatabase): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: {
      ...process.env, LOG_LEVEL: 'error', DATABASE_URL: db?.url ?? 'postgres://nobody@127.0.0.1:1/none', REDIS_URL: inject('redisUrl'),
      // The live default of FIRMENBUCH_URL is the real register: every run here names its upstream.
      // The fake takes any rate: the register's own 10 requests a second would make this a minute.
      FIRMENBUCH_URL: 'http://127.0.0.1:9/', FIRMENBUCH_RATE_PER_SECOND: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

function summaryOf(run: Run): { companies: number; failures: number; sources: Record<string, Record<string, number>> } {
  const last = run.stdout.trim().split('\n').pop()!;
  return JSON.parse(last) as ReturnType<typeof summaryOf>;
}

async function storedCompanies(db: TestDatabase): Promise<string[]> {
  return (await db.sql<{ fnr: string }[]>`SELECT fnr FROM company ORDER BY fnr`).map((r) => r.fnr);
}

/** Companies the fake's feed names between `from` and `to` (generic kinds, as an unfiltered request gets them). */
function changedBetween(from: string, to: string): string[] {
  const shift = Math.round((Date.parse(today) - Date.parse(corpus.manifest.firmenbuch.changesTo)) / 86_400_000);
  const fnrs = corpus.companyChanges
    .filter((c) => GENERIC.has(c.kindText) && c.executedOn !== null)
    .filter((c) => {
      const day = addDays(c.executedOn!.slice(0, 10), shift);
      return day >= from && day <= to;
    })
    .map((c) => c.fnr);
  return [...new Set(fnrs)].sort();
}

/** Runs `body` on a database of its own, dropped afterwards. */
async function withDatabase(body: (db: TestDatabase) => Promise<void>): Promise<void> {
  const db = await createTestDatabase();
  try {
    await body(db);
  } finally {
    await db.drop();
  }
}

beforeAll(async () => {
  corpus = await loadFirmenbuchCorpus(CORPUS);
  // The bundled corpus as a live register would serve it: its latest change is today.
  fake = await startFakeFirmenbuch({ corpus: CORPUS, port: 0, changesEndOn: today });
});
afterAll(() => fake.close());

describe('npm run replay', () => {
  it('refuses an unknown source with exit 2, naming the known ones', async () => {
    const run = await runReplay(['--sources', 'firmenbuch,nosuch']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown source nosuch; known sources: firmenbuch');
  });

  it('--upstream URL ingests the changes of the last 7 days up to today', () =>
    withDatabase(async (db) => {
      const run = await runReplay(['--upstream', fake.url, '--json'], db);
      expect(run.stderr).not.toMatch(/error/i);
      expect(run.code).toBe(0);
      const expected = changedBetween(addDays(today, -6), today);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(corpus.companies.size);
      expect(await storedCompanies(db)).toEqual(expected);
      const summary = summaryOf(run);
      expect(summary.failures).toBe(0);
      expect(summary.sources.firmenbuch!.companies).toBe(expected.length);
    }), 60_000);

  it('--live --from --to ingests exactly that window', () =>
    withDatabase(async (db) => {
      const [from, to] = [addDays(today, -20), addDays(today, -10)];
      const run = await runReplay(['--sources', 'firmenbuch', '--live', '--from', from, '--to', to, '--json', '--upstream', fake.url], db);
      expect(run.code).toBe(0);
      const expected = changedBetween(from, to);
      expect(expected.length).toBeGreaterThan(0);
      expect(await storedCompanies(db)).toEqual(expected);
    }), 60_000);

  it('--backfill walks the whole register by SUCHEFIRMA, whatever the feeds say', () =>
    withDatabase(async (db) => {
      const run = await runReplay(['--upstream', fake.url, '--backfill', '--json'], db);
      expect(run.code).toBe(0);
      expect(await storedCompanies(db)).toEqual([...corpus.companies.keys()].sort());
      expect(summaryOf(run).sources.firmenbuch!.jobsFailed).toBe(0);
    }), 90_000);

  it('refuses a malformed date and --backfill with a window', async () => {
    const bad = await runReplay(['--live', '--from', '2026-13-01', '--to', '2026-12-02']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--from takes a date YYYY-MM-DD');
    const both = await runReplay(['--live', '--backfill', '--from', '2026-11-01', '--to', '2026-11-02']);
    expect(both.code).toBe(2);
  });
});
