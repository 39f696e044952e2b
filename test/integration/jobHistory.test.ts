// Issue 23.11: completed jobs stay on the board as a bounded history (JOB_HISTORY_COUNT,
// JOB_HISTORY_HOURS), and a finished job kept there does not stop the same work from running again.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPipeline, type Pipeline } from '../../pipeline/pipelineWorker.js';
import type { JobHistory } from '../../pipeline/jobs/runJob.js';
import { oneJobRegister } from '../helpers/oneJobRegister.js';
import { createLogger } from '../../runtime/logger.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const runs: string[] = [];
const steady = oneJobRegister('steady', (p) => Promise.resolve(void runs.push(p.id)));

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

async function withPipeline(history: JobHistory, body: (pipeline: Pipeline) => Promise<void>): Promise<void> {
  runs.length = 0;
  const pipeline = await startPipeline({
    sql: db.sql, redisUrl: inject('redisUrl'), log: createLogger('silent'), registers: [steady], concurrency: 1,
    prefix: `history-${randomBytes(4).toString('hex')}`, history,
  });
  try {
    await body(pipeline);
  } finally {
    await pipeline.queues[steady.name]!.obliterate({ force: true });
    await pipeline.close();
  }
}

/** Enqueues one job per id, one after another, each finished before the next. */
async function runEach(pipeline: Pipeline, ids: string[]): Promise<void> {
  for (const id of ids) {
    await pipeline.enqueue(steady, 'fetch', { id });
    await pipeline.drained(10);
  }
}

const kept = async (pipeline: Pipeline) => (await pipeline.queues[steady.name]!.getCompleted()).map((j) => j.deduplicationId).sort();

describe('the history of finished jobs', () => {
  it('keeps the newest completed jobs up to the configured count', async () => {
    await withPipeline({ count: 3, ageSeconds: 3600 }, async (pipeline) => {
      await runEach(pipeline, ['a', 'b', 'c', 'd', 'e', 'f']);
      expect(runs).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      expect(await kept(pipeline)).toEqual(['fetch.d', 'fetch.e', 'fetch.f']);
    });
  });

  it('drops completed jobs older than the configured age', async () => {
    await withPipeline({ count: 1000, ageSeconds: 1 }, async (pipeline) => {
      await runEach(pipeline, ['a', 'b', 'c']);
      expect(await kept(pipeline)).toEqual(['fetch.a', 'fetch.b', 'fetch.c']);
      await new Promise((r) => setTimeout(r, 2100));
      await runEach(pipeline, ['d']);
      expect(await kept(pipeline)).toEqual(['fetch.d']);
    });
  });

  it('does not keep the same work from running again while its finished job is on the board', async () => {
    await withPipeline({ count: 1000, ageSeconds: 3600 }, async (pipeline) => {
      await runEach(pipeline, ['a', 'a', 'a']);
      expect(runs).toEqual(['a', 'a', 'a']);
      expect((await kept(pipeline)).length).toBeGreaterThanOrEqual(1);
    });
  });
});
