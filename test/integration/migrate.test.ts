// npm run migrate on an empty database creates the full schema; running it again changes nothing;
// an edited, already applied file stops the run; two processes migrating at once do not collide.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql } from '../../runtime/db.js';
import { migrate, MIGRATIONS_DIR, readMigrations } from '../../runtime/migrate.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
});
afterAll(async () => {
  await db.drop();
});

/** Every column, constraint, index, function and trigger of the public schema, as text. */
async function schemaFingerprint(): Promise<string[]> {
  const rows = await db.sql<{ item: string }[]>`
    SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS item
      FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL
    SELECT 'constraint ' || conrelid::regclass || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL
    SELECT 'function ' || p.proname || ' ' || md5(p.prosrc) FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    ORDER BY 1`;
  return rows.map((r) => r.item);
}

describe('migrate', () => {
  it('creates the full schema on an empty database', async () => {
    const applied = await migrate(db.sql);
    expect(applied).toEqual((await readMigrations()).map((m) => m.name));
    const tables = (await db.sql<{ tableName: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`).map((t) => t.tableName);
    expect(tables).toEqual(
      expect.arrayContaining([
        'company', 'company_name', 'company_address', 'company_oenace', 'register_entry', 'person', 'organisation',
        'company_party', 'company_function', 'holding', 'document', 'annual_account', 'trade', 'trade_license',
        'court_notice', 'bogus_company_listing', 'bogus_company_publication', 'crawl_state', 'index_cursor',
        'change_log', 'account', 'plan', 'api_key', 'session', 'usage_counter', 'saved_query', 'company_list',
        'company_list_member', 'company_list_removed', 'oenace_class', 'postal_locality', 'court', 'legal_form',
        'function_code', 'representation_kind', 'regulated_trade', 'catalogue_load', 'schema_migration',
      ]),
    );
  });

  it('changes nothing when run again', async () => {
    const before = await schemaFingerprint();
    const ledgerBefore = await db.sql`SELECT version, checksum, applied_at FROM schema_migration ORDER BY version`;
    expect(await migrate(db.sql)).toEqual([]);
    expect(await schemaFingerprint()).toEqual(before);
    expect(await db.sql`SELECT version, checksum, applied_at FROM schema_migration ORDER BY version`).toEqual(ledgerBefore);
  });

  it('refuses to continue when an applied migration file was edited', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const first = join(dir, '0001_catalogues.sql');
    await writeFile(first, (await readFile(first, 'utf8')) + '\n-- edited\n');
    await expect(migrate(db.sql, dir + '/')).rejects.toThrow(/0001_catalogues\.sql was changed after it was applied/);
  });

  it('lets concurrent runs apply each file exactly once', async () => {
    const fresh = await createTestDatabase({ empty: true });
    const other = createSql(fresh.url, { max: 1 });
    try {
      const [a, b] = await Promise.all([migrate(fresh.sql), migrate(other)]);
      const all = (await readMigrations()).map((m) => m.name);
      expect([...a, ...b].sort()).toEqual(all.sort());
      const [row] = await fresh.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM schema_migration`;
      expect(row?.count).toBe(all.length);
    } finally {
      await other.end();
      await fresh.drop();
    }
  });

  it('opens every migration file with a few lines on what it establishes', async () => {
    for (const file of await readMigrations()) {
      const header = file.sql.split('\n').slice(0, 2);
      expect(header.every((line) => line.startsWith('--')), file.name).toBe(true);
    }
  });
});
