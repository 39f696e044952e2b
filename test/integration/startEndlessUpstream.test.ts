// Issue 22 acceptance: `npm start` with FIRMENBUCH_URL at a server whose answers never end keeps
// answering API requests. Before the body limit, the first change-feed poll read an endless answer
// into one string until V8 refused it (ERR_STRING_TOO_LONG, uncaught), and the API, in the same
// process with the default roles, died with the pipeline.
//
// The service runs as `npm start` runs it (tsx runtime/cli/start.ts, every role) on a database of its
// own and on Redis database 14 of the test Redis (emptied before and after: the pipeline's queues
// use fixed names). The minute is shortened to SURVIVE_MS of serving after the poll hit the
// endless answer several times.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { accountWithKey } from '../helpers/apiAccess.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const SURVIVE_MS = 15_000;
const REDIS_DB = 14;

let db: TestDatabase;
let upstream: Server;
let service: ChildProcess;
let baseUrl: string;
let redis: Redis;
const served = { requests: 0, bytes: 0 };
const output: string[] = [];

function redisUrl(): string {
  const url = new URL(inject('redisUrl'));
  url.pathname = `/${REDIS_DB}`;
  return url.toString();
}

/** Answers every request with 200 and a body that never ends (as fast as the client reads). */
async function startEndlessUpstream(): Promise<string> {
  const chunk = Buffer.alloc(64 * 1024, ' ');
  upstream = createServer((req, res) => {
    served.requests++;
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/soap+xml' });
    res.write('<?xml version="1.0"?><S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Body>');
    const pump = () => {
      while (!res.destroyed) {
        served.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((ready) => upstream.listen(0, '127.0.0.1', () => ready()));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  db = await createTestDatabase();
  redis = new Redis(redisUrl());
  await redis.flushdb();
  const firmenbuchUrl = await startEndlessUpstream();
  const nowhere = 'http://127.0.0.1:9/';
  service = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'runtime/cli/start.ts'], {
    env: {
      ...process.env, DATABASE_URL: db.url, REDIS_URL: redisUrl(), PORT: '0', LOG_LEVEL: 'warn', ELASTICSEARCH_URL: '', METRICS_TOKEN: 'scrape-secret',
      FIRMENBUCH_URL: firmenbuchUrl, GISA_URL: nowhere, EDIKTE_URL: nowhere, BMF_LSU_URL: nowhere,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = (stream: NodeJS.ReadableStream) => createInterface({ input: stream }).on('line', (line) => output.push(line));
  lines(service.stdout!);
  lines(service.stderr!);
  baseUrl = await new Promise<string>((ready, fail) => {
    service.once('exit', (code, signal) => fail(new Error(`npm start exited (${code ?? signal}):\n${output.slice(-20).join('\n')}`)));
    const timer = setInterval(() => {
      const line = output.find((l) => l.startsWith('API: '));
      if (line) {
        clearInterval(timer);
        ready(line.slice('API: '.length).replace('localhost', '127.0.0.1'));
      }
    }, 100);
  });
}, 90_000);

afterAll(async () => {
  if (service && service.exitCode === null && service.signalCode === null) {
    const exited = new Promise((done) => service.once('exit', done));
    service.kill('SIGTERM');
    await exited;
  }
  await redis?.flushdb();
  redis?.disconnect();
  await new Promise<void>((done) => (upstream ? upstream.close(() => done()) : done()));
  upstream?.closeAllConnections();
  await db?.drop();
}, 60_000);

const alive = () => service.exitCode === null && service.signalCode === null;

it('npm start keeps answering API requests while every Firmenbuch answer is endless', async () => {
  const key = (await accountWithKey(db.sql, 'api')).key;
  const origin = baseUrl.replace('/api/v1', '');
  // The change-feed polls run at start: wait until both feeds have met the endless answer.
  const until = Date.now() + 60_000;
  while (served.requests < 2 && Date.now() < until && alive()) await new Promise((r) => setTimeout(r, 200));
  expect(served.requests).toBeGreaterThanOrEqual(2);

  const statuses: number[] = [];
  const ends = Date.now() + SURVIVE_MS;
  while (Date.now() < ends) {
    expect(alive(), output.slice(-20).join('\n')).toBe(true);
    statuses.push((await fetch(`${origin}/health`)).status);
    const res = await fetch(`${baseUrl}/courts`, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    statuses.push(res.status);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(new Set(statuses)).toEqual(new Set([200]));

  // Each endless answer was cut at the body limit and failed its job at once: nothing was retried on it.
  const metrics = await (await fetch(`${origin}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } })).text();
  const failed = /pipeline_jobs_total\{register="firmenbuch",job="firmenbuch\.(?:company|document)Changes",outcome="failed"\} (\d+)/g;
  expect([...metrics.matchAll(failed)].reduce((n, m) => n + Number(m[1]), 0)).toBeGreaterThanOrEqual(1);
  expect(metrics).not.toMatch(/pipeline_jobs_total\{register="firmenbuch",job="firmenbuch\.(?:company|document)Changes",outcome="retry"\}/);
  expect(served.bytes).toBeGreaterThan(32 * 1024 * 1024);
  expect(output.join('\n')).not.toMatch(/ERR_STRING_TOO_LONG|uncaught error/);
}, 120_000);
