// Request bodies in application/json, text/json and application/*+json; anything else is a 415
// ProblemDetails. Successful JSON answers as application/json, or text/json / text/plain on request.
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correlationId } from '../../api/middleware/correlationId.js';
import { errorHandler } from '../../api/middleware/errorHandler.js';
import { bodyOf, isJsonMediaType, requestBody } from '../../api/middleware/requestBody.js';
import { responseType } from '../../api/middleware/responseType.js';
import { ApiError } from '../../api/errors.js';
import { createLogger } from '../../runtime/logger.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';

let http: TestHttp;
beforeAll(async () => {
  const app = new Koa();
  app.silent = true;
  app.use(correlationId());
  app.use(errorHandler(createLogger('silent')));
  app.use(requestBody(1024));
  app.use(responseType());
  app.use(async (ctx) => {
    if (ctx.path === '/fail') throw new ApiError(404, 'Not Found', 'nothing here');
    if (ctx.path === '/csv') {
      ctx.type = 'text/csv';
      ctx.body = 'a,b\n';
      return;
    }
    ctx.body = { received: bodyOf(ctx) ?? null };
  });
  http = await serve(app);
});
afterAll(() => http.close());

const post = (contentType: string | undefined, body: string) =>
  http.request('/echo', { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body });

describe('request bodies', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'text/json', 'application/problem+json', 'application/vnd.example.list+json'])(
    'accepts %s',
    async (type) => {
      const res = await post(type, '{"fnrs":["5h"]}');
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ received: { fnrs: ['5h'] } });
    },
  );

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'application/jsonp'])(
    'refuses %s with a 415 ProblemDetails',
    async (type) => {
      const res = await http.request('/echo', { method: 'POST', headers: { 'content-type': type, 'x-correlation-id': 'c-415' }, body: '{"fnrs":["5h"]}' });
      expect(res.status).toBe(415);
      expect(res.headers.get('x-correlation-id')).toBe('c-415');
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await json(res)).toMatchObject({ title: 'Unsupported Media Type', status: 415, instance: '/echo', traceId: 'c-415', correlationId: 'c-415' });
    },
  );

  it('refuses a body without a content type with 415, with a generated correlation id in header and body', async () => {
    const res = await http.request('/echo', { method: 'POST', body: new Uint8Array(Buffer.from('{"a":1}')) });
    expect(res.status).toBe(415);
    const generated = res.headers.get('x-correlation-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(await json(res)).toMatchObject({ traceId: generated, correlationId: generated });
  });

  it('answers unparsable JSON with a 400 naming the body', async () => {
    const res = await post('application/json', '{"fnrs": [');
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual({ '(body)': ['is not valid JSON'] });
  });

  it('refuses a body above the size limit with 413', async () => {
    const res = await post('application/json', JSON.stringify({ x: 'y'.repeat(2000) }));
    expect(res.status).toBe(413);
  });

  it('leaves bodiless requests alone', async () => {
    expect((await http.request('/echo', { method: 'POST' })).status).toBe(200);
    expect((await http.get('/echo')).status).toBe(200);
  });

  it('classifies media types', () => {
    expect(isJsonMediaType('APPLICATION/JSON')).toBe(true);
    expect(isJsonMediaType('application/merge-patch+json')).toBe(true);
    expect(isJsonMediaType('text/plain')).toBe(false);
    expect(isJsonMediaType('')).toBe(false);
  });
});

describe('response content type', () => {
  it('is application/json by default and for */*', async () => {
    expect((await http.get('/x')).headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await http.get('/x', { accept: '*/*' })).headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it.each([
    ['text/json', 'text/json; charset=utf-8'],
    ['text/plain', 'text/plain; charset=utf-8'],
    ['text/plain;q=0.5, text/json', 'text/json; charset=utf-8'],
    ['application/json, text/plain;q=0.9', 'application/json; charset=utf-8'],
    ['application/xml', 'application/json; charset=utf-8'],
  ])('follows Accept: %s', async (accept, expected) => {
    const res = await http.get('/x', { accept });
    expect(res.headers.get('content-type')).toBe(expected);
    expect(JSON.parse(await res.text())).toEqual({ received: null });
  });

  it('keeps problem+json on errors and the type of non-JSON answers', async () => {
    expect((await http.get('/fail', { accept: 'text/plain' })).headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await http.get('/csv', { accept: 'text/plain' })).headers.get('content-type')).toMatch(/^text\/csv/);
  });
});
