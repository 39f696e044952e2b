// Issue 22, findings 3-5: requests an outside probe sent that answered 500 or hung.
//   3. parameter and body keys named like Object.prototype members (constructor, toString,
//      __proto__) broke the error map and answered 500; a saved filter set with __proto__ lost it;
//   4. NUL bytes in a path, a query value or a body reached Postgres (which refuses 0x00): 500;
//   5. after a 413 the unread body stayed on a kept-alive connection and the next request on it
//      never got an answer.
// Plus a DELETE with a chunked body, which answered an empty 400.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithKey } from '../helpers/apiAccess.js';
import { seedCompanies } from '../helpers/companies.js';
import { json } from '../helpers/httpClient.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await startTestApi({ access: { burstLimit: 1_000_000 } });
  key = (await accountWithKey(api.db.sql, 'api')).key;
  await seedCompanies(api.db.sql, [{ fnr: '100a', name: 'Alpha GmbH', city: 'Wien', zipCode: '1010' }]);
});
afterAll(() => api.close());

const get = (path: string) => api.http.get(path, { 'x-api-key': key });
const send = (method: string, path: string, body: string) =>
  api.http.request(path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });

/** A 400 ProblemDetails whose `errors` name `field`, with a correlation id. */
async function expectFieldError(res: Response, field: string): Promise<void> {
  const body = await json(res);
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 400, type: 'application/problem+json' });
  expect(Object.keys(body.errors)).toContain(field);
  expect(body.correlationId).toBe(res.headers.get('x-correlation-id'));
}

describe('finding 3: keys named like built-in object properties', () => {
  const names = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__', 'isPrototypeOf'];
  const routes = ['/api/v1/businesses', '/api/v1/people', '/api/v1/oenace', '/api/v1/businesses/changes', '/api/v1/businesses/100a', '/api/v1/lists'];

  for (const name of names) {
    it(`?${name}=1 is a 400 naming the parameter on every route with query validation`, async () => {
      for (const route of routes) await expectFieldError(await get(`${route}?${name}=1`), name);
    });

    it(`a body field ${name} is a 400 naming it`, async () => {
      await expectFieldError(await send('POST', '/api/v1/lists', `{"name":"x","${name}":1}`), name);
    });
  }

  it('a saved filter set with __proto__ is refused, not saved without it', async () => {
    for (const value of ['null', '"x"', '{"city":"Wien"}']) {
      const res = await send('POST', '/api/v1/queries', `{"filters":{"city":"Wien","__proto__":${value}}}`);
      await expectFieldError(res, 'filters.__proto__');
    }
    const saved = await json(await get('/api/v1/queries'));
    expect(saved).toEqual([]);
  });

  it('free-form list settings refuse __proto__ and keep constructor as the plain key it is', async () => {
    await expectFieldError(await send('POST', '/api/v1/lists', '{"name":"x","settings":{"__proto__":{"admin":true}}}'), 'settings.__proto__');
    const res = await send('POST', '/api/v1/lists', '{"name":"y","settings":{"constructor":{"prototype":1},"toString":"a"}}');
    expect(res.status).toBe(200);
    const created = await json(res);
    expect(created.settings).toEqual({ constructor: { prototype: 1 }, toString: 'a' });
    const patched = await send('PATCH', `/api/v1/lists/${created.id}`, '{"settings":{"valueOf":2,"toString":null}}');
    expect(await json(patched)).toMatchObject({ settings: { constructor: { prototype: 1 }, valueOf: 2 } });
    await send('DELETE', `/api/v1/lists/${created.id}`, '');
  });
});

describe('finding 4: NUL bytes', () => {
  it('in a path parameter: 400 naming it', async () => {
    await expectFieldError(await get('/api/v1/businesses/%00'), 'fnr');
    await expectFieldError(await get('/api/v1/businesses/100a%00'), 'fnr');
    await expectFieldError(await get('/api/v1/businesses/1%00/similar'), 'fnr');
    await expectFieldError(await get('/api/v1/people/a%00b'), 'personId');
    await expectFieldError(await get('/api/v1/documents/download/k%00'), 'documentKey');
    await expectFieldError(await get('/api/v1/lists/%00'), 'id');
  });

  it('in a query value: 400 naming the parameter', async () => {
    await expectFieldError(await get('/api/v1/people?lastName=%00'), 'lastName');
    await expectFieldError(await get('/api/v1/businesses?name=a%00b'), 'name');
    await expectFieldError(await get('/api/v1/businesses/names?search=%00'), 'search');
    await expectFieldError(await get('/api/v1/oenace?search=x%00'), 'search');
    await expectFieldError(await get('/api/v1/graph?fnr=100a%00'), 'fnr');
  });

  it('in a query name: 400', async () => {
    await expectFieldError(await get('/api/v1/businesses?na%00me=1'), 'na\u0000me');
  });

  it('in a body string, nested or as a key: 400 naming the field', async () => {
    await expectFieldError(await send('POST', '/api/v1/lists', '{"name":"a\\u0000"}'), 'name');
    await expectFieldError(await send('POST', '/api/v1/lists', '{"name":"a","fnrs":["100a","1\\u0000"]}'), 'fnrs.1');
    await expectFieldError(await send('POST', '/api/v1/lists', '{"name":"a","settings":{"k":{"deep":"\\u0000"}}}'), 'settings.k.deep');
    await expectFieldError(await send('POST', '/api/v1/queries', '{"filters":{"city":"W\\u0000"}}'), 'filters.city');
    await expectFieldError(await send('POST', '/api/v1/exports/businesses', '{"format":"csv","fnrs":["\\u0000"]}'), 'fnrs.0');
  });

  it('a body nested 100k deep is a 400 naming where it got too deep, not a stack overflow', async () => {
    const depth = 100_000;
    await expectFieldError(await send('POST', '/api/v1/lists', `{"name":"x","settings":${'['.repeat(depth)}${']'.repeat(depth)}}`), `settings${'.0'.repeat(31)}`);
    await expectFieldError(await send('POST', '/api/v1/queries', `${'['.repeat(depth)}${']'.repeat(depth)}`), '0.'.repeat(31) + '0');
  });

  it('nothing of a refused request was stored', async () => {
    expect(await json(await get('/api/v1/lists'))).toEqual([]);
  });
});

/** Sends raw bytes on one socket and collects what comes back. */
class RawConnection {
  private data = '';
  private closed = false;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => (this.data += chunk.toString('latin1')));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const { port } = new URL(baseUrl);
    return new Promise((ready, fail) => {
      const socket = connect(Number(port), '127.0.0.1', () => ready(new RawConnection(socket)));
      socket.once('error', fail);
    });
  }

  write(bytes: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  /** Waits until `count` complete responses (by their status lines) arrived, the socket closed, or `ms` passed. */
  async responses(count: number, ms = 3000): Promise<{ statuses: number[]; text: string; closed: boolean }> {
    const until = Date.now() + ms;
    const statuses = () => [...this.data.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    while (statuses().length < count && !this.closed && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    // A closing server may still be flushing: give it a moment.
    if (this.closed) await new Promise((r) => setTimeout(r, 20));
    return { statuses: statuses(), text: this.data, closed: this.closed };
  }

  close(): void {
    this.socket.destroy();
  }
}

const requestHead = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;

describe('finding 5: a kept-alive connection after a 413', () => {
  const big = 2 * 1024 * 1024;

  it('the 413 closes the connection, so a client never waits on it for an answer', async () => {
    const conn = await RawConnection.open(api.http.baseUrl);
    try {
      conn.write(requestHead('POST', '/api/v1/lists', { 'x-api-key': key, 'content-type': 'application/json', 'content-length': big, connection: 'keep-alive' }));
      conn.write(Buffer.alloc(big, 0x20));
      conn.write(requestHead('GET', '/api/v1/oenace', { 'x-api-key': key }));
      const answer = await conn.responses(2);
      expect(answer.statuses[0]).toBe(413);
      expect(answer.text).toMatch(/^connection: close\r$/im);
      expect(answer.text).toMatch(/"status":413/);
      // Either the second request was answered, or the server closed the connection: never a hang.
      expect(answer.closed || answer.statuses.length === 2).toBe(true);
    } finally {
      conn.close();
    }
  });

  it('a client that sends only part of a declared oversized body is answered and disconnected', async () => {
    const conn = await RawConnection.open(api.http.baseUrl);
    try {
      conn.write(requestHead('POST', '/api/v1/lists', { 'x-api-key': key, 'content-type': 'application/json', 'content-length': 100 * big }));
      conn.write(Buffer.alloc(big, 0x20)); // and then nothing more
      const answer = await conn.responses(1);
      expect(answer.statuses).toEqual([413]);
      const after = await conn.responses(2, 1000);
      expect(after.closed).toBe(true);
    } finally {
      conn.close();
    }
  });

  it('a fetch client sending an oversized body reads the 413 (the connection is not reset under it)', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await send('POST', '/api/v1/lists', `{"name":"${'x'.repeat(big)}"}`);
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect((await json(res)).detail).toMatch(/limited to 1048576 bytes/);
    }
    expect((await get('/api/v1/oenace')).status).toBe(200);
  });

  it('a declared Content-Length over the limit is refused before the body is read', async () => {
    const conn = await RawConnection.open(api.http.baseUrl);
    try {
      conn.write(requestHead('POST', '/api/v1/lists', { 'x-api-key': key, 'content-type': 'application/json', 'content-length': 100 * big }));
      const answer = await conn.responses(1);
      expect(answer.statuses).toEqual([413]);
    } finally {
      conn.close();
    }
  });
  it('a declared oversized body with Expect: 100-continue gets the 413, never a 100 Continue first', async () => {
    const conn = await RawConnection.open(api.http.baseUrl);
    try {
      conn.write(requestHead('POST', '/api/v1/lists', { 'x-api-key': key, 'content-type': 'application/json', 'content-length': 100 * big, expect: '100-continue' }));
      const answer = await conn.responses(1);
      expect(answer.statuses).toEqual([413]);
      expect(answer.text).not.toMatch(/100 Continue/);
    } finally {
      conn.close();
    }
  });

  it('a body within the limit with Expect: 100-continue is asked for and served', async () => {
    const conn = await RawConnection.open(api.http.baseUrl);
    try {
      const body = '{"name":"continued","fnrs":["100a"]}';
      conn.write(requestHead('POST', '/api/v1/lists', { 'x-api-key': key, 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' }));
      expect((await conn.responses(1)).statuses).toEqual([100]);
      conn.write(body);
      expect((await conn.responses(2)).statuses).toEqual([100, 200]);
    } finally {
      conn.close();
    }
  });
});

describe('a DELETE with a chunked body', () => {
  it('is read like any other body: the route answers in the contract shape', async () => {
    const created = await json(await send('POST', '/api/v1/lists', '{"name":"chunked","fnrs":["100a"]}'));
    const conn = await RawConnection.open(api.http.baseUrl);
    try {
      for (const [body, status] of [['{"x":', 400], ['{}', 204]] as const) {
        conn.write(requestHead('DELETE', `/api/v1/lists/${created.id}`, { 'x-api-key': key, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
        conn.write(`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
        const answer = await conn.responses(status === 400 ? 1 : 2);
        expect(answer.statuses.at(-1), answer.text).toBe(status);
      }
      expect((await get(`/api/v1/lists/${created.id}`)).status).toBe(404);
    } finally {
      conn.close();
    }
  });

  it('a malformed chunked body is a 400 ProblemDetails with a correlation id', async () => {
    const conn = await RawConnection.open(api.http.baseUrl);
    try {
      conn.write(requestHead('DELETE', '/api/v1/queries/all', { 'x-api-key': key, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
      conn.write('zz\r\nnot a chunk\r\n0\r\n\r\n');
      const answer = await conn.responses(1);
      expect(answer.statuses).toEqual([400]);
      expect(answer.text).toMatch(/^content-type: application\/problem\+json/im);
      expect(answer.text).toMatch(/^x-correlation-id: \S+/im);
      expect(answer.text).toMatch(/"traceId":"[^"]+"/);
    } finally {
      conn.close();
    }
  });

  it('a URL over 16 KB is a 431 ProblemDetails with a correlation id, not a bare status line', async () => {
    const conn = await RawConnection.open(api.http.baseUrl);
    try {
      conn.write(requestHead('GET', `/api/v1/oenace?search=${'a'.repeat(20_000)}`, { 'x-api-key': key }));
      const answer = await conn.responses(1);
      expect(answer.statuses).toEqual([431]);
      expect(answer.text).toMatch(/^x-correlation-id: \S+/im);
      expect(answer.text).toMatch(/"status":431/);
    } finally {
      conn.close();
    }
  });
});
