// Monthly quota periods: a month starts at 00:00 UTC on its first day, whatever the caller's zone.

/** `2025-03` for any instant in March 2025 (UTC). */
export function monthKey(nowMs: number): string {
  const d = new Date(nowMs);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** First day of the month as a `yyyy-mm-dd` date (the usage_counter.month column). */
export function monthStartDate(month: string): string {
  return `${month}-01`;
}

/** 00:00 UTC on the first of the month after the one holding nowMs. */
export function nextMonthStart(nowMs: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Whole seconds until the quota resets, rounded up so a client that waits that long is served. */
export function secondsUntilNextMonth(nowMs: number): number {
  return Math.ceil((nextMonthStart(nowMs) - nowMs) / 1000);
}
