import { assertFinite, assertOptions, describe, ParapetRangeError, ParapetStateError, ParapetTypeError } from './errors.js';
import { coreConstants, getCore, heapF32, heapU32, heapU8 } from './instance.js';
import { OwnedBlock } from './owned.js';
import { readingIds, stageReading } from './reading.js';
import { featureSettings, featurizeInPlace, stageRanges, type FeaturizeOptions } from './text.js';


/**
 * Weights stored as int8 with one scale (w = int8[i] · scale): the embedded
 * content model's form (decision 69), widened to f32 in the core. The core takes
 * the scale as an f32, so a scale that is not one is rounded to the nearest first;
 * one that is (`Math.fround`) gives each weight exactly as `Float32Array.from(int8,
 * (q) => q * scale)` would.
 */
export interface QuantizedWeights {
  readonly int8: Int8Array;
  readonly scale: number;
}

const isQuantized = (w: unknown): w is QuantizedWeights =>
  typeof w === 'object' && w !== null && (w as QuantizedWeights).int8 instanceof Int8Array;

/**
 * A linear model over `featurize` ids, scored in the core without copying
 * the ids out: x_j = log1p(count_j), L2-normalised, logit = bias + w·x.
 * Weights, float32 or int8 with one scale, live in wasm memory as float32
 * (4 bytes per bucket).
 */
export class LinearModel {
  readonly buckets: number;
  readonly bias: number;
  readonly features: FeaturizeOptions;
  #weights: OwnedBlock | undefined;
  #counts: OwnedBlock | undefined;

  constructor(weights: Float32Array | QuantizedWeights, bias: number, features: Omit<FeaturizeOptions, 'buckets'> = {}) {
    const quantized = isQuantized(weights);
    if (!quantized && !(weights instanceof Float32Array)) throw new ParapetTypeError(`"weights" must be a Float32Array or { int8, scale }, got ${describe(weights)}`);
    const n = quantized ? weights.int8.length : weights.length;
    if (n === 0 || n > 2 ** 24) throw new ParapetRangeError(`"weights" must have 1 to 2^24 entries`, 'invalid-value');
    assertFinite(bias, 'bias');
    assertOptions(features, 'features');
    if (quantized) assertFinite(weights.scale, 'weights.scale');
    else for (let i = 0; i < n; i++) if (!Number.isFinite(weights[i]!)) throw new ParapetRangeError(`"weights[${i}]" is not finite`, 'invalid-value');
    this.buckets = n;
    this.bias = bias;
    this.features = { ...features, buckets: n };
    this.#weights = new OwnedBlock(this, n * 4);
    this.#counts = new OwnedBlock(this, n * 2); // u16 counts
    if (quantized) {
      // The int8 bytes pass through the counts block, which is zeroed right after.
      heapU8().set(new Uint8Array(weights.int8.buffer, weights.int8.byteOffset, n), this.#counts.ptr);
      getCore().widenInt8(this.#counts.ptr, this.#weights.ptr, n, weights.scale);
    } else {
      heapF32().set(weights, this.#weights.ptr >>> 2);
    }
    heapU8().fill(0, this.#counts.ptr, this.#counts.ptr + n * 2);
  }

  /** The logit of `text` (or UTF-8 bytes, taken as normalised). */
  logit(text: string | Uint8Array): number {
    if (!this.#weights || !this.#counts) throw new ParapetStateError('LinearModel was destroyed', 'destroyed');
    const { out, count } = featurizeInPlace(text, this.features);
    return getCore().linearLogit(out, count, this.#counts.ptr, this.#weights.ptr, this.bias);
  }

  /**
   * The highest logit of `text` (taken as normalised) and of each range
   * [ranges[2i], ranges[2i+1]) of it (UTF-16 offsets, any order): the text
   * crosses into the core once, and no string is built per range.
   */
  maxLogit(text: string, ranges: readonly number[]): number {
    if (!this.#weights || !this.#counts) throw new ParapetStateError('LinearModel was destroyed', 'destroyed');
    const s = stageRanges(text, ranges, this.features);
    const logit = getCore().maxLogitRanges(s.text, s.table, s.pairs, s.mode, s.buckets, s.nMin, s.nMax, s.out, s.cap, this.#counts.ptr, this.#weights.ptr, this.bias);
    if (Number.isNaN(logit)) throw new ParapetStateError('parapet: featurize bound below the core\'s; bindings and core.wasm disagree', 'core-mismatch');
    return logit;
  }

  /**
   * The highest logit over the ranges of the reading of `text` (`readingRanges`),
   * each scored in text mode whatever `features.mode` says (a reading is prose).
   * The text is normalised and crosses into the core once; the reading and its
   * ranges stay there. A reading with no range (under 3 bytes once trimmed) scores
   * as its whole.
   */
  maxLogitOfReading(text: string): number {
    if (!this.#weights || !this.#counts) throw new ParapetStateError('LinearModel was destroyed', 'destroyed');
    const s = stageReading(text, true);
    let count = s.rangeCount;
    if (count === 0) {
      const u32 = heapU32();
      u32[s.ranges >>> 2] = 0;
      u32[(s.ranges >>> 2) + 1] = s.length;
      count = 1;
    }
    const { buckets, nMin, nMax, capacityFor } = featureSettings(this.features);
    const cap = capacityFor(s.length);
    const ids = readingIds(4 * cap + 16);
    const logit = getCore().maxLogitRanges(s.text, s.ranges, count, coreConstants().modeText, buckets, nMin, nMax, ids, cap, this.#counts.ptr, this.#weights.ptr, this.bias);
    if (Number.isNaN(logit)) throw new ParapetStateError('parapet: featurize bound below the core\'s; bindings and core.wasm disagree', 'core-mismatch');
    return logit;
  }

  /** P(positive) = sigmoid(logit). */
  probability(text: string | Uint8Array): number {
    return sigmoid(this.logit(text));
  }

  destroy(): void {
    this.#weights?.release();
    this.#counts?.release();
    this.#weights = this.#counts = undefined;
  }
}

/** The logistic function: a logit to a probability. */
export const sigmoid = (logit: number): number => 1 / (1 + Math.exp(-logit));
