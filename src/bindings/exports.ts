/**
 * The raw exports of core.wasm (assembly/index.ts), as the bindings call
 * them. Pointers and lengths are numbers; `usize` results come back signed
 * from wasm and are read with `>>> 0`.
 */
export interface CoreExports {
  readonly memory: WebAssembly.Memory;
  readonly ABI_VERSION: WebAssembly.Global;
  readonly SHA256_CONTEXT_BYTES: WebAssembly.Global;
  readonly MODE_TEXT: WebAssembly.Global;
  readonly MODE_JSON: WebAssembly.Global;
  readonly MODE_AUTO: WebAssembly.Global;
  readonly MAX_SHINGLE_K: WebAssembly.Global;
  heapBase(): number;

  sha256Init(ctx: number): void;
  sha256Update(ctx: number, ptr: number, len: number): void;
  sha256Final(ctx: number, out: number): void;
  sha256(ptr: number, len: number, out: number): void;
  sha256Batch(ptr: number, lens: number, count: number, out: number): void;
  sha256Chain(prev: number, ptr: number, lens: number, count: number, out: number): void;
  merkleLeafBatch(ptr: number, lens: number, count: number, out: number): void;
  merkleNodeBatch(ptr: number, count: number, out: number): void;
  hmacSha256(key: number, keyLen: number, msg: number, msgLen: number, out: number): void;

  shannonEntropy(ptr: number, len: number): number;
  logprobEntropy(ptr: number, k: number): number;
  logprobEntropyBatch(ptr: number, k: number, count: number, out: number): void;
  statsPush(state: number, slot: number, x: number): void;
  statsPushMany(state: number, slot: number, values: number, count: number): void;
  statsPushVector(state: number, values: number, count: number): void;
  statsVariance(state: number, slot: number): number;
  statsZScore(state: number, slot: number, x: number): number;
  gaussPush(state: number, dim: number, x: number): void;
  gaussScore(state: number, dim: number, x: number, floor: number): number;

  featurize(ptr: number, len: number, mode: number, buckets: number, nMin: number, nMax: number, out: number, cap: number): number;
  shingles(ptr: number, len: number, mode: number, kFirst: number, kLast: number, out: number, cap: number): number;
  featurizeCapacity(len: number, nMin: number, nMax: number): number;
  shinglesCapacity(len: number, lengths: number): number;

  linearLogit(ids: number, n: number, counts: number, weights: number, bias: number): number;
  maxLogitRanges(
    text: number, table: number, n: number, mode: number, buckets: number, nMin: number, nMax: number, out: number, cap: number,
    counts: number, weights: number, bias: number,
  ): number;
  widenInt8(src: number, dst: number, n: number, scale: number): void;

  readingCapacity(len: number): number;
  reading(ptr: number, len: number, region: number, cap: number): number;
  readingRanges(region: number): number;
  letterLayer(ptr: number, len: number, newlines: number): number;
}

/**
 * The ABI this build of the bindings speaks; core.wasm must report the same.
 * The one number the bindings hold themselves: it is what they check the core against.
 */
export const EXPECTED_ABI_VERSION = 8;

/**
 * Numbers the core defines and the bindings must agree with, read from its
 * exported globals when it loads rather than copied here, so that a core
 * built with other values cannot be driven with stale ones.
 */
export interface CoreConstants {
  /** Bytes of one SHA-256 context in wasm memory (assembly/sha256.ts). */
  readonly sha256ContextBytes: number;
  /** Tokenizer modes (assembly/tokenizer.ts). */
  readonly modeText: number;
  readonly modeJson: number;
  readonly modeAuto: number;
  /** Largest shingle length k the core computes; larger k is clamped there. */
  readonly maxShingleK: number;
}
