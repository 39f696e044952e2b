// Reused buffers for large response bodies (1000-row screener and feed pages). Every fresh Buffer of
// that size is off-heap memory V8 accounts for, and enough of it starts a full collection whose
// marking holds up every request in flight; handing the same few buffers round keeps that churn out of
// the hot path (docs/memory.md). A body is released when its response
// closes (sent, or the connection dropped), never before: after 'close' Node no longer reads it.
import type { Context } from 'koa';

/** Bodies below this size come from Node's own small-buffer pool. */
const MIN_POOLED_BYTES = 128 * 1024;
/** Free buffers kept per size class (powers of two). */
const MAX_FREE_PER_CLASS = 6;

export class BodyBuffers {
  private readonly free = new Map<number, Buffer[]>();

  /** A buffer of exactly `size` bytes for `ctx`'s body, returned to the pool when the response closes. */
  take(ctx: Context, size: number): Buffer {
    if (size < MIN_POOLED_BYTES) return Buffer.allocUnsafe(size);
    const capacity = 2 ** Math.ceil(Math.log2(size));
    const parent = this.free.get(capacity)?.pop() ?? Buffer.allocUnsafeSlow(capacity);
    ctx.res.once('close', () => this.give(parent));
    return parent.subarray(0, size);
  }

  private give(parent: Buffer): void {
    const list = this.free.get(parent.length) ?? [];
    if (list.length < MAX_FREE_PER_CLASS) list.push(parent);
    this.free.set(parent.length, list);
  }

  /** Free buffers held (tests). */
  get held(): number {
    let n = 0;
    for (const list of this.free.values()) n += list.length;
    return n;
  }
}

/** The process's pool for response bodies. */
export const bodyBuffers = new BodyBuffers();
