// npm run schema:dump: migrates a throw-away database and writes schemas/schema.sql from it.
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { runMain } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { migratedSchemaFile, SCHEMA_FILE } from '../schemaDump.js';
import { resolvePostgresServer } from '../services.js';
import { commandLine } from './args.js';

runMain(async () => {
  commandLine({ usage: "usage: npm run schema:dump\n  Migrates a throw-away database and writes schemas/schema.sql from it.", options: {} });
  const config = loadConfig();
  const server = await resolvePostgresServer(config, createLogger(config.LOG_LEVEL, { stderr: true }));
  try {
    await writeFile(SCHEMA_FILE, await migratedSchemaFile(server.url));
  } finally {
    await server.stop();
  }
  console.log(`schema:dump: wrote ${relative(process.cwd(), SCHEMA_FILE)}`);
});
