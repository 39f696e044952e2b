// Once per test run: find the Postgres server (DATABASE_URL or the local one, started if needed),
// build a migrated template database with the catalogues loaded, and hand its URL to the test files.
// Each test file clones its own database from the template (test/helpers/testDatabase.ts), so tests
// never touch a user's data and files can run in parallel. Everything is dropped at the end.
import type { TestProject } from 'vitest/node';
import { loadCatalogues } from '../../pipeline/catalogues/catalogueLoader.js';
import { loadConfig } from '../../runtime/config.js';
import { createSql, withDatabase } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { migrate } from '../../runtime/migrate.js';
import { dropDatabase, ensureDatabase, resolvePostgresServer, resolveRedisUrl } from '../../runtime/services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresServerUrl: string;
    templateDatabase: string;
    redisUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const log = createLogger('warn');
  const server = await resolvePostgresServer(config, log);
  const redisUrl = await resolveRedisUrl(config, log);
  const template = `companydata_test_tpl_${process.pid}`;
  await dropDatabase(server.url, template);
  await ensureDatabase(server.url, template);
  const sql = createSql(withDatabase(server.url, template), { max: 1 });
  try {
    await migrate(sql);
    await loadCatalogues(sql);
  } finally {
    await sql.end();
  }
  project.provide('postgresServerUrl', server.url);
  project.provide('templateDatabase', template);
  project.provide('redisUrl', redisUrl);
  return async () => {
    await dropDatabase(server.url, template);
    await server.stop();
  };
}
