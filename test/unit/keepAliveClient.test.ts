// The read bench's HTTP client: a response is complete exactly when its Content-Length or its last
// chunk has arrived, and its body is what was sent, whatever the pieces it arrives in.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeepAliveConnection, parseResponse } from '../../bench/keepAliveClient.js';

describe('parseResponse', () => {
  const fixed = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello');
  const chunked = Buffer.from('HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\na\r\n0123456789\r\n0\r\n\r\n');

  it('waits for every byte of a Content-Length body, at any cut', () => {
    for (let cut = 0; cut < fixed.length; cut++) expect(parseResponse(fixed.subarray(0, cut))).toBeNull();
    expect(parseResponse(fixed)).toMatchObject({ status: 200, end: fixed.length, close: false });
    expect(parseResponse(fixed)!.body.toString()).toBe('hello');
  });

  it('reads past chunk trailers, and refuses a malformed chunk size', () => {
    const trailers = Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-Checksum: 1\r\n\r\n');
    expect(parseResponse(trailers.subarray(0, trailers.length - 1))).toBeNull();
    expect(parseResponse(trailers)).toMatchObject({ end: trailers.length });
    expect(parseResponse(trailers)!.body.toString()).toBe('ok');
    expect(() => parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'))).toThrow(/malformed chunk size/);
  });

  it('decodes a chunked body once its last chunk is in, at any cut', () => {
    for (let cut = 0; cut < chunked.length; cut++) expect(parseResponse(chunked.subarray(0, cut))).toBeNull();
    expect(parseResponse(chunked)).toMatchObject({ status: 404, end: chunked.length });
    expect(parseResponse(chunked)!.body.toString()).toBe('abc0123456789');
  });
});

describe('KeepAliveConnection', () => {
  let server: Server;
  let port: number;
  const seen: Array<{ method: string; url: string; key: string | undefined; body: string }> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, key: req.headers['x-api-key'] as string | undefined, body });
        if (req.url === '/closing') {
          res.setHeader('connection', 'close');
          res.end('bye');
        } else if (req.url === '/empty') {
          res.statusCode = 204;
          res.end();
        } else if (req.url === '/sized') {
          const body = Buffer.alloc(1_500_000, 0x61);
          body.write('end', body.length - 3);
          res.setHeader('content-length', body.length);
          res.end(body); // arrives in many chunks
        } else if (req.url === '/big') {
          res.write('x'.repeat(100_000)); // chunked, in several writes
          res.end('y'.repeat(100_000));
        } else res.end(JSON.stringify({ url: req.url, body }));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  it('carries on after a 204 and after the server closes the connection', async () => {
    const c = new KeepAliveConnection('127.0.0.1', port);
    try {
      expect(await c.request('GET', '/empty', '')).toMatchObject({ status: 204 });
      const bye = await c.request('GET', '/closing', '');
      expect(bye.body.toString()).toBe('bye');
      // The closed socket's end must not be taken for this request's.
      for (let i = 0; i < 5; i++) expect((await c.request('GET', `/after-close-${i}`, '')).status).toBe(200);
      expect((await c.request('GET', '/closing', '')).status).toBe(200);
      expect((await c.request('GET', '/empty', '')).status).toBe(204);
    } finally {
      c.close();
    }
  });

  it('sends requests one after another on one connection and reads whole answers', async () => {
    seen.length = 0;
    const c = new KeepAliveConnection('127.0.0.1', port);
    try {
      const a = await c.request('GET', '/a?x=1', 'x-api-key: k1\r\n');
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body.toString())).toEqual({ url: '/a?x=1', body: '' });
      const b = await c.request('POST', '/b', 'x-api-key: k1\r\ncontent-type: application/json\r\n', '{"names":["Müller"]}');
      expect(JSON.parse(b.body.toString())).toEqual({ url: '/b', body: '{"names":["Müller"]}' });
      const big = await c.request('GET', '/big', '');
      expect(big.body.length).toBe(200_000);
      expect(big.body.toString('latin1', 99_998, 100_002)).toBe('xxyy');
      const sized = await c.request('GET', '/sized', '');
      expect(sized.body.length).toBe(1_500_000);
      expect(sized.body.toString('latin1', 1_499_996)).toBe('aend');
      // And the connection carries on after it.
      expect((await c.request('GET', '/after', '')).status).toBe(200);
      expect(seen.map((s) => [s.method, s.url, s.key])).toEqual([
        ['GET', '/a?x=1', 'k1'], ['POST', '/b', 'k1'], ['GET', '/big', undefined], ['GET', '/sized', undefined], ['GET', '/after', undefined],
      ]);
    } finally {
      c.close();
    }
  });
});
