// Issue 22: property-based fuzzing of every operation of the OpenAPI document against the real app,
// Postgres and Redis, with a fixed seed (test/fuzz/; `npm run fuzz -- --seed N --requests M` runs
// longer ones). Properties (test/fuzz/properties.ts): never a 5xx, errors in the contract's shapes
// with a correlation id, no protected data without a key, the quota counted exactly.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startFuzzEnvironment, type FuzzEnvironment } from '../fuzz/fuzzEnvironment.js';
import { formatCounts, runFuzz } from '../fuzz/fuzzRun.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const SEED = 22;
const REQUESTS = 3000;

let db: TestDatabase;
let env: FuzzEnvironment;
beforeAll(async () => {
  db = await createTestDatabase();
  env = await startFuzzEnvironment(db.sql, inject('redisUrl'));
}, 60_000);
afterAll(async () => {
  await env?.close();
  await db?.drop();
});

it(`${REQUESTS} fuzzed requests (seed ${SEED}): no 5xx, contract-shaped errors, nothing without a key, exact quota`, async () => {
  const report = await runFuzz(env.target, { seed: SEED, requests: REQUESTS });
  console.log(`fuzz seed ${SEED}: ${REQUESTS} requests in ${(report.durationMs / 1000).toFixed(1)} s\n${formatCounts(report)}`);
  expect(report.violations.slice(0, 10)).toEqual([]);
  expect(await env.verifyCounts(report)).toEqual([]);
  // The run reached the operations, not only their validation.
  expect(report.counts.get(200) ?? 0).toBeGreaterThan(REQUESTS / 10);
  expect(report.ledger.billed('account')).toBeGreaterThan(REQUESTS / 2);
  // The trade register's routes answered with stored GISA data, not only empty lists and 404s.
  for (const op of ['GET /trades', 'GET /trades/{tradeKey}/licenses', 'GET /trades/company/{fnr}', 'GET /trades/documents/{gisaZahl}', 'GET /trades/changes']) {
    expect.soft(report.withData.get(op) ?? 0, op).toBeGreaterThan(0);
  }
}, 120_000);
