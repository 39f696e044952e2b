// A job whose transport faults use up its attempts is a failure: counted as `failed` on its last
// attempt (not `retry`), and logged at warn with its id and reason.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { oneJobRegister } from '../helpers/oneJobRegister.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const flaky = oneJobRegister('flaky', () => Promise.reject(new UpstreamUnavailableError('flaky', 503, 'upstream answered HTTP 503')));

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('a job that runs out of attempts', () => {
  it('counts its last attempt as failed and logs it at warn', async () => {
    const lines: Array<{ level: number; msg: string; jobId?: string; err?: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    });
    const outcomes: string[] = [];
    const pipeline = await startPipeline({
      sql: db.sql, redisUrl: inject('redisUrl'), log: pino({ level: 'warn' }, sink), registers: [flaky], concurrency: 1,
      backoffDelayMs: 5, prefix: `outcomes-${randomBytes(4).toString('hex')}`, onOutcome: (e) => outcomes.push(e.outcome),
    });
    try {
      await pipeline.enqueue(flaky, 'fetch', { id: 'x' });
      await pipeline.drained(50);
      expect(outcomes).toEqual([...Array<string>(7).fill('retry'), 'failed']);
      const failed = await pipeline.queues[flaky.name]!.getFailed();
      expect(failed.map((j) => j.deduplicationId)).toEqual(['fetch.x']);
      expect(lines).toEqual([expect.objectContaining({ level: 40, jobId: 'fetch.x', err: 'upstream answered HTTP 503', msg: 'job failed after its last attempt' })]);
    } finally {
      await pipeline.queues[flaky.name]!.obliterate({ force: true });
      await pipeline.close();
    }
  }, 30_000);
});
