import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DiagonalGaussian, init, logprobEntropies, logprobEntropy, ParapetRangeError, ParapetStateError, ParapetTypeError,
  RunningStats, shannonEntropy,
} from '../src/index.js';
import { expectThrows } from './helpers/errors.js';

beforeAll(() => init());

/**
 * Two-pass reference: mean first (with the corrected second pass of Björck,
 * which removes the rounding error of a long plain sum), then squared deviations.
 */
function twoPass(xs: number[]) {
  const n = xs.length;
  const rough = xs.reduce((a, b) => a + b, 0) / n;
  const mean = rough + xs.reduce((a, x) => a + (x - rough), 0) / n;
  const ss = xs.reduce((a, x) => a + (x - mean) ** 2, 0);
  return { mean, variance: n < 2 ? 0 : ss / (n - 1) };
}

function naiveEntropy(bytes: Uint8Array): number {
  const counts = new Map<number, number>();
  for (const b of bytes) counts.set(b, (counts.get(b) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / bytes.length;
    h -= p * Math.log2(p);
  }
  return h;
}

describe('shannonEntropy', () => {
  it('is 0 for empty and constant input and 8 for all 256 byte values', () => {
    expect(shannonEntropy(new Uint8Array(0))).toBe(0);
    expect(shannonEntropy(new Uint8Array(1000).fill(65))).toBe(0);
    expect(shannonEntropy(Uint8Array.from({ length: 256 }, (_, i) => i))).toBeCloseTo(8, 12);
    expect(shannonEntropy(new TextEncoder().encode('aabb'))).toBeCloseTo(1, 12);
  });

  it('equals the textbook definition on random bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (b) => Math.abs(shannonEntropy(b) - (b.length ? naiveEntropy(b) : 0)) < 1e-9),
    );
  });
});

describe('logprobEntropy', () => {
  const naive = (lps: number[]) => {
    const ps = lps.map(Math.exp);
    const z = ps.reduce((a, b) => a + b, 0);
    return -ps.reduce((a, p) => (p > 0 ? a + (p / z) * Math.log2(p / z) : a), 0);
  };

  it('gives log2(k) for a uniform top-k and 0 for a certain choice', () => {
    expect(logprobEntropy([Math.log(0.25), Math.log(0.25), Math.log(0.25), Math.log(0.25)])).toBeCloseTo(2, 12);
    expect(logprobEntropy([0])).toBe(0);
    expect(logprobEntropy([0, -Infinity])).toBe(0);
    expect(logprobEntropy([])).toBe(0);
  });

  it('renormalises a truncated top-k: [0.4, 0.4] is as uncertain as [0.5, 0.5]', () => {
    expect(logprobEntropy([Math.log(0.4), Math.log(0.4)])).toBeCloseTo(1, 12);
  });

  it('matches a naive renormalised entropy, also far below 0 where exp underflows (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -50, max: 0, noNaN: true }), { minLength: 1, maxLength: 20 }), (lps) =>
        Math.abs(logprobEntropy(lps) - naive(lps)) < 1e-9,
      ),
    );
    const shifted = [-1000, -1000 - Math.log(3)];
    expect(logprobEntropy(shifted)).toBeCloseTo(naive([0, -Math.log(3)]), 12);
  });

  it('batches rows of different lengths', () => {
    const rows = [[Math.log(0.5), Math.log(0.5)], [0], [Math.log(0.25), Math.log(0.25), Math.log(0.25), Math.log(0.25)]];
    expect(Array.from(logprobEntropies(rows)).map((h) => +h.toFixed(12))).toEqual([1, 0, 2]);
    expect(logprobEntropies([]).length).toBe(0);
  });
});

describe('RunningStats (Welford)', () => {
  it('matches a two-pass reference on random streams in several slots (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 3 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), { maxLength: 300 }),
        (pushes) => {
          const s = new RunningStats(4);
          const bySlot: number[][] = [[], [], [], []];
          for (const [slot, x] of pushes) {
            s.push(x, slot);
            bySlot[slot]!.push(x);
          }
          const ok = bySlot.every((xs, slot) => {
            if (xs.length === 0) return s.count(slot) === 0;
            const ref = twoPass(xs);
            const tol = 1e-9 * Math.max(1, Math.abs(ref.mean), ref.variance);
            return s.count(slot) === xs.length && Math.abs(s.mean(slot) - ref.mean) <= tol && Math.abs(s.variance(slot) - ref.variance) <= tol * 10;
          });
          s.destroy();
          return ok;
        },
      ),
    );
  });

  it('stays accurate for 10^6 values with a large common offset (where Σx² − n·mean² fails)', () => {
    const xs = new Float64Array(1_000_000);
    let seed = 12345;
    for (let i = 0; i < xs.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      xs[i] = 1e9 + (seed / 2 ** 32) * 10; // uniform on [1e9, 1e9 + 10): variance 100/12
    }
    const s = new RunningStats();
    s.pushMany(xs);
    const ref = twoPass(Array.from(xs));
    expect(s.count()).toBe(1_000_000);
    // Welford's mean drifts by rounding at 1e9 magnitude; relative 1e-12 is ample.
    expect(Math.abs(s.mean() - ref.mean) / ref.mean).toBeLessThan(1e-12);
    expect(Math.abs(ref.mean - (1e9 + 5))).toBeLessThan(0.01);
    expect(Math.abs(s.variance() - ref.variance) / ref.variance).toBeLessThan(1e-6);
    // The naive one-pass formula loses the variance entirely at this offset.
    let sum = 0;
    let sumSq = 0;
    for (const x of xs) {
      sum += x;
      sumSq += x * x;
    }
    const naive = (sumSq - (sum * sum) / xs.length) / (xs.length - 1);
    expect(Math.abs(naive - ref.variance) / ref.variance).toBeGreaterThan(1e-3);
  });

  it('computes z-scores and handles the degenerate cases explicitly', () => {
    const s = new RunningStats();
    expect(s.zScore(5)).toBe(0); // no baseline yet
    s.push(3);
    expect(s.zScore(5)).toBe(0); // one value: no spread
    s.push(3);
    expect(s.zScore(3)).toBe(0);
    expect(s.zScore(4)).toBe(Infinity);
    expect(s.zScore(2)).toBe(-Infinity);
    const t = new RunningStats().pushMany([1, 2, 3, 4, 5]);
    expect(t.zScore(3 + 2.5 * t.stdDev())).toBeCloseTo(2.5, 12);
  });

  it('pushVector feeds one value per slot', () => {
    const s = new RunningStats(3);
    s.pushVector([1, 10, 100]).pushVector([3, 30, 300]);
    expect([s.mean(0), s.mean(1), s.mean(2)]).toEqual([2, 20, 200]);
    expect(() => s.pushVector([1, 2, 3, 4])).toThrow(ParapetRangeError);
  });

  it('round-trips through JSON and refuses a state of another version or with bad fields', () => {
    const s = new RunningStats(2).pushMany([1, 2, 3], 0).pushMany([10, 20], 1);
    const copy = RunningStats.fromJSON(JSON.parse(JSON.stringify(s)));
    expect(copy.toJSON()).toEqual(s.toJSON());
    expect(copy.zScore(7, 1)).toBe(s.zScore(7, 1));
    expect(() => RunningStats.fromJSON({ ...s.toJSON(), version: 2 })).toThrow(ParapetStateError);
    expect(() => RunningStats.fromJSON({ version: 1, slots: [{ count: 1.5, mean: 0, m2: 0 }] })).toThrow(ParapetTypeError);
    expect(() => RunningStats.fromJSON({ version: 1, slots: [{ count: 2, mean: 0, m2: -1 }] })).toThrow(ParapetRangeError);
  });

  it('refuses misuse with errors naming the parameter', () => {
    const s = new RunningStats(2);
    expectThrows(() => s.push(NaN), ParapetTypeError, 'invalid-type');
    expectThrows(() => s.push(1, 2), ParapetRangeError, 'invalid-value');
    expectThrows(() => s.pushMany([1, Infinity]), ParapetTypeError, 'invalid-type');
    expectThrows(() => new RunningStats(0), ParapetRangeError, 'invalid-value');
    s.destroy();
    expect(() => s.mean()).toThrow(ParapetStateError);
  });
});

describe('DiagonalGaussian', () => {
  it('scores with the diagonal Mahalanobis distance over sqrt(dim)', () => {
    const rows = Array.from({ length: 200 }, (_, i) => [Math.sin(i), Math.cos(i * 1.3) * 5, (i % 7) - 3]);
    const g = new DiagonalGaussian(3);
    for (const r of rows) g.push(r);
    const dims = [0, 1, 2].map((d) => twoPass(rows.map((r) => r[d]!)));
    const x = [0.3, 7, -9];
    const want = Math.sqrt(dims.reduce((a, { mean, variance }, d) => a + (x[d]! - mean) ** 2 / (variance + 1e-6), 0) / 3);
    expect(g.count).toBe(200);
    expect(g.score(x)).toBeCloseTo(want, 6);
    // A typical member scores near 1, a far outlier much higher.
    const typical = rows.reduce((a, r) => a + g.score(r), 0) / rows.length;
    expect(typical).toBeGreaterThan(0.6);
    expect(typical).toBeLessThan(1.2);
    expect(g.score([50, 50, 50])).toBeGreaterThan(10);
  });

  it('round-trips through JSON and validates vectors', () => {
    const g = new DiagonalGaussian(2).push([1, 2]).push([3, 5]).push([2, 2]);
    const copy = DiagonalGaussian.fromJSON(JSON.parse(JSON.stringify(g)));
    expect(copy.score([9, 9])).toBe(g.score([9, 9]));
    expectThrows(() => g.push([1]), ParapetRangeError, 'invalid-length');
    expectThrows(() => g.score([1, NaN]), ParapetTypeError, 'invalid-type');
    expectThrows(() => g.score([1, 1], 0), ParapetRangeError, 'invalid-value');
  });
});
