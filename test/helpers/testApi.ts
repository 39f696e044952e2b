// The API as most integration tests run it: a database of their own, a Redis key prefix of their
// own, and createApp() served over HTTP with the real access chain.
import type { AccessChainDeps, AppDeps } from '../../api/app.js';
import { createApp } from '../../api/app.js';
import type { Plan } from '../../api/accounts/accountStore.js';
import { createLogger } from '../../runtime/logger.js';
import { accountWithKey, createTestAccess, type TestAccess } from './apiAccess.js';
import { serve, type TestHttp } from './httpClient.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';

export interface TestApi {
  db: TestDatabase;
  access: TestAccess;
  http: TestHttp;
  /** Closes the server, deletes the Redis keys and drops the database. */
  close(): Promise<void>;
}

export interface TestApiOptions {
  /** Overrides of the access chain (burst limit, principal cache). */
  access?: Partial<AccessChainDeps>;
  /** More of createApp()'s dependencies (clock, search backend, ...). */
  app?: Partial<Omit<AppDeps, 'sql' | 'access'>>;
  /** Runs on the new database before the app is served (seed data, build the read model). */
  prepare?: (db: TestDatabase) => Promise<void>;
  /** Send every request with a key of an account on this plan; without, requests carry no key. */
  plan?: Plan;
}

export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const db = await createTestDatabase();
  const access = await createTestAccess(options.access);
  await options.prepare?.(db);
  const headers: Record<string, string> = options.plan ? { 'x-api-key': (await accountWithKey(db.sql, options.plan)).key } : {};
  const http = await serve(createApp({ sql: db.sql, log: createLogger('silent'), ...options.app, access: access.access }), headers);
  return {
    db,
    access,
    http,
    close: async () => {
      await http.close();
      await access.close();
      await db.drop();
    },
  };
}
