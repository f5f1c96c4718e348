import type { NodeStore } from '../tlog/storage.js';
import { JournaledMemory } from './journaled-memory.js';

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
 * This is the extension API for backends (decision 45): a backend is storage
 * and knows nothing of what the entries mean. `transaction` resolves to
 * `fn`'s result or rejects with what `fn` threw, changing nothing; a failure of
 * the storage itself rejects with MemoryStoreError code `backend` (the cause
 * attached), and use after `close()` with code `closed`. To add a backend (a
 * shared SQL server for many agents), implement it; `test/vmg-store.test.ts`
 * runs the whole behaviour suite against every backend and is the conformance
 * test.
 */
export interface StorageBackend {
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
  /**
   * Optional hint before a walk (verify()): the caller is about to read the
   * entries and the tree nodes of log rows [start, end), or the values and
   * index records of `names`. A backend that reads from disk may load them in
   * one query and serve the reads that follow from it, for the rest of the
   * transaction or until the next hint; one in memory ignores it. Reads must
   * answer the same with or without it.
   */
  prefetch?(what: { readonly start: number; readonly end: number } | { readonly names: readonly string[] }): void;
  /**
   * Optional, for a backend whose log can have gaps (rows keyed by seq, as in
   * SQL): how many entries it holds. `entryCount()` is the highest seq + 1, so
   * one row inserted far beyond the end would make a walk (verify()) that long;
   * with this the walk bounds itself and reports `entries-beyond-end`.
   */
  storedEntries?(): number;
}

/** Each MemoryBackend's state, for this package's tests and playground only (not exported by parapet/vmg). */
const memories = new WeakMap<MemoryBackend, JournaledMemory>();

/** The held state of `backend`, to edit directly as an attacker with access to the process's memory would. */
export function heldMemory(backend: MemoryBackend): JournaledMemory {
  return memories.get(backend)!;
}

/**
 * The default backend: everything in JavaScript memory, for tests, browsers
 * without persistence and short-lived agents. Values do not survive the
 * process (ephemeral values are never given to any backend).
 */
export class MemoryBackend implements StorageBackend {
  readonly #memory = new JournaledMemory();

  constructor() {
    memories.set(this, this.#memory);
  }

  async transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    const { result, writes } = this.#memory.run(fn);
    this.#memory.settle(writes);
    return result;
  }

  async close(): Promise<void> {
    this.#memory.closed = true;
  }
}
