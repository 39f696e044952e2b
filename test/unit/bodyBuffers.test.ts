// Response bodies from the reusable buffers: handed out at their exact size, back in the pool only once
// their response has closed, then handed out again instead of a fresh allocation.
import { EventEmitter } from 'node:events';
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { BodyBuffers } from '../../api/presenters/bodyBuffers.js';

const fakeContext = () => ({ res: new EventEmitter() }) as unknown as Context & { res: EventEmitter };

describe('BodyBuffers', () => {
  it('reuses a large body only after its response closed', () => {
    const pool = new BodyBuffers();
    const first = fakeContext();
    const a = pool.take(first, 1_500_000);
    expect(a.length).toBe(1_500_000);
    a.fill(1);
    const second = fakeContext();
    const b = pool.take(second, 1_400_000); // the first is still being sent: a different buffer
    expect(b.buffer).not.toBe(a.buffer);
    expect(pool.held).toBe(0);
    first.res.emit('close');
    expect(pool.held).toBe(1);
    const third = fakeContext();
    const c = pool.take(third, 1_200_000); // same size class (2 MiB): the released one
    expect(c.buffer).toBe(a.buffer);
    expect(pool.held).toBe(0);
    b.fill(2);
    expect(a[0]).toBe(1); // b never shared a's memory
  });

  it('leaves small bodies to fresh allocations', () => {
    const pool = new BodyBuffers();
    const ctx = fakeContext();
    const small = pool.take(ctx, 10_000);
    expect(small.length).toBe(10_000);
    ctx.res.emit('close');
    expect(pool.held).toBe(0);
  });
});
