// Group commit: jobs running concurrently in this process hand their store to one batcher, which
// writes what has gathered in one transaction (one BEGIN/COMMIT, one statement per table, one
// change-log insert) instead of one transaction per job. Each job still gets its own result or
// error: the store functions fall back to one transaction per item when a batch fails, so a bad item
// fails alone and its job is retried or failed as before.
//
// Round trips to Postgres were the largest cost per company once parsing was cheap (each is a
// syscall pair plus a wake-up of the other process on this 2-core box).

export interface GroupCommitOptions<T> {
  /** Most items per batch. */
  maxBatch: number;
  /**
   * Items with the same key never share a batch (later ones wait for the next), so a batch sees
   * what an earlier item of the same company wrote, as consecutive transactions would.
   */
  key: (item: T) => string;
  /** With `maxSize`: a batch takes items while their sizes add up to at most that (always one item). */
  size?: (item: T) => number;
  maxSize?: number;
}

interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export class GroupCommit<T, R> {
  private queue: Array<Pending<T, R>> = [];
  private running = false;

  /** `write` returns one result or Error per item, in order; a throw fails the whole batch. */
  constructor(
    private readonly write: (items: T[]) => Promise<Array<R | Error>>,
    private readonly options: GroupCommitOptions<T>,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        // One turn of the event loop lets the jobs that are ready now join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private take(): Array<Pending<T, R>> {
    const { maxBatch, key: keyOf, size, maxSize = Infinity } = this.options;
    const batch: Array<Pending<T, R>> = [];
    const keys = new Set<string>();
    const rest: Array<Pending<T, R>> = [];
    let total = 0;
    for (const p of this.queue) {
      const key = keyOf(p.item);
      const weight = size ? size(p.item) : 0;
      if (batch.length < maxBatch && !keys.has(key) && (batch.length === 0 || total + weight <= maxSize)) {
        keys.add(key);
        batch.push(p);
        total += weight;
      } else {
        rest.push(p);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.take();
        try {
          const results = await this.write(batch.map((p) => p.item));
          batch.forEach((p, i) => {
            const r = results[i];
            if (r instanceof Error) p.reject(r);
            else p.resolve(r as R);
          });
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
