/** A seeded PRNG (mulberry32) so that "random" test cases are reproducible. */
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

/** Integer in [min, max] (inclusive), min and max safe integers. */
export function randomInt(rnd: () => number, min: number, max: number): number {
  // 53 random bits, so that large ranges (counters up to 2^53) are covered evenly.
  const fraction = (Math.floor(rnd() * 2 ** 21) * 2 ** 32 + Math.floor(rnd() * 2 ** 32)) / 2 ** 53;
  return min + Math.floor(fraction * (max - min + 1));
}

export function randomBytesFrom(rnd: () => number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rnd() * 256);
  return b;
}
