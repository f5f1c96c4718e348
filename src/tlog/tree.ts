import { assertBytes, assertBytesArray, assertInteger, ParapetRangeError, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import { emptyRoot, HASH_SIZE, hashChildren, hashChildrenBatch, hashLeaf, hashLeafBatch } from './hasher.js';
import { isPowerOfTwo, splitPoint } from './math.js';
import { MemoryNodeStore, type NodeStore } from './storage.js';

/** Is [lo, hi) a complete subtree: a power-of-two range aligned to its size? */
const isPerfect = (lo: number, hi: number) => isPowerOfTwo(hi - lo) && lo % (hi - lo) === 0;

/**
 * An append-only RFC 6962 Merkle tree. It stores the hash of every complete
 * subtree (see NodeStore), so the root, an inclusion proof or a consistency
 * proof for any size up to the current one costs O(log n) stored lookups plus
 * at most O(log n) hashes for the one incomplete subtree on the right edge —
 * never a rebuild.
 */
export class MerkleTree {
  private count: number;
  /**
   * Hashes of the ranges [lo, size) on the current tree's right edge that are
   * not perfect subtrees, by lo, kept until the next append: root() and a
   * proof at the current size share them (a memory-store get asks for both;
   * recomputing them was a third of a get on SQLite). At most one per bit of
   * the size; ranges of past sizes are not kept (they would rarely be asked
   * twice). Made on first use: the memory store makes a tree per operation,
   * and most (puts) never ask for a root.
   */
  private edges: Map<number, Uint8Array> | undefined;

  constructor(private readonly store: NodeStore = new MemoryNodeStore()) {
    const s = store as Partial<NodeStore> | null;
    if (typeof s !== 'object' || s === null || typeof s.leafCount !== 'function' || typeof s.get !== 'function' || typeof s.set !== 'function') {
      throw new ParapetTypeError('"store" must be a NodeStore (leafCount, get, set)');
    }
    const count = store.leafCount();
    // The store may be backed by storage an attacker can edit: a count that is not a size is damage.
    if (!Number.isSafeInteger(count) || count < 0) throw new ParapetStateError(`the tree's node store reports ${String(count)} leaves`, 'store-damaged');
    this.count = count;
  }

  /** Number of leaves. */
  get size(): number {
    return this.count;
  }

  /** Append one leaf's data (hashed as an RFC 6962 leaf); returns its index. */
  append(leafData: Uint8Array): number {
    assertBytes(leafData, 'leafData');
    return this.appendLeafHash(hashLeaf(leafData));
  }

  /** Append a leaf by its precomputed RFC 6962 leaf hash; returns its index. */
  appendLeafHash(leafHash: Uint8Array): number {
    assertBytes(leafHash, 'leafHash', HASH_SIZE);
    const index = this.count;
    this.edges?.clear();
    this.store.set(0, index, leafHash);
    // Each odd index completes its parent: climb while we are a right child.
    let hash = leafHash;
    let i = index;
    for (let level = 0; i % 2 === 1; level++) {
      hash = hashChildren(this.node(level, i - 1), hash);
      i = Math.floor(i / 2);
      this.store.set(level + 1, i, hash);
    }
    this.count = index + 1;
    return index;
  }

  /**
   * Append many leaves: leaf hashes in one batch, then each level's new
   * parents in one batch. Returns the index of the first.
   */
  appendMany(leaves: readonly Uint8Array[]): number {
    assertBytesArray(leaves, 'leaves');
    return this.appendLeafHashes(hashLeafBatch(leaves));
  }

  /** Append many precomputed leaf hashes, each level's new parents hashed in one batch. */
  appendLeafHashes(hashes: readonly Uint8Array[]): number {
    assertBytesArray(hashes, 'hashes');
    for (let i = 0; i < hashes.length; i++) {
      if (hashes[i]!.length !== HASH_SIZE) throw new ParapetRangeError(`"hashes[${i}]" must be 32 bytes, got ${hashes[i]!.length}`);
    }
    const first = this.count;
    this.edges?.clear();
    for (let i = 0; i < hashes.length; i++) this.store.set(0, first + i, hashes[i]!);
    let lo = first;
    let hi = first + hashes.length;
    for (let level = 0; ; level++) {
      // Parents at level + 1 completed by this batch: p with 2p + 1 < hi and 2p + 1 ≥ lo.
      const from = Math.floor(lo / 2);
      const to = Math.floor(hi / 2);
      if (to <= from) break;
      const pairs = new Uint8Array((to - from) * 64);
      for (let p = from; p < to; p++) {
        pairs.set(this.node(level, 2 * p), (p - from) * 64);
        pairs.set(this.node(level, 2 * p + 1), (p - from) * 64 + 32);
      }
      const parents = hashChildrenBatch(pairs);
      for (let p = from; p < to; p++) this.store.set(level + 1, p, parents.subarray((p - from) * 32, (p - from + 1) * 32));
      lo = from;
      hi = to;
    }
    this.count = first + hashes.length;
    return first;
  }

  /** The leaf hash at `index`. */
  leafHash(index: number): Uint8Array {
    this.checkIndex(index, this.count, 'index');
    return this.node(0, index).slice();
  }

  /** RFC 6962 root of the first `size` leaves (default: all). */
  root(size: number = this.count): Uint8Array {
    this.checkSize(size, 'size');
    if (size === 0) return emptyRoot();
    return this.subtreeHash(0, size).slice();
  }

  /**
   * RFC 6962 §2.1.1 audit path for leaf `index` in the tree of `size` leaves
   * (default: all), leaf sibling first.
   */
  inclusionProof(index: number, size: number = this.count): Uint8Array[] {
    this.checkSize(size, 'size');
    this.checkIndex(index, size, 'index');
    const topDown: Uint8Array[] = [];
    let lo = 0;
    let hi = size;
    while (hi - lo > 1) {
      const k = splitPoint(hi - lo);
      if (index < lo + k) {
        topDown.push(this.subtreeHash(lo + k, hi));
        hi = lo + k;
      } else {
        topDown.push(this.subtreeHash(lo, lo + k));
        lo += k;
      }
    }
    return topDown.reverse().map((h) => h.slice());
  }

  /**
   * RFC 6962 §2.1.2 consistency proof that the tree of `size1` leaves is a
   * prefix of the tree of `size2` (default: all). Empty when size1 is 0 or
   * equal to size2.
   */
  consistencyProof(size1: number, size2: number = this.count): Uint8Array[] {
    this.checkSize(size2, 'size2');
    assertInteger(size1, 'size1', 0, size2);
    if (size1 === 0 || size1 === size2) return [];
    const topDown: Uint8Array[] = [];
    let m = size1;
    let lo = 0;
    let hi = size2;
    let whole = true; // SUBPROOF's b: is [lo, lo + m) the old tree itself?
    for (;;) {
      if (m === hi - lo) {
        if (!whole) topDown.push(this.subtreeHash(lo, hi));
        break;
      }
      const k = splitPoint(hi - lo);
      if (m <= k) {
        topDown.push(this.subtreeHash(lo + k, hi));
        hi = lo + k;
      } else {
        topDown.push(this.subtreeHash(lo, lo + k));
        m -= k;
        lo += k;
        whole = false;
      }
    }
    return topDown.reverse().map((h) => h.slice());
  }

  /**
   * MTH(D[lo:hi]). A perfect, aligned range is one stored lookup; otherwise
   * (only the right edge of a tree) it is split as RFC 6962 splits it.
   */
  private subtreeHash(lo: number, hi: number): Uint8Array {
    if (isPerfect(lo, hi)) {
      const level = Math.round(Math.log2(hi - lo));
      return this.node(level, lo / (hi - lo));
    }
    const edge = hi === this.count;
    let hash = edge ? this.edges?.get(lo) : undefined;
    if (hash === undefined) {
      const k = splitPoint(hi - lo);
      hash = hashChildren(this.subtreeHash(lo, lo + k), this.subtreeHash(lo + k, hi));
      if (edge) (this.edges ??= new Map()).set(lo, hash);
    }
    return hash;
  }

  /**
   * A stored hash. Stores may be backed by storage an attacker can edit (the
   * memory store's backends), so a missing or malformed hash is a typed error,
   * not a crash further on.
   */
  private node(level: number, index: number): Uint8Array {
    const hash = this.store.get(level, index);
    if (!(hash instanceof Uint8Array) || hash.length !== HASH_SIZE) {
      throw new ParapetStateError(`the tree's node store has no valid hash at level ${level}, index ${index}`, 'store-damaged');
    }
    return hash;
  }

  private checkSize(size: number, name: string): void {
    assertInteger(size, name, 0, this.count);
  }

  private checkIndex(index: number, size: number, name: string): void {
    if (size === 0) throw new ParapetRangeError(`"${name}" cannot address an empty tree`, 'invalid-value');
    assertInteger(index, name, 0, size - 1);
  }
}
