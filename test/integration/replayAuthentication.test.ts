// A replay against an upstream that refuses our credentials ends at once with the reason (exit 1 from
// `npm run replay`), instead of pausing the queue as the service does and waiting for an operator:
// the Ediktsdatei's login form (HTTP 200 HTML) with a wrong password, live and from the fixtures.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { edikte } from '../../pipeline/edikte/index.js';
import { startFakeIwg, type FakeIwg } from '../../pipeline/edikte/fake/fakeIwg.js';
import { UpstreamAuthenticationError } from '../../pipeline/jobs/errors.js';
import { replay } from '../../pipeline/replay/replay.js';
import { createLogger } from '../../runtime/logger.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = resolve(import.meta.dirname, '../../fixtures/corpus');
const CLI = resolve(import.meta.dirname, '../../runtime/cli/replay.ts');

let db: TestDatabase;
let fake: FakeIwg;
beforeAll(async () => {
  db = await createTestDatabase();
  fake = await startFakeIwg({ corpus: resolve(CORPUS, 'edikte'), credentials: { user: 'iwg', password: 'richtig' }, now: '2026-11-21' });
});
afterAll(async () => {
  await fake.close();
  await db.drop();
});

describe('a replay whose upstream refuses the login', () => {
  it('rejects with the authentication error within seconds', async () => {
    const started = Date.now();
    const err = await replay({
      sql: db.sql, redisUrl: inject('redisUrl'), log: createLogger('silent'), registers: [edikte], fixturesDir: CORPUS,
      prefix: `auth-${randomBytes(4).toString('hex')}`, upstreams: { edikte: { baseUrl: fake.url, credentials: { user: 'iwg', password: 'falsch' } } },
    }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamAuthenticationError);
    expect((err as Error).message).toMatch(/Ediktsdatei refused the login \(it answered its login form\): check EDIKTE_USER and EDIKTE_PASSWORD/);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('npm run replay -- --sources edikte --live exits 1 with the reason in one line', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--sources', 'edikte', '--live'], {
      env: {
        ...process.env, LOG_LEVEL: 'fatal', DATABASE_URL: db.url, REDIS_URL: inject('redisUrl'),
        EDIKTE_URL: fake.url, EDIKTE_USER: 'iwg', EDIKTE_PASSWORD: 'falsch',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => void child.kill());
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('replay:') && !l.startsWith('['));
    expect(lines).toEqual(['Ediktsdatei refused the login (it answered its login form): check EDIKTE_USER and EDIKTE_PASSWORD']);
  }, 60_000);
});
