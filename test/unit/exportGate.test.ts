// The export gate: at most `concurrency` exports at once, a short queue behind them, and 503 with
// Retry-After beyond it; a slot freed passes to the first waiter, and a response that closes frees it.
import { EventEmitter } from 'node:events';
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { ExportGate } from '../../api/exportGate.js';

function fakeContext() {
  const headers: Record<string, string> = {};
  const res = new EventEmitter();
  return { ctx: { res, set: (k: string, v: string) => void (headers[k] = v) } as unknown as Context, res, headers };
}

describe('ExportGate', () => {
  it('runs up to its concurrency, queues a few, refuses the rest with 503 and Retry-After', async () => {
    const gate = new ExportGate({ concurrency: 1, maxWaiting: 1, waitMs: 1000 });
    const first = fakeContext();
    const release = await gate.enter(first.ctx);
    const second = fakeContext();
    let secondIn = false;
    const waiting = gate.enter(second.ctx).then((r) => ((secondIn = true), r));
    const third = fakeContext();
    const refused = await gate.enter(third.ctx).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 503 });
    expect(third.headers['Retry-After']).toBe('5');
    expect(secondIn).toBe(false);
    release();
    release(); // twice is once
    await waiting;
    expect(secondIn).toBe(true);
    expect(gate.active).toBe(1);
    second.res.emit('close');
    expect(gate.active).toBe(0);
  });

  it('a waiter not served in time is refused, and leaves the queue', async () => {
    const gate = new ExportGate({ concurrency: 1, maxWaiting: 1, waitMs: 30 });
    const first = fakeContext();
    await gate.enter(first.ctx);
    const late = fakeContext();
    await expect(gate.enter(late.ctx)).rejects.toMatchObject({ status: 503 });
    first.res.emit('close');
    expect(gate.active).toBe(0);
    await gate.enter(fakeContext().ctx);
    expect(gate.active).toBe(1);
  });
});
