// Issue 22: a hostile or broken Firmenbuch answer fails its job cleanly, with bounded memory, and
// nothing of it escapes as an uncaught error. Each answer is served by a local HTTP server and goes
// through the real client, handlers and job runner:
//   - endless and oversized bodies stop at the operation's limit (a document has a larger one than an
//     extract), and fail the job at once with the reason;
//   - entity expansion and external entities (DTDs), 100k-deep nesting and HTML instead of SOAP fail
//     the job at once as unreadable input;
//   - a slowloris answer (a byte now and then) ends at the timeout as a retryable transport fault.
import type { ServerResponse } from 'node:http';
import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { firmenbuchHandlers } from '../../pipeline/firmenbuch/firmenbuchJobs.js';
import { isUnrecoverable, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';
import { jobProcessor } from '../../pipeline/jobs/runJob.js';
import { MiB, UpstreamBodyTooLargeError } from '../../pipeline/upstream/bodyLimit.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { endless as endlessBody, expectStoppedNearLimit, startHostileServer, uncaughtDuring, type HostileServer } from '../helpers/hostileServer.js';

const ENVELOPE_START = '<?xml version="1.0" encoding="UTF-8"?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>' +
  '<ns:AUSZUG_V2_RESPONSE xmlns:ns="ns://firmenbuch.justiz.gv.at/Abfrage/v2/AuszugResponse">';
const ENVELOPE_END = '</ns:AUSZUG_V2_RESPONSE></S:Body></S:Envelope>';

let server: HostileServer;
let baseUrl: string;
/** How the server answers the current test's requests. */
let answer: HostileServer['answer'];

beforeAll(async () => {
  server = await startHostileServer();
  server.answer = (req, res) => answer(req, res);
  baseUrl = server.url;
});
afterEach(() => server.reset());
afterAll(() => server.close());

const endless = (res: ServerResponse, chunk: Buffer) => endlessBody(server, res, chunk, ENVELOPE_START);

function soap(res: ServerResponse, body: string, status = 200, type = 'text/xml'): void {
  res.writeHead(status, { 'Content-Type': type });
  res.end(body);
}

const client = (options: Partial<ConstructorParameters<typeof FirmenbuchClient>[0]> = {}) =>
  new FirmenbuchClient({ baseUrl, timeoutMs: 5000, maxBodyBytes: 2 * MiB, maxDocumentBytes: 8 * MiB, ...options });

interface JobRun {
  error: unknown;
  /** What the runner wrote onto the job when it failed it for good. */
  stored: Record<string, unknown> | null;
}

/** Statements the handlers sent to the stand-in database (the fetch fails first: only bookkeeping reaches it). */
let statements: string[] = [];

/** Runs one Firmenbuch job through the real runner and handlers. */
async function runJob(name: 'company' | 'annualAccount' | 'companyChanges', data: Record<string, unknown>, c = client()): Promise<JobRun> {
  statements = [];
  const database = ((parts: TemplateStringsArray) => {
    statements.push(parts.join('?'));
    return Promise.resolve([]);
  }) as unknown as Sql;
  const handlers = firmenbuchHandlers({ sql: database, client: c, enqueue: async () => undefined, log: createLogger('silent') });
  const processor = jobProcessor({
    register: firmenbuch, handlers: handlers as never, queue: { rateLimit: async () => undefined } as unknown as Queue, log: createLogger('silent'),
  });
  let stored: Record<string, unknown> | null = null;
  const job = {
    name: firmenbuch.jobs[name].name, data, id: `test.${name}`, opts: { attempts: 8 }, attemptsMade: 0,
    updateData: async (d: Record<string, unknown>) => void (stored = d),
  } as unknown as Job;
  try {
    await processor(job);
    return { error: null, stored };
  } catch (error) {
    return { error, stored };
  } finally {
    c.close();
  }
}

const companyJob = (c?: FirmenbuchClient) => runJob('company', { fnr: '33918f', vnr: null }, c);

describe('bodies over the limit', () => {
  it('an endless body stops at the limit and fails the job at once, without an uncaught error', async () => {
    const uncaught = await uncaughtDuring(async () => {
      answer = (_req, res) => endless(res, Buffer.alloc(64 * 1024, 'a'));
      const heapBefore = process.memoryUsage().heapUsed;
      const run = await companyJob();
      expect(run.error).toBeInstanceOf(UnrecoverableError);
      expect((run.error as Error).message).toMatch(/UpstreamBodyTooLargeError: firmenbuch answer to auszug is larger than its limit of 2097152 bytes/);
      expect(run.stored).toMatchObject({ failure: { name: 'UpstreamBodyTooLargeError' } });
      expect(run.stored).not.toHaveProperty('rawInput');
      await expectStoppedNearLimit(server, 2 * MiB, heapBefore);
    });
    expect(uncaught).toEqual([]);
  });

  it('counts bytes received, not declared: the error says how far the transfer got', async () => {
    answer = (_req, res) => endless(res, Buffer.alloc(100_000, 'b'));
    const err = await client().extract('33918f', '2026-10-01').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamBodyTooLargeError);
    const tooLarge = err as UpstreamBodyTooLargeError;
    expect(tooLarge.receivedBytes).toBeGreaterThan(2 * MiB);
    expect(tooLarge.receivedBytes).toBeLessThanOrEqual(2 * MiB + 1 * MiB);
  });

  it('a Content-Length over the limit is refused before the body is read', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml', 'Content-Length': 600 * MiB });
      res.write(ENVELOPE_START);
    };
    const err = await client().extract('33918f', '2026-10-01').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamBodyTooLargeError);
    expect(isUnrecoverable(err)).toBe(true);
    expect((err as Error).message).toMatch(/Content-Length 629145600/);
  });

  it('a document has a limit of its own: 4 MB passes as a document and fails as an extract', async () => {
    const payload = Buffer.alloc(4 * MiB, 'A').toString();
    answer = (_req, res) =>
      soap(res, '<?xml version="1.0"?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>' +
        `<ns:URKUNDERESPONSE xmlns:ns="ns://firmenbuch.justiz.gv.at/Abfrage/UrkundeResponse"><ns:DOKUMENT><ns:KEY>k_XML</ns:KEY><ns:CONTENT>${payload}</ns:CONTENT></ns:DOKUMENT></ns:URKUNDERESPONSE></S:Body></S:Envelope>`);
    const doc = client().document('k_XML').catch((e: unknown) => e);
    expect(await doc).not.toBeInstanceOf(UpstreamBodyTooLargeError);
    const extract = await client().extract('33918f', '2026-10-01').catch((e: unknown) => e);
    expect(extract).toBeInstanceOf(UpstreamBodyTooLargeError);
    const small = await client({ maxDocumentBytes: 1 * MiB }).document('k_XML').catch((e: unknown) => e);
    expect(small).toMatchObject({ operation: 'urkunde', limitBytes: 1 * MiB });
  });

  it('reads at most its slots of large answers at once; the others wait, and all arrive whole', async () => {
    const payload = Buffer.alloc(3 * MiB, 'A').toString();
    const envelope = '<?xml version="1.0"?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>' +
      `<ns:URKUNDERESPONSE xmlns:ns="ns://firmenbuch.justiz.gv.at/Abfrage/UrkundeResponse"><ns:DOKUMENT><ns:KEY>k_XML</ns:KEY><ns:CONTENT>${payload}</ns:CONTENT></ns:DOKUMENT></ns:URKUNDERESPONSE></S:Body></S:Envelope>`;
    for (const declared of [true, false]) {
      answer = (_req, res) => (declared ? soap(res, envelope) : (res.writeHead(200, { 'Content-Type': 'text/xml', 'Transfer-Encoding': 'chunked' }), res.end(envelope)));
      const c = client({ largeBodySlots: 1 });
      const docs = await Promise.all(Array.from({ length: 6 }, () => c.document('k_XML')));
      c.close();
      expect(docs.every((d) => d.content?.length === (3 * MiB * 3) / 4)).toBe(true);
      expect(c.largeBodies.maxHeld).toBe(1);
    }
  });

  it('a held document keeps its slot until released, and the wait for a slot does not count towards the timeout', async () => {
    const payload = Buffer.alloc(3 * MiB, 'A').toString();
    answer = (_req, res) => soap(res, '<?xml version="1.0"?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>' +
      `<ns:URKUNDERESPONSE xmlns:ns="ns://firmenbuch.justiz.gv.at/Abfrage/UrkundeResponse"><ns:DOKUMENT><ns:KEY>k_XML</ns:KEY><ns:CONTENT>${payload}</ns:CONTENT></ns:DOKUMENT></ns:URKUNDERESPONSE></S:Body></S:Envelope>`);
    const c = client({ largeBodySlots: 1, timeoutMs: 800 });
    try {
      const first = await c.heldDocument('k_XML');
      let secondDone = false;
      const second = c.heldDocument('k_XML').then((r) => ((secondDone = true), r));
      // Longer than the timeout: the second answer waits for the slot the first still holds, untimed.
      await new Promise((r) => setTimeout(r, 1500));
      expect(secondDone).toBe(false);
      first.release();
      const got = await second;
      expect(got.doc.content?.length).toBe((3 * MiB * 3) / 4);
      got.release();
      expect(c.largeBodies.maxHeld).toBe(1);
      // A small answer never holds a slot.
      answer = (_req, res) => soap(res, '<?xml version="1.0"?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>' +
        '<ns:URKUNDERESPONSE xmlns:ns="ns://firmenbuch.justiz.gv.at/Abfrage/UrkundeResponse"><ns:DOKUMENT><ns:KEY>k_XML</ns:KEY><ns:CONTENT>QUFB</ns:CONTENT></ns:DOKUMENT></ns:URKUNDERESPONSE></S:Body></S:Envelope>');
      const small = await c.heldDocument('k_XML');
      await c.heldDocument('k_XML');
      small.release();
    } finally {
      c.close();
    }
  });

  it('an annual-account job over the document limit fails at once, naming the limit', async () => {
    answer = (_req, res) => endless(res, Buffer.alloc(64 * 1024, 'Q'));
    const run = await runJob('annualAccount', { fnr: '33918f', documentKey: 'k_PDF' });
    expect(run.error).toBeInstanceOf(UnrecoverableError);
    expect((run.error as Error).message).toMatch(/urkunde is larger than its limit of 8388608 bytes/);
    // The document keeps its metadata and says why its content is missing (test/integration/documentTooLarge.test.ts).
    expect(statements.join('\n')).toMatch(/UPDATE document SET content_refused = \?/);
  });
});

describe('hostile XML', () => {
  const expectUnreadable = async (body: string) => {
    answer = (_req, res) => soap(res, body);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const run = await companyJob();
    expect(run.error).toBeInstanceOf(UnrecoverableError);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * MiB);
    return (run.error as Error).message;
  };

  it('entity expansion (billion laughs) is refused, not expanded', async () => {
    const entities = ['<!ENTITY l0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`)].join('');
    const body = `<?xml version="1.0"?><!DOCTYPE S:Envelope [${entities}]>${ENVELOPE_START}<ns:X>&l9;</ns:X>${ENVELOPE_END}`;
    expect(await expectUnreadable(body)).toMatch(/DTD|not well-formed|DOCTYPE/i);
  });

  it('an external entity is refused, and nothing it names is read', async () => {
    const body = `<?xml version="1.0"?><!DOCTYPE S:Envelope [<!ENTITY x SYSTEM "file:///etc/passwd">]>${ENVELOPE_START}<ns:X>&x;</ns:X>${ENVELOPE_END}`;
    const message = await expectUnreadable(body);
    expect(message).toMatch(/DTD|not well-formed|DOCTYPE/i);
    expect(message).not.toMatch(/root:/);
  });

  it('a DTD inside the envelope is refused', async () => {
    const body = `${ENVELOPE_START}<!DOCTYPE x [<!ELEMENT x ANY>]><ns:X/>${ENVELOPE_END}`;
    expect(await expectUnreadable(body)).toMatch(/DTD|not well-formed|DOCTYPE/i);
  });

  it('100k-deep nesting fails at once as unreadable input (no stack overflow, no retry)', async () => {
    const depth = 100_000;
    const body = `${ENVELOPE_START}${'<ns:A>'.repeat(depth)}x${'</ns:A>'.repeat(depth)}${ENVELOPE_END}`;
    expect(await expectUnreadable(body)).toMatch(/nest/i);
  });

  it('HTML instead of SOAP with 200 fails at once; with a 5xx it is retried', async () => {
    const html = '<!DOCTYPE html><html><head><title>Wartung</title></head><body><h1>Wartungsarbeiten</h1></body></html>';
    expect(await expectUnreadable(html)).toMatch(/SOAP|not well-formed|XML/i);
    answer = (_req, res) => soap(res, html, 503, 'text/html');
    const run = await companyJob();
    expect(run.error).toBeInstanceOf(UpstreamUnavailableError);
    expect(run.stored).toBeNull();
  });
});

describe('slowloris', () => {
  it('an answer trickling a byte at a time ends at the timeout, as a retryable transport fault', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
      res.on('close', () => clearInterval(timer));
    };
    const started = performance.now();
    const run = await companyJob(client({ timeoutMs: 1000 }));
    const elapsed = performance.now() - started;
    expect(run.error).toBeInstanceOf(UpstreamUnavailableError);
    expect((run.error as Error).message).toMatch(/no complete answer within 1000 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(3000);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.open.size).toBe(0);
  });
});
