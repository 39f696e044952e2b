// npm start: the service without replaying anything. Applies pending migrations, then runs the parts
// SERVICE_ROLES names (default all three in this process): the API, the pipeline workers with their
// change-feed schedules, and the indexers (Postgres read model, plus Elasticsearch when configured).
import { startApi } from '../../api/server.js';
import { ensureReadModel, registerIndexerLagMetric } from '../../indexer/indexer.js';
import { createSearchBackend, startIndexers } from '../../indexer/searchRuntime.js';
import { firmenbuchDocumentSource } from '../../pipeline/firmenbuch/documentSource.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { gisaExtractSource } from '../../pipeline/gisa/extractSource.js';
import { registerGisaMetrics } from '../../pipeline/gisa/metrics.js';
import { bootstrap, runMain } from '../bootstrap.js';
import { createMetrics } from '../metrics.js';
import { MiB } from '../../pipeline/upstream/bodyLimit.js';
import { installProcessGuards } from '../processGuards.js';
import { onShutdown } from '../shutdown.js';

runMain(async () => {
  const rt = await bootstrap({ applicationName: 'service' });
  installProcessGuards(rt.log);
  const { config } = rt;
  const roles = new Set(config.SERVICE_ROLES);
  const metrics = createMetrics();
  const closers: Array<() => Promise<void>> = [];

  // The API process opens the queues too (work: false) for the operator board and queue metrics.
  const pipeline = roles.has('pipeline') || roles.has('api')
    ? await startPipeline({
        sql: rt.sql,
        redisUrl: rt.redisUrl,
        log: rt.log,
        config,
        concurrency: config.PIPELINE_CONCURRENCY,
        work: roles.has('pipeline'),
        schedules: roles.has('pipeline'),
        onOutcome: metrics.jobOutcome,
        onUpstreamRequest: metrics.upstreamRequest,
        onRegisterRun: metrics.registerRun,
      })
    : null;
  if (pipeline) metrics.watchQueues(Object.values(pipeline.queues));

  if (roles.has('indexer')) {
    const indexers = await startIndexers(rt.sql, rt.log, config.ELASTICSEARCH_URL);
    closers.push(indexers.close);
  }
  registerIndexerLagMetric(metrics, rt.sql);
  closers.push(registerGisaMetrics(metrics, rt.sql, rt.redisUrl, config));

  if (roles.has('api')) {
    // Autocomplete, resolve-names and the Postgres screener read the read model: an API started alone
    // on a new database must not answer 500s until an indexer has built it (with the indexer role in
    // this process, startIndexers has ensured it already).
    if (!roles.has('indexer')) await ensureReadModel(rt.sql, rt.log);
    const search = await createSearchBackend(rt.sql, { elasticsearchUrl: config.ELASTICSEARCH_URL, screenerColumns: config.SCREENER_COLUMNS, log: rt.log });
    if (search.close) closers.push(search.close);
    const api = await startApi({
      sql: rt.sql, log: rt.log, port: config.PORT, redisUrl: rt.redisUrl, metrics: metrics.registry,
      queues: pipeline ? Object.values(pipeline.queues) : undefined, adminToken: config.ADMIN_TOKEN,
      search, maxConnections: config.API_MAX_CONNECTIONS, exportConcurrency: config.EXPORT_CONCURRENCY,
      tradeExtracts: pipeline?.queues.gisa ? gisaExtractSource(rt.sql, pipeline.queues.gisa) : undefined,
      documents: firmenbuchDocumentSource(rt.sql, new FirmenbuchClient({
        baseUrl: config.FIRMENBUCH_URL, apiKey: config.FIRMENBUCH_API_KEY, timeoutMs: 30_000, maxDocumentBytes: config.FIRMENBUCH_MAX_DOCUMENT_MB * MiB,
      })),
    });
    console.log(`API: ${api.baseUrl}`);
    closers.unshift(api.close); // stop taking requests first
  }
  // Then let workers finish their active jobs, then close the pools.
  if (pipeline) closers.push(pipeline.close);
  onShutdown(rt.log, [...closers, rt.close]);
  rt.log.info({ roles: [...roles] }, 'service started');
});
