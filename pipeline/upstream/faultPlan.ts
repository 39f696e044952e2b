// Draws the transport faults a fake upstream injects (pipeline/register.ts FaultRates): one seeded
// number per request against the cumulative rates, so the same seed and request order give the same faults.
import { seededRandom } from '../firmenbuch/fake/synthetic/random.js';
import type { FaultRates } from '../register.js';

export type InjectedFault = '429' | '500' | 'timeout' | 'truncated' | 'cutoff' | '401';

export function faultDrawer(rates: FaultRates = {}): () => InjectedFault | null {
  const random = seededRandom(rates.seed ?? 1);
  const order = [['429', rates.rate429], ['500', rates.rate500], ['timeout', rates.rateTimeout], ['truncated', rates.rateTruncated], ['cutoff', rates.rateCutOff], ['401', rates.rate401]] as const;
  return () => {
    const r = random();
    let edge = 0;
    for (const [kind, rate] of order) {
      edge += rate ?? 0;
      if (r < edge) return kind;
    }
    return null;
  };
}
