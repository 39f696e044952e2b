// A fresh database per test file, cloned from the migrated template (fast: a file copy on the server).
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createSql, withDatabase, type Sql } from '../../runtime/db.js';
import { dropDatabase } from '../../runtime/services.js';

export interface TestDatabase {
  name: string;
  url: string;
  sql: Sql;
  /** Closes the pool and drops the database. */
  drop: () => Promise<void>;
}

export async function createTestDatabase(options: { empty?: boolean; max?: number } = {}): Promise<TestDatabase> {
  const serverUrl = inject('postgresServerUrl');
  const name = `companydata_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  try {
    if (options.empty) await admin.unsafe(`CREATE DATABASE "${name}"`);
    else await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${inject('templateDatabase')}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const sql = createSql(url, { max: options.max ?? 5 });
  return {
    name,
    url,
    sql,
    drop: async () => {
      await sql.end({ timeout: 5 });
      await dropDatabase(serverUrl, name);
    },
  };
}
