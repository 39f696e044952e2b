// A small in-memory cache with a time-to-live and a size bound. Key and session lookups go through it
// so the hot path does not ask Postgres on every request; the TTL bounds how long a revoked key or a
// changed plan keeps its old answer in this process. The size bound keeps a flood of random keys
// from growing memory: when full, the oldest entry goes (Map keeps insertion order).
import type { Clock } from '../clock.js';

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return { value: entry.value };
  }

  set(key: string, value: V, ttlMs = this.ttlMs): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.clock() + ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}
