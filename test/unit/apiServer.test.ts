// The API's listener (api/httpServer.ts): a client that trickles its headers or its body is cut off
// at the timeouts with a 408 ProblemDetails, connections beyond the cap are closed as they arrive,
// and requests Node's parser refuses get a ProblemDetails with a correlation id.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { clientErrorResponse, createApiServer, type ApiServerOptions } from '../../api/httpServer.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

async function listen(options: ApiServerOptions): Promise<number> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  server = createApiServer(app, options);
  await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', () => ready()));
  return (server.address() as AddressInfo).port;
}

/** Everything the server sends until it closes the connection (or `ms` pass). */
function collect(socket: Socket, ms: number): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    socket.on('data', (c) => (text += c.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

describe('API listener', () => {
  it('cuts off a client that trickles its headers with a 408 ProblemDetails', async () => {
    const port = await listen({ headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100 });
    const socket = connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 50);
    const started = performance.now();
    const answer = await collect(socket, 5000);
    clearInterval(timer);
    expect(answer.closed).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.text).toMatch(/"status":408/);
  });

  it('cuts off a client that trickles its body at the request timeout', async () => {
    const port = await listen({ headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100 });
    const socket = connect(port, '127.0.0.1');
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n');
    const timer = setInterval(() => socket.writable && socket.write('x'), 50);
    const answer = await collect(socket, 5000);
    clearInterval(timer);
    expect(answer.closed).toBe(true);
  });

  it('closes connections beyond the cap as they arrive', async () => {
    const port = await listen({ maxConnections: 2 });
    const held = [connect(port, '127.0.0.1'), connect(port, '127.0.0.1')];
    await new Promise((r) => setTimeout(r, 100));
    const third = connect(port, '127.0.0.1');
    const answer = await collect(third, 2000);
    expect(answer.closed).toBe(true);
    expect(answer.text).toBe('');
    for (const s of held) s.destroy();
  });

  it('answers a parser error as ProblemDetails naming the request path', () => {
    const err = Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_CHUNK_SIZE', rawPacket: Buffer.from('DELETE /api/v1/x HTTP/1.1\r\n') });
    const text = clientErrorResponse(err);
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application\/problem\+json/);
    const problem = JSON.parse(body!) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 400, instance: '/api/v1/x', detail: expect.stringMatching(/HPE_INVALID_CHUNK_SIZE/) });
    expect(head).toContain(`X-Correlation-ID: ${String(problem.traceId)}`);
  });
});
