// Issue 22 for the Ediktsdatei's IWG client (JSON), as hostileUpstream.test.ts holds it for the
// Firmenbuch: each hostile answer is served by a local HTTP server to the real client and must end as
// the error class that decides its fate in the job runner:
//   - 100k-deep nested arrays or objects, as an edict or a view page, and an HTML page that is not the
//     login form, are unreadable content (IwgContentError: fail at once, never retried);
//   - HTML with a 5xx, and a slowloris answer ending at the timeout, are transport faults (retried);
//   - an endless body stops at the limit (UpstreamBodyTooLargeError, not retried).
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IwgAuthenticationError, IwgClient } from '../../pipeline/edikte/iwgClient.js';
import { IwgContentError } from '../../pipeline/edikte/iwgParser.js';
import { isUnrecoverable, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';
import { MiB, UpstreamBodyTooLargeError } from '../../pipeline/upstream/bodyLimit.js';
import { endless, expectStoppedNearLimit, startHostileServer, uncaughtDuring, type HostileServer } from '../helpers/hostileServer.js';

const LIMIT = 2 * MiB;
const UNID = '0123456789ABCDEF0123456789ABCDEF';
const DEPTH = 100_000;

let server: HostileServer;
/** Requests the client sent in the current test. */
let requests = 0;
beforeAll(async () => {
  server = await startHostileServer();
});
afterEach(() => {
  server.reset();
  requests = 0;
});
afterAll(() => server.close());

function serve(body: string, status = 200, type = 'application/json'): void {
  server.answer = (_req, res) => {
    requests++;
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  };
}

/** Runs one call of a fresh client and returns what it threw (null when it did not). */
async function failure(call: (c: IwgClient) => Promise<unknown>, timeoutMs = 5000): Promise<unknown> {
  const c = new IwgClient({ baseUrl: server.url, user: 'u', password: 'p', timeoutMs, maxBodyBytes: LIMIT });
  try {
    return await call(c).then(() => null, (e: unknown) => e);
  } finally {
    c.close();
  }
}
const page = (c: IwgClient) => c.viewPage('All', 0);
const doc = (c: IwgClient) => c.document(UNID);

describe('100k-deep nesting fails at once as unreadable content (no stack overflow, no retry)', () => {
  const arrays = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
  const objects = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
  it.each([
    ['an edict of nested arrays', doc, arrays, /not a JSON object/],
    ['an edict of nested objects', doc, objects, /no AZKey/],
    // Read as an empty (so last) page before issue 22: an array is no view entry.
    ['a view page of nested arrays', page, arrays, /view entry is not an object/],
    ['a view page of nested objects', page, objects, /not a JSON array/],
  ])('%s', async (_what, call, body, reason) => {
    const uncaught = await uncaughtDuring(async () => {
      serve(body);
      const started = performance.now();
      const err = await failure(call);
      expect(err).toBeInstanceOf(IwgContentError);
      expect(isUnrecoverable(err)).toBe(true);
      expect((err as Error).message).toMatch(reason);
      // The raw input kept on the job is redacted whole (its structure is too deep to walk).
      expect((err as IwgContentError).rawInput).toHaveLength(body.length);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(requests).toBe(1);
    });
    expect(uncaught).toEqual([]);
  });
});

describe('HTML instead of JSON', () => {
  const maintenance = '<!DOCTYPE html><html><head><title>Wartung</title></head><body><h1>Wartungsarbeiten</h1></body></html>';

  it('an HTML page with 200 that is not the login form fails at once as unreadable content', async () => {
    for (const type of ['text/html; charset=UTF-8', 'application/json']) {
      serve(maintenance, 200, type);
      for (const call of [page, doc]) {
        const err = await failure(call);
        expect(err).toBeInstanceOf(IwgContentError);
        expect(isUnrecoverable(err)).toBe(true);
        expect((err as Error).message).toMatch(/is not JSON/);
      }
    }
  });

  it('Domino\'s login form with 200 stays an authentication error (the queue pauses)', async () => {
    serve(readFileSync(new URL('../../fixtures/edikte/login-form.html', import.meta.url), 'utf8'), 200, 'text/html; charset=UTF-8');
    const err = await failure(page);
    expect(err).toBeInstanceOf(IwgAuthenticationError);
    expect(isUnrecoverable(err)).toBe(false);
  });

  it('an HTML page with a 5xx is a retryable transport fault', async () => {
    for (const status of [500, 502, 503]) {
      serve(maintenance, status, 'text/html');
      for (const call of [page, doc]) {
        const err = await failure(call);
        expect(err).toBeInstanceOf(UpstreamUnavailableError);
        expect(isUnrecoverable(err)).toBe(false);
        expect(err).toMatchObject({ upstream: 'edikte', status });
      }
    }
  });
});

describe('endless and slow answers', () => {
  it.each([['view', page, '{"@entryid":"1"},'], ['document', doc, '"a",']] as const)(
    'an endless %s stops at the limit, unrecoverable, without an uncaught error', async (operation, call, chunk) => {
      const uncaught = await uncaughtDuring(async () => {
        const start = operation === 'view' ? '[' : '{"@form":"Edikt","Bausteine":[';
        server.answer = (_req, res) => endless(server, res, Buffer.from(chunk.repeat(Math.ceil(65_536 / chunk.length))), start, { 'Content-Type': 'application/json' });
        const heapBefore = process.memoryUsage().heapUsed;
        const err = await failure(call);
        expect(err).toBeInstanceOf(UpstreamBodyTooLargeError);
        expect(isUnrecoverable(err)).toBe(true);
        expect(err).toMatchObject({ upstream: 'edikte', operation, limitBytes: LIMIT });
        await expectStoppedNearLimit(server, LIMIT, heapBefore);
      });
      expect(uncaught).toEqual([]);
    });

  it('an answer trickling a byte at a time ends at the timeout, as a retryable transport fault', async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
      res.on('close', () => clearInterval(timer));
    };
    const started = performance.now();
    const err = await failure(page, 1000);
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(isUnrecoverable(err)).toBe(false);
    expect((err as Error).message).toMatch(/Ediktsdatei view failed: no complete answer within 1000 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(3000);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.open.size).toBe(0);
  });
});
