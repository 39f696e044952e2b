// npm run bench:api [-- --json] [--connections 50] [--duration 30] [--probe 5]
//
// What the API's access chain (API-key auth, burst limit, monthly quota, billing) costs: the same
// endpoints under autocannon load once with the chain and once with it bypassed (a createApp flag
// for this benchmark only), 50 connections for 30 s each by default. Then a one-connection probe per
// mode, where latency is not queueing, isolates the chain's own cost per request.
//
// The API runs in a child process (tsx bench/apiBench.ts --serve ...) so the load generator does not
// share its event loop; Postgres and Redis are the ones the service would use (a bench database and
// a Redis key prefix of its own, both removed afterwards). The endpoints: the profile and screener
// endpoints are not in this API yet, so existing ones stand in for them: a small catalogue page for
// a profile (one cheap query, a small object) and a 100-row ÖNACE page (filtered, counted, sorted,
// ~25 KB of JSON) for a screener page. Each connection has a key of its own on the api plan, and the burst limit is
// raised so the load is not refused: the window's sorted sets then hold a few thousand entries per
// key, more than production's 1000, so the chain is measured at a pessimistic size.
//
// Latencies are recorded per response from autocannon's events (float milliseconds); its own
// histogram rounds to whole milliseconds. With --json the figures are one JSON object on the last line.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { createAccount, createApiKey } from '../api/accounts/accountStore.js';
import { connectApiRedis, startApi } from '../api/server.js';
import { loadCatalogues } from '../pipeline/catalogues/catalogueLoader.js';
import { loadConfig } from '../runtime/config.js';
import { createSql, withDatabase } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { migrate } from '../runtime/migrate.js';
import { ensureDatabase, resolvePostgresServer, resolveRedisUrl } from '../runtime/services.js';

const BENCH_DATABASE = 'companydata_bench';
const ENDPOINTS = {
  profile: '/api/v1/courts?pageSize=10',
  screener: '/api/v1/oenace?level=5&pageSize=100',
} as const;
type Profile = keyof typeof ENDPOINTS;
type Mode = 'chain' | 'bypass';

interface AutocannonClient { setHeaders(headers: Record<string, string>): void }
interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): void;
}
interface AutocannonResult { requests: { average: number; total: number }; non2xx: number; errors: number; timeouts: number; duration: number }
type Autocannon = (
  options: { url: string; connections: number; duration: number; setupClient?: (client: AutocannonClient) => void },
  done: (err: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// ---------------------------------------------------------------------------------------------
// Server mode: one API process, with or without the access chain.

async function serve(args: { db: string; redis: string; prefix: string; mode: Mode }): Promise<void> {
  const log = createLogger('silent');
  const sql = createSql(args.db, { max: 5, applicationName: 'api-bench' });
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

function load(url: string, keys: string[], connections: number, duration: number): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let next = 0;
    const instance = autocannon(
      { url, connections, duration, setupClient: (client) => client.setHeaders({ 'x-api-key': keys[next++ % keys.length]! }) },
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

async function startServer(mode: Mode, db: string, redis: string, prefix: string): Promise<{ port: number; child: ChildProcess }> {
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the API process only.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', new URL(import.meta.url).pathname, '--serve', '--mode', mode, '--db', db, '--redis', redis, '--prefix', prefix], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

async function prepare(): Promise<{ db: string; redis: string; prefix: string; keys: string[]; cleanup: () => Promise<void> }> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const log = createLogger('warn', { stderr: true });
  const server = await resolvePostgresServer(config, log);
  await ensureDatabase(server.url, BENCH_DATABASE);
  const db = withDatabase(server.url, BENCH_DATABASE);
  const sql = createSql(db, { max: 2 });
  await migrate(sql);
  await loadCatalogues(sql);
  const account = await createAccount(sql, { email: `bench-${randomBytes(4).toString('hex')}@example.org`, plan: 'api' });
  const keys: string[] = [];
  for (let i = 0; i < 50; i++) keys.push((await createApiKey(sql, { accountId: account.id, label: 'bench' })).key);
  const redisUrl = await resolveRedisUrl(config, log);
  const prefix = `bench-${randomBytes(4).toString('hex')}:`;
  return {
    db, redis: redisUrl, prefix, keys,
    cleanup: async () => {
      await sql`DELETE FROM account WHERE id = ${account.id}`;
      await sql`DELETE FROM usage_counter WHERE subject = ${`account:${account.id}`}`;
      await sql.end();
      const redis = new Redis(redisUrl);
      let cursor = '0';
      do {
        const [nextCursor, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (found.length > 0) await redis.del(...found);
        cursor = nextCursor;
      } while (cursor !== '0');
      redis.disconnect();
      await server.stop();
    },
  };
}

async function drive(options: { json: boolean; connections: number; duration: number; probe: number }): Promise<void> {
  const say = (text: string) => (options.json ? console.error(text) : console.log(text));
  const setup = await prepare();
  const runs: Record<Mode, Record<Profile, RunFigures>> = { chain: {} as Record<Profile, RunFigures>, bypass: {} as Record<Profile, RunFigures> };
  const probes = {} as Record<Mode, RunFigures>;
  try {
    for (const mode of ['bypass', 'chain'] as const) {
      const { port, child } = await startServer(mode, setup.db, setup.redis, setup.prefix);
      try {
        const base = `http://127.0.0.1:${port}`;
        await load(base + ENDPOINTS.profile, setup.keys, 10, 2); // warm-up: JIT, pools, plan cache
        for (const profile of ['profile', 'screener'] as const) {
          say(`${mode}: ${profile} ${ENDPOINTS[profile]}, ${options.connections} connections, ${options.duration} s ...`);
          runs[mode][profile] = await load(base + ENDPOINTS[profile], setup.keys, options.connections, options.duration);
        }
        say(`${mode}: one-connection probe on ${ENDPOINTS.profile}, ${options.probe} s ...`);
        probes[mode] = await load(base + ENDPOINTS.profile, setup.keys, 1, options.probe);
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
    endpoints: ENDPOINTS,
    note: 'profile and screener endpoints are not in the API yet: a small catalogue page and a 100-row ÖNACE page stand in for them',
    runs,
    probe: { connections: 1, durationSeconds: options.probe, chain: probes.chain, bypass: probes.bypass },
    chainAddedP50Ms: { profile: added('profile'), screener: added('screener'), probe: round(probes.chain.p50Ms - probes.bypass.p50Ms) },
  };

  const row = (label: string, f: RunFigures) =>
    `${label.padEnd(22)} ${String(f.requestsPerSecond).padStart(9)} req/s   p50 ${f.p50Ms.toFixed(3).padStart(8)} ms   p99 ${f.p99Ms.toFixed(3).padStart(8)} ms   non-2xx ${f.non2xx}`;
  say('');
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
    serve: { type: 'boolean', default: false },
    mode: { type: 'string', default: 'chain' },
    db: { type: 'string' },
    redis: { type: 'string' },
    prefix: { type: 'string' },
  },
});

const main = values.serve
  ? serve({ db: values.db!, redis: values.redis!, prefix: values.prefix!, mode: values.mode === 'bypass' ? 'bypass' : 'chain' })
  : drive({ json: values.json, connections: Number(values.connections), duration: Number(values.duration), probe: Number(values.probe) });
main.catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
