// Issue 22 (findings 1 and 6) for the GISA, Ediktsdatei and BMF adapters, as hostileUpstream.test.ts
// holds it for the Firmenbuch: an endless answer stops at the operation's size limit and an answer
// whose Content-Length is over it is refused unread; either fails the job at once as an input fault
// with the reason on the job, holds at most about the limit, leaves no transfer open and raises
// nothing uncaught. Each job goes through the register's own handlers (built from its upstream
// settings, as the pipeline builds them) and the real job runner.
import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bmf } from '../../pipeline/bmf/index.js';
import { edikte } from '../../pipeline/edikte/index.js';
import { gisa } from '../../pipeline/gisa/index.js';
import { GisaClient } from '../../pipeline/gisa/gisaClient.js';
import { jobProcessor } from '../../pipeline/jobs/runJob.js';
import type { AnyRegister, RegisterRunReport } from '../../pipeline/register.js';
import { MiB, UpstreamBodyTooLargeError } from '../../pipeline/upstream/bodyLimit.js';
import type { Sql } from '../../runtime/db.js';
import { createLogger } from '../../runtime/logger.js';
import { declaredHuge, endless, expectStoppedNearLimit, startHostileServer, uncaughtDuring, type HostileServer } from '../helpers/hostileServer.js';

const LIMIT = 2 * MiB;
const EXTRACT_LIMIT = 6 * MiB;
let server: HostileServer;

beforeAll(async () => {
  server = await startHostileServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

interface JobRun {
  error: unknown;
  /** What the runner wrote onto the job when it failed it for good. */
  stored: Record<string, unknown> | null;
  runs: RegisterRunReport[];
}

/** Runs one job of `register` through its handlers and the real runner, against the hostile server. */
async function runJob(register: AnyRegister, key: string, data: Record<string, unknown>): Promise<JobRun> {
  const database = Object.assign(() => Promise.resolve([]), { json: (v: unknown) => v }) as unknown as Sql;
  const runs: RegisterRunReport[] = [];
  const runtime = register.handlers({
    sql: database, log: createLogger('silent'), enqueue: async () => undefined, enqueueMany: async () => undefined,
    upstream: { baseUrl: server.url, ratePerSecond: 100, timeoutMs: 10_000, maxBodyBytes: { records: LIMIT, documents: EXTRACT_LIMIT } },
    quota: () => undefined, onRun: (e) => runs.push(e),
  });
  const processor = jobProcessor({
    register, handlers: runtime.handlers as never, queue: { rateLimit: async () => undefined } as unknown as Queue, log: createLogger('silent'),
  });
  let stored: Record<string, unknown> | null = null;
  const job = {
    name: register.jobs[key]!.name, data, id: `test.${key}`, opts: { attempts: 8 }, attemptsMade: 0,
    updateData: async (d: Record<string, unknown>) => void (stored = d),
  } as unknown as Job;
  try {
    await processor(job);
    return { error: null, stored, runs };
  } catch (error) {
    return { error, stored, runs };
  } finally {
    runtime.close?.();
  }
}

const cases = [
  { register: gisa, job: 'licence', data: { gisaZahl: '100000054', cause: 'test' }, operation: 'GetGewerbeV2', start: '<?xml version="1.0"?><GetGewerbeV2Output>' },
  { register: edikte, job: 'page', data: { view: 'All', run: 'r1', window: null, page: 0 }, operation: 'view', start: '{"entries":[', type: 'application/json' },
  { register: edikte, job: 'document', data: { unid: '0123456789abcdef0123456789ABCDEF', since: null }, operation: 'document', start: '{"@unid":"', type: 'application/json' },
  { register: bmf, job: 'poll', data: {}, operation: 'list', start: 'Name~ Anschrift~\r\n', type: 'text/csv' },
];

describe.each(cases)('$register.name $job', ({ register, job, data, operation, start, type }) => {
  it('an endless answer stops at the limit and fails the job at once with the reason, nothing uncaught', async () => {
    const uncaught = await uncaughtDuring(async () => {
      server.answer = (_req, res) => endless(server, res, Buffer.alloc(64 * 1024, 'a'), start, type ? { 'Content-Type': type } : {});
      const heapBefore = process.memoryUsage().heapUsed;
      const run = await runJob(register, job, data);
      expect(run.error).toBeInstanceOf(UnrecoverableError);
      expect((run.error as Error).message).toContain(`${register.name} answer to ${operation} is larger than its limit of ${LIMIT} bytes (aborted after`);
      expect(run.stored).toMatchObject({ failure: { message: expect.stringContaining(`limit of ${LIMIT} bytes`) } });
      expect(run.stored).not.toHaveProperty('rawInput');
      await expectStoppedNearLimit(server, LIMIT, heapBefore);
    });
    expect(uncaught).toEqual([]);
  });

  it('a Content-Length over the limit is refused before the body is read', async () => {
    server.answer = (_req, res) => declaredHuge(res, 600 * MiB, start, type);
    const run = await runJob(register, job, data);
    expect(run.error).toBeInstanceOf(UnrecoverableError);
    expect((run.error as Error).message).toContain(`${register.name} answer to ${operation} is larger than its limit of ${LIMIT} bytes (Content-Length ${600 * MiB})`);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.open.size).toBe(0);
  });
});

describe('what else a refused answer leaves', () => {
  it('BMF: the list is recorded as refused (too-large), as /metrics and the status page show refusals', async () => {
    server.answer = (_req, res) => declaredHuge(res, 600 * MiB, 'Name~', 'text/csv');
    const run = await runJob(bmf, 'poll', {});
    expect(run.runs).toEqual([{ outcome: 'refused', reason: 'too-large' }]);
  });

  it('GISA: an extract has a limit of its own, larger than a data call\'s', async () => {
    const pdf = Buffer.alloc(3 * MiB, 1).toString('base64');
    server.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(`<?xml version="1.0"?><GetAuszugOutput><Returncode>OK</Returncode><Auszug>${pdf}</Auszug></GetAuszugOutput>`);
    };
    const client = new GisaClient({ baseUrl: server.url, maxBodyBytes: LIMIT, maxExtractBytes: EXTRACT_LIMIT });
    const extract = await client.extract(7).catch((e: unknown) => e);
    expect(extract).not.toBeInstanceOf(UpstreamBodyTooLargeError);
    const data = await client.licence('100000054').catch((e: unknown) => e);
    expect(data).toMatchObject({ operation: 'GetGewerbeV2', limitBytes: LIMIT });
    const small = await new GisaClient({ baseUrl: server.url, maxExtractBytes: 1 * MiB }).extract(7).catch((e: unknown) => e);
    expect(small).toMatchObject({ operation: 'GetAuszug', limitBytes: 1 * MiB });
  });
});
