// Issue 22 for the BMF list download (pipeline/bmf/lsuClient.ts and the poll handler), as
// hostileUpstream.test.ts holds it for the Firmenbuch: each hostile answer is served by a local HTTP
// server to the real client and poll handler, with a stand-in database that records what is sent to it:
//   - HTML instead of the list has no `Stand:` footer: retried as a cut-off body (UpstreamUnavailableError)
//     and refused on the last attempt (LsuRefusedError, no-footer); HTML ending in a footer line is
//     refused at once (unreadable). Either way nothing is applied;
//   - HTML with a 5xx, and a slowloris answer ending at the timeout, are transport faults (retried);
//   - an endless body stops at the limit (UpstreamBodyTooLargeError; the poll refuses it: too-large).
import type { Job } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bmfHandlers, LsuRefusedError } from '../../pipeline/bmf/bmfJobs.js';
import { LsuClient } from '../../pipeline/bmf/lsuClient.js';
import { isUnrecoverable, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';
import type { RegisterRunReport } from '../../pipeline/register.js';
import { MiB, UpstreamBodyTooLargeError } from '../../pipeline/upstream/bodyLimit.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { endless, expectStoppedNearLimit, startHostileServer, uncaughtDuring, type HostileServer } from '../helpers/hostileServer.js';

const LIMIT = 2 * MiB;
const ATTEMPTS = 8;
const HTML = '<!DOCTYPE html>\r\n<html><head><title>Wartung</title></head>\r\n<body><h1>Wartungsarbeiten</h1></body>\r\n</html>\r\n';

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

function serve(body: string, status = 200, type = 'text/html; charset=ISO-8859-1'): void {
  server.answer = (_req, res) => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(Buffer.from(body, 'latin1'));
  };
}

const client = (timeoutMs = 5000) => new LsuClient({ url: `${server.url}/service/allg/lsu/__Gen_Csv.asp`, timeoutMs, maxBodyBytes: LIMIT });

interface Poll {
  error: unknown;
  /** The statements sent to the stand-in database, and whether a transaction (the apply) was begun. */
  statements: string[];
  began: boolean;
  runs: RegisterRunReport[];
}

/** One poll through the real handler; `attemptsMade` of ATTEMPTS decides whether a footerless body is retried. */
async function poll(attemptsMade = 0, c = client()): Promise<Poll> {
  const result: Poll = { error: null, statements: [], began: false, runs: [] };
  const sql = Object.assign((parts: TemplateStringsArray) => (result.statements.push(parts.join('?')), Promise.resolve([])), {
    json: (v: unknown) => v,
    begin: () => ((result.began = true), Promise.reject(new Error('the list must not be applied'))),
  }) as unknown as Sql;
  const handlers = bmfHandlers({ sql, client: c, enqueue: async () => undefined, log: createLogger('silent'), onRun: (e) => result.runs.push(e) });
  const job = { attemptsMade, opts: { attempts: ATTEMPTS } } as unknown as Job;
  await handlers.poll({}, job).catch((e: unknown) => void (result.error = e));
  return result;
}

/** Nothing but reading the list state, and (when refused) recording the refusal, reached the database. */
function expectNothingApplied(p: Poll, refused: boolean): void {
  expect(p.began).toBe(false);
  expect(p.statements.some((s) => /bogus_company_listing/.test(s))).toBe(false);
  expect(p.statements.filter((s) => /INSERT INTO crawl_state/.test(s))).toHaveLength(refused ? 1 : 0);
}

describe('HTML instead of the list', () => {
  it('the client hands it over as text; without its Stand: footer the poll retries it, then refuses it', async () => {
    serve(HTML);
    const got = await client().fetchList();
    expect(got).toMatchObject({ status: 'ok', text: HTML });

    const early = await poll(0);
    expect(early.error).toBeInstanceOf(UpstreamUnavailableError);
    expect(isUnrecoverable(early.error)).toBe(false);
    expect((early.error as Error).message).toMatch(/ends without its Stand: footer/);
    expect(early.runs).toEqual([]);
    expectNothingApplied(early, false);

    const last = await poll(ATTEMPTS - 1);
    expect(last.error).toBeInstanceOf(LsuRefusedError);
    expect(isUnrecoverable(last.error)).toBe(true);
    expect(last.error).toMatchObject({ reason: 'no-footer', rawInput: HTML });
    expect(last.runs).toEqual([{ outcome: 'refused', reason: 'no-footer' }]);
    expectNothingApplied(last, true);
  });

  it('HTML that happens to end in a Stand: line is refused at once as unreadable', async () => {
    serve(`${HTML}Stand: 15.10.2026 06:00:02\r\n`);
    const p = await poll(0);
    expect(p.error).toBeInstanceOf(LsuRefusedError);
    expect(isUnrecoverable(p.error)).toBe(true);
    expect(p.error).toMatchObject({ reason: 'unreadable', message: expect.stringMatching(/unexpected header/) });
    expectNothingApplied(p, true);
  });

  it('HTML with a 5xx is a retryable transport fault', async () => {
    for (const status of [500, 503]) {
      serve(HTML, status);
      const err = await client().fetchList().then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamUnavailableError);
      expect(isUnrecoverable(err)).toBe(false);
      expect(err).toMatchObject({ upstream: 'bmf', status });
      const p = await poll(0);
      expect(p.error).toBeInstanceOf(UpstreamUnavailableError);
      expectNothingApplied(p, false);
    }
  });
});

describe('endless and slow answers', () => {
  it('an endless list stops at the limit, unrecoverable, and the poll refuses it (too-large)', async () => {
    const uncaught = await uncaughtDuring(async () => {
      server.answer = (_req, res) => endless(server, res, Buffer.alloc(64 * 1024, 'a'), 'Name~ Anschrift~\r\n', { 'Content-Type': 'text/csv' });
      const heapBefore = process.memoryUsage().heapUsed;
      const err = await client().fetchList().then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamBodyTooLargeError);
      expect(isUnrecoverable(err)).toBe(true);
      expect(err).toMatchObject({ upstream: 'bmf', operation: 'list', limitBytes: LIMIT });
      await expectStoppedNearLimit(server, LIMIT, heapBefore);
      const p = await poll(0);
      expect(p.error).toBeInstanceOf(LsuRefusedError);
      expect(p.error).toMatchObject({ reason: 'too-large' });
      expect(isUnrecoverable(p.error)).toBe(true);
      expectNothingApplied(p, true);
    });
    expect(uncaught).toEqual([]);
  });

  it('a list trickling a byte at a time ends at the timeout, as a retryable transport fault', async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.write('Name~');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
      res.on('close', () => clearInterval(timer));
    };
    const started = performance.now();
    const p = await poll(0, client(1000));
    const elapsed = performance.now() - started;
    expect(p.error).toBeInstanceOf(UpstreamUnavailableError);
    expect(isUnrecoverable(p.error)).toBe(false);
    expect((p.error as Error).message).toMatch(/BMF list download failed: .*(timeout|aborted)/i);
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(3000);
    expectNothingApplied(p, false);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.open.size).toBe(0);
  });
});
