import { assertBytes, assertInteger } from '../bindings/errors.js';

/**
 * Where a MerkleTree keeps its node hashes: the hash of every complete
 * (perfect) subtree, addressed by level (0 = leaves) and index within the
 * level. A tree of n leaves stores under 2n hashes. The memory store keeps
 * them in its own backend by implementing this interface.
 */
export interface NodeStore {
  /** Number of leaves stored (= hashes at level 0). */
  leafCount(): number;
  /** The 32-byte hash of the perfect subtree at (level, index), or undefined if not stored. */
  get(level: number, index: number): Uint8Array | undefined;
  /**
   * Store one hash. Called in append order: level 0 index `leafCount()` first,
   * then the parents it completes, bottom up. Must copy `hash` if it keeps it.
   */
  set(level: number, index: number, hash: Uint8Array): void;
}

const CHUNK_HASHES = 4096;
const CHUNK_BYTES = CHUNK_HASHES * 32;

/**
 * In-memory NodeStore: per level, fixed chunks of 4096 hashes (128 KiB), so
 * a tree costs 64 bytes per leaf plus at most one partly used chunk per level
 * — no growth by doubling, no per-hash objects.
 */
export class MemoryNodeStore implements NodeStore {
  private readonly levels: Uint8Array[][] = [];
  private readonly counts: number[] = [];

  leafCount(): number {
    return this.counts[0] ?? 0;
  }

  get(level: number, index: number): Uint8Array | undefined {
    // Written so that NaN, a fraction or a level never set reads as absent.
    if (!(index >= 0 && index < (this.counts[level] ?? 0)) || !Number.isInteger(index)) return undefined;
    const chunk = this.levels[level]![Math.floor(index / CHUNK_HASHES)]!;
    const at = (index % CHUNK_HASHES) * 32;
    return chunk.subarray(at, at + 32);
  }

  set(level: number, index: number, hash: Uint8Array): void {
    assertInteger(level, 'level', 0, 63);
    assertInteger(index, 'index', 0, Number.MAX_SAFE_INTEGER);
    assertBytes(hash, 'hash', 32);
    while (this.levels.length <= level) {
      this.levels.push([]);
      this.counts.push(0);
    }
    const chunks = this.levels[level]!;
    const c = Math.floor(index / CHUNK_HASHES);
    while (chunks.length <= c) chunks.push(new Uint8Array(CHUNK_BYTES));
    chunks[c]!.set(hash, (index % CHUNK_HASHES) * 32);
    if (index >= this.counts[level]!) this.counts[level] = index + 1;
  }

  /** Forget the hashes at `level` from `count` on (undoing appends: the memory store's rollback of a failed transaction). */
  truncate(level: number, count: number): void {
    assertInteger(level, 'level', 0, 63);
    assertInteger(count, 'count', 0, Number.MAX_SAFE_INTEGER);
    if (level < this.counts.length && count < this.counts[level]!) this.counts[level] = Math.max(0, count);
  }

  /** Bytes held, for the memory-per-leaf benchmark. */
  bytesHeld(): number {
    return this.levels.reduce((sum, chunks) => sum + chunks.length * CHUNK_BYTES, 0);
  }
}
