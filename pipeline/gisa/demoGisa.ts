// npm run demo: the bundled GISA fixtures served by the fake, and a GISA worker with it, so signed
// trade extracts download through the pipeline as they would from the real register.
import type { Sql } from '../../runtime/db.js';
import type { Logger } from '../../runtime/logger.js';
import type { TradeExtractSource } from '../../runtime/tradeExtractSource.js';
import { startPipeline } from '../pipelineWorker.js';
import { gisaExtractSource } from './extractSource.js';
import { startFakeGisa } from './fake/fakeGisa.js';
import { gisa } from './index.js';

export async function startDemoGisa(options: { sql: Sql; redisUrl: string; log: Logger; fixturesDir: string }): Promise<{ extracts: TradeExtractSource; close: () => Promise<void> }> {
  const fake = await startFakeGisa({ fixturesDir: options.fixturesDir });
  const pipeline = await startPipeline({
    sql: options.sql, redisUrl: options.redisUrl, log: options.log, registers: [gisa], concurrency: 2, prefix: 'demo-gisa',
    // The fake's extract jobs finish after two status polls: poll briskly.
    upstreams: { gisa: { baseUrl: fake.url, tuning: { firstPollMs: 300, pollMs: 300 } } },
  });
  return {
    extracts: gisaExtractSource(options.sql, pipeline.queues.gisa!),
    close: async () => {
      await pipeline.close();
      await fake.close();
    },
  };
}
