// The core's exports. Everything is numbers and pointers: the TypeScript
// bindings in src/bindings own all memory above `heapBase()` and pass regions in.

export {
  SHA256_CONTEXT_BYTES, sha256Init, sha256Update, sha256Final, sha256, sha256Batch, sha256Chain,
  merkleLeafBatch, merkleNodeBatch, hmacSha256,
} from './sha256';
export {
  shannonEntropy, logprobEntropy, logprobEntropyBatch, statsPush, statsPushMany, statsPushVector,
  statsVariance, statsZScore, gaussPush, gaussScore,
} from './entropy';
export { MODE_TEXT, MODE_JSON, MODE_AUTO, MAX_SHINGLE_K, featurize, featurizeCapacity, shingles, shinglesCapacity } from './tokenizer';
export { linearLogit, maxLogitRanges, widenInt8 } from './linear';
export { MAX_READING_INPUT, readingCapacity, reading } from './reading';
export { readingRanges } from './ranges';
export { letterLayer } from './letters';

/** First byte past the module's static data: the bindings' arena starts here. */
export function heapBase(): usize {
  return __heap_base;
}

/** Bumped whenever an export's meaning changes, so bindings refuse a stale core.wasm. */
export const ABI_VERSION: u32 = 8;
