// npm start: the service without replaying anything. Applies pending migrations, then runs the API
// the pipeline workers with their change-feed schedules, and the indexer.
import { startApi } from '../../api/server.js';
import { ensureReadModel, indexerLag, startIndexer } from '../../indexer/indexer.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { bootstrap, runMain } from '../bootstrap.js';
import { createMetrics } from '../metrics.js';
import { onShutdown } from '../shutdown.js';

runMain(async () => {
  const rt = await bootstrap({ applicationName: 'service' });
  const { config } = rt;
  const metrics = createMetrics();
  const pipeline = await startPipeline({
    sql: rt.sql,
    redisUrl: rt.redisUrl,
    log: rt.log,
    firmenbuch: {
      baseUrl: config.FIRMENBUCH_URL,
      apiKey: config.FIRMENBUCH_API_KEY,
      timeoutMs: config.FIRMENBUCH_TIMEOUT_MS,
      ratePerSecond: config.FIRMENBUCH_RATE_PER_SECOND,
    },
    concurrency: config.PIPELINE_CONCURRENCY,
    schedules: {
      companyChangesEveryMs: config.FIRMENBUCH_COMPANY_POLL_MINUTES * 60_000,
      documentChangesEveryMs: config.FIRMENBUCH_DOCUMENT_POLL_MINUTES * 60_000,
    },
    onOutcome: metrics.jobOutcome,
    onUpstreamRequest: metrics.upstreamRequest,
  });
  const queues = Object.values(pipeline.queues);
  metrics.watchQueues(queues);
  await ensureReadModel(rt.sql, rt.log);
  const indexer = startIndexer(rt.sql, rt.log);
  metrics.gauge('indexer_lag_changes', 'Newest change id minus the id the search read model has applied', () => indexerLag(rt.sql));
  const api = await startApi({
    sql: rt.sql, log: rt.log, port: config.PORT, metrics: metrics.registry, queues, adminToken: config.ADMIN_TOKEN,
  });
  console.log(`API: ${api.baseUrl}`);
  // Stop taking requests, let workers finish their active jobs, then close the pools.
  onShutdown(rt.log, [api.close, pipeline.close, indexer.close, rt.close]);
});
