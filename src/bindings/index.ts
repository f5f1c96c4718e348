// The core's primitives: hashing, statistics and tokenising on core.wasm.
export { isInitialized, coreMemoryBytes } from './instance.js';
export type { InitInput, InitSource } from './instance.js';
export {
  sha256, sha256Utf8, sha256Batch, hashChain, merkleLeafHash, merkleLeafHashBatch, merkleNodeHash, merkleNodeHashBatch,
  hmacSha256,
} from './sha256.js';
export type { Sha256Hasher } from './sha256.js';
export { shannonEntropy, logprobEntropy, logprobEntropies, RunningStats, DiagonalGaussian } from './stats.js';
export type { RunningStatsState, DiagonalGaussianState } from './stats.js';
export { normalizeText, featurize, featurizeInto, shingles, shinglesUpTo } from './text.js';
export { LinearModel } from './linear.js';
export type { QuantizedWeights } from './linear.js';
export { readText, readingRanges } from './reading.js';
export type { Reading, ReadingRanges } from './reading.js';
export type { FeaturizeOptions, TokenizeMode } from './text.js';
export { toHex, fromHex, toBase64, fromBase64, bytesEqual } from './encoding.js';
export { ParapetError, ParapetTypeError, ParapetRangeError, ParapetStateError } from './errors.js';
export type { ParapetErrorCode, ParapetTypeErrorCode, ParapetRangeErrorCode, ParapetStateErrorCode } from './errors.js';
export type { VerifyResult, VerifyFailure } from './result.js';
