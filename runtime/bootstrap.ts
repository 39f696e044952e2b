// What every entry point does first: read config once, find or start Postgres and Redis, bring the
// schema and the catalogues up to date. Returns the clients and one close() for shutdown.
import { loadCatalogues } from '../pipeline/catalogues/catalogueLoader.js';
import { loadConfig, type Config } from './config.js';
import { createSql, loadTypesOnce, type Sql } from './db.js';
import { createLogger, type Logger } from './logger.js';
import { migrate } from './migrate.js';
import { resolveDatabaseUrl, resolveRedisUrl } from './services.js';

export interface Runtime {
  config: Config;
  log: Logger;
  sql: Sql;
  databaseUrl: string;
  redisUrl: string;
  close: () => Promise<void>;
}

export interface BootstrapOptions {
  /** Apply pending migrations and reload changed catalogues (default true). */
  migrate?: boolean;
  applicationName?: string;
  /** Command-line tools log to stderr so that stdout carries only their answer. */
  cli?: boolean;
}

export async function bootstrap(options: BootstrapOptions = {}): Promise<Runtime> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL, { stderr: options.cli ?? false });
  const postgresServer = await resolveDatabaseUrl(config, log);
  const redisUrl = await resolveRedisUrl(config, log);
  const sql = createSql(postgresServer.url, { max: config.DATABASE_POOL_SIZE, applicationName: options.applicationName });
  await loadTypesOnce(sql);
  if (options.migrate ?? true) {
    const applied = await migrate(sql);
    if (applied.length > 0) log.info({ applied }, 'migrations applied');
    const catalogues = await loadCatalogues(sql);
    const reloaded = catalogues.filter((c) => c.reloaded);
    if (reloaded.length > 0) log.info({ catalogues: reloaded }, 'catalogues loaded');
  }
  return {
    config,
    log,
    sql,
    databaseUrl: postgresServer.url,
    redisUrl,
    close: async () => {
      await sql.end({ timeout: 5 });
      await postgresServer.stop();
    },
  };
}

/** A mistake of the caller's (a flag, a path, a missing database): one line and an exit code, no stack. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

/** Errors an operator can act on from their message alone. */
const OPERATOR_ERRORS = new Set(['ConfigError', 'CliError', 'UpstreamUnreachableError', 'UpstreamAuthenticationError']);

function operatorMessage(err: unknown): { message: string; exitCode: number } | null {
  if (!(err instanceof Error)) return null;
  if (OPERATOR_ERRORS.has(err.name)) return { message: err.message, exitCode: (err as { exitCode?: number }).exitCode ?? 1 };
  const code = (err as { code?: string }).code;
  // Postgres: the database named by DATABASE_URL does not exist, or the role may not connect.
  if (code === '3D000' || code === '28000' || code === '28P01') return { message: `database: ${err.message} (check DATABASE_URL)`, exitCode: 2 };
  if (code === 'ECONNREFUSED') return { message: `cannot connect: ${err.message}`, exitCode: 1 };
  return null;
}

/** Runs an entry point; an operator's mistake prints one line without a stack, anything else in full. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    const known = operatorMessage(err);
    console.error(known ? known.message : err);
    process.exit(known?.exitCode ?? 1);
  });
}
