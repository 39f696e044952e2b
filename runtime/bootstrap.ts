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

/** Runs an entry point; a configuration error prints every problem and exits 1 without a stack. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof Error && err.name === 'ConfigError') console.error(err.message);
    else console.error(err);
    process.exit(1);
  });
}
