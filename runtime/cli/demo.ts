// npm run demo: the whole service on this machine with the bundled data. Finds or starts Postgres and
// Redis, migrates, loads catalogues, issues a fresh demo API key, serves on PORT (default 8080) and the
// MCP server on MCP_PORT (8081), and prints the base URL and the key, the dashboard, how to connect an
// MCP client, and the operator's pages (sign-in with the admin token, Bull Board, /metrics).
import { createAccount, createApiKey, findAccountByEmail } from '../../api/accounts/accountStore.js';
import { mcpOptionsFromConfig, type McpListenerOptions } from '../../api/mcp/mcpRuntime.js';
import { startApi } from '../../api/server.js';
import { createSearchBackend, startIndexers } from '../../indexer/searchRuntime.js';
import { firmenbuchDocumentSource } from '../../pipeline/firmenbuch/documentSource.js';
import { startFakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { randomBytes } from 'node:crypto';
import { registerIndexerLagMetric } from '../../indexer/indexer.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { BUNDLED_CORPUS, replay } from '../../pipeline/replay/replay.js';
import { startDemoGisa } from '../../pipeline/gisa/demoGisa.js';
import { bootstrap, runMain } from '../bootstrap.js';
import type { Config } from '../config.js';
import { createMetrics } from '../metrics.js';
import { registerFreshnessMetrics } from '../registerStatus.js';
import { onShutdown } from '../shutdown.js';
import { commandLine } from './args.js';

const DEMO_EMAIL = 'demo@example.org';
/** Where the MCP Inspector's web page runs: the demo lets it call the MCP server from the browser unless MCP_ALLOWED_ORIGINS says otherwise. */
const INSPECTOR_ORIGINS = ['http://localhost:6274', 'http://127.0.0.1:6274'];

function demoMcpOptions(config: Config): McpListenerOptions {
  const options = mcpOptionsFromConfig(config);
  return { ...options, allowedOrigins: config.MCP_ALLOWED_ORIGINS.length > 0 ? config.MCP_ALLOWED_ORIGINS : INSPECTOR_ORIGINS };
}
const REPLAY_PREFIX = 'demo-replay';

runMain(async () => {
  commandLine({ usage: "usage: npm run demo\n  The whole service with the bundled data: finds or starts Postgres and Redis, replays the fixtures once, issues a demo key.", options: {} });
  const rt = await bootstrap({ applicationName: 'demo' });
  const [stored] = await rt.sql<{ companies: number }[]>`SELECT count(*)::int AS companies FROM company`;
  if (stored?.companies === 0) {
    // First run on this database: load the bundled corpus through the real pipeline.
    console.log('Replaying the bundled fixtures into a fresh database ...');
    const summary = await replay({ sql: rt.sql, redisUrl: rt.redisUrl, log: rt.log, fixturesDir: BUNDLED_CORPUS, prefix: REPLAY_PREFIX });
    console.log(`  ${summary.companies} companies, ${summary.persons} persons, ${summary.filings} filings, ${summary.changes} change rows, ${summary.failures} failures`);
  }
  const account = (await findAccountByEmail(rt.sql, DEMO_EMAIL)) ?? (await createAccount(rt.sql, { email: DEMO_EMAIL, plan: 'api' }));
  // Keys are stored hashed and shown once, so each demo run issues a new one and retires the old.
  const retired = await rt.sql`UPDATE api_key SET revoked_at = now() WHERE account_id = ${account.id} AND label = 'demo' AND revoked_at IS NULL`;
  const issued = await createApiKey(rt.sql, { accountId: account.id, label: 'demo' });
  const indexers = await startIndexers(rt.sql, rt.log, rt.config.ELASTICSEARCH_URL);
  // The bundled corpus stays served by the fake register, so documents not stored yet (articles of
  // association, ...) download live as they would from the real one.
  const register = await startFakeFirmenbuch({ corpus: BUNDLED_CORPUS, port: 0 });
  // Signed trade extracts come from the fake GISA through a GISA worker, as they would from the real one.
  const trades = await startDemoGisa({ sql: rt.sql, redisUrl: rt.redisUrl, log: rt.log, fixturesDir: BUNDLED_CORPUS });
  const search = await createSearchBackend(rt.sql, { elasticsearchUrl: rt.config.ELASTICSEARCH_URL, screenerColumns: rt.config.SCREENER_COLUMNS, log: rt.log });
  // The replay's queues, opened without workers, for the operator's board and the queue metrics.
  const queues = await startPipeline({ sql: rt.sql, redisUrl: rt.redisUrl, log: rt.log, prefix: REPLAY_PREFIX, work: false, concurrency: 1 });
  const metrics = createMetrics();
  metrics.watchQueues(Object.values(queues.queues));
  registerIndexerLagMetric(metrics, rt.sql);
  registerFreshnessMetrics(metrics.registry, rt.sql);
  const adminToken = rt.config.ADMIN_TOKEN ?? randomBytes(18).toString('base64url');
  const api = await startApi({
    sql: rt.sql, log: rt.log, port: rt.config.PORT, redisUrl: rt.redisUrl, search,
    metrics: metrics.registry, queues: Object.values(queues.queues), adminToken,
    documents: firmenbuchDocumentSource(rt.sql, new FirmenbuchClient({ baseUrl: register.url, timeoutMs: 10_000 })),
    tradeExtracts: trades.extracts, corsOrigins: rt.config.CORS_ORIGINS,
    mcp: demoMcpOptions(rt.config),
  });
  const origin = new URL(api.baseUrl).origin;
  // A configured token is the operator's secret and stays out of the output; a generated one is shown once.
  const shownToken = rt.config.ADMIN_TOKEN ? 'your ADMIN_TOKEN' : `the token ${adminToken}   (a token for this run; set ADMIN_TOKEN to keep one)`;
  console.log([
    '', 'Service running.',
    `  base URL:     ${api.baseUrl}`,
    `  demo API key: ${issued.key}${retired.count > 0 ? '   (the key of the previous demo run is revoked: keys are stored hashed and shown once)' : ''}`,
    `  try:          curl -H 'x-api-key: ${issued.key}' '${api.baseUrl}/businesses?orderBy=guv.Umsatzerloese&orderByDescending=true'`,
    `  dashboard:    ${origin}/app   (sign up, API keys, usage, connected AI tools; OAuth metadata at ${origin}/.well-known/oauth-authorization-server)`,
    `  MCP server:   ${rt.config.MCP_URL}   (for AI tools; they sign in through the dashboard with OAuth, calls count against that account)`,
    `  connect:      Claude Code: claude mcp add --transport http austrian-companies ${rt.config.MCP_URL}`,
    `                Claude Desktop (claude_desktop_config.json): {"mcpServers": {"austrian-companies": {"command": "npx", "args": ["mcp-remote", "${rt.config.MCP_URL}"]}}}`,
    `                MCP Inspector: npx @modelcontextprotocol/inspector, transport Streamable HTTP, URL ${rt.config.MCP_URL}`,
    `  docs:         ${api.baseUrl}/docs`,
    `  status:       ${api.baseUrl}/status`,
    `  operator:     ${origin}/admin/login   sign in with ${shownToken}`,
    `  queues:       ${origin}/admin/queues   (after sign-in)`,
    `  metrics:      ${origin}/metrics   (after sign-in, or curl -H "Authorization: Bearer <token>")`, '',
  ].join('\n'));
  onShutdown(rt.log, [api.close, async () => search.close?.(), indexers.close, register.close, trades.close, queues.close, rt.close]);
});
