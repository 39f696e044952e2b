// A register is a plug-in: a throw-away register (a tiny fake upstream, one job) added to the list
// of registers.ts is scheduled, worked, replayed, and shown on Bull Board and in /metrics, with no
// other code knowing it. The pipeline, replay and the operator pages take the list as npm start and
// npm run replay do.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../api/app.js';
import { startPipeline } from '../../pipeline/pipelineWorker.js';
import { defineRegister, type FakeUpstream } from '../../pipeline/register.js';
import { REGISTERS } from '../../pipeline/registers.js';
import { replay } from '../../pipeline/replay/replay.js';
import { createLogger } from '../../runtime/logger.js';
import { createMetrics } from '../../runtime/metrics.js';
import { serve } from '../helpers/httpClient.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const log = createLogger('silent');
/** What the register's handler saw, by the upstream it called. */
const seen: string[] = [];

/** The fake: answers GET /item/{id} with the item's text from the fixture folder's files. */
async function startTinyFake(fixturesDir: string): Promise<FakeUpstream> {
  const server = createServer((req, res) => {
    void readdir(join(fixturesDir, 'tiny')).then((files) => {
      const id = req.url?.split('/').pop() ?? '';
      const found = files.includes(`${id}.txt`);
      res.writeHead(found ? 200 : 404).end(found ? `item ${id}` : '');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((done) => server.close(() => done())) };
}

const tiny = defineRegister({
  name: `tiny-${randomBytes(3).toString('hex')}`,
  jobs: {
    item: { name: 'tiny.item', payload: z.object({ id: z.string() }), jobId: (p: { id: string }) => `item.${p.id}` },
  },
  upstream: () => ({ baseUrl: 'http://127.0.0.1:9', ratePerSecond: 100 }),
  handlers: ({ upstream }) => ({
    handlers: {
      item: async ({ id }) => {
        const res = await fetch(`${upstream.baseUrl}/item/${id}`);
        seen.push(`${upstream.baseUrl} ${res.status} ${await res.text()}`);
      },
    },
  }),
  schedules: () => [{ id: 'tiny.every-100ms', everyMs: 100, job: 'item', data: { id: 'scheduled' } }],
  replay: {
    hasFixtures: (dir) => readdir(join(dir, 'tiny')).then(() => true, () => false),
    start: async ({ fixturesDir, enqueueMany }) => {
      const files = await readdir(join(fixturesDir, 'tiny'));
      await enqueueMany('item', files.map((f) => ({ id: f.replace(/\.txt$/, '') })));
    },
    counts: async () => ({ itemsSeen: seen.filter((s) => s.includes(' 200 ')).length }),
  },
  fake: ({ fixturesDir }) => startTinyFake(fixturesDir),
});

let db: TestDatabase;
let fixturesDir: string;
let redis: Redis;
const registers = [...REGISTERS, tiny];

beforeAll(async () => {
  db = await createTestDatabase();
  redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  fixturesDir = await mkdtemp(join(tmpdir(), 'tiny-register-'));
  await mkdir(join(fixturesDir, 'tiny'));
  for (const id of ['a', 'b', 'c']) await writeFile(join(fixturesDir, 'tiny', `${id}.txt`), id);
});
afterAll(async () => {
  redis.disconnect();
  await rm(fixturesDir, { recursive: true, force: true });
  await db.drop();
});

describe('a register added to the list', () => {
  it('is scheduled and worked, and its queue is on Bull Board and in /metrics', async () => {
    seen.length = 0;
    const prefix = `plugin-${randomBytes(4).toString('hex')}`;
    const fake = await startTinyFake(fixturesDir);
    const pipeline = await startPipeline({
      sql: db.sql, redisUrl: inject('redisUrl'), log, registers, concurrency: 2, schedules: true, prefix,
      upstreams: { [tiny.name]: { baseUrl: fake.url } },
    });
    try {
      expect(Object.keys(pipeline.queues)).toEqual(registers.map((r) => r.name));
      const deadline = Date.now() + 10_000;
      while (seen.filter((s) => s.startsWith(fake.url)).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // The schedule ran the job at least twice against the register's own upstream.
      expect(seen.filter((s) => s === `${fake.url} 404 `).length).toBeGreaterThanOrEqual(2);

      const metrics = createMetrics();
      metrics.watchQueues(Object.values(pipeline.queues));
      const http = await serve(createApp({
        sql: db.sql, log, metrics: metrics.registry, queues: Object.values(pipeline.queues), adminToken: 'op-secret',
        access: { redis, redisPrefix: `${prefix}:api:` },
      }));
      try {
        const board = (await (await http.get('/admin/queues/api/queues', { 'x-admin-token': 'op-secret' })).json()) as { queues: Array<{ name: string }> };
        expect(board.queues.map((q) => q.name)).toEqual(expect.arrayContaining([tiny.name, 'firmenbuch']));
        const text = await (await http.get('/metrics', { authorization: 'Bearer op-secret' })).text();
        expect(text).toMatch(new RegExp(`queue_jobs\\{queue="${tiny.name}",state="completed"\\} \\d+`));
      } finally {
        await http.close();
      }
    } finally {
      for (const q of Object.values(pipeline.queues)) {
        for (const s of await q.getJobSchedulers()) await q.removeJobScheduler(s.key);
        await q.obliterate({ force: true });
      }
      await pipeline.close();
      await fake.close();
    }
  });

  it('is replayed through its own fake from its part of a fixture directory, and summarised', async () => {
    seen.length = 0;
    // The directory holds only the tiny register's fixtures: the others have none there and sit out.
    const summary = await replay({ sql: db.sql, redisUrl: inject('redisUrl'), log, registers, fixturesDir, prefix: `plugin-replay-${randomBytes(4).toString('hex')}` });
    expect(summary.failed).toEqual([]);
    expect(Object.keys(summary.sources)).toEqual([tiny.name]);
    expect(summary.sources[tiny.name]).toEqual({ jobsCompleted: 3, jobsRetried: 0, jobsFailed: 0, itemsSeen: 3 });
    expect(seen.sort()).toEqual(['a', 'b', 'c'].map((id) => expect.stringMatching(new RegExp(` 200 item ${id}$`))));
  });
});
