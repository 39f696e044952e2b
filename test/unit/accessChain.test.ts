// The request pipeline's middlewares one by one, with a fake key resolver and a fake admission (the
// Redis script has its own integration test): correlation id, error shapes of the chain, API-key
// authentication, burst limit, monthly quota with its Retry-After, billing, and the order between
// them (a refused request never reaches billing).
import Koa, { type Middleware } from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import type { PrincipalResolver } from '../../api/accounts/principals.js';
import { ApiError } from '../../api/errors.js';
import type { Admission, AdmissionRequest, AdmissionResult } from '../../api/metering/admission.js';
import { secondsUntilNextMonth } from '../../api/metering/calendar.js';
import { apiKeyAuth } from '../../api/middleware/apiKeyAuth.js';
import { billing } from '../../api/middleware/billing.js';
import { burstLimit } from '../../api/middleware/burstLimit.js';
import { correlationId } from '../../api/middleware/correlationId.js';
import { errorHandler } from '../../api/middleware/errorHandler.js';
import { monthlyQuota, quotaRetryAfterSeconds } from '../../api/middleware/monthlyQuota.js';
import { principalOf, requireAccount, type Principal } from '../../api/requestState.js';
import { createLogger } from '../../runtime/logger.js';
import { json, serve, type TestHttp } from '../helpers/httpClient.js';

const ACCOUNT_KEY: Principal = { keyId: 'k1', accountId: 'acc-1', subject: 'account:acc-1', monthlyQuota: 100 };
const SERVICE_KEY: Principal = { keyId: 'k2', accountId: null, subject: 'key:k2', monthlyQuota: null };

const resolver: PrincipalResolver = {
  byApiKey: async (key) => ({ 'account-key': ACCOUNT_KEY, 'service-key': SERVICE_KEY })[key],
  bySessionToken: async (token) => (token === 'good-session' ? 'acc-9' : undefined),
};

/** Records every admission; answers `outcome` with fixed window and quota figures. */
function fakeAdmission(outcome: AdmissionResult['outcome'] = 'admitted') {
  const calls: AdmissionRequest[] = [];
  const admission: Admission = {
    admit: async (request) => {
      calls.push(request);
      return {
        outcome,
        burst: { limit: 1000, remaining: outcome === 'burst' ? 0 : 999, resetSeconds: 42 },
        quota: { limit: request.monthlyQuota, used: outcome === 'quota' ? (request.monthlyQuota ?? 0) : 1 },
      };
    },
  };
  return { admission, calls };
}

const servers: TestHttp[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** correlation id -> error handler -> the given steps -> a handler that answers by path. */
async function app(steps: Middleware[], billed: string[] = []): Promise<TestHttp> {
  const koa = new Koa();
  koa.silent = true;
  koa.use(correlationId());
  koa.use(errorHandler(createLogger('silent')));
  for (const step of steps) koa.use(step);
  koa.use(async (ctx) => {
    billed.push('handler');
    if (ctx.path === '/bad') throw new ApiError(400, 'Bad Request', 'no', { page: ['must be an integer'] });
    if (ctx.path === '/boom') throw new Error('secret internals: password=hunter2');
    if (ctx.path === '/missing') return; // no body: 404 from routing
    if (ctx.path === '/gone') throw new ApiError(404, 'Not Found', 'No company has the register number 1a.');
    if (ctx.path === '/account') {
      ctx.body = { accountId: requireAccount(ctx) };
      return;
    }
    ctx.body = { principal: principalOf(ctx) ?? null };
  });
  const http = await serve(koa);
  servers.push(http);
  return http;
}

const NOW = Date.UTC(2025, 2, 14, 12, 0, 0);
const clock = () => NOW;

describe('correlation id', () => {
  it('echoes x-correlation-id on a success and generates one when none was sent', async () => {
    const h = await app([]);
    const echoed = await h.get('/ok', { 'x-correlation-id': 'abc-123' });
    expect(echoed.headers.get('x-correlation-id')).toBe('abc-123');
    const generated = await h.get('/ok');
    expect(generated.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    const other = await h.get('/ok');
    expect(other.headers.get('x-correlation-id')).not.toBe(generated.headers.get('x-correlation-id'));
  });

  it('replaces a value that is not a printable token', async () => {
    const h = await app([]);
    const res = await h.get('/ok', { 'x-correlation-id': 'x'.repeat(500) });
    expect(res.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ['401', '/ok', {}],
    ['400', '/bad', { 'x-api-key': 'account-key' }],
    ['404', '/missing', { 'x-api-key': 'account-key' }],
    ['500', '/boom', { 'x-api-key': 'account-key' }],
  ])('is on the %s response, echoed and generated', async (_status, path, headers) => {
    const h = await app([apiKeyAuth({ resolver, accountBound: false })]);
    const echoed = await h.get(path, { ...headers, 'x-correlation-id': 'trace-77' });
    expect(echoed.headers.get('x-correlation-id')).toBe('trace-77');
    const generated = await h.get(path, headers);
    expect(generated.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is on both 429s, echoed and generated', async () => {
    for (const outcome of ['burst', 'quota'] as const) {
      const { admission } = fakeAdmission(outcome);
      const h = await app([apiKeyAuth({ resolver, accountBound: false }), burstLimit(admission, clock), monthlyQuota(clock)]);
      const res = await h.get('/ok', { 'x-api-key': 'account-key', 'x-correlation-id': `c-${outcome}` });
      expect(res.status).toBe(429);
      expect(res.headers.get('x-correlation-id')).toBe(`c-${outcome}`);
      const generated = await h.get('/ok', { 'x-api-key': 'account-key' });
      expect(generated.status).toBe(429);
      expect(generated.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('error shapes', () => {
  it('400 from a thrown error: problem+json with title, status, detail, instance, traceId, errors and correlationId', async () => {
    const h = await app([]);
    const res = await h.get('/bad', { 'x-correlation-id': 'c-400' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await json(res)).toEqual({
      title: 'Bad Request', status: 400, detail: 'no', instance: '/bad', traceId: 'c-400', correlationId: 'c-400',
      errors: { page: ['must be an integer'] },
    });
  });

  it('404 without a route: problem+json with the ProblemDetails fields', async () => {
    const h = await app([]);
    const res = await h.get('/missing', { 'x-correlation-id': 'c-404' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await json(res)).toMatchObject({ title: 'Not Found', status: 404, instance: '/missing', traceId: 'c-404' });
  });

  it('404 from a thrown error: the exception handler adds correlationId', async () => {
    const h = await app([]);
    const res = await h.get('/gone', { 'x-correlation-id': 'c-404b' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await json(res)).toEqual({
      title: 'Not Found', status: 404, detail: 'No company has the register number 1a.', instance: '/gone', traceId: 'c-404b', correlationId: 'c-404b',
    });
  });

  it('500 never shows internals and carries the correlation id', async () => {
    const h = await app([]);
    const res = await h.get('/boom', { 'x-correlation-id': 'c-500' });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const text = await res.text();
    expect(text).not.toMatch(/hunter2|secret|stack|Error:/);
    expect(JSON.parse(text)).toEqual({
      title: 'Internal Server Error', status: 500, detail: expect.any(String), instance: '/boom', traceId: 'c-500', correlationId: 'c-500',
    });
  });
});

describe('API-key authentication', () => {
  it.each([
    ['missing', {}],
    ['empty', { 'x-api-key': '  ' }],
    ['unknown', { 'x-api-key': 'nope' }],
  ])('answers a %s key with 401 application/json { error }', async (_case, headers) => {
    const h = await app([apiKeyAuth({ resolver, accountBound: false })]);
    const res = await h.get('/ok', headers);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(await json(res))).toEqual(['error']);
  });

  it('passes a valid key on with its principal', async () => {
    const h = await app([apiKeyAuth({ resolver, accountBound: false })]);
    const res = await h.get('/ok', { 'x-api-key': 'account-key' });
    expect(res.status).toBe(200);
    expect((await json(res)).principal).toEqual(ACCOUNT_KEY);
  });

  it('refuses a service key on an account-bound route without a session cookie', async () => {
    expect((await (await app([apiKeyAuth({ resolver, accountBound: false })])).get('/ok', { 'x-api-key': 'service-key' })).status).toBe(200);
    const h = await app([apiKeyAuth({ resolver, accountBound: true })]);
    const res = await h.get('/account', { 'x-api-key': 'service-key' });
    expect(res.status).toBe(401);
    expect((await json(res)).error).toMatch(/belongs to an account/);
    expect((await h.get('/account', { 'x-api-key': 'service-key', cookie: 'session=forged' })).status).toBe(401);
  });

  it("lets a service key with a valid session cookie act for the session's account", async () => {
    const h = await app([apiKeyAuth({ resolver, accountBound: true })]);
    const res = await h.get('/account', { 'x-api-key': 'service-key', cookie: 'session=good-session' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ accountId: 'acc-9' });
  });

  it("uses an account key's own account, whatever cookie comes along", async () => {
    const h = await app([apiKeyAuth({ resolver, accountBound: true })]);
    const res = await h.get('/account', { 'x-api-key': 'account-key', cookie: 'session=good-session' });
    expect(await json(res)).toEqual({ accountId: 'acc-1' });
  });
});

describe('burst limit', () => {
  it('answers 429 { error } with Retry-After: 60, the RateLimit and X-Quota headers, and stops the request', async () => {
    const { admission } = fakeAdmission('burst');
    const reached: string[] = [];
    const h = await app([apiKeyAuth({ resolver, accountBound: false }), burstLimit(admission, clock), monthlyQuota(clock), billing()], reached);
    const res = await h.get('/ok', { 'x-api-key': 'account-key' });
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.headers.get('ratelimit-limit')).toBe('1000');
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(res.headers.get('ratelimit-reset')).toBe('42');
    // Every authenticated response carries the month's figures too (api-decisions.md).
    expect(res.headers.get('x-quota-limit')).toBe('100');
    expect(res.headers.get('x-quota-remaining')).toBe('99');
    expect((await json(res)).error).toMatch(/^Burst limit exceeded/);
    expect(reached).toEqual([]);
  });

  it('passes the key, the metering subject, the quota and the injected time to the admission', async () => {
    const { admission, calls } = fakeAdmission();
    const h = await app([apiKeyAuth({ resolver, accountBound: false }), burstLimit(admission, clock), monthlyQuota(clock), billing()]);
    await h.get('/ok', { 'x-api-key': 'account-key' });
    expect(calls).toEqual([{ keyId: 'k1', subject: 'account:acc-1', monthlyQuota: 100, now: NOW }]);
  });
});

describe('monthly quota', () => {
  it('answers 429 whose error begins with the monthly-quota message, Retry-After until 00:00 UTC on the 1st', async () => {
    const { admission } = fakeAdmission('quota');
    const reached: string[] = [];
    const h = await app([apiKeyAuth({ resolver, accountBound: false }), burstLimit(admission, clock), monthlyQuota(clock), billing()], reached);
    const res = await h.get('/ok', { 'x-api-key': 'account-key' });
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await json(res)).error).toMatch(/^Monthly quota exceeded/);
    // 2025-03-14T12:00Z -> 2025-04-01T00:00Z is 17.5 days.
    expect(res.headers.get('retry-after')).toBe(String(17.5 * 86_400));
    expect(res.headers.get('x-quota-limit')).toBe('100');
    expect(res.headers.get('x-quota-remaining')).toBe('0');
    expect(reached).toEqual([]);
  });

  it('never answers Retry-After: 60 (the burst marker), even in the last minute of a month', () => {
    const lastSecond = Date.UTC(2025, 2, 31, 23, 59, 59);
    expect(secondsUntilNextMonth(lastSecond)).toBe(1);
    expect(quotaRetryAfterSeconds(lastSecond)).toBe(61);
    expect(quotaRetryAfterSeconds(Date.UTC(2025, 2, 31, 23, 58, 0))).toBe(120);
  });

  it('shows unlimited plans as unlimited in X-Quota-Limit and X-Quota-Remaining', async () => {
    const { admission } = fakeAdmission();
    const h = await app([apiKeyAuth({ resolver, accountBound: false }), burstLimit(admission, clock), monthlyQuota(clock), billing()]);
    const res = await h.get('/ok', { 'x-api-key': 'service-key' });
    expect(res.headers.get('x-quota-limit')).toBe('unlimited');
    expect(res.headers.get('x-quota-remaining')).toBe('unlimited');
  });

  it('puts the quota and rate-limit headers on admitted responses, errors included', async () => {
    const { admission } = fakeAdmission();
    const h = await app([apiKeyAuth({ resolver, accountBound: false }), burstLimit(admission, clock), monthlyQuota(clock), billing()]);
    for (const path of ['/ok', '/bad', '/missing', '/boom']) {
      const res = await h.get(path, { 'x-api-key': 'account-key' });
      expect(res.headers.get('x-quota-limit')).toBe('100');
      expect(res.headers.get('x-quota-remaining')).toBe('99');
      expect(res.headers.get('ratelimit-limit')).toBe('1000');
      expect(res.headers.get('ratelimit-remaining')).toBe('999');
      expect(res.headers.get('ratelimit-reset')).toBe('42');
    }
  });
});

describe('billing and the order of the chain', () => {
  it('bills every admitted call exactly once, whatever the endpoint answers', async () => {
    const { admission, calls } = fakeAdmission();
    const billed: string[] = [];
    const h = await app([apiKeyAuth({ resolver, accountBound: false }), burstLimit(admission, clock), monthlyQuota(clock), billing({ billed: (s) => billed.push(s) })]);
    const statuses = [];
    for (const path of ['/ok', '/bad', '/missing', '/boom']) statuses.push((await h.get(path, { 'x-api-key': 'account-key' })).status);
    expect(statuses).toEqual([200, 400, 404, 500]);
    expect(calls).toHaveLength(4);
    expect(billed).toEqual(['account:acc-1', 'account:acc-1', 'account:acc-1', 'account:acc-1']);
  });

  it('never asks the admission for a 401: unauthenticated and account-less calls are not billed', async () => {
    const { admission, calls } = fakeAdmission();
    const h = await app([apiKeyAuth({ resolver, accountBound: false }), burstLimit(admission, clock), monthlyQuota(clock), billing()]);
    expect((await h.get('/ok')).status).toBe(401);
    expect((await h.get('/ok', { 'x-api-key': 'revoked' })).status).toBe(401);
    const bound = await app([apiKeyAuth({ resolver, accountBound: true }), burstLimit(admission, clock), monthlyQuota(clock), billing()]);
    expect((await bound.get('/account', { 'x-api-key': 'service-key' })).status).toBe(401);
    expect(calls).toEqual([]);
  });
});
