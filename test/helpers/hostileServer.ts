// A local HTTP server playing a hostile upstream for the hostile-upstream tests (issue 22): each test
// sets the answer; `endless` writes a body until the client goes away and counts what got onto the
// wire, so a test can say the client stopped the transfer near its limit.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

export interface HostileServer {
  url: string;
  /** How the next requests are answered (after their bodies were read). */
  answer: (req: IncomingMessage, res: ServerResponse) => void;
  /** Bytes `endless` got onto the wire since the last reset. */
  written: number;
  /** Answers still open. */
  open: Set<ServerResponse>;
  /** Ends open answers and zeroes `written` (between tests). */
  reset: () => void;
  close: () => Promise<void>;
}

export async function startHostileServer(): Promise<HostileServer> {
  const open = new Set<ServerResponse>();
  const hostile: HostileServer = {
    url: '',
    answer: (_req, res) => void res.end(),
    written: 0,
    open,
    reset: () => {
      for (const res of open) res.destroy();
      hostile.written = 0;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const server: Server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    req.resume();
    req.on('end', () => hostile.answer(req, res));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  hostile.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return hostile;
}

/** Writes `start`, then `chunk` over and over, as fast as the client reads, until the client goes away. */
export function endless(server: HostileServer, res: ServerResponse, chunk: Buffer, start = '', headers: Record<string, string | number> = {}): void {
  res.writeHead(200, { 'Content-Type': 'text/xml', ...headers });
  res.write(start);
  const pump = () => {
    while (!res.destroyed) {
      server.written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

/** Declares `bytes` of body in Content-Length and sends only `start`: a client must refuse it unread. */
export function declaredHuge(res: ServerResponse, bytes: number, start = '', type = 'text/xml'): void {
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': bytes });
  res.write(start);
}

/** Runs `fn`; returns what reached the process meanwhile as uncaught exceptions or unhandled rejections. */
export async function uncaughtDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  try {
    await fn();
  } finally {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  }
  return uncaught;
}

/** What a refused endless answer leaves: the server stopped soon after the limit, no answer open, the heap grown by little. */
export async function expectStoppedNearLimit(server: HostileServer, limitBytes: number, heapBefore: number): Promise<void> {
  // The client held at most the limit and a chunk; what else got onto the wire sat in socket buffers.
  expect(server.written).toBeLessThan(limitBytes + 16 * 1024 * 1024);
  expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  await new Promise((r) => setTimeout(r, 50));
  expect(server.open.size).toBe(0);
}
