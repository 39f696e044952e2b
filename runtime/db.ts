// Postgres client (porsager/postgres): tagged templates that read as SQL.
// Column names come back camelCased; int8 columns (ids, counts) as JS numbers, which is exact below
// 2^53; numeric columns stay strings so money values are never rounded.
import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

export interface DbOptions {
  max?: number;
  /** Application name shown in pg_stat_activity: which process holds a connection. */
  applicationName?: string;
}

export function createSql(url: string, options: DbOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 5,
    onnotice: () => undefined,
    transform: { column: { from: postgres.toCamel } },
    types: {
      int8: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    connection: { application_name: options.applicationName ?? 'at-company-data' },
    // Reconnect within 2 s at most. The default grows to 20 s after a few failed attempts (3^n/100 s),
    // and a connection killed over and over (a failover) then left queries waiting that long.
    backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 2),
  }) as unknown as Sql;
}

/** The URL of another database on the same server (tests create and drop their own). */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * postgres.js reads the array types on every new connection, in a promise nobody awaits: a connection
 * terminated during that read (a failover, pg_terminate_backend) rejects unhandled, which ends a Node
 * process by default. One read serves the whole pool, so once a first query has run (after the read),
 * later connections skip it.
 */
export async function loadTypesOnce(sql: Sql): Promise<void> {
  await sql`SELECT 1`;
  (sql.options as { fetch_types: boolean }).fetch_types = false;
}
