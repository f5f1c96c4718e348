// Seeded randomness for the generators: the same data on every run.

/** Mulberry32: a small seeded PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
export const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
