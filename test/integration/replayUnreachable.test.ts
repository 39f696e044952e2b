// Issue 23.14: a replay whose upstream cannot be reached fails at once with the reason, instead of
// retrying a refused connection eight times (about 26 s with the default backoff) and then reporting
// failed jobs.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { firmenbuch } from '../../pipeline/firmenbuch/index.js';
import { replay } from '../../pipeline/replay/replay.js';
import { UpstreamUnreachableError } from '../../pipeline/upstream/reachable.js';
import { createLogger } from '../../runtime/logger.js';
import { deleteKeys } from '../helpers/apiAccess.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/** A local port that refuses connections: one just given up by a listener. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('a live replay whose upstream refuses connections', () => {
  it('rejects within seconds naming the register, the URL and the reason, and enqueues nothing', async () => {
    const port = await closedPort();
    const prefix = `unreachable-${randomBytes(4).toString('hex')}`;
    const started = Date.now();
    const err = await replay({
      sql: db.sql, redisUrl: inject('redisUrl'), log: createLogger('silent'), registers: [firmenbuch], mode: 'live', prefix,
      upstreams: { firmenbuch: { baseUrl: `http://127.0.0.1:${port}/` } },
    }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamUnreachableError);
    expect((err as Error).message).toBe(`firmenbuch: upstream http://127.0.0.1:${port} is unreachable (ECONNREFUSED)`);
    expect(Date.now() - started).toBeLessThan(10_000);

    const redis = new Redis(inject('redisUrl'));
    try {
      expect(await redis.keys(`${prefix}:*:wait`)).toEqual([]);
      await deleteKeys(redis, `${prefix}:*`);
    } finally {
      redis.disconnect();
    }
    expect((await db.sql`SELECT count(*)::int AS n FROM company`)[0]!.n).toBe(0);
  }, 30_000);
});
