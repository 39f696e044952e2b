// A fake of the BMF list download (service.bmf.gv.at/service/allg/lsu/__Gen_Csv.asp) for replays and
// tests: GET answers the stored list bytes as they are (ISO-8859-1, CRLF, the quirks in the files).
// Several list files are served in name order, each for one complete answer, then the last one for
// good, so a replay walks version 1, version 2, ... ETag / Last-Modified are sent and honoured (304),
// and transport faults are injected from FaultRates (401, 429, 500, timeouts, truncated and cut-off bodies).
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FakeUpstream, FaultRates } from '../../register.js';
import { faultDrawer, type InjectedFault } from '../../upstream/faultPlan.js';

export const LSU_PATH = '/service/allg/lsu/__Gen_Csv.asp';

export interface FakeLsuOptions {
  /** A directory of `*.csv` list files (served in name order), or the bodies themselves. */
  lists: string | Buffer[];
  faults?: FaultRates;
  /** Send and honour ETag / Last-Modified (default true). */
  conditional?: boolean;
  port?: number;
}

export interface FakeLsu extends FakeUpstream {
  stats: { requests: number; delivered: number; notModified: number; faults: Partial<Record<InjectedFault, number>> };
  /** Which list the next complete answer carries (0-based). */
  position: () => number;
  setFaults: (faults: FaultRates | undefined) => void;
}

/** The list files of a directory, in the order the fake serves them. */
export async function listFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.csv')).sort().map((f) => join(dir, f));
}

/** Last-Modified from the list's own `Stand:` footer (Vienna time taken as UTC: only the order matters). */
function lastModifiedOf(body: Buffer): string {
  const m = /Stand:\s+(\d{1,2})\.(\d{1,2})\.(\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})/.exec(body.toString('latin1'));
  const at = m ? Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6])) : 0;
  return new Date(at).toUTCString();
}

export async function startFakeLsu(options: FakeLsuOptions): Promise<FakeLsu> {
  const bodies = typeof options.lists === 'string' ? await Promise.all((await listFiles(options.lists)).map((f) => readFile(f))) : options.lists;
  if (bodies.length === 0) throw new Error('fake BMF list: no list to serve');
  const conditional = options.conditional ?? true;
  let draw = faultDrawer(options.faults);
  let faults = options.faults ?? {};
  let delivered = 0;
  const held = new Set<http.ServerResponse>();
  const stats: FakeLsu['stats'] = { requests: 0, delivered: 0, notModified: 0, faults: {} };

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (path !== LSU_PATH) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { Allow: 'GET' }).end();
    stats.requests++;
    const fault = draw();
    if (fault) stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
    if (fault === '401') return void res.writeHead(401, { 'Content-Type': 'text/html' }).end('<html><body>401 - Unauthorized</body></html>');
    if (fault === '429') return void res.writeHead(429, { 'Retry-After': String(faults.retryAfterSeconds ?? 1) }).end();
    if (fault === '500') return void res.writeHead(500, { 'Content-Type': 'text/html' }).end('<html><body>500 - Internal server error.</body></html>');
    if (fault === 'timeout') {
      held.add(res);
      const timer = setTimeout(() => res.destroy(), faults.timeoutMs ?? 30_000);
      res.on('close', () => {
        clearTimeout(timer);
        held.delete(res);
      });
      return;
    }
    const body = bodies[Math.min(delivered, bodies.length - 1)]!;
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    const lastModified = lastModifiedOf(body);
    const validators = conditional ? { ETag: etag, 'Last-Modified': lastModified } : {};
    const unchanged = conditional && (req.headers['if-none-match'] === etag || (!req.headers['if-none-match'] && req.headers['if-modified-since'] === lastModified));
    if (unchanged) {
      stats.notModified++;
      return void res.writeHead(304, validators).end();
    }
    const headers = { 'Content-Type': 'text/csv; charset=iso-8859-1', ...validators };
    if (fault === 'truncated') {
      // The full length announced, half sent, then the connection drops.
      res.writeHead(200, { ...headers, 'Content-Length': body.length });
      return void res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    }
    // Chunked with a clean end half-way through: only the missing footer tells.
    if (fault === 'cutoff') return void res.writeHead(200, headers).end(body.subarray(0, Math.floor(body.length / 2)));
    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    if (req.method === 'HEAD') return void res.end();
    res.end(body, () => {
      delivered++;
      stats.delivered++;
    });
  });
  await new Promise<void>((ready) => server.listen(options.port ?? 0, '127.0.0.1', () => ready()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${LSU_PATH}`,
    stats,
    position: () => Math.min(delivered, bodies.length - 1),
    setFaults: (next) => {
      faults = next ?? {};
      draw = faultDrawer(next);
    },
    close: () =>
      new Promise<void>((done, fail) => {
        for (const res of held) res.destroy();
        server.close((err) => (err ? fail(err) : done()));
        server.closeAllConnections();
      }),
  };
}
