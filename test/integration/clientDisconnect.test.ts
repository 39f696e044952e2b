// Issue 22 finding 7: a client that goes away in the middle of its request body is not a fault of
// the service: it is logged at debug (with the correlation id), never at error as "unhandled error".
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountWithKey } from '../helpers/apiAccess.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

interface LogLine { level: number; msg: string; correlationId?: string; path?: string }
const lines: LogLine[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
    done();
  },
});

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await startTestApi({ app: { log: pino({ level: 'debug' }, sink) } });
  key = (await accountWithKey(api.db.sql, 'api')).key;
});
afterAll(() => api.close());
beforeEach(() => void (lines.length = 0));

/** Sends the head and part of a body of `declared` bytes, then drops the connection. */
async function cutOff(path: string, headers: Record<string, string>, declared: number, part: string): Promise<void> {
  const url = new URL(api.http.baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  await new Promise((ready) => socket.once('connect', ready));
  const head = Object.entries({ host: 'localhost', ...headers, 'content-length': String(declared) }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${part}`);
  await new Promise((r) => setTimeout(r, 150));
  socket.destroy();
}

/** Waits until a line matching `msg` was logged (or a second has passed). */
async function logged(msg: RegExp): Promise<LogLine | undefined> {
  for (let i = 0; i < 50; i++) {
    const line = lines.find((l) => msg.test(l.msg));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

describe('a client that disconnects mid-body', () => {
  it('is logged at debug with its correlation id and path, and nothing at warn or above', async () => {
    await cutOff('/api/v1/lists', { 'x-api-key': key, 'content-type': 'application/json', 'x-correlation-id': 'cut-off-1' }, 1000, '{"name":"');
    const line = await logged(/went away before its request body was complete/);
    expect(line).toMatchObject({ level: 20, correlationId: 'cut-off-1', path: '/api/v1/lists' });
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    // The API goes on answering.
    expect((await api.http.get('/api/v1/oenace', { 'x-api-key': key })).status).toBe(200);
  });

  it('on a form route (OAuth token endpoint) logs nothing at warn or above either', async () => {
    await cutOff('/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' }, 500, 'grant_type=auth');
    await new Promise((r) => setTimeout(r, 300));
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });
});
