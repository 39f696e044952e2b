// npm run bench:api [-- --json] [--quick] [--rounds 2] [--probe 5] [--duration 10] [--connections 50]
//                    [--companies 3000] [--pool 5] [--phases chain,mcp]
//
// What the access chain (API-key auth, burst limit, monthly quota, billing: one Redis round trip per
// request) costs, on three endpoints:
//   catalogue  GET /courts, a table of a few rows: the chain is most of the request's work
//   profile    GET /businesses/{fnr}, cycling over every stored fnr, so it is not one hot row
//   screener   GET /businesses with a city, a revenue range and a revenue ordering (checked to match)
// Two API processes run side by side on the same database: one with the chain, one with it bypassed
// (a createApp flag for this benchmark only). Each round measures, per endpoint, a one-connection
// probe of each process for --probe s (no queueing, so the p50 difference is what the chain adds to
// a request), then --connections connections of load on each for --duration s (throughput). The
// order of the two processes alternates between rounds and both are measured back to back, so a
// change in the load of the box (2 cores, shared) hits both alike; the figures are medians over the
// rounds, and each round's chain-minus-bypass delta is kept so the spread shows. How long a run takes
// is in docs/benchmarks.md; --quick (500 companies, 3 s probes, 5 s loads) is the short one.
//
// The data: a fresh bench database filled through the real pipeline (the bundled corpus plus
// --companies synthetic companies, each with two people, their functions and one parsed annual
// account, replayed through the fake register, BullMQ and the stores), then the search read model
// built as the indexer builds it (rebuildReadModel, then indexOnce until caught up) and VACUUM
// ANALYZE. Everything is removed afterwards.
//
// The API processes are children (tsx bench/apiBench.ts --serve ...), so the load generator does not
// share their event loop; Postgres and Redis are the ones the service would use (a bench database
// and Redis key prefixes of its own). Each has a pool of --pool connections (default 5, the
// service's DATABASE_POOL_SIZE default). Each load connection has a key of its own on the api plan
// (the probe uses the first), and the burst limit is raised so the load is not refused: the window's
// sorted sets then hold more entries per key than production's 1000, a pessimistic size.
//
// The MCP phase: the chain process also serves the MCP server (as the api role does), and the same
// profile and screener requests go there as tools/call of get_company and search_companies, through
// the bearer check (one OAuth access token per key, minted by the authorization server's own steps,
// bench/mcpBench.ts; the token lookup cached as in production). Per round: one connection of REST and
// of MCP for --probe s each (the p50 difference is what MCP adds), then --connections of each, the
// order alternating. --phases chain or --phases mcp runs one phase only.
// Each MCP-phase run also gives the API process's CPU time per request (/proc), which the load
// generator sharing the box's cores disturbs least.
// Measured (docs/benchmarks.md; --phases mcp --companies 500 --rounds 3 --probe 4 --duration 8, box
// load average 3-4): MCP adds at p50 -0.22 ms (profile) and 0.19 ms (screener); at 50 connections MCP
// reaches 1.07 (profile) and 0.40 (screener) of REST's requests per second (server CPU 0.56 vs 0.67
// and 0.40 vs 0.22 ms a request), the screener held back by its answer's second copy of the data (the
// JSON text block: 36 KB against REST's 17 KB).
//
// Latencies are recorded per response from autocannon's events (float milliseconds); its own
// histogram rounds to whole milliseconds. With --json the figures are one JSON object on the last
// line. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the API processes.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createAccount, createApiKey } from '../api/accounts/accountStore.js';
import { connectApiRedis, startApi } from '../api/server.js';
import { benchServerNodeArgs, spawnBenchServer, type BenchServer } from './benchServer.js';
import {
  checkToolCall, MCP_ENDPOINTS, MCP_REQUEST_HEADERS, mintAccessTokens, processCpuMs, screenerArguments, toolCallBody, type Channel, type McpEndpoint,
} from './mcpBench.js';
import { createSearchBackend } from '../indexer/searchRuntime.js';
import { commandLine } from '../runtime/cli/args.js';
import { indexOnce, rebuildReadModel } from '../indexer/indexer.js';
import { loadCatalogues } from '../pipeline/catalogues/catalogueLoader.js';
import { writeSyntheticCorpus } from '../pipeline/firmenbuch/fake/syntheticCorpus.js';
import { BUNDLED_CORPUS, replay } from '../pipeline/replay/replay.js';
import { loadConfig } from '../runtime/config.js';
import { createSql, withDatabase } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { migrate } from '../runtime/migrate.js';
import { dropDatabase, ensureDatabase, resolvePostgresServer, resolveRedisUrl } from '../runtime/services.js';


const BENCH_DATABASE = 'companydata_bench';
const PROFILE_PATH = '/api/v1/businesses/';
const CATALOGUE_PATH = '/api/v1/courts';
const SCREENER_PATH =
  '/api/v1/businesses?city=Wien&guv.Umsatzerloese_gte=5000000&orderBy=guv.Umsatzerloese&orderByDescending=true&pageSize=10';
const ENDPOINTS = { catalogue: CATALOGUE_PATH, profile: `${PROFILE_PATH}{fnr}`, screener: SCREENER_PATH } as const;
type Endpoint = keyof typeof ENDPOINTS;
const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as Endpoint[];
type Mode = 'chain' | 'bypass';
const MODES: Mode[] = ['bypass', 'chain'];

interface AutocannonClient { setHeaders(headers: Record<string, string>): void }
interface AutocannonRequest { method?: string; path?: string; body?: string; setupRequest?: (request: { path?: string; body?: string }) => { path?: string; body?: string } }
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

async function serve(args: { db: string; redis: string; prefix: string; mode: Mode; pool: number; mcpPort: number }): Promise<void> {
  const log = createLogger('silent');
  const sql = createSql(args.db, { max: args.pool, applicationName: 'api-bench' });
  const redis = args.mode === 'chain' ? connectApiRedis(args.redis) : undefined;
  // The search backend `npm start` builds (screener columns on by default), loaded before READY.
  const config = loadConfig();
  const search = await createSearchBackend(sql, { elasticsearchUrl: undefined, screenerColumns: config.SCREENER_COLUMNS, log });
  await search.ready;
  const api = await startApi({
    sql, log, port: 0, host: '127.0.0.1', search,
    access: redis ? { redis, redisPrefix: args.prefix, burstLimit: 1_000_000_000 } : { bypassForBenchmarkOnly: true },
    // The MCP server beside the chain's API, as the api role runs it (the bypass process has no OAuth).
    mcp: redis ? { port: args.mcpPort, host: '127.0.0.1', url: mcpUrl(args.mcpPort) } : undefined,
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

interface RunFigures {
  requestsPerSecond: number; p50Ms: number; p99Ms: number; requests: number; non2xx: number; errors: number;
  /** The API process's CPU time (user + system) over the requests answered (MCP phase): what a request costs the server itself. */
  serverCpuMsPerRequest?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** What a load sends: GETs of `paths`, or POSTs of `bodies` to one path, each connection with its own headers. */
interface LoadSpec {
  paths: readonly string[];
  bodies?: readonly string[];
  headers: (connection: number) => Record<string, string>;
}

const restSpec = (paths: readonly string[], keys: string[]): LoadSpec => ({ paths, headers: (i) => ({ 'x-api-key': keys[i % keys.length]! }) });
const mcpSpec = (bodies: readonly string[], tokens: string[]): LoadSpec => ({
  paths: ['/mcp'], bodies, headers: (i) => ({ ...MCP_REQUEST_HEADERS, authorization: `Bearer ${tokens[i % tokens.length]!}` }),
});

/** Load per `spec` (each request takes the next path or body, round robin over all connections). */
function load(base: string, spec: LoadSpec, connections: number, duration: number): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let nextClient = 0;
    let next = 0;
    const { paths, bodies } = spec;
    const requests: AutocannonRequest[] = bodies
      ? [{ method: 'POST', path: paths[0]!, body: bodies[0]!, setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length]! }) }]
      : paths.length === 1
        ? [{ method: 'GET', path: paths[0]! }]
        : [{ method: 'GET', path: paths[0]!, setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }];
    const instance = autocannon(
      { url: base, connections, duration, requests, setupClient: (client) => client.setHeaders(spec.headers(nextClient++)) },
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

function startServer(mode: Mode, db: string, redis: string, prefix: string, pool: number, mcpPort: number): Promise<BenchServer> {
  return spawnBenchServer(new URL(import.meta.url).pathname,
    ['--serve', '--mode', mode, '--db', db, '--redis', redis, '--prefix', prefix, '--pool', String(pool), '--mcp-port', String(mcpPort)], benchServerNodeArgs());
}

const mcpUrl = (port: number) => `http://127.0.0.1:${port}/mcp`;

/** A port free right now, for the MCP listener of the chain process (its URL must be known to mint tokens for it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return; // it died on its own
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

async function prepare(companies: number, say: (text: string) => void, resource: string) {
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
    const issued = [];
    for (let i = 0; i < 50; i++) issued.push(await createApiKey(sql, { accountId: account.id, label: 'bench' }));
    const tokens = await mintAccessTokens(sql, account.id, issued.map((k) => k.id), resource);
    return { db, redis: redisUrl, prefix, keys: issued.map((k) => k.key), tokens, seeded, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

interface Responses { catalogueBytes: number; profileBytes: number; screenerBytes: number; screenerTotal: number }

/** One request of each kind before measuring: all must answer 200, the screener with rows. */
async function check(base: string, key: string, fnr: string): Promise<Responses> {
  const get = async (path: string) => {
    const response = await fetch(base + path, { headers: { 'x-api-key': key } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text;
  };
  const catalogue = await get(CATALOGUE_PATH);
  const profile = await get(PROFILE_PATH + fnr);
  const screener = await get(SCREENER_PATH);
  const total = (JSON.parse(screener) as { totalRecords: number }).totalRecords;
  if (!(total > 0)) throw new Error(`the screener query matches no rows: ${screener.slice(0, 300)}`);
  return { catalogueBytes: Buffer.byteLength(catalogue), profileBytes: Buffer.byteLength(profile), screenerBytes: Buffer.byteLength(screener), screenerTotal: total };
}

/** The MCP phase's checks: both tools answer, the screener with the rows REST finds; their sizes. */
async function checkMcp(url: string, token: string, bodies: Record<McpEndpoint, readonly string[]>, restTotal: number): Promise<{ profileBytes: number; screenerBytes: number }> {
  const profile = await checkToolCall(url, token, bodies.profile[Math.floor(bodies.profile.length / 2)]!);
  const screener = await checkToolCall(url, token, bodies.screener[0]!);
  if (screener.structured.totalRecords !== restTotal) throw new Error(`search_companies matches ${String(screener.structured.totalRecords)} rows, REST ${restTotal}`);
  return { profileBytes: profile.bytes, screenerBytes: screener.bytes };
}

type Phase = 'chain' | 'mcp';
interface DriveOptions { json: boolean; rounds: number; probe: number; duration: number; connections: number; companies: number; pool: number; phases: Phase[] }
type PerMode<T> = Record<Mode, T>;
type PerEndpoint<T> = Record<Endpoint, T>;
interface Round { probe: PerEndpoint<PerMode<RunFigures>>; load: PerEndpoint<PerMode<RunFigures>> }
type PerChannel<T> = Record<Channel, T>;
interface McpRound { probe: Record<McpEndpoint, PerChannel<RunFigures>>; load: Record<McpEndpoint, PerChannel<RunFigures>> }
interface Spread { median: number; min: number; max: number; perRound: number[] }

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

function spread(values: number[]): Spread {
  return { median: round(median(values)), min: round(Math.min(...values)), max: round(Math.max(...values)), perRound: values.map((v) => round(v)) };
}

/** The median over runs of each figure (requests and failures summed). */
function medianRun(runs: RunFigures[]): RunFigures {
  const m = (pick: (f: RunFigures) => number) => round(median(runs.map(pick)), 3);
  return {
    requestsPerSecond: round(median(runs.map((f) => f.requestsPerSecond)), 1), p50Ms: m((f) => f.p50Ms), p99Ms: m((f) => f.p99Ms),
    requests: runs.reduce((n, f) => n + f.requests, 0), non2xx: runs.reduce((n, f) => n + f.non2xx, 0), errors: runs.reduce((n, f) => n + f.errors, 0),
    ...(runs.every((f) => f.serverCpuMsPerRequest !== undefined) ? { serverCpuMsPerRequest: m((f) => f.serverCpuMsPerRequest!) } : {}),
  };
}

/** Per endpoint and mode, the median over rounds of each figure. */
function medians(rounds: Round[], kind: 'probe' | 'load'): PerMode<PerEndpoint<RunFigures>> {
  const byMode = (mode: Mode) => Object.fromEntries(ENDPOINT_NAMES.map((e) => [e, medianRun(rounds.map((r) => r[kind][e][mode]))])) as PerEndpoint<RunFigures>;
  return { chain: byMode('chain'), bypass: byMode('bypass') };
}

function mcpMedians(rounds: McpRound[], kind: 'probe' | 'load'): PerChannel<Record<McpEndpoint, RunFigures>> {
  const byChannel = (channel: Channel) => Object.fromEntries(MCP_ENDPOINTS.map((e) => [e, medianRun(rounds.map((r) => r[kind][e][channel]))])) as Record<McpEndpoint, RunFigures>;
  return { rest: byChannel('rest'), mcp: byChannel('mcp') };
}

async function drive(options: DriveOptions): Promise<void> {
  const say = (text: string) => (options.json ? console.error(text) : console.log(text));
  const withChain = options.phases.includes('chain');
  const withMcp = options.phases.includes('mcp');
  const mcpPort = await freePort();
  const setup = await prepare(options.companies, say, mcpUrl(mcpPort));
  const { fnrs } = setup.seeded;
  say(`seeded ${setup.seeded.companies} companies, ${setup.seeded.filings} filings, ${setup.seeded.persons} people, ${setup.seeded.readModelRows} read-model rows in ${setup.seeded.seedSeconds} s`);
  const paths: PerEndpoint<string[]> = { catalogue: [CATALOGUE_PATH], profile: fnrs.map((fnr) => PROFILE_PATH + fnr), screener: [SCREENER_PATH] };
  const bodies: Record<McpEndpoint, string[]> = {
    profile: fnrs.map((fnr) => toolCallBody('get_company', { fnr })),
    screener: [toolCallBody('search_companies', screenerArguments(SCREENER_PATH))],
  };
  const rest = (endpoint: Endpoint) => restSpec(paths[endpoint], setup.keys);
  const mcp = (endpoint: McpEndpoint) => mcpSpec(bodies[endpoint], setup.tokens);
  const modes: Mode[] = withChain ? MODES : ['chain'];
  const rounds: Round[] = [];
  const mcpRounds: McpRound[] = [];
  let responses: Responses | undefined;
  let mcpResponses: { profileBytes: number; screenerBytes: number } | undefined;
  const servers: Partial<PerMode<BenchServer>> = {};
  const mcpBase = `http://127.0.0.1:${mcpPort}`;
  try {
    for (const mode of modes) servers[mode] = await startServer(mode, setup.db, setup.redis, setup.prefix, options.pool, mcpPort);
    const base = (mode: Mode) => `http://127.0.0.1:${servers[mode]!.port}`;
    for (const mode of modes) {
      responses = await check(base(mode), setup.keys[0]!, fnrs[Math.floor(fnrs.length / 2)]!);
      // Warm-up: JIT, pools, plan cache, and the shared buffers for the rows the load reads.
      say(`${mode}: warming up ...`);
      await load(base(mode), rest('profile'), 10, 3);
      await load(base(mode), rest('screener'), 10, 2);
      await load(base(mode), rest('catalogue'), 10, 1);
    }
    if (withMcp) {
      mcpResponses = await checkMcp(mcpUrl(mcpPort), setup.tokens[0]!, bodies, responses!.screenerTotal);
      say('mcp: warming up ...');
      await load(mcpBase, mcp('profile'), 10, 3);
      await load(mcpBase, mcp('screener'), 10, 2);
    }
    for (let r = 0; r < options.rounds; r++) {
      const label = `round ${r + 1}/${options.rounds}`;
      if (withChain) {
        // Alternate which process goes first, so a trend in the box's load does not favour one.
        const order: Mode[] = r % 2 === 0 ? ['bypass', 'chain'] : ['chain', 'bypass'];
        const probe = {} as Round['probe'];
        const loaded = {} as Round['load'];
        for (const endpoint of ENDPOINT_NAMES) {
          probe[endpoint] = {} as PerMode<RunFigures>;
          loaded[endpoint] = {} as PerMode<RunFigures>;
          for (const mode of order) {
            say(`${label}: ${endpoint}, ${mode}, one connection, ${options.probe} s ...`);
            probe[endpoint][mode] = await load(base(mode), rest(endpoint), 1, options.probe);
          }
          for (const mode of order) {
            say(`${label}: ${endpoint}, ${mode}, ${options.connections} connections, ${options.duration} s ...`);
            loaded[endpoint][mode] = await load(base(mode), rest(endpoint), options.connections, options.duration);
            // Requests autocannon abandoned at the end are still being answered; let them drain.
            await pause(1000);
          }
        }
        rounds.push({ probe, load: loaded });
      }
      if (withMcp) {
        // The same request by REST (with the chain) and as a tool call, on the one process serving both.
        const order: Channel[] = r % 2 === 0 ? ['rest', 'mcp'] : ['mcp', 'rest'];
        // The server's CPU time too: on this shared box the load generator competes for the same cores.
        const on = async (channel: Channel, endpoint: McpEndpoint, connections: number, seconds: number): Promise<RunFigures> => {
          const pid = servers.chain!.child.pid!;
          const before = await processCpuMs(pid);
          const figures = channel === 'rest' ? await load(base('chain'), rest(endpoint), connections, seconds) : await load(mcpBase, mcp(endpoint), connections, seconds);
          return { ...figures, serverCpuMsPerRequest: round((await processCpuMs(pid) - before) / figures.requests) };
        };
        const probe = {} as McpRound['probe'];
        const loaded = {} as McpRound['load'];
        for (const endpoint of MCP_ENDPOINTS) {
          probe[endpoint] = {} as PerChannel<RunFigures>;
          loaded[endpoint] = {} as PerChannel<RunFigures>;
          for (const channel of order) {
            say(`${label}: ${endpoint}, ${channel}, one connection, ${options.probe} s ...`);
            probe[endpoint][channel] = await on(channel, endpoint, 1, options.probe);
          }
          for (const channel of order) {
            say(`${label}: ${endpoint}, ${channel}, ${options.connections} connections, ${options.duration} s ...`);
            loaded[endpoint][channel] = await on(channel, endpoint, options.connections, options.duration);
            await pause(1000);
          }
        }
        mcpRounds.push({ probe, load: loaded });
      }
    }
    // Tool errors are answered 200, so the load's status counts cannot see them: the tools still answer.
    if (withMcp) await checkMcp(mcpUrl(mcpPort), setup.tokens.at(-1)!, bodies, responses!.screenerTotal);
  } finally {
    for (const mode of modes) if (servers[mode]) await stopServer(servers[mode].child);
    await setup.cleanup();
  }

  const perEndpoint = <T>(f: (e: Endpoint) => T) => Object.fromEntries(ENDPOINT_NAMES.map((e) => [e, f(e)])) as PerEndpoint<T>;
  const perMcpEndpoint = <T>(f: (e: McpEndpoint) => T) => Object.fromEntries(MCP_ENDPOINTS.map((e) => [e, f(e)])) as Record<McpEndpoint, T>;
  const chainFigures = withChain ? (() => {
    const delta = (kind: 'probe' | 'load', endpoint: Endpoint) => spread(rounds.map((r) => r[kind][endpoint].chain.p50Ms - r[kind][endpoint].bypass.p50Ms));
    const ratio = (endpoint: Endpoint) => spread(rounds.map((r) => r.load[endpoint].chain.requestsPerSecond / r.load[endpoint].bypass.requestsPerSecond));
    return {
      /** Medians over rounds: one connection (latency), and `connections` connections (throughput). */
      probe: { connections: 1, ...medians(rounds, 'probe') },
      runs: medians(rounds, 'load'),
      /** Chain minus bypass p50, per round and their median: one connection, and under load. */
      chainAddedP50Ms: { oneConnection: perEndpoint((e) => delta('probe', e)), underLoad: perEndpoint((e) => delta('load', e)) },
      /** Requests per second with the chain over those without, under load. */
      chainThroughputRatio: perEndpoint(ratio),
      perRound: rounds,
    };
  })() : undefined;
  const mcpFigures = withMcp ? {
    profileResponseBytes: mcpResponses!.profileBytes, screenerResponseBytes: mcpResponses!.screenerBytes,
    probe: mcpMedians(mcpRounds, 'probe'),
    runs: mcpMedians(mcpRounds, 'load'),
    /** Tool call minus REST p50 (both through their auth), per round and their median: one connection, and under load. */
    mcpAddedP50Ms: {
      oneConnection: perMcpEndpoint((e) => spread(mcpRounds.map((r) => r.probe[e].mcp.p50Ms - r.probe[e].rest.p50Ms))),
      underLoad: perMcpEndpoint((e) => spread(mcpRounds.map((r) => r.load[e].mcp.p50Ms - r.load[e].rest.p50Ms))),
    },
    /** Tool calls per second over REST requests per second, under load. */
    mcpThroughputRatio: perMcpEndpoint((e) => spread(mcpRounds.map((r) => r.load[e].mcp.requestsPerSecond / r.load[e].rest.requestsPerSecond))),
    perRound: mcpRounds,
  } : undefined;
  const figures = {
    rounds: options.rounds,
    probeSeconds: options.probe,
    connections: options.connections,
    durationSeconds: options.duration,
    databasePool: options.pool,
    phases: options.phases,
    endpoints: ENDPOINTS,
    data: {
      companies: setup.seeded.companies, filings: setup.seeded.filings, persons: setup.seeded.persons, readModelRows: setup.seeded.readModelRows,
      seedSeconds: setup.seeded.seedSeconds, profileFnrsCycled: fnrs.length, screenerMatches: responses!.screenerTotal,
      catalogueResponseBytes: responses!.catalogueBytes, profileResponseBytes: responses!.profileBytes, screenerResponseBytes: responses!.screenerBytes,
    },
    ...chainFigures,
    mcp: mcpFigures,
  };

  const row = (label: string, f: RunFigures) =>
    `${label.padEnd(24)} ${String(f.requestsPerSecond).padStart(9)} req/s   p50 ${f.p50Ms.toFixed(3).padStart(8)} ms   p99 ${f.p99Ms.toFixed(3).padStart(8)} ms   non-2xx ${f.non2xx}   errors ${f.errors}` +
    (f.serverCpuMsPerRequest === undefined ? '' : `   server CPU ${f.serverCpuMsPerRequest.toFixed(3)} ms/req`);
  const range = (s: Spread, unit: string) => `${s.median}${unit} (rounds ${s.perRound.join(', ')})`;
  say('');
  say(`catalogue: ${ENDPOINTS.catalogue} (${responses!.catalogueBytes} bytes)`);
  say(`profile: ${ENDPOINTS.profile} over ${fnrs.length} fnrs (a sample answer is ${responses!.profileBytes} bytes)`);
  say(`screener: ${ENDPOINTS.screener} (${responses!.screenerTotal} matches, ${responses!.screenerBytes} bytes)`);
  say(`medians over ${options.rounds} round(s); one connection ${options.probe} s, load ${options.connections} connections ${options.duration} s`);
  if (chainFigures) {
    for (const endpoint of ENDPOINT_NAMES) {
      say(row(`${endpoint} 1 conn, chain`, chainFigures.probe.chain[endpoint]));
      say(row(`${endpoint} 1 conn, bypass`, chainFigures.probe.bypass[endpoint]));
      say(row(`${endpoint} ${options.connections} conn, chain`, chainFigures.runs.chain[endpoint]));
      say(row(`${endpoint} ${options.connections} conn, bypass`, chainFigures.runs.bypass[endpoint]));
    }
    say('chain adds at p50, one connection:');
    for (const endpoint of ENDPOINT_NAMES) say(`  ${endpoint.padEnd(10)} ${range(chainFigures.chainAddedP50Ms.oneConnection[endpoint], ' ms')}`);
    say(`chain adds at p50, ${options.connections} connections:`);
    for (const endpoint of ENDPOINT_NAMES) say(`  ${endpoint.padEnd(10)} ${range(chainFigures.chainAddedP50Ms.underLoad[endpoint], ' ms')}`);
    say('throughput with the chain / bypassed:');
    for (const endpoint of ENDPOINT_NAMES) say(`  ${endpoint.padEnd(10)} ${range(chainFigures.chainThroughputRatio[endpoint], '')}`);
  }
  if (mcpFigures) {
    say(`MCP tool calls (get_company ${mcpFigures.profileResponseBytes} bytes, search_companies ${mcpFigures.screenerResponseBytes} bytes) against the same REST requests:`);
    for (const endpoint of MCP_ENDPOINTS) {
      say(row(`${endpoint} 1 conn, REST`, mcpFigures.probe.rest[endpoint]));
      say(row(`${endpoint} 1 conn, MCP`, mcpFigures.probe.mcp[endpoint]));
      say(row(`${endpoint} ${options.connections} conn, REST`, mcpFigures.runs.rest[endpoint]));
      say(row(`${endpoint} ${options.connections} conn, MCP`, mcpFigures.runs.mcp[endpoint]));
    }
    say('MCP adds at p50, one connection:');
    for (const endpoint of MCP_ENDPOINTS) say(`  ${endpoint.padEnd(10)} ${range(mcpFigures.mcpAddedP50Ms.oneConnection[endpoint], ' ms')}`);
    say(`MCP adds at p50, ${options.connections} connections:`);
    for (const endpoint of MCP_ENDPOINTS) say(`  ${endpoint.padEnd(10)} ${range(mcpFigures.mcpAddedP50Ms.underLoad[endpoint], ' ms')}`);
    say('throughput MCP / REST:');
    for (const endpoint of MCP_ENDPOINTS) say(`  ${endpoint.padEnd(10)} ${range(mcpFigures.mcpThroughputRatio[endpoint], '')}`);
  }
  if (options.json) console.log(JSON.stringify(figures));
}

const { values } = commandLine({
  usage: 'usage: npm run bench:api -- [--json] [--quick] [--rounds N] [--probe S] [--duration S] [--connections 50] [--companies N] [--pool 5] [--phases chain,mcp]\n' +
    '  What the access chain costs (chain vs bypass) and, in the mcp phase, a tools/call against the same REST call (docs/benchmarks.md).',
  options: {
    json: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    probe: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '50' },
    companies: { type: 'string' },
    pool: { type: 'string', default: '5' },
    phases: { type: 'string', default: 'chain,mcp' },
    serve: { type: 'boolean', default: false },
    mode: { type: 'string', default: 'chain' },
    db: { type: 'string' },
    redis: { type: 'string' },
    prefix: { type: 'string' },
    'mcp-port': { type: 'string' },
  },
});

/** A positive number option: the value given, else the --quick or the normal default. */
function option(name: string, given: string | undefined, normal: number, quick: number): number {
  const value = given === undefined ? (values.quick ? quick : normal) : Number(given);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number, not ${given}`);
  return value;
}

function phases(given: string): Phase[] {
  const list = given.split(',').map((p) => p.trim()).filter(Boolean);
  if (list.length === 0 || list.some((p) => p !== 'chain' && p !== 'mcp')) throw new Error(`--phases takes chain, mcp or both (comma-separated), not ${given}`);
  return list as Phase[];
}

const main = values.serve
  ? serve({
    db: values.db!, redis: values.redis!, prefix: values.prefix!, mode: values.mode === 'bypass' ? 'bypass' : 'chain', pool: Number(values.pool), mcpPort: Number(values['mcp-port']),
  })
  : Promise.resolve().then(() => drive({
    json: values.json,
    rounds: option('rounds', values.rounds, 2, 2),
    probe: option('probe', values.probe, 5, 3),
    duration: option('duration', values.duration, 10, 5),
    connections: option('connections', values.connections, 50, 50),
    companies: option('companies', values.companies, 3000, 500),
    pool: option('pool', values.pool, 5, 5),
    phases: phases(values.phases),
  }));
main.catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
