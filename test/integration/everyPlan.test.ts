// "Every endpoint is available in every plan" (interface-spec.md, Authentication 6): a key of each
// plan reaches every operation the API describes. Whatever an operation answers to these sample
// requests (a page, a 400 for a sample body, a 404 for a sample id, the download's 503 without a
// register), it is never the access chain refusing the plan: no 401, 403 or 429.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureReadModel } from '../../indexer/indexer.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey } from '../helpers/apiAccess.js';
import { json, type TestHttp } from '../helpers/httpClient.js';
import type { TestDatabase } from '../helpers/testDatabase.js';
import { startTestApi, type TestApi } from '../helpers/testApi.js';

let api: TestApi;
let db: TestDatabase;
let http: TestHttp;

beforeAll(async () => {
  // As `npm start` leaves a new database: the search read model exists (empty).
  api = await startTestApi({ prepare: (db) => ensureReadModel(db.sql, createLogger('silent')) });
  ({ db, http } = api);
});
afterAll(() => api.close());

const SAMPLE_PARAMS: Record<string, string> = { fnr: '30435h', personId: 'eva-muster-1970-01-01', documentKey: 'k1', gisaZahl: '123456789' };

describe('every endpoint in every plan', () => {
  it.each(['free', 'pro', 'api'] as const)('the %s plan reaches every described operation', async (plan) => {
    const { key } = await accountWithKey(db.sql, plan);
    const doc = await json(await http.get('/api/v1/openapi.json'));
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })));
    expect(operations.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const { method, path } of operations) {
      const url = `/api/v1${path.replace(/\{(\w+)\}/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? randomUUID())}`;
      const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
      const res = await http.request(url, {
        method, headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) }, body,
      });
      await res.arrayBuffer();
      answers.push(`${method} ${path} ${res.status}`);
    }
    expect(answers.filter((a) => / (401|403|429)$/.test(a))).toEqual([]);
    // Sample input never breaks an endpoint either (the download's 503 is the contract's answer without a register).
    expect(answers.filter((a) => / 5\d\d$/.test(a) && !a.startsWith('GET /documents/download/'))).toEqual([]);
    // And the operations really ran: sample ids give 404s, sample bodies 400s, lists of nothing 200s.
    expect(answers.filter((a) => / 200$/.test(a)).length).toBeGreaterThan(15);
  });
});
