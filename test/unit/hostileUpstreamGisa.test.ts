// Issue 22 for the GISA client, as hostileUpstream.test.ts holds it for the Firmenbuch: each hostile
// answer is served by a local HTTP server to the real client (XML style, POST /xml/{Method}) and must
// end as the error class that decides its fate in the job runner:
//   - entity expansion, an external entity, a DTD, 100k-deep nesting and HTML with 200 are unreadable
//     input (GisaResponseParseError: fail at once, never retried);
//   - HTML with a 5xx, and a slowloris answer ending at the timeout, are transport faults (retried);
//   - an endless body stops at the limit (UpstreamBodyTooLargeError, not retried).
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GisaClient } from '../../pipeline/gisa/gisaClient.js';
import { GisaResponseParseError } from '../../pipeline/gisa/gisaXml.js';
import { isUnrecoverable, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';
import { MiB, UpstreamBodyTooLargeError } from '../../pipeline/upstream/bodyLimit.js';
import { endless, expectStoppedNearLimit, startHostileServer, uncaughtDuring, type HostileServer } from '../helpers/hostileServer.js';

const START = '<?xml version="1.0" encoding="utf-8"?><GetGewerbeV2Output xmlns="http://schemas.datacontract.org/2004/07/GISA.Public.Service.V2">';
const END = '</GetGewerbeV2Output>';
const LIMIT = 2 * MiB;

let server: HostileServer;
/** Paths the client asked for in the current test. */
let paths: string[] = [];
beforeAll(async () => {
  server = await startHostileServer();
});
afterEach(() => {
  server.reset();
  paths = [];
});
afterAll(() => server.close());

function serve(body: string, status = 200, type = 'application/xml'): void {
  server.answer = (req, res: ServerResponse) => {
    paths.push(req.url ?? '');
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  };
}

const client = (timeoutMs = 5000) => new GisaClient({ baseUrl: server.url, apiKey: 'k', timeoutMs, maxBodyBytes: LIMIT });
const licence = (c = client()) => c.licence('100000054').then(() => null, (e: unknown) => e);

describe('hostile XML fails at once as unreadable input', () => {
  const expectUnreadable = async (body: string): Promise<string> => {
    serve(body);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const err = await licence();
    expect(err).toBeInstanceOf(GisaResponseParseError);
    expect(isUnrecoverable(err)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * MiB);
    expect(paths).toEqual(['/xml/GetGewerbeV2']);
    return (err as Error).message;
  };

  it('entity expansion (billion laughs) is refused, not expanded', async () => {
    const entities = ['<!ENTITY l0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`)].join('');
    const body = `<?xml version="1.0"?><!DOCTYPE GetGewerbeV2Output [${entities}]>${START.replace(/^<\?xml[^>]*\?>/, '')}<Returncode>&l9;</Returncode>${END}`;
    const message = await expectUnreadable(body);
    expect(message).toMatch(/not well-formed/);
    expect(message).not.toMatch(/lollol/);
  });

  it('an external entity is refused, and nothing it names is read', async () => {
    const body = `<?xml version="1.0"?><!DOCTYPE GetGewerbeV2Output [<!ENTITY x SYSTEM "file:///etc/passwd">]><GetGewerbeV2Output><Returncode>&x;</Returncode>${END}`;
    const message = await expectUnreadable(body);
    expect(message).toMatch(/not well-formed/);
    expect(message).not.toMatch(/root:/);
  });

  it('a DTD inside the output element is refused', async () => {
    expect(await expectUnreadable(`${START}<!DOCTYPE x [<!ELEMENT x ANY>]><Returncode>OK</Returncode>${END}`)).toMatch(/not well-formed/);
  });

  it('100k-deep nesting fails at once (no stack overflow, no retry)', async () => {
    const depth = 100_000;
    const uncaught = await uncaughtDuring(async () => {
      const message = await expectUnreadable(`${START}<Returncode>OK</Returncode>${'<A>'.repeat(depth)}x${'</A>'.repeat(depth)}${END}`);
      expect(message).toMatch(/cannot be read|nest/i);
    });
    expect(uncaught).toEqual([]);
  });

  it('HTML instead of XML with 200 fails at once; with a 5xx it is a retryable transport fault', async () => {
    const html = '<!DOCTYPE html><html><head><title>Wartung</title></head><body><h1>Wartungsarbeiten</h1></body></html>';
    expect(await expectUnreadable(html)).toMatch(/not well-formed/);
    serve(html, 503, 'text/html');
    const err = await licence();
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(isUnrecoverable(err)).toBe(false);
    expect(err).toMatchObject({ upstream: 'gisa', status: 503 });
  });
});

describe('endless and slow answers', () => {
  it('an endless body stops at the limit, unrecoverable, without an uncaught error', async () => {
    const uncaught = await uncaughtDuring(async () => {
      server.answer = (_req, res) => endless(server, res, Buffer.alloc(64 * 1024, 'a'), START, { 'Content-Type': 'application/xml' });
      const heapBefore = process.memoryUsage().heapUsed;
      const err = await licence();
      expect(err).toBeInstanceOf(UpstreamBodyTooLargeError);
      expect(isUnrecoverable(err)).toBe(true);
      expect(err).toMatchObject({ operation: 'GetGewerbeV2', limitBytes: LIMIT });
      expect((err as UpstreamBodyTooLargeError).receivedBytes).toBeGreaterThan(LIMIT);
      await expectStoppedNearLimit(server, LIMIT, heapBefore);
    });
    expect(uncaught).toEqual([]);
  });

  it('an answer trickling a byte at a time ends at the timeout, as a retryable transport fault', async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.write(START);
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
      res.on('close', () => clearInterval(timer));
    };
    const started = performance.now();
    const err = await licence(client(1000));
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(isUnrecoverable(err)).toBe(false);
    expect((err as Error).message).toMatch(/GISA GetGewerbeV2 failed: .*(timeout|aborted)/i);
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(3000);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.open.size).toBe(0);
  });
});
