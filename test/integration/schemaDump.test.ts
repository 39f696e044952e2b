// schemas/schema.sql is what the migrations build: a migration that changes the schema without a
// fresh dump fails here.
import { readFile } from 'node:fs/promises';
import { expect, inject, it } from 'vitest';
import { dumpedMajor, migratedSchemaFile, SCHEMA_FILE, serverMajor } from '../../runtime/schemaDump.js';

it('schemas/schema.sql matches a freshly migrated database', async (ctx) => {
  const serverUrl = inject('postgresServerUrl');
  const committed = await readFile(SCHEMA_FILE, 'utf8');
  const major = await serverMajor(serverUrl);
  // Another major version prints the same schema differently; that says nothing about the migrations.
  ctx.skip(dumpedMajor(committed) !== major, `schemas/schema.sql is from PostgreSQL ${dumpedMajor(committed)}, this server is ${major}`);
  const current = await migratedSchemaFile(serverUrl);
  expect(current, 'schemas/schema.sql is out of date: run `npm run schema:dump` and commit it').toBe(committed);
});
