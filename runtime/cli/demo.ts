// npm run demo: the whole service on this machine with the bundled data. Finds or starts Postgres and
// Redis, migrates, loads catalogues, issues a fresh demo API key, serves on PORT (default 8080) and
// prints the base URL and the key.
import { createAccount, createApiKey, findAccountByEmail } from '../../api/accounts/accountStore.js';
import { startApi } from '../../api/server.js';
import { createSearchBackend, startIndexers } from '../../indexer/searchRuntime.js';
import { firmenbuchDocumentSource } from '../../pipeline/firmenbuch/documentSource.js';
import { startFakeFirmenbuch } from '../../pipeline/firmenbuch/fake/fakeUpstream.js';
import { FirmenbuchClient } from '../../pipeline/firmenbuch/firmenbuchClient.js';
import { BUNDLED_CORPUS, replay } from '../../pipeline/replay/replay.js';
import { startDemoGisa } from '../../pipeline/gisa/demoGisa.js';
import { bootstrap, runMain } from '../bootstrap.js';
import { onShutdown } from '../shutdown.js';

const DEMO_EMAIL = 'demo@example.org';

runMain(async () => {
  const rt = await bootstrap({ applicationName: 'demo' });
  const [stored] = await rt.sql<{ companies: number }[]>`SELECT count(*)::int AS companies FROM company`;
  if (stored?.companies === 0) {
    // First run on this database: load the bundled corpus through the real pipeline.
    console.log('Replaying the bundled fixtures into a fresh database ...');
    const summary = await replay({ sql: rt.sql, redisUrl: rt.redisUrl, log: rt.log, fixturesDir: BUNDLED_CORPUS, prefix: 'demo-replay' });
    console.log(`  ${summary.companies} companies, ${summary.persons} persons, ${summary.filings} filings, ${summary.changes} change rows, ${summary.failures} failures`);
  }
  const account = (await findAccountByEmail(rt.sql, DEMO_EMAIL)) ?? (await createAccount(rt.sql, { email: DEMO_EMAIL, plan: 'api' }));
  // Keys are stored hashed and shown once, so each demo run issues a new one and retires the old.
  await rt.sql`UPDATE api_key SET revoked_at = now() WHERE account_id = ${account.id} AND label = 'demo' AND revoked_at IS NULL`;
  const issued = await createApiKey(rt.sql, { accountId: account.id, label: 'demo' });
  const indexers = await startIndexers(rt.sql, rt.log, rt.config.ELASTICSEARCH_URL);
  // The bundled corpus stays served by the fake register, so documents not stored yet (articles of
  // association, ...) download live as they would from the real one.
  const register = await startFakeFirmenbuch({ corpus: BUNDLED_CORPUS, port: 0 });
  // Signed trade extracts come from the fake GISA through a GISA worker, as they would from the real one.
  const trades = await startDemoGisa({ sql: rt.sql, redisUrl: rt.redisUrl, log: rt.log, fixturesDir: BUNDLED_CORPUS });
  const search = await createSearchBackend(rt.sql, { elasticsearchUrl: rt.config.ELASTICSEARCH_URL, screenerColumns: rt.config.SCREENER_COLUMNS, log: rt.log });
  const api = await startApi({
    sql: rt.sql, log: rt.log, port: rt.config.PORT, redisUrl: rt.redisUrl, search,
    documents: firmenbuchDocumentSource(rt.sql, new FirmenbuchClient({ baseUrl: register.url, timeoutMs: 10_000 })),
    tradeExtracts: trades.extracts,
  });
  console.log(`\nService running.\n  base URL:     ${api.baseUrl}\n  demo API key: ${issued.key}\n  try:          curl -H 'x-api-key: ${issued.key}' '${api.baseUrl}/businesses?orderBy=guv.Umsatzerloese&orderByDescending=true'\n  docs:         ${api.baseUrl}/docs\n`);
  onShutdown(rt.log, [api.close, async () => search.close?.(), indexers.close, register.close, trades.close, rt.close]);
});
