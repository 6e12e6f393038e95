// mulberry32: a tiny deterministic PRNG, so randomized runs (router jitter, mixed operations) replay
// identically from a seed. Pass it as the router's `random` option in tests.

/** A deterministic `() => number` in [0, 1) from `seed` (mulberry32), e.g. the router's `random` option in tests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
