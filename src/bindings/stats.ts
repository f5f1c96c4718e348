import {
  assertBytes, assertFinite, assertInteger, describe, ParapetRangeError, ParapetStateError, ParapetTypeError,
} from './errors.js';
import { getCore, heapF32, heapF64, heapU8, scratch } from './instance.js';
import { OwnedBlock } from './owned.js';

/** Shannon entropy of `data` in bits per byte, in [0, 8]; 0 for empty input. */
export function shannonEntropy(data: Uint8Array): number {
  assertBytes(data, 'data');
  const ptr = scratch(data.length);
  heapU8().set(data, ptr);
  return getCore().shannonEntropy(ptr, data.length);
}

function toNumbers(value: unknown, name: string): ArrayLike<number> {
  if (value instanceof Float64Array || value instanceof Float32Array) return value;
  if (!Array.isArray(value)) throw new ParapetTypeError(`"${name}" must be an array of numbers, got ${describe(value)}`);
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'number') throw new ParapetTypeError(`"${name}[${i}]" must be a number, got ${describe(value[i])}`);
  }
  return value as number[];
}

/**
 * Entropy in bits of a model's choice given its top-k log-probabilities
 * (natural log), renormalised over the k candidates shown. −Infinity entries
 * count as probability 0. Returns 0 for an empty or all −Infinity list.
 */
export function logprobEntropy(logprobs: ArrayLike<number>): number {
  const values = toNumbers(logprobs, 'logprobs');
  const ptr = scratch(values.length * 8);
  heapF64().set(values, ptr >>> 3);
  return getCore().logprobEntropy(ptr, values.length);
}

/** `logprobEntropy` of each row in one crossing; rows may differ in length. */
export function logprobEntropies(rows: readonly ArrayLike<number>[]): Float64Array {
  if (!Array.isArray(rows)) throw new ParapetTypeError(`"rows" must be an array, got ${describe(rows)}`);
  const checked = rows.map((row, i) => toNumbers(row, `rows[${i}]`));
  const k = checked.reduce((m, r) => Math.max(m, r.length), 0);
  const count = checked.length;
  if (count === 0 || k === 0) return new Float64Array(count);
  const ptr = scratch(count * k * 8 + count * 8);
  const f64 = heapF64();
  const base = ptr >>> 3;
  // Shorter rows are padded with −Infinity, which the core counts as probability 0.
  f64.fill(-Infinity, base, base + count * k);
  checked.forEach((row, i) => f64.set(row, base + i * k));
  const out = ptr + count * k * 8;
  getCore().logprobEntropyBatch(ptr, k, count, out);
  return heapF64().slice(out >>> 3, (out >>> 3) + count);
}

/** Serialised `RunningStats`; `version` is checked on load. */
export interface RunningStatsState {
  readonly version: 1;
  readonly slots: readonly { readonly count: number; readonly mean: number; readonly m2: number }[];
}

const SLOT_BYTES = 24;

/**
 * Running mean and variance (Welford) in `slots` independent slots, kept in
 * wasm memory. Variance is the sample variance (n − 1). Call `destroy()` when
 * done, or let the garbage collector reclaim it.
 */
export class RunningStats {
  readonly slots: number;
  private block: OwnedBlock | undefined;

  constructor(slots = 1) {
    assertInteger(slots, 'slots', 1, 1 << 20);
    this.slots = slots;
    this.block = new OwnedBlock(this, slots * SLOT_BYTES);
    heapU8().fill(0, this.block.ptr, this.block.ptr + slots * SLOT_BYTES);
  }

  /** Add `x` to `slot`. Non-finite values are refused: one NaN would poison the slot for good. */
  push(x: number, slot = 0): this {
    assertFinite(x, 'x');
    getCore().statsPush(this.ptr(), this.slot(slot), x);
    return this;
  }

  /** Add many values to one slot in a single crossing. */
  pushMany(values: ArrayLike<number>, slot = 0): this {
    const xs = checkFinite(toNumbers(values, 'values'), 'values');
    const s = this.slot(slot);
    const ptr = scratch(xs.length * 8);
    heapF64().set(xs, ptr >>> 3);
    getCore().statsPushMany(this.ptr(), s, ptr, xs.length);
    return this;
  }

  /** Add values[i] to slot i for every i (one observation of each signal). */
  pushVector(values: ArrayLike<number>): this {
    const xs = checkFinite(toNumbers(values, 'values'), 'values');
    if (xs.length > this.slots) throw new ParapetRangeError(`"values" has ${xs.length} entries for ${this.slots} slots`);
    const ptr = scratch(xs.length * 8);
    heapF64().set(xs, ptr >>> 3);
    getCore().statsPushVector(this.ptr(), ptr, xs.length);
    return this;
  }

  count(slot = 0): number {
    return heapF64()[(this.ptr() >>> 3) + this.slot(slot) * 3]!;
  }

  mean(slot = 0): number {
    return heapF64()[(this.ptr() >>> 3) + this.slot(slot) * 3 + 1]!;
  }

  variance(slot = 0): number {
    return getCore().statsVariance(this.ptr(), this.slot(slot));
  }

  stdDev(slot = 0): number {
    return Math.sqrt(this.variance(slot));
  }

  /** (x − mean) / stdDev; 0 before two values, ±Infinity when the slot never varied and x differs. */
  zScore(x: number, slot = 0): number {
    assertFinite(x, 'x');
    return getCore().statsZScore(this.ptr(), this.slot(slot), x);
  }

  toJSON(): RunningStatsState {
    const f64 = heapF64();
    const base = this.ptr() >>> 3;
    const slots = [];
    for (let s = 0; s < this.slots; s++) {
      slots.push({ count: f64[base + s * 3]!, mean: f64[base + s * 3 + 1]!, m2: f64[base + s * 3 + 2]! });
    }
    return { version: 1, slots };
  }

  /** Restore from `toJSON()` output, validating every field. */
  static fromJSON(state: unknown): RunningStats {
    const s = state as RunningStatsState;
    if (typeof state !== 'object' || state === null || s.version !== 1) {
      throw new ParapetStateError(`RunningStats state must have version 1`, 'state-version');
    }
    if (!Array.isArray(s.slots) || s.slots.length === 0) throw new ParapetTypeError(`"state.slots" must be a non-empty array`);
    const stats = new RunningStats(s.slots.length);
    const f64 = heapF64();
    const base = stats.ptr() >>> 3;
    s.slots.forEach((slot, i) => {
      assertInteger(slot?.count, `state.slots[${i}].count`, 0, Number.MAX_SAFE_INTEGER);
      assertFinite(slot.mean, `state.slots[${i}].mean`);
      assertFinite(slot.m2, `state.slots[${i}].m2`);
      if (slot.m2 < 0) throw new ParapetRangeError(`"state.slots[${i}].m2" must be ≥ 0`, 'invalid-value');
      f64.set([slot.count, slot.mean, slot.m2], base + i * 3);
    });
    return stats;
  }

  destroy(): void {
    this.block?.release();
    this.block = undefined;
  }

  private ptr(): number {
    if (!this.block) throw new ParapetStateError('RunningStats was destroyed', 'destroyed');
    return this.block.ptr;
  }

  private slot(slot: number): number {
    assertInteger(slot, 'slot', 0, this.slots - 1);
    return slot;
  }
}

function checkFinite(xs: ArrayLike<number>, name: string): ArrayLike<number> {
  for (let i = 0; i < xs.length; i++) assertFinite(xs[i], `${name}[${i}]`);
  return xs;
}

/** Serialised `DiagonalGaussian`. */
export interface DiagonalGaussianState {
  readonly version: 1;
  readonly count: number;
  readonly mean: readonly number[];
  readonly m2: readonly number[];
}

/**
 * A diagonal Gaussian over fixed-length vectors (e.g. hidden states of a
 * benign reference set), with a Mahalanobis-style anomaly score. State lives
 * in wasm memory: 16 bytes per dimension.
 */
export class DiagonalGaussian {
  readonly dim: number;
  private block: OwnedBlock | undefined;

  constructor(dim: number) {
    assertInteger(dim, 'dim', 1, 1 << 24);
    this.dim = dim;
    this.block = new OwnedBlock(this, 8 + dim * 16);
    heapU8().fill(0, this.block.ptr, this.block.ptr + 8 + dim * 16);
  }

  get count(): number {
    return heapF64()[this.ptr() >>> 3]!;
  }

  /** Add one vector of `dim` values. */
  push(vector: ArrayLike<number>): this {
    const ptr = this.stage(vector);
    getCore().gaussPush(this.ptr(), this.dim, ptr);
    return this;
  }

  /**
   * Mahalanobis distance of `vector` under the diagonal covariance, divided by
   * sqrt(dim): about 1 for a typical member, larger for outliers. `floor` is
   * added to every variance so that constant dimensions stay finite.
   */
  score(vector: ArrayLike<number>, floor = 1e-6): number {
    assertFinite(floor, 'floor');
    if (floor <= 0) throw new ParapetRangeError(`"floor" must be > 0, got ${floor}`, 'invalid-value');
    const ptr = this.stage(vector);
    return getCore().gaussScore(this.ptr(), this.dim, ptr, floor);
  }

  toJSON(): DiagonalGaussianState {
    const f64 = heapF64();
    const base = this.ptr() >>> 3;
    return {
      version: 1,
      count: f64[base]!,
      mean: Array.from(f64.subarray(base + 1, base + 1 + this.dim)),
      m2: Array.from(f64.subarray(base + 1 + this.dim, base + 1 + 2 * this.dim)),
    };
  }

  static fromJSON(state: unknown): DiagonalGaussian {
    const s = state as DiagonalGaussianState;
    if (typeof state !== 'object' || state === null || s.version !== 1) {
      throw new ParapetStateError('DiagonalGaussian state must have version 1', 'state-version');
    }
    const mean = checkFinite(toNumbers(s.mean, 'state.mean'), 'state.mean');
    const m2 = checkFinite(toNumbers(s.m2, 'state.m2'), 'state.m2');
    if (m2.length !== mean.length) throw new ParapetRangeError(`"state.m2" must have ${mean.length} entries, got ${m2.length}`);
    assertInteger(s.count, 'state.count', 0, Number.MAX_SAFE_INTEGER);
    const g = new DiagonalGaussian(mean.length);
    const f64 = heapF64();
    const base = g.ptr() >>> 3;
    f64[base] = s.count;
    f64.set(mean, base + 1);
    f64.set(m2, base + 1 + g.dim);
    return g;
  }

  destroy(): void {
    this.block?.release();
    this.block = undefined;
  }

  private stage(vector: ArrayLike<number>): number {
    const xs = checkFinite(toNumbers(vector, 'vector'), 'vector');
    if (xs.length !== this.dim) throw new ParapetRangeError(`"vector" must have ${this.dim} entries, got ${xs.length}`);
    const ptr = scratch(this.dim * 4);
    heapF32().set(xs, ptr >>> 2);
    return ptr;
  }

  private ptr(): number {
    if (!this.block) throw new ParapetStateError('DiagonalGaussian was destroyed', 'destroyed');
    return this.block.ptr;
  }
}
