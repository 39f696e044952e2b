// The operator command as operators run it (a separate process on the same database): accounts,
// keys (create, service, rotate, revoke), sessions and usage, each answering one JSON object with --json.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { hashSecret } from '../../api/accounts/accountStore.js';
import { monthKey } from '../../api/metering/calendar.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const run = promisify(execFile);
let db: TestDatabase;
let redis: Redis;
const cleanup: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  db = await createTestDatabase();
  redis = new Redis(inject('redisUrl'));
});
afterAll(async () => {
  for (const step of cleanup) await step();
  redis.disconnect();
  await db.drop();
});

async function admin(...args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: db.url, REDIS_URL: inject('redisUrl'), LOG_LEVEL: 'warn' };
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'runtime/cli/admin.ts', ...args, '--json'], { env });
    return { code: 0, json: JSON.parse(stdout.trim().split('\n').at(-1)!), stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    const last = e.stdout.trim().split('\n').at(-1);
    return { code: e.code, json: last ? JSON.parse(last) : {}, stderr: e.stderr };
  }
}

async function keyRow(id: string) {
  const [row] = await db.sql<{ accountId: string | null; revokedAt: Date | null; rotatedFrom: string | null; plan: string | null; keyHash: Buffer }[]>`
    SELECT account_id, revoked_at, rotated_from, plan, key_hash FROM api_key WHERE id = ${id}`;
  return row;
}

describe('npm run admin', () => {
  let accountId: string;
  let keyId: string;

  it('creates an account and answers {"id": ...}', async () => {
    const res = await admin('account', 'create', '--plan', 'pro', '--email', 'ops-test@example.org');
    expect(res.code).toBe(0);
    expect(res.json).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'ops-test@example.org', plan: 'pro' });
    accountId = res.json.id as string;
  });

  it('issues an account key, shown once and stored only as a hash', async () => {
    const res = await admin('key', 'create', '--account', accountId);
    expect(res.json).toMatchObject({ id: expect.any(String), key: expect.stringMatching(/^atc_/), accountId });
    keyId = res.json.id as string;
    const row = await keyRow(keyId);
    expect(row!.keyHash.equals(hashSecret(res.json.key as string))).toBe(true);
    expect(JSON.stringify(await db.sql`SELECT * FROM api_key WHERE id = ${keyId}`)).not.toContain(res.json.key as string);
  });

  it('issues a service key without an account, on the plan asked for', async () => {
    const res = await admin('key', 'create', '--service', '--plan', 'api');
    expect(res.json).toMatchObject({ key: expect.stringMatching(/^atc_/), accountId: null });
    expect(await keyRow(res.json.id as string)).toMatchObject({ accountId: null, plan: 'api' });
  });

  it('rotates a key: a new key for the same account, the old one revoked', async () => {
    const res = await admin('key', 'rotate', keyId);
    expect(res.json).toMatchObject({ key: expect.stringMatching(/^atc_/), accountId, rotatedFrom: keyId });
    expect((await keyRow(keyId))!.revokedAt).not.toBeNull();
    expect(await keyRow(res.json.id as string)).toMatchObject({ accountId, revokedAt: null, rotatedFrom: keyId });
    const again = await admin('key', 'rotate', keyId);
    expect(again.code).toBe(1);
    expect(again.json).toEqual({ id: keyId, rotated: false });
    keyId = res.json.id as string;
  });

  it('revokes a key', async () => {
    const res = await admin('key', 'revoke', keyId);
    expect(res.json).toEqual({ id: keyId, revoked: true });
    expect((await admin('key', 'revoke', keyId)).code).toBe(1);
  });

  it('creates a dashboard session with its cookie', async () => {
    const res = await admin('session', 'create', '--account', accountId, '--hours', '2');
    expect(res.json).toMatchObject({ token: expect.stringMatching(/^ats_/), accountId, cookie: `session=${res.json.token as string}` });
    const [row] = await db.sql<{ accountId: string }[]>`SELECT account_id FROM session WHERE token_hash = ${hashSecret(res.json.token as string)}`;
    expect(row?.accountId).toBe(accountId);
  });

  it("shows an account's usage: this month live from Redis, earlier months from Postgres", async () => {
    const month = monthKey(Date.now());
    const redisKey = `api:usage:${month}`;
    await db.sql`INSERT INTO usage_counter (subject, month, requests) VALUES (${`account:${accountId}`}, '2020-01-01', 17), (${`account:${accountId}`}, ${`${month}-01`}, 3)`;
    await redis.hset(redisKey, `account:${accountId}`, 5);
    cleanup.push(() => redis.hdel(redisKey, `account:${accountId}`));
    const res = await admin('usage', '--account', accountId);
    expect(res.json).toMatchObject({
      accountId, plan: 'pro', monthlyQuota: 5000, month, requests: 5, remaining: 4995,
      history: [{ month, requests: 3 }, { month: '2020-01', requests: 17 }],
    });
    expect((res.json.keys as unknown[]).length).toBe(2);
  });

  it('refuses bad input with the usage text and exit code 2', async () => {
    const res = await admin('key', 'create', '--account', 'not-a-uuid');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('usage:');
    expect((await admin('account', 'create', '--plan', 'gold', '--email', 'x@example.org')).code).toBe(2);
  });
});
