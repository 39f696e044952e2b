// Commands behave like commands (issue 23.12, 23.13): every one answers --help with its usage and
// exit 0; an unknown flag, a missing fixture directory or a database that does not exist is one line
// plus the usage (exit 2), never a stack trace; an old camelCase flag still works with a warning;
// `.env` is read; and `npm start` in a terminal refuses to crawl the real registers without --yes.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { createTestDatabase } from '../helpers/testDatabase.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const COMMANDS = [
  ...['replay', 'admin', 'backfill', 'migrate', 'reindex', 'reparse', 'demo', 'start', 'schemaDump', 'oenaceCalibrate'].map((c) => `runtime/cli/${c}.ts`),
  'bench/readBench.ts', 'bench/ingestBench.ts', 'bench/apiBench.ts', 'bench/oenaceBench.ts', 'test/fuzz/fuzzCli.ts', 'pipeline/edikte/fake/fakeIwgCli.ts', 'pipeline/bmf/fake/fakeLsuCli.ts',
];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, file), ...args], {
    cwd, env: { ...process.env, LOG_LEVEL: 'error', REDIS_URL: inject('redisUrl'), ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m);

describe('command lines', () => {
  it.each(COMMANDS)('%s --help prints its usage and exits 0', async (command) => {
    const res = await run(command, ['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^usage:\s+npm (run |start)/);
  });

  it.each(COMMANDS)('%s refuses an unknown flag in one line plus the usage, exit 2', async (command) => {
    const res = await run(command, ['--no-such-flag']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Unknown option '--no-such-flag'[^\n]*\nusage:/);
    noStack(res.stderr);
  });

  it.each([
    'pipeline/firmenbuch/fake/fakeUpstreamCli.ts', 'pipeline/gisa/fake/fakeGisaCli.ts', 'pipeline/edikte/fake/fakeIwgCli.ts', 'pipeline/bmf/fake/fakeLsuCli.ts',
  ])('%s: a missing fixture directory is one line and the usage, exit 2', async (cli) => {
    const res = await run(cli, ['--fixtures', '/no/such/dir']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^--fixtures: no directory \/no\/such\/dir\nusage:/);
    noStack(res.stderr);
  });

  it('fake-upstream answers --help and refuses an unknown flag the same way', async () => {
    expect((await run('pipeline/firmenbuch/fake/fakeUpstreamCli.ts', ['--help'])).code).toBe(0);
    const bad = await run('pipeline/firmenbuch/fake/fakeUpstreamCli.ts', ['--nope']);
    expect(bad.code).toBe(2);
    noStack(bad.stderr);
  });

  it.each([
    { cli: 'pipeline/edikte/fake/fakeIwgCli.ts', path: '/collections/name/All?ps=100&page=0&sortcolumn=AZKey', has: '"@form":"Edikt"' },
    { cli: 'pipeline/bmf/fake/fakeLsuCli.ts', path: '', has: 'Stand:' },
  ])('$cli serves the bundled fixtures without flags and prints its URL', async ({ cli, path, has }) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, cli), '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => void child.kill('SIGTERM'));
    const url = await new Promise<string>((done) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) done(out.split('\n')[0]!);
      });
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const body = Buffer.from(await (await fetch(url + path)).arrayBuffer()).toString('latin1');
    expect(body).toContain(has);
  });

  it('replay: a missing fixture directory is one line and the usage, exit 2', async () => {
    const res = await run('runtime/cli/replay.ts', ['--fixtures', '/no/such/dir']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('replay: no fixture directory /no/such/dir');
    noStack(res.stderr);
  });

  it('replay: an old camelCase flag works with a warning', async () => {
    // Parsing stops at the unknown source, after the flag was read: the warning is what matters.
    const res = await run('runtime/cli/replay.ts', ['--rateTimeout', '0.1', '--sources', 'nosuch']);
    expect(res.stderr).toContain('warning: --rateTimeout is now spelled --rate-timeout');
    expect(res.code).toBe(2);
  });

  it('a database that does not exist is one line, exit 2', async () => {
    const server = new URL(inject('postgresServerUrl'));
    server.pathname = '/no_such_database_here';
    const res = await run('runtime/cli/migrate.ts', [], { DATABASE_URL: server.toString() });
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/database: .*no_such_database_here.*check DATABASE_URL/);
  });

  it('reads .env of the working directory; variables already set win', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dotenv-'));
    try {
      await writeFile(join(dir, '.env'), 'DATABASE_URL=postgres://nobody@127.0.0.1:1/from_dotenv\nLOG_LEVEL=error\nPORT=not-a-port\n');
      const env = { ...process.env, PORT: '8080' } as Record<string, string>;
      delete env.DATABASE_URL;
      // tsx by its path: the directory has no node_modules to find it in.
      const tsx = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
      const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'runtime/cli/migrate.ts')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise((done) => child.once('exit', done));
      // The URL from .env was the one tried: nothing listens on port 1.
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/127\.0\.0\.1:1|ECONNREFUSED/);
      // PORT was set in the environment: the .env value (not a port) was not read over it.
      expect(stderr).not.toContain('PORT');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('npm start in a terminal refuses to crawl the real registers without --yes', async () => {
    // `script` gives the command a terminal; the registers' URLs are left at their real defaults.
    const db = await createTestDatabase();
    const env = { ...process.env, LOG_LEVEL: 'error', SERVICE_ROLES: 'pipeline', DATABASE_URL: db.url, REDIS_URL: inject('redisUrl') } as Record<string, string>;
    delete env.FIRMENBUCH_URL;
    onTestFinished(() => db.drop());
    const child = spawn('script', ['-qec', `${process.execPath} --import tsx ${join(ROOT, 'runtime/cli/start.ts')}`, '/dev/null'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).toBe(2);
    expect(out).toContain('npm start would crawl the real registers (firmenbuch at https://justizonline.gv.at');
    expect(out).toContain('--yes');
  }, 30_000);
});
