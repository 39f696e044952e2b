// Group commit: concurrent submits share a write, a company's items never share one, sizes cap a
// batch, and each submit gets its own result or error.
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../pipeline/jobs/groupCommit.js';

describe('GroupCommit', () => {
  it('batches what is submitted together, one key per batch, and answers each item', async () => {
    const batches: string[][] = [];
    const commit = new GroupCommit<{ key: string; n: number }, number>(
      async (items) => {
        batches.push(items.map((i) => `${i.key}${i.n}`));
        return items.map((i) => (i.n < 0 ? new Error(`bad ${i.key}`) : i.n * 10));
      },
      { maxBatch: 3, key: (i) => i.key },
    );
    const submitted = [{ key: 'a', n: 1 }, { key: 'b', n: 2 }, { key: 'a', n: 3 }, { key: 'c', n: -1 }, { key: 'd', n: 5 }].map((i) => commit.submit(i));
    const results = await Promise.allSettled(submitted);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([10, 20, 30, 'bad c', 50]);
    expect(batches).toEqual([['a1', 'b2', 'c-1'], ['a3', 'd5']]);
  });

  it('caps a batch by size but always takes one item, and fails a batch whose write throws', async () => {
    const batches: number[][] = [];
    const commit = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        if (items.includes(7)) throw new Error('write failed');
        return items;
      },
      { maxBatch: 10, key: String, size: (n) => n, maxSize: 10 },
    );
    const results = await Promise.allSettled([4, 5, 3, 20, 7].map((n) => commit.submit(n)));
    expect(batches).toEqual([[4, 5], [3, 7], [20]]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected']);
  });
});
