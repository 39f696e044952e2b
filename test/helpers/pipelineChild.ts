// A pipeline worker in its own process, for the test that kills a worker mid-run. It enqueues the
// corpus windows, prints "started" and works until it is killed.
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { createSql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const sql = createSql(env('DATABASE_URL'), { max: 4 });
const pipeline = await startPipeline({
  sql,
  redisUrl: env('REDIS_URL'),
  log: createLogger('silent'),
  registers: [firmenbuch],
  upstreams: { firmenbuch: { baseUrl: env('FIRMENBUCH_URL'), ratePerSecond: 1000, timeoutMs: 5000 } },
  concurrency: 4,
  prefix: env('QUEUE_PREFIX'),
  lockDurationMs: 2000,
  stalledIntervalMs: 1000,
  backoffDelayMs: 100,
});
await firmenbuch.replay.start({
  mode: 'fixtures', fixturesDir: env('FIXTURES_DIR'), backfill: false,
  enqueue: (key, payload) => pipeline.enqueue(firmenbuch, key, payload),
  enqueueMany: (key, payloads) => pipeline.enqueueMany(firmenbuch, key, payloads),
});
process.stdout.write('started\n');
