// npm run bench:api [-- --json] [--connections 50] [--duration 30] [--probe 5] [--companies 3000] [--pool 5]
//
// What the API serves and what its access chain (API-key auth, burst limit, monthly quota, billing)
// costs: the company profile (GET /businesses/{fnr}) and a screener page (GET /businesses with a city,
// a revenue range and a revenue ordering) under autocannon load, once with the chain and once with it
// bypassed (a createApp flag for this benchmark only), 50 connections for 30 s each by default. Then
// a one-connection probe per mode on the profile, where latency is not queueing, isolates the chain's
// own cost per request.
//
// The data: a fresh bench database filled through the real pipeline (the bundled corpus plus
// --companies synthetic companies, each with two people, their functions and one parsed annual
// account, replayed through the fake register, BullMQ and the stores), then the search read model
// built as the indexer builds it (rebuildReadModel, then indexOnce until caught up). The profile load
// cycles over every stored fnr, so it is not one hot row; the screener query is checked to match
// rows before it is measured.
//
// The API runs in a child process (tsx bench/apiBench.ts --serve ...) so the load generator does not
// share its event loop; Postgres and Redis are the ones the service would use (a bench database and
// Redis key prefixes of its own, all removed afterwards). Its pool has --pool connections (default 5,
// the service's DATABASE_POOL_SIZE default). Each connection has a key of its own on the api plan, and
// the burst limit is raised so the load is not refused: the window's sorted sets then hold a few
// thousand entries per key, more than production's 1000, so the chain is measured at a pessimistic size.
//
// Latencies are recorded per response from autocannon's events (float milliseconds); its own
// histogram rounds to whole milliseconds. With --json the figures are one JSON object on the last line.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { createAccount, createApiKey } from '../api/accounts/accountStore.js';
import { connectApiRedis, startApi } from '../api/server.js';
import { indexOnce, rebuildReadModel } from '../indexer/indexer.js';
import { loadCatalogues } from '../pipeline/catalogues/catalogueLoader.js';
import { writeSyntheticCorpus } from '../pipeline/firmenbuch/syntheticCorpus.js';
import { BUNDLED_CORPUS, replay } from '../pipeline/replay/replay.js';
import { loadConfig } from '../runtime/config.js';
import { createSql, withDatabase } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { migrate } from '../runtime/migrate.js';
import { ensureDatabase, resolvePostgresServer, resolveRedisUrl } from '../runtime/services.js';
import { dropDatabase } from '../test/helpers/testDatabase.js';


const BENCH_DATABASE = 'companydata_bench';
const PROFILE_PATH = '/api/v1/businesses/';
const SCREENER_PATH =
  '/api/v1/businesses?city=Wien&guv.Umsatzerloese_gte=5000000&orderBy=guv.Umsatzerloese&orderByDescending=true&pageSize=10';
const ENDPOINTS = { profile: `${PROFILE_PATH}{fnr}`, screener: SCREENER_PATH } as const;
type Profile = keyof typeof ENDPOINTS;
type Mode = 'chain' | 'bypass';

interface AutocannonClient { setHeaders(headers: Record<string, string>): void }
interface AutocannonRequest { method?: string; path?: string; setupRequest?: (request: { path?: string }) => { path?: string } }
interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): void;
}
interface AutocannonResult { requests: { average: number; total: number }; non2xx: number; errors: number; timeouts: number; duration: number }
type Autocannon = (
  options: { url: string; connections: number; duration: number; requests?: AutocannonRequest[]; setupClient?: (client: AutocannonClient) => void },
  done: (err: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------------------------
// Server mode: one API process, with or without the access chain.

async function serve(args: { db: string; redis: string; prefix: string; mode: Mode; pool: number }): Promise<void> {
  const log = createLogger('silent');
  const sql = createSql(args.db, { max: args.pool, applicationName: 'api-bench' });
  const redis = args.mode === 'chain' ? connectApiRedis(args.redis) : undefined;
  const api = await startApi({
    sql, log, port: 0, host: '127.0.0.1',
    access: redis ? { redis, redisPrefix: args.prefix, burstLimit: 1_000_000_000 } : { bypassForBenchmarkOnly: true },
  });
  console.log(`READY ${new URL(api.baseUrl).port}`);
  process.once('SIGTERM', () => {
    void api.close().then(async () => {
      redis?.disconnect();
      await sql.end({ timeout: 2 });
      process.exit(0);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Driver mode.

interface RunFigures { requestsPerSecond: number; p50Ms: number; p99Ms: number; requests: number; non2xx: number; errors: number }

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Load on `paths` (each request takes the next one, round robin over all connections). */
function load(base: string, paths: readonly string[], keys: string[], connections: number, duration: number): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let nextKey = 0;
    let nextPath = 0;
    const requests: AutocannonRequest[] = paths.length === 1
      ? [{ method: 'GET', path: paths[0]! }]
      : [{ method: 'GET', path: paths[0]!, setupRequest: (request) => ({ ...request, path: paths[nextPath++ % paths.length]! }) }];
    const instance = autocannon(
      { url: base, connections, duration, requests, setupClient: (client) => client.setHeaders({ 'x-api-key': keys[nextKey++ % keys.length]! }) },
      (err, result) => {
        if (err) return reject(err);
        const sorted = Float64Array.from(latencies).sort();
        resolve({
          requestsPerSecond: round(result.requests.total / result.duration, 1),
          p50Ms: round(percentile(sorted, 50)),
          p99Ms: round(percentile(sorted, 99)),
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode < 300) latencies.push(responseTimeMs);
    });
  });
}

async function startServer(mode: Mode, db: string, redis: string, prefix: string, pool: number): Promise<{ port: number; child: ChildProcess }> {
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the API process only.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', new URL(import.meta.url).pathname, '--serve', '--mode', mode, '--db', db, '--redis', redis, '--prefix', prefix, '--pool', String(pool)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    lines.on('line', (line) => {
      const m = /^READY (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
  });
  return { port, child };
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

async function deleteRedisKeys(redisUrl: string, pattern: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [nextCursor, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (found.length > 0) await redis.del(...found);
      cursor = nextCursor;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

interface Seed { companies: number; filings: number; persons: number; readModelRows: number; seedSeconds: number; fnrs: string[] }

/** The bundled corpus and `companies` synthetic ones through the real pipeline, then the read model. */
async function seed(sql: ReturnType<typeof createSql>, redisUrl: string, companies: number, say: (text: string) => void): Promise<Seed> {
  const started = performance.now();
  const log = createLogger('warn', { stderr: true });
  const dir = await mkdtemp(join(tmpdir(), 'api-bench-'));
  const queuePrefix = `bench-api-replay-${randomBytes(4).toString('hex')}`;
  try {
    say(`seeding: bundled corpus and ${companies} synthetic companies through the pipeline ...`);
    await writeSyntheticCorpus(dir, { companies, seed: 7 });
    for (const fixturesDir of [BUNDLED_CORPUS, dir]) {
      const summary = await replay({ sql, redisUrl, log, fixturesDir, prefix: queuePrefix, concurrency: 16 });
      if (summary.failures > 0 && fixturesDir === dir) throw new Error(`seeding: ${summary.failures} jobs failed: ${JSON.stringify(summary.failed.slice(0, 3))}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await deleteRedisKeys(redisUrl, `${queuePrefix}:*`);
  }
  say('building the search read model ...');
  await rebuildReadModel(sql, log);
  while ((await indexOnce(sql)) > 0);
  // The steady state a served database is in: visibility map set and statistics current, so neither
  // plans nor autovacuum of the freshly written tables distort the first measured run.
  await sql.unsafe('VACUUM ANALYZE');
  const [totals] = await sql<{ companies: number; filings: number; persons: number; readModelRows: number }[]>`
    SELECT (SELECT count(*)::int FROM company) AS companies, (SELECT count(*)::int FROM annual_account) AS filings,
           (SELECT count(*)::int FROM person) AS persons, (SELECT count(*)::int FROM company_search) AS read_model_rows`;
  const fnrs = (await sql<{ fnr: string }[]>`SELECT fnr FROM company ORDER BY fnr`).map((r) => r.fnr);
  return { ...totals!, seedSeconds: round((performance.now() - started) / 1000, 1), fnrs };
}

async function prepare(companies: number, say: (text: string) => void) {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const log = createLogger('warn', { stderr: true });
  const server = await resolvePostgresServer(config, log);
  await dropDatabase(server.url, BENCH_DATABASE);
  await ensureDatabase(server.url, BENCH_DATABASE);
  const db = withDatabase(server.url, BENCH_DATABASE);
  const sql = createSql(db, { max: 10 });
  const redisUrl = await resolveRedisUrl(config, log);
  const prefix = `bench-${randomBytes(4).toString('hex')}:`;
  const cleanup = async () => {
    await sql.end();
    await deleteRedisKeys(redisUrl, `${prefix}*`);
    await dropDatabase(server.url, BENCH_DATABASE);
    await server.stop();
  };
  try {
    await migrate(sql);
    await loadCatalogues(sql);
    const seeded = await seed(sql, redisUrl, companies, say);
    const account = await createAccount(sql, { email: `bench-${randomBytes(4).toString('hex')}@example.org`, plan: 'api' });
    const keys: string[] = [];
    for (let i = 0; i < 50; i++) keys.push((await createApiKey(sql, { accountId: account.id, label: 'bench' })).key);
    return { db, redis: redisUrl, prefix, keys, seeded, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** One request of each kind before measuring: both must answer 200, the screener with rows. */
async function check(base: string, key: string, fnr: string): Promise<{ profileBytes: number; screenerBytes: number; screenerTotal: number }> {
  const get = async (path: string) => {
    const response = await fetch(base + path, { headers: { 'x-api-key': key } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text;
  };
  const profile = await get(PROFILE_PATH + fnr);
  const screener = await get(SCREENER_PATH);
  const total = (JSON.parse(screener) as { totalRecords: number }).totalRecords;
  if (!(total > 0)) throw new Error(`the screener query matches no rows: ${screener.slice(0, 300)}`);
  return { profileBytes: Buffer.byteLength(profile), screenerBytes: Buffer.byteLength(screener), screenerTotal: total };
}

async function drive(options: { json: boolean; connections: number; duration: number; probe: number; companies: number; pool: number }): Promise<void> {
  const say = (text: string) => (options.json ? console.error(text) : console.log(text));
  const setup = await prepare(options.companies, say);
  const { fnrs } = setup.seeded;
  say(`seeded ${setup.seeded.companies} companies, ${setup.seeded.filings} filings, ${setup.seeded.persons} people, ${setup.seeded.readModelRows} read-model rows in ${setup.seeded.seedSeconds} s`);
  const paths: Record<Profile, string[]> = { profile: fnrs.map((fnr) => PROFILE_PATH + fnr), screener: [SCREENER_PATH] };
  const runs: Record<Mode, Record<Profile, RunFigures>> = { chain: {} as Record<Profile, RunFigures>, bypass: {} as Record<Profile, RunFigures> };
  const probes = {} as Record<Mode, RunFigures>;
  let responses: Awaited<ReturnType<typeof check>> | undefined;
  try {
    for (const mode of ['bypass', 'chain'] as const) {
      const { port, child } = await startServer(mode, setup.db, setup.redis, setup.prefix, options.pool);
      try {
        const base = `http://127.0.0.1:${port}`;
        responses = await check(base, setup.keys[0]!, fnrs[Math.floor(fnrs.length / 2)]!);
        // Warm-up: JIT, pools, plan cache, and the shared buffers for the rows the load reads.
        await load(base, paths.profile, setup.keys, 10, 3);
        await load(base, paths.screener, setup.keys, 10, 2);
        for (const profile of ['profile', 'screener'] as const) {
          const over = profile === 'profile' ? ` over ${fnrs.length} fnrs` : '';
          say(`${mode}: ${profile} ${ENDPOINTS[profile]}${over}, ${options.connections} connections, ${options.duration} s ...`);
          runs[mode][profile] = await load(base, paths[profile], setup.keys, options.connections, options.duration);
        }
        say(`${mode}: one-connection probe on ${ENDPOINTS.profile}, ${options.probe} s ...`);
        probes[mode] = await load(base, paths.profile, setup.keys, 1, options.probe);
      } finally {
        await stopServer(child);
      }
    }
  } finally {
    await setup.cleanup();
  }

  const added = (profile: Profile) => round(runs.chain[profile].p50Ms - runs.bypass[profile].p50Ms);
  const figures = {
    connections: options.connections,
    durationSeconds: options.duration,
    databasePool: options.pool,
    endpoints: ENDPOINTS,
    data: {
      companies: setup.seeded.companies, filings: setup.seeded.filings, persons: setup.seeded.persons, readModelRows: setup.seeded.readModelRows,
      seedSeconds: setup.seeded.seedSeconds, profileFnrsCycled: fnrs.length, screenerMatches: responses!.screenerTotal,
      profileResponseBytes: responses!.profileBytes, screenerResponseBytes: responses!.screenerBytes,
    },
    runs,
    probe: { connections: 1, durationSeconds: options.probe, chain: probes.chain, bypass: probes.bypass },
    chainAddedP50Ms: { profile: added('profile'), screener: added('screener'), probe: round(probes.chain.p50Ms - probes.bypass.p50Ms) },
  };

  const row = (label: string, f: RunFigures) =>
    `${label.padEnd(22)} ${String(f.requestsPerSecond).padStart(9)} req/s   p50 ${f.p50Ms.toFixed(3).padStart(8)} ms   p99 ${f.p99Ms.toFixed(3).padStart(8)} ms   non-2xx ${f.non2xx}   errors ${f.errors}`;
  say('');
  say(`profile: ${ENDPOINTS.profile} over ${fnrs.length} fnrs (a sample answer is ${responses!.profileBytes} bytes)`);
  say(`screener: ${ENDPOINTS.screener} (${responses!.screenerTotal} matches, ${responses!.screenerBytes} bytes)`);
  for (const profile of ['profile', 'screener'] as const) {
    say(row(`${profile} with chain`, runs.chain[profile]));
    say(row(`${profile} bypassed`, runs.bypass[profile]));
  }
  say(row('probe with chain', probes.chain));
  say(row('probe bypassed', probes.bypass));
  say(`chain adds at p50: profile ${figures.chainAddedP50Ms.profile} ms, screener ${figures.chainAddedP50Ms.screener} ms (under load), ${figures.chainAddedP50Ms.probe} ms (one connection)`);
  if (options.json) console.log(JSON.stringify(figures));
}

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '30' },
    probe: { type: 'string', default: '5' },
    companies: { type: 'string', default: '3000' },
    pool: { type: 'string', default: '5' },
    serve: { type: 'boolean', default: false },
    mode: { type: 'string', default: 'chain' },
    db: { type: 'string' },
    redis: { type: 'string' },
    prefix: { type: 'string' },
  },
});

const main = values.serve
  ? serve({ db: values.db!, redis: values.redis!, prefix: values.prefix!, mode: values.mode === 'bypass' ? 'bypass' : 'chain', pool: Number(values.pool) })
  : drive({
    json: values.json, connections: Number(values.connections), duration: Number(values.duration), probe: Number(values.probe),
    companies: Number(values.companies), pool: Number(values.pool),
  });
main.catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
