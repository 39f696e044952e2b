// How the GISA re-check shares a minute's calls between companies and the licences of sole traders
// (pipeline/gisa/recheck.ts): by their shares of a full pass, at least one call while there are any,
// never more than the minute's calls.
import { describe, expect, it } from 'vitest';
import { CALLS_PER_COMPANY, soleTraderShare } from '../../pipeline/gisa/recheck.js';

describe('soleTraderShare', () => {
  it('gives each kind the share of a full pass it costs, so both passes end together', () => {
    // 600k companies cost 1.2M calls, 300k licences 300k: a fifth of the calls.
    expect(soleTraderShare(180, { companies: 600_000, soleLicences: 300_000 })).toBe(36);
    // Both passes take as long: items / calls per minute.
    const share = soleTraderShare(180, { companies: 600_000, soleLicences: 300_000 });
    expect(300_000 / share).toBeCloseTo((600_000 * CALLS_PER_COMPANY) / (180 - share), 0);
  });

  it('at least one call while there are licences, none without, never more than the calls', () => {
    expect(soleTraderShare(180, { companies: 640_000, soleLicences: 3 })).toBe(1);
    expect(soleTraderShare(180, { companies: 640_000, soleLicences: 0 })).toBe(0);
    expect(soleTraderShare(180, { companies: 0, soleLicences: 50 })).toBe(180);
    expect(soleTraderShare(0, { companies: 10, soleLicences: 50 })).toBe(0);
  });
});
