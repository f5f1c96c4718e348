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
 * - index: small derived JSON records (per-key heads and versions, per-session
 *   lists, the head), rebuildable from the log and checked against it by
 *   `verify()`;
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

/**
 * A JSON value kept in the index. The store never changes one after handing it
 * to `setIndex` nor one it got from `getIndex`, so a backend may keep and
 * return the object itself; one that serialises (SQL) returns what it parsed.
 * Anything read back is checked before use: storage is not trusted.
 */
export type IndexValue = string | number | boolean | null | readonly IndexValue[] | { readonly [key: string]: IndexValue };

export interface BackendTx {
  entryCount(): number;
  getEntry(seq: number): Uint8Array | undefined;
  /** `bytes` may be a view into a buffer the store reuses: copy them if they are kept. */
  putEntry(seq: number, bytes: Uint8Array): void;
  getValue(ref: string): Uint8Array | undefined;
  /** `bytes` may be a view into a buffer the store reuses: copy them if they are kept. */
  putValue(ref: string, bytes: Uint8Array): void;
  deleteValue(ref: string): void;
  getIndex(name: string): IndexValue | undefined;
  setIndex(name: string, value: IndexValue): void;
  deleteIndex(name: string): void;
  readonly nodes: NodeStore;
}

/**
 * Entry and value bytes copied into 1 MiB chunks: one ArrayBuffer per chunk
 * rather than per record. A million of those, each an ArrayBuffer of its own,
 * made allocation and garbage collection a third of a put at 1M entries.
 */
class ByteArena {
  #chunk = new Uint8Array(0);
  #used = 0;

  copy(bytes: Uint8Array): Uint8Array {
    if (bytes.length > ByteArena.CHUNK >>> 4) return bytes.slice(); // large ones get their own buffer
    if (this.#used + bytes.length > this.#chunk.length) {
      this.#chunk = new Uint8Array(ByteArena.CHUNK);
      this.#used = 0;
    }
    const at = this.#used;
    this.#chunk.set(bytes, at);
    this.#used += bytes.length;
    return this.#chunk.subarray(at, at + bytes.length);
  }

  static readonly CHUNK = 1 << 20;
}

/** One write of a transaction, with what it replaced (for persisting it, or undoing it). */
export type Write =
  | { readonly kind: 'entry'; readonly seq: number; readonly after: Uint8Array; readonly before: Uint8Array | undefined }
  | { readonly kind: 'value'; readonly ref: string; readonly after: Uint8Array | undefined; readonly before: Uint8Array | undefined }
  | { readonly kind: 'index'; readonly name: string; readonly after: IndexValue | undefined; readonly before: IndexValue | undefined }
  | { readonly kind: 'node'; readonly level: number; readonly index: number; readonly before: Uint8Array | undefined };

/**
 * The default backend: everything in JavaScript memory, for tests, browsers
 * without persistence and short-lived agents.
 *
 * Writes go straight to the committed state and are journaled with what they
 * replaced; a callback that throws has its journal undone, so it changes
 * nothing. (Staging writes in maps and applying them after the callback cost
 * a third of a put: every read looked in two maps.) Transactions cannot
 * interleave: the callback is synchronous, and subclasses that persist
 * asynchronously serialise them.
 */
export class MemoryBackend implements StorageBackend {
  readonly durable: boolean = false;
  protected readonly entries: Uint8Array[] = [];
  protected readonly values = new Map<string, Uint8Array>();
  protected readonly index = new Map<string, IndexValue>();
  protected readonly nodes = new MemoryNodeStore();
  protected closed = false;
  #journal: Write[] | undefined;
  readonly #tx: BackendTx;
  readonly #arena = new ByteArena();

  constructor() {
    const journal = (): Write[] => {
      if (!this.#journal) throw new Error('MemoryBackend: a transaction handle was used after its transaction ended');
      return this.#journal;
    };
    this.#tx = {
      entryCount: () => this.entries.length,
      getEntry: (seq) => this.entries[seq],
      putEntry: (seq, bytes) => {
        const after = this.#arena.copy(bytes);
        journal().push({ kind: 'entry', seq, after, before: this.entries[seq] });
        this.entries[seq] = after;
      },
      getValue: (ref) => this.values.get(ref),
      putValue: (ref, bytes) => {
        const after = this.#arena.copy(bytes);
        journal().push({ kind: 'value', ref, after, before: this.values.get(ref) });
        this.values.set(ref, after);
      },
      deleteValue: (ref) => {
        const before = this.values.get(ref);
        if (before === undefined) return;
        journal().push({ kind: 'value', ref, after: undefined, before });
        this.values.delete(ref);
      },
      getIndex: (name) => this.index.get(name),
      setIndex: (name, value) => {
        journal().push({ kind: 'index', name, after: value, before: this.index.get(name) });
        this.index.set(name, value);
      },
      deleteIndex: (name) => {
        const before = this.index.get(name);
        if (before === undefined) return;
        journal().push({ kind: 'index', name, after: undefined, before });
        this.index.delete(name);
      },
      nodes: {
        leafCount: () => this.nodes.leafCount(),
        get: (level, i) => this.nodes.get(level, i),
        set: (level, i, hash) => {
          const old = this.nodes.get(level, i);
          // The new hash is not journaled: it is in the store (a persisting subclass reads it there).
          journal().push({ kind: 'node', level, index: i, before: old?.slice() });
          this.nodes.set(level, i, hash);
        },
      },
    };
  }

  async transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    const { result, writes } = this.run(fn);
    this.settle(writes);
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /**
   * Run `fn` with writes applied as they come; if it throws, undo them and
   * rethrow. Returns the result and the journal (for a subclass to persist,
   * and to `undo` if persisting fails).
   */
  protected run<T>(fn: (tx: BackendTx) => T): { result: T; writes: Write[] } {
    if (this.closed) throw new Error('backend is closed');
    if (this.#journal) throw new Error('MemoryBackend: transactions cannot nest');
    const writes: Write[] = [];
    this.#journal = writes;
    try {
      return { result: fn(this.#tx), writes };
    } catch (e) {
      this.undo(writes);
      throw e;
    } finally {
      this.#journal = undefined;
    }
  }

  /**
   * After a transaction is committed: zero the bytes of values it erased or
   * replaced. They sit in shared chunks that outlive them, and an erased
   * value must not linger in memory. (Not before commit: undo puts them back.)
   */
  protected settle(writes: readonly Write[]): void {
    for (const w of writes) if (w.kind === 'value' && w.before !== undefined) w.before.fill(0);
  }

  /** Put back what `writes` replaced, newest first. */
  protected undo(writes: readonly Write[]): void {
    for (let i = writes.length - 1; i >= 0; i--) {
      const w = writes[i]!;
      switch (w.kind) {
        case 'entry':
          w.after.fill(0); // our own copy, never committed
          if (w.before !== undefined) this.entries[w.seq] = w.before;
          else if (w.seq === this.entries.length - 1) this.entries.length = w.seq;
          else delete this.entries[w.seq];
          break;
        case 'value':
          w.after?.fill(0);
          if (w.before !== undefined) this.values.set(w.ref, w.before);
          else this.values.delete(w.ref);
          break;
        case 'index':
          if (w.before !== undefined) this.index.set(w.name, w.before);
          else this.index.delete(w.name);
          break;
        case 'node':
          if (w.before !== undefined) this.nodes.set(w.level, w.index, w.before);
          else this.nodes.truncate(w.level, w.index);
          break;
      }
    }
  }
}
