// Forward-only plain-SQL migrations from schemas/sql, applied in file-name order under an advisory
// lock so two processes starting at once cannot both migrate. Each file runs in its own transaction
// and is recorded with a checksum; an applied file that was edited afterwards stops the run, because
// the database no longer matches what the file says.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Sql } from './db.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../schemas/sql/', import.meta.url));
const MIGRATION_LOCK = 0x4d494752; // 'MIGR'

export interface MigrationFile {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((n) => /^\d{4}_[a-z0-9_]+\.sql$/.test(n)).sort();
  const files: MigrationFile[] = [];
  for (const name of names) {
    const sql = await readFile(dir + name, 'utf8');
    files.push({ version: Number(name.slice(0, 4)), name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  const versions = files.map((f) => f.version);
  if (new Set(versions).size !== versions.length) throw new Error(`Duplicate migration versions in ${dir}`);
  return files;
}

export class MigrationChecksumError extends Error {
  constructor(readonly file: string) {
    super(`Migration ${file} was changed after it was applied. Migrations are forward-only: add a new file instead.`);
    this.name = 'MigrationChecksumError';
  }
}

/** Applies pending migrations; returns the names of the files applied by this call. */
export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = await readMigrations(dir);
  const conn = await sql.reserve();
  const applied: string[] = [];
  try {
    await conn`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    await conn`
      CREATE TABLE IF NOT EXISTS schema_migration (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        checksum   text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`;
    const done = new Map(
      (await conn<{ version: number; checksum: string }[]>`SELECT version, checksum FROM schema_migration`).map((r) => [r.version, r.checksum]),
    );
    for (const file of files) {
      const recorded = done.get(file.version);
      if (recorded !== undefined) {
        if (recorded !== file.checksum) throw new MigrationChecksumError(file.name);
        continue;
      }
      await conn.unsafe('BEGIN');
      try {
        await conn.unsafe(file.sql);
        await conn`INSERT INTO schema_migration (version, name, checksum) VALUES (${file.version}, ${file.name}, ${file.checksum})`;
        await conn.unsafe('COMMIT');
      } catch (err) {
        await conn.unsafe('ROLLBACK');
        throw new Error(`Migration ${file.name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(file.name);
    }
  } finally {
    await conn`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => undefined);
    conn.release();
  }
  return applied;
}
