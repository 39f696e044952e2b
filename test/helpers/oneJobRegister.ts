// A throw-away register with one job (`fetch`, payload `{ id }`, job id `fetch.<id>`) and no upstream,
// fixtures or schedules: for tests of the job runner and the worker that need a register, not a real one.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineRegister } from '../../pipeline/register.js';

export function oneJobRegister(prefix: string, fetch: (payload: { id: string }) => Promise<void>) {
  return defineRegister({
    name: `${prefix}-${randomBytes(3).toString('hex')}`,
    jobs: { fetch: { name: `${prefix}.fetch`, payload: z.object({ id: z.string() }), jobId: (p: { id: string }) => `fetch.${p.id}` } },
    upstream: () => ({ baseUrl: 'http://127.0.0.1:9', ratePerSecond: 1000 }),
    handlers: () => ({ handlers: { fetch } }),
    schedules: () => [],
    replay: { hasFixtures: async () => false, start: async () => undefined, counts: async () => ({}) },
  });
}
