import { MemoryNodeStore, type NodeStore } from '../tlog/storage.js';

/**
 * What a memory store needs from storage. Everything a store operation reads
 * and writes goes through one `transaction`, which must be atomic (all writes
 * or none) and serialised with other writers — across processes where the
 * storage is shared. The callback is synchronous: hashing is, and keeping it
 * so lets SQLite hold its write lock for microseconds.
 *
 * Kinds of data:
 * - entries: the log, by sequence number (canonical JSON bytes);
 * - values: canonical value bytes by reference; erasable;
 * - index: small derived records (per-key version lists, per-session lists,
 *   the head), rebuildable from the log and checked against it by `verify()`;
 * - nodes: the Merkle tree's node hashes.
 *
 * To add a backend (a shared SQL server for many agents), implement this
 * interface; `test/vmg-store.test.ts` runs the whole behaviour suite against
 * every backend and is the conformance test.
 */
export interface StorageBackend {
  /** False when values do not survive the process. Ephemeral values are never given to any backend. */
  readonly durable: boolean;
  transaction<T>(fn: (tx: BackendTx) => T): Promise<T>;
  close(): Promise<void>;
}

export interface BackendTx {
  entryCount(): number;
  getEntry(seq: number): Uint8Array | undefined;
  putEntry(seq: number, bytes: Uint8Array): void;
  getValue(ref: string): Uint8Array | undefined;
  putValue(ref: string, bytes: Uint8Array): void;
  deleteValue(ref: string): void;
  getIndex(name: string): string | undefined;
  setIndex(name: string, value: string): void;
  readonly nodes: NodeStore;
}

/** Writes of one transaction, applied only when its callback returns. */
export interface StagedWrites {
  readonly entries: Map<number, Uint8Array>;
  readonly values: Map<string, Uint8Array | null>;
  readonly index: Map<string, string>;
  /** In append order: level, index, hash. */
  readonly nodes: [number, number, Uint8Array][];
}

/**
 * The default backend: everything in JavaScript memory, for tests, browsers
 * without persistence and short-lived agents. Writes are staged and applied
 * only when the transaction's callback returns, so a throw changes nothing.
 */
export class MemoryBackend implements StorageBackend {
  readonly durable: boolean = false;
  protected readonly entries: Uint8Array[] = [];
  protected readonly values = new Map<string, Uint8Array>();
  protected readonly index = new Map<string, string>();
  protected readonly nodes = new MemoryNodeStore();
  protected closed = false;

  async transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    const { result, staged } = this.stage(fn);
    this.apply(staged);
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Run `fn` against the committed state plus its own staged writes. */
  protected stage<T>(fn: (tx: BackendTx) => T): { result: T; staged: StagedWrites } {
    if (this.closed) throw new Error('backend is closed');
    const staged: StagedWrites = { entries: new Map(), values: new Map(), index: new Map(), nodes: [] };
    const stagedNodes = new Map<string, Uint8Array>();
    let entryCount = this.entries.length;
    let leafCount = this.nodes.leafCount();
    const committed = this;
    const tx: BackendTx = {
      entryCount: () => entryCount,
      getEntry: (seq) => staged.entries.get(seq) ?? committed.entries[seq],
      putEntry: (seq, bytes) => {
        staged.entries.set(seq, bytes.slice());
        if (seq >= entryCount) entryCount = seq + 1;
      },
      getValue: (ref) => (staged.values.has(ref) ? (staged.values.get(ref) ?? undefined) : committed.values.get(ref)),
      putValue: (ref, bytes) => void staged.values.set(ref, bytes.slice()),
      deleteValue: (ref) => void staged.values.set(ref, null),
      getIndex: (name) => staged.index.get(name) ?? committed.index.get(name),
      setIndex: (name, value) => void staged.index.set(name, value),
      nodes: {
        leafCount: () => leafCount,
        get: (level, i) => stagedNodes.get(`${level}/${i}`) ?? committed.nodes.get(level, i),
        set: (level, i, hash) => {
          const copy = hash.slice();
          stagedNodes.set(`${level}/${i}`, copy);
          staged.nodes.push([level, i, copy]);
          if (level === 0 && i >= leafCount) leafCount = i + 1;
        },
      },
    };
    return { result: fn(tx), staged };
  }

  protected apply(staged: StagedWrites): void {
    for (const [seq, bytes] of staged.entries) this.entries[seq] = bytes;
    for (const [ref, bytes] of staged.values) {
      if (bytes === null) this.values.delete(ref);
      else this.values.set(ref, bytes);
    }
    for (const [name, value] of staged.index) this.index.set(name, value);
    for (const [level, i, hash] of staged.nodes) this.nodes.set(level, i, hash);
  }
}
