// What API tests need to get past the access chain: a Redis connection with a key prefix of their
// own (test files share one Redis), and accounts with keys.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { createAccount, createApiKey, type Plan } from '../../api/accounts/accountStore.js';
import type { AccessChainDeps } from '../../api/app.js';
import type { Sql } from '../../runtime/db.js';

export interface TestAccess {
  redis: Redis;
  prefix: string;
  access: AccessChainDeps;
  /** Deletes this file's Redis keys and closes the connection. */
  close: () => Promise<void>;
}

export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export async function createTestAccess(overrides: Partial<AccessChainDeps> = {}): Promise<TestAccess> {
  const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
  const prefix = `test-api-${randomBytes(4).toString('hex')}:`;
  return {
    redis,
    prefix,
    // No principal cache unless a test asks for one: revocations and plan changes take effect at once.
    access: { redis, redisPrefix: prefix, principalCacheMs: 0, ...overrides },
    close: async () => {
      await deleteKeys(redis, `${prefix}*`);
      redis.disconnect();
    },
  };
}

let emailCounter = 0;

/** A new account on `plan` with one key; returns both ids and the key. */
export async function accountWithKey(sql: Sql, plan: Plan = 'api'): Promise<{ accountId: string; keyId: string; key: string }> {
  const account = await createAccount(sql, { email: `user${++emailCounter}-${randomBytes(3).toString('hex')}@example.org`, plan });
  const issued = await createApiKey(sql, { accountId: account.id });
  return { accountId: account.id, keyId: issued.id, key: issued.key };
}
