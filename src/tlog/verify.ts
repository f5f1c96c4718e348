import { bytesEqual } from '../bindings/encoding.js';
import type { VerifyResult } from '../bindings/result.js';
import { HASH_SIZE, hashChildren } from './hasher.js';
import { isPowerOfTwo } from './math.js';

/**
 * Pure verifiers for RFC 6962 / RFC 9162 proofs. They check sizes and hash
 * lengths before hashing anything and never throw on their inputs: a proof
 * from an attacker gets a result with a stable code.
 */

export type ProofFailure =
  | 'invalid-size' //           a size or index is not a non-negative safe integer
  | 'index-out-of-range' //     leaf index ≥ tree size
  | 'size-order' //             size1 > size2
  | 'empty-tree' //             a consistency proof from size 0, which proves nothing
  | 'bad-hash-length' //        a root, leaf hash or proof element is not 32 bytes
  | 'wrong-proof-length' //     more or fewer proof elements than the sizes call for
  | 'root-mismatch'; //         the proof leads to a different root

/** `{ ok: true }`, or why not; a root mismatch carries the root the proof computes and the one expected. */
export type ProofResult = VerifyResult<ProofFailure, {}, { readonly computed?: Uint8Array; readonly expected?: Uint8Array }>;

const OK: ProofResult = Object.freeze({ ok: true });

function fail(code: ProofFailure, message: string, extra: { computed?: Uint8Array; expected?: Uint8Array } = {}): ProofResult {
  return { ok: false, code, message, ...extra };
}

const isSize = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const isHash = (h: unknown): h is Uint8Array => h instanceof Uint8Array && h.length === HASH_SIZE;

function checkProof(proof: unknown): proof is readonly Uint8Array[] {
  return Array.isArray(proof) && proof.every(isHash);
}

/**
 * RFC 9162 §2.1.3.2: does `proof` show that `leafHash` is leaf `index` of the
 * tree of `size` leaves whose root is `root`? Preconditions are checked, not
 * assumed: index < size, every hash 32 bytes, proof length exactly right.
 */
export function verifyInclusion(
  leafHash: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): ProofResult {
  if (!isSize(index) || !isSize(size)) return fail('invalid-size', 'index and size must be non-negative safe integers');
  if (index >= size) return fail('index-out-of-range', `index ${index} is not below size ${size}`);
  if (!isHash(leafHash) || !isHash(root)) return fail('bad-hash-length', 'leaf hash and root must be 32 bytes');
  if (!checkProof(proof)) return fail('bad-hash-length', 'every proof element must be a 32-byte hash');
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return fail('wrong-proof-length', `proof has more than the ${proof.length - 1} elements size ${size} needs`);
    if (fn % 2 === 1 || fn === sn) {
      r = hashChildren(p, r);
      // Right edge: skip the levels where this node has no right sibling.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) return fail('wrong-proof-length', `proof of ${proof.length} elements is too short for size ${size}`);
  if (!bytesEqual(r, root)) return fail('root-mismatch', 'the proof leads to a different root', { computed: r, expected: root });
  return OK;
}

/**
 * RFC 9162 §2.1.4.2: does `proof` show that the tree of `size1` leaves with
 * root `root1` is a prefix of the tree of `size2` leaves with root `root2`?
 */
export function verifyConsistency(
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
  root2: Uint8Array,
): ProofResult {
  if (!isSize(size1) || !isSize(size2)) return fail('invalid-size', 'sizes must be non-negative safe integers');
  if (size1 > size2) return fail('size-order', `size1 ${size1} is larger than size2 ${size2}`);
  if (!(root1 instanceof Uint8Array) || !(root2 instanceof Uint8Array)) return fail('bad-hash-length', 'roots must be byte arrays');
  if (!checkProof(proof)) return fail('bad-hash-length', 'every proof element must be a 32-byte hash');
  if (size1 === 0) {
    // As transparency-dev/merkle: every tree "extends" the empty one, so such a
    // proof carries no information; callers starting from nothing trust the
    // first checkpoint they see instead (CheckpointWitness does).
    return fail('empty-tree', 'a consistency proof from the empty tree proves nothing');
  }
  if (size1 === size2) {
    // Same tree: nothing to prove but that the roots are the same bytes
    // (transparency-dev/merkle compares them as given, whatever their length).
    if (proof.length !== 0) return fail('wrong-proof-length', 'equal sizes need an empty proof');
    if (!bytesEqual(root1, root2)) return fail('root-mismatch', 'equal sizes but different roots', { computed: root1, expected: root2 });
    return OK;
  }
  if (!isHash(root1) || !isHash(root2)) return fail('bad-hash-length', 'roots must be 32 bytes');
  if (proof.length === 0) return fail('wrong-proof-length', 'proof is empty');
  // When size1 is a power of two the old root is itself a node of the new tree
  // and is not sent: start from it.
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!;
    if (sn === 0) return fail('wrong-proof-length', 'proof has too many elements');
    if (fn % 2 === 1 || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) return fail('wrong-proof-length', 'proof has too few elements');
  if (!bytesEqual(fr, root1)) return fail('root-mismatch', 'the proof does not lead to root1', { computed: fr, expected: root1 });
  if (!bytesEqual(sr, root2)) return fail('root-mismatch', 'the proof does not lead to root2', { computed: sr, expected: root2 });
  return OK;
}
