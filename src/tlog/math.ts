// Size arithmetic without 32-bit bitwise operators: tree sizes are safe
// integers and may pass 2^31, where `n & (n - 1)` silently truncates.

export const isPowerOfTwo = (n: number): boolean => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

/** Largest power of two strictly below n (n ≥ 2): RFC 6962's split point k. */
export function splitPoint(n: number): number {
  let k = 2 ** Math.floor(Math.log2(n));
  if (k >= n) k /= 2;
  return k;
}
