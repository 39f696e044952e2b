// The seeded PRNG every synthetic writer draws from, and the few ways they draw from it: the same seed
// writes the same bytes.

export type Random = () => number;

/** mulberry32: tiny, fast, good enough for test data; the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

export function between(random: Random, low: number, high: number): number {
  return low + (high - low) * random();
}

export function intBetween(random: Random, low: number, high: number): number {
  return Math.floor(between(random, low, high + 1));
}

export function shuffled<T>(random: Random, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
