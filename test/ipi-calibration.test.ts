import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrate, LEVELS } from '../src/ipi/index.js';

const json = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
type Anchors = { low: number; medium: number; high: number };
const content = json('../models/ipi-content.json') as { anchors: Anchors; levelFalsePositiveRates: Anchors };
const trace = json('../models/ipi-trace.json') as { anchors: Anchors };
const RATES: Anchors = { low: 0.05, medium: 0.01, high: 0.001 };
// Held-out logits are saved rounded to 1e-4.
const ROUNDING = 1e-4;

/** Weighted share of `pool` ([logit, weight], weights summing to 1) strictly above `t`. */
const above = (pool: [number, number][], t: number): number => pool.reduce((a, [x, w]) => a + (x > t ? w : 0), 0);

/** A pool in which every group weighs the same, as the training scripts weigh sources and suites. */
function equalWeights(groups: Map<string, number[]>): [number, number][] {
  const pool: [number, number][] = [];
  for (const xs of groups.values()) for (const x of xs) pool.push([x, 1 / xs.length / groups.size]);
  return pool;
}

describe('calibration: one score scale', () => {
  it('maps each anchor to its level, is monotone, stays in [0, 1] and fails closed on NaN', () => {
    const a = { low: -1, medium: 0.5, high: 2 };
    expect(calibrate(a.low, a)).toBeCloseTo(LEVELS.low, 12);
    expect(calibrate(a.medium, a)).toBeCloseTo(LEVELS.medium, 12);
    expect(calibrate(a.high, a)).toBeCloseTo(LEVELS.high, 12);
    let last = -Infinity;
    for (let x = -20; x <= 20; x += 0.01) {
      const s = calibrate(x, a);
      expect(s).toBeGreaterThanOrEqual(last);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
      last = s;
    }
    expect(calibrate(-1e9, a)).toBe(0);
    expect(calibrate(1e9, a)).toBe(1);
    expect(calibrate(Number.NaN, a)).toBe(1);
  });

  it('refuses anchors that do not increase', () => {
    expect(() => calibrate(0, { low: 1, medium: 1, high: 2 })).toThrow(expect.objectContaining({ code: 'invalid-value' }));
    expect(() => calibrate(0, { low: 0, medium: Number.NaN, high: 2 } as Anchors)).toThrow(expect.objectContaining({ code: 'invalid-type' }));
  });

  it('content levels are the stated false-positive rates of the held-out benign tool output', () => {
    expect(content.levelFalsePositiveRates).toEqual(RATES);
    // training/train-ipi.mjs: every tool-output source with at least 50 benign texts, each the same weight.
    const oof = json('../training/results/ipi-content-oof.json') as [string, number, number][];
    const groups = new Map<string, number[]>();
    for (const [source, label, logit] of oof) {
      if (label !== 0 || source === 'notinject' || source === 'wildguard') continue;
      groups.set(source, [...(groups.get(source) ?? []), logit]);
    }
    for (const [source, xs] of groups) if (xs.length < 50) groups.delete(source);
    expect(groups.size).toBeGreaterThanOrEqual(7);
    const pool = equalWeights(groups);
    for (const level of ['low', 'medium', 'high'] as const) {
      expect(above(pool, content.anchors[level] + ROUNDING), level).toBeLessThanOrEqual(RATES[level]);
      expect(above(pool, content.anchors[level] - ROUNDING - 1e-9), level).toBeGreaterThan(RATES[level]);
    }
  });

  it('trace levels are the same rates of held-out benign calls, suites weighted the same', () => {
    const oof = json('../training/results/ipi-trace-oof.json') as [string, string, number, number][];
    const groups = new Map<string, number[]>();
    for (const [suite, , label, logit] of oof) if (label === 0) groups.set(suite, [...(groups.get(suite) ?? []), logit]);
    const pool = equalWeights(groups);
    for (const level of ['low', 'medium', 'high'] as const) {
      // Ties in the benign calls are pulled apart by 1e-3 (train-traces.mjs), so only the upper bound is exact.
      expect(above(pool, trace.anchors[level] + ROUNDING), level).toBeLessThanOrEqual(RATES[level]);
    }
    expect(above(pool, trace.anchors.medium - ROUNDING - 1e-9)).toBeGreaterThan(RATES.medium);
  });
});
