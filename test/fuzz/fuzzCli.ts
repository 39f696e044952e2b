// npm run fuzz -- --seed N --requests M [--concurrency C]
// A longer fuzz run than CI's: a database of its own (migrated, catalogues loaded, dropped at the
// end) on the configured Postgres server, a Redis key prefix of its own, the real app. Prints the
// answers counted by status and every property violation with the request that caused it (the same
// seed and count replay the same requests); exits 1 when there is any.
import { loadCatalogues } from '../../pipeline/catalogues/catalogueLoader.js';
import { commandLine } from '../../runtime/cli/args.js';
import { loadConfig } from '../../runtime/config.js';
import { createSql, withDatabase } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { migrate } from '../../runtime/migrate.js';
import { dropDatabase, ensureDatabase, resolvePostgresServer, resolveRedisUrl } from '../../runtime/services.js';
import { startFuzzEnvironment } from './fuzzEnvironment.js';
import { formatCounts, runFuzz } from './fuzzRun.js';

const USAGE = 'usage: npm run fuzz -- [--seed N] [--requests M] [--concurrency C]';

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < (name === 'seed' ? 0 : 1)) {
    console.error(`--${name} must be a whole number${name === 'seed' ? '' : ' above 0'}, not ${text}\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

const { values } = commandLine({
  usage: `${USAGE}\n  Random requests against every operation of a fresh database of its own; prints the answers by status and each broken property (docs/limits-and-safety.md).`,
  options: { seed: { type: 'string' }, requests: { type: 'string' }, concurrency: { type: 'string' } },
});
const seed = positive('seed', values.seed, Date.now() % 1_000_000);
const requests = positive('requests', values.requests, 3000);
const concurrency = positive('concurrency', values.concurrency, 4);

const config = loadConfig();
const log = createLogger('warn', { stderr: true });
const server = await resolvePostgresServer(config, log);
const redisUrl = await resolveRedisUrl(config, log);
const database = `companydata_fuzz_${process.pid}`;
await dropDatabase(server.url, database);
await ensureDatabase(server.url, database);
const sql = createSql(withDatabase(server.url, database), { max: 5 });
let failed = false;
try {
  await migrate(sql);
  await loadCatalogues(sql);
  const env = await startFuzzEnvironment(sql, redisUrl);
  try {
    console.log(`fuzz: seed ${seed}, ${requests} requests, ${concurrency} at a time`);
    const report = await runFuzz(env.target, { seed, requests, concurrency });
    console.log(`${(report.durationMs / 1000).toFixed(1)} s; answers by status:\n${formatCounts(report)}`);
    const counting = await env.verifyCounts(report);
    for (const v of report.violations) console.log(`\n#${v.index} ${v.status}: ${v.problems.join('; ')}\n  ${v.request}`);
    for (const problem of counting) console.log(`\nquota: ${problem}`);
    failed = report.violations.length > 0 || counting.length > 0;
    console.log(failed ? `\n${report.violations.length} requests broke a property` : '\nno property broken');
  } finally {
    await env.close();
  }
} finally {
  await sql.end({ timeout: 5 });
  await dropDatabase(server.url, database);
  await server.stop();
}
process.exit(failed ? 1 : 0);
