// Size arithmetic for tree sizes, which are safe integers and may pass 2^31:
// 32-bit bitwise operators only below 2^31, where they are exact (and several
// times faster than floating point, which showed in get-with-proof profiles);
// floating point above, where `n & (n - 1)` would silently truncate.

const INT31 = 2 ** 31;

export const isPowerOfTwo = (n: number): boolean => n > 0 && (n < INT31 ? (n & (n - 1)) === 0 : 2 ** Math.round(Math.log2(n)) === n);

/** Largest power of two strictly below n (n ≥ 2): RFC 6962's split point k. */
export function splitPoint(n: number): number {
  if (n <= INT31) return 1 << (31 - Math.clz32(n - 1));
  let k = 2 ** Math.floor(Math.log2(n));
  if (k >= n) k /= 2;
  return k;
}
