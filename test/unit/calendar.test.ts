// Quota months run from 00:00 UTC on the first to 00:00 UTC on the next first.
import { describe, expect, it } from 'vitest';
import { monthKey, monthStartDate, nextMonthStart, secondsUntilNextMonth } from '../../api/metering/calendar.js';

describe('quota calendar', () => {
  it('names the UTC month, whatever the local zone would say', () => {
    expect(monthKey(Date.UTC(2025, 0, 31, 23, 59, 59, 999))).toBe('2025-01');
    expect(monthKey(Date.UTC(2025, 1, 1, 0, 0, 0))).toBe('2025-02');
    expect(monthStartDate('2025-02')).toBe('2025-02-01');
  });

  it('resets at 00:00 UTC on the first of next month, across a year end and a leap day', () => {
    expect(new Date(nextMonthStart(Date.UTC(2025, 11, 31, 12))).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(new Date(nextMonthStart(Date.UTC(2024, 1, 29, 23, 59))).toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(new Date(nextMonthStart(Date.UTC(2025, 2, 1, 0, 0, 0))).toISOString()).toBe('2025-04-01T00:00:00.000Z');
  });

  it('counts whole seconds until the reset, rounded up', () => {
    expect(secondsUntilNextMonth(Date.UTC(2025, 2, 31, 23, 59, 0))).toBe(60);
    expect(secondsUntilNextMonth(Date.UTC(2025, 2, 31, 23, 59, 59, 500))).toBe(1);
    expect(secondsUntilNextMonth(Date.UTC(2025, 3, 1, 0, 0, 0))).toBe(30 * 86_400);
  });
});
