// The SUCHEFIRMA backfill through the real pipeline against the fake register: every company of the
// bundled corpus is found by prefix walking and stored.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { backfillRoots } from '../../pipeline/firmenbuch/backfill.js';
import { startFakeFirmenbuch, type FakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import { startPipeline, type Pipeline } from '../../pipeline/pipelineWorker.js';
import { createLogger } from '../../runtime/logger.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const CORPUS = new URL('../../fixtures/corpus/', import.meta.url).pathname;
let db: TestDatabase;
let fake: FakeFirmenbuch;
let pipeline: Pipeline;

beforeAll(async () => {
  db = await createTestDatabase();
  fake = await startFakeFirmenbuch({ corpus: CORPUS, port: 0 });
  pipeline = await startPipeline({
    sql: db.sql, redisUrl: inject('redisUrl'), log: createLogger('silent'), prefix: `backfill-${randomBytes(4).toString('hex')}`,
    registers: [firmenbuch], upstreams: { firmenbuch: { baseUrl: fake.url, ratePerSecond: 1000, timeoutMs: 5000 } }, concurrency: 8, backoffDelayMs: 50,
  });
});
afterAll(async () => {
  for (const q of Object.values(pipeline.queues)) await q.obliterate({ force: true });
  await pipeline.close();
  await fake.close();
  await db.drop();
});

describe('backfill', () => {
  it('finds and stores every company of the register by walking name prefixes per legal form', async () => {
    await pipeline.enqueueMany(firmenbuch, 'backfill', backfillRoots(['GES', 'AG', 'KG', 'OG', 'EU', 'GEN', 'PST']));
    await pipeline.drained();
    const stored = (await db.sql<{ fnr: string }[]>`SELECT fnr FROM company ORDER BY fnr`).map((r) => r.fnr);
    const corpus = readdirSync(`${CORPUS}firmenbuch/auszug`).map((f) => f.replace(/\.xml$/, '')).sort();
    expect(stored).toEqual(corpus);
    expect(fake.stats.requests.sucheFirma).toBe(7 * 39);
  });
});
