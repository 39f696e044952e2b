// npm start: the service without replaying anything. Applies pending migrations, then runs the parts
// SERVICE_ROLES names (default all three in this process): the API (with the dashboard and, on
// MCP_PORT, the MCP server), the pipeline workers with their change-feed schedules, and the indexers
// (Postgres read model, plus Elasticsearch when configured).
import { mcpOptionsFromConfig } from '../../api/mcp/mcpRuntime.js';
import { startApi } from '../../api/server.js';
import { ensureReadModel, registerIndexerLagMetric } from '../../indexer/indexer.js';
import { createSearchBackend, startIndexers } from '../../indexer/searchRuntime.js';
import { firmenbuchDocumentSource } from '../../pipeline/firmenbuch/documentSource.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { gisaExtractSource } from '../../pipeline/gisa/extractSource.js';
import { registerGisaMetrics } from '../../pipeline/gisa/metrics.js';
import { REGISTERS } from '../../pipeline/registers.js';
import { bootstrap, CliError, runMain } from '../bootstrap.js';
import { loadConfig, type Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { registerFreshnessMetrics } from '../registerStatus.js';
import { MiB } from '../../pipeline/upstream/bodyLimit.js';
import { installProcessGuards } from '../processGuards.js';
import { onShutdown } from '../shutdown.js';
import { commandLine } from './args.js';

const USAGE = `usage: npm start [-- --yes]
  Runs the parts SERVICE_ROLES names (api, pipeline, indexer). With the pipeline role and a register's
  URL left at its default, it crawls the real register: in a terminal that needs --yes.`;

/** Says loudly which real registers the pipeline is about to crawl; in a terminal it wants --yes for it. */
function guardRealRegisters(config: Config, yes: boolean, log: Logger): void {
  const defaults = loadConfig({});
  const real = REGISTERS.map((r) => ({ name: r.name, url: r.upstream(config).baseUrl }))
    .filter((r, i) => r.url === REGISTERS[i]!.upstream(defaults).baseUrl);
  if (real.length === 0) return;
  const list = real.map((r) => `${r.name} at ${r.url}`).join(', ');
  if (process.stdin.isTTY && !yes) {
    throw new CliError(`npm start would crawl the real registers (${list}): point their *_URL variables at fakes (npm run fake-upstream) or pass --yes\n${USAGE}`);
  }
  console.error(`\n*** The pipeline crawls the real registers: ${list} ***\n`);
  log.warn({ registers: real }, 'crawling the real registers');
}

runMain(async () => {
  const { values } = commandLine({ usage: USAGE, options: { yes: { type: 'boolean', default: false } } });
  const rt = await bootstrap({ applicationName: 'service' });
  installProcessGuards(rt.log);
  const { config } = rt;
  const roles = new Set(config.SERVICE_ROLES);
  if (roles.has('pipeline')) guardRealRegisters(config, values.yes, rt.log);
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
        history: { count: config.JOB_HISTORY_COUNT, ageSeconds: config.JOB_HISTORY_HOURS * 3600 },
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
  registerFreshnessMetrics(metrics.registry, rt.sql);

  if (roles.has('api')) {
    // Autocomplete, resolve-names and the Postgres screener read the read model: an API started alone
    // on a new database must not answer 500s until an indexer has built it (with the indexer role in
    // this process, startIndexers has ensured it already).
    if (!roles.has('indexer')) await ensureReadModel(rt.sql, rt.log);
    const search = await createSearchBackend(rt.sql, { elasticsearchUrl: config.ELASTICSEARCH_URL, screenerColumns: config.SCREENER_COLUMNS, log: rt.log });
    if (search.close) closers.push(search.close);
    const api = await startApi({
      sql: rt.sql, log: rt.log, port: config.PORT, redisUrl: rt.redisUrl, metrics: metrics.registry,
      queues: pipeline ? Object.values(pipeline.queues) : undefined, adminToken: config.ADMIN_TOKEN, metricsToken: config.METRICS_TOKEN,
      search, maxConnections: config.API_MAX_CONNECTIONS, exportConcurrency: config.EXPORT_CONCURRENCY, corsOrigins: config.CORS_ORIGINS,
      // The MCP server runs with the API: same counters, search backend and revocations (docs/mcp.md).
      mcp: mcpOptionsFromConfig(config),
      tradeExtracts: pipeline?.queues.gisa ? gisaExtractSource(rt.sql, pipeline.queues.gisa) : undefined,
      documents: firmenbuchDocumentSource(rt.sql, new FirmenbuchClient({
        baseUrl: config.FIRMENBUCH_URL, apiKey: config.FIRMENBUCH_API_KEY, timeoutMs: 30_000, maxDocumentBytes: config.FIRMENBUCH_MAX_DOCUMENT_MB * MiB,
      })),
    });
    console.log(`API: ${api.baseUrl}`);
    console.log(`MCP: ${config.MCP_URL} (listening on port ${config.MCP_PORT})`);
    closers.unshift(api.close); // stop taking requests first
  }
  // Then let workers finish their active jobs, then close the pools.
  if (pipeline) closers.push(pipeline.close);
  onShutdown(rt.log, [...closers, rt.close]);
  rt.log.info({ roles: [...roles] }, 'service started');
});
