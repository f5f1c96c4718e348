import { merkleLeafHash, merkleLeafHashBatch, merkleNodeHash, merkleNodeHashBatch, sha256 } from '../bindings/index.js';

/**
 * RFC 6962 §2.1 hashing, the one place the domain-separation prefixes live:
 * leaf = SHA-256(0x00 ‖ d), node = SHA-256(0x01 ‖ l ‖ r), empty tree =
 * SHA-256(""). The prefixes stop a leaf from being passed off as a node
 * (second-preimage attack on the tree).
 */
export const HASH_SIZE = 32;

export const hashLeaf = merkleLeafHash;
/** Leaf hashes of many leaves in few wasm crossings. */
export const hashLeafBatch = merkleLeafHashBatch;
export const hashChildren = merkleNodeHash;
/** Node hashes of n (left ‖ right) pairs given as 64·n bytes, in one crossing per 4096 pairs. */
export const hashChildrenBatch = merkleNodeHashBatch;

let empty: Uint8Array | undefined;
export function emptyRoot(): Uint8Array {
  empty ??= sha256(new Uint8Array(0));
  return empty.slice();
}
