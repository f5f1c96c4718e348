import { MemoryNodeStore, type NodeStore } from '../tlog/storage.js';
import { ByteStore } from './byte-store.js';
import { NameSlots } from './name-slots.js';

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

/**
 * One write of a transaction, with what it replaced (for persisting it, or
 * undoing it). Entry and value bytes are ids in the backend's byte store
 * (`bytesOf` reads them): a view per write was two allocations per put.
 */
export type Write =
  | { readonly kind: 'entry'; readonly seq: number; readonly after: number; readonly before: number }
  | { readonly kind: 'value'; readonly ref: string; readonly after: number; readonly before: number }
  | { readonly kind: 'index'; readonly name: string; readonly after: IndexValue | undefined; readonly before: IndexValue | undefined }
  | { readonly kind: 'node'; readonly level: number; readonly index: number; readonly before: Uint8Array | undefined };

/** No bytes (an id of the byte store otherwise). */
const NONE = -1;

/**
 * The default backend: everything in JavaScript memory, for tests, browsers
 * without persistence and short-lived agents.
 *
 * Writes go straight to the held state and are journaled with what they
 * replaced; a callback that throws has its journal undone, so it changes
 * nothing. (Staging writes in maps and applying them after the callback cost
 * a third of a put: every read looked in two maps.) Transactions cannot
 * interleave: the callback is synchronous, and subclasses that persist
 * asynchronously serialise them.
 *
 * Bytes live in a ByteStore; values and index records share one slot per
 * name (a version's value and its record share a name), found through
 * NameSlots (a version's through its key), so a put looks each name up once.
 */
export class MemoryBackend implements StorageBackend {
  readonly durable: boolean = false;
  protected readonly nodes = new MemoryNodeStore();
  protected closed = false;
  readonly #bytes = new ByteStore();
  /** Per seq, the id of its entry's bytes (NONE: missing). */
  readonly #entries: number[] = [];
  readonly #slots = new NameSlots();
  /** Per slot, the id of its value's bytes (NONE: no value) and its index record. */
  readonly #valueIds: number[] = [];
  readonly #recs: (IndexValue | undefined)[] = [];
  /**
   * Nodes loaded with a length other than 32 (cut short at rest): read as
   * missing, so that a read that needs one stops with a typed error, as on
   * SQLite, rather than being served a zero-padded hash.
   */
  #damagedNodes: Set<string> | undefined;
  /** Slots of names that lost both value and record, for reuse (session lists come and go). */
  readonly #freeSlots: number[] = [];
  #journal: Write[] | undefined;
  readonly #tx: BackendTx;

  constructor() {
    const journal = (): Write[] => {
      if (!this.#journal) throw new Error('MemoryBackend: a transaction handle was used after its transaction ended');
      return this.#journal;
    };
    this.#tx = {
      entryCount: () => this.#entries.length,
      getEntry: (seq) => this.entryAt(seq),
      putEntry: (seq, bytes) => {
        const log = journal();
        const id = this.#bytes.add(bytes);
        log.push({ kind: 'entry', seq, after: id, before: this.#entries[seq] ?? NONE });
        this.#setEntry(seq, id);
      },
      getValue: (ref) => {
        const slot = this.#slots.get(ref);
        const id = slot === undefined ? NONE : this.#valueIds[slot]!;
        return id === NONE ? undefined : this.#bytes.get(id);
      },
      putValue: (ref, bytes) => {
        const log = journal();
        const slot = this.#slot(ref);
        const id = this.#bytes.add(bytes);
        log.push({ kind: 'value', ref, after: id, before: this.#valueIds[slot]! });
        this.#valueIds[slot] = id;
      },
      deleteValue: (ref) => {
        const slot = this.#slots.get(ref);
        if (slot === undefined || this.#valueIds[slot] === NONE) return;
        journal().push({ kind: 'value', ref, after: NONE, before: this.#valueIds[slot]! });
        this.#valueIds[slot] = NONE;
      },
      getIndex: (name) => {
        const slot = this.#slots.get(name);
        return slot === undefined ? undefined : this.#recs[slot];
      },
      setIndex: (name, value) => {
        const log = journal();
        const slot = this.#slot(name);
        log.push({ kind: 'index', name, after: value, before: this.#recs[slot] });
        this.#recs[slot] = value;
      },
      deleteIndex: (name) => {
        const slot = this.#slots.get(name);
        if (slot === undefined || this.#recs[slot] === undefined) return;
        journal().push({ kind: 'index', name, after: undefined, before: this.#recs[slot] });
        this.#recs[slot] = undefined;
      },
      nodes: {
        leafCount: () => this.nodes.leafCount(),
        get: (level, i) => (this.#damagedNodes?.has(`${level}/${i}`) ? undefined : this.nodes.get(level, i)),
        set: (level, i, hash) => {
          this.#damagedNodes?.delete(`${level}/${i}`);
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

  /** The entry bytes at `seq`, or undefined. */
  protected entryAt(seq: number): Uint8Array | undefined {
    const id = this.#entries[seq];
    return id === undefined ? undefined : this.bytesOf(id);
  }

  /** The bytes a Write names (undefined: none, a deleted value). */
  protected bytesOf(id: number): Uint8Array | undefined {
    return id === NONE ? undefined : this.#bytes.get(id);
  }

  /*
   * Outside any transaction, what is held — for a persisting subclass loading
   * its state, and for tests and the playground playing an attacker who edits
   * memory directly. `hold(…, undefined)` removes.
   */
  protected holdNode(level: number, i: number, hash: Uint8Array): void {
    if (hash.length === 32) this.nodes.set(level, i, hash);
    else {
      (this.#damagedNodes ??= new Set()).add(`${level}/${i}`);
      this.nodes.set(level, i, new Uint8Array(32)); // keeps the level's count; never read
    }
  }

  protected hold(kind: 'entry', seq: number, bytes: Uint8Array | undefined): void;
  protected hold(kind: 'value', ref: string, bytes: Uint8Array | undefined): void;
  protected hold(kind: 'index', name: string, value: IndexValue | undefined): void;
  protected hold(kind: 'entry' | 'value' | 'index', at: number | string, data: Uint8Array | IndexValue | undefined): void {
    if (kind === 'entry') {
      const seq = at as number;
      if (data === undefined) {
        if (seq === this.#entries.length - 1) this.#entries.length = seq;
        else if (seq < this.#entries.length) this.#entries[seq] = NONE;
      } else this.#setEntry(seq, this.#bytes.add(data as Uint8Array));
    } else if (kind === 'value') {
      this.#valueIds[this.#slot(at as string)] = data === undefined ? NONE : this.#bytes.add(data as Uint8Array);
    } else this.#recs[this.#slot(at as string)] = data as IndexValue | undefined;
  }

  /** Every entry held, by seq (undefined: missing). */
  protected heldEntries(): (Uint8Array | undefined)[] {
    return this.#entries.map((_, seq) => this.entryAt(seq));
  }

  protected heldValue(name: string): Uint8Array | undefined {
    const slot = this.#slots.get(name);
    return slot === undefined || this.#valueIds[slot] === NONE ? undefined : this.#bytes.get(this.#valueIds[slot]!);
  }

  protected heldIndex(name: string): IndexValue | undefined {
    const slot = this.#slots.get(name);
    return slot === undefined ? undefined : this.#recs[slot];
  }

  /** Bytes held for entries and values (erased ones come back as their chunks empty). */
  protected heldBytes(): number {
    return this.#bytes.bytesHeld();
  }

  /** Names held with a value or an index record (in no particular order). */
  protected heldNames(): { values: string[]; index: string[] } {
    const values: string[] = [];
    const index: string[] = [];
    for (const [name, slot] of this.#slots.entries()) {
      if (this.#valueIds[slot] !== NONE) values.push(name);
      if (this.#recs[slot] !== undefined) index.push(name);
    }
    return { values, index };
  }

  #slot(name: string): number {
    let slot = this.#slots.get(name);
    if (slot === undefined) {
      slot = this.#freeSlots.pop();
      if (slot === undefined) {
        slot = this.#valueIds.length;
        this.#valueIds.push(NONE);
        this.#recs.push(undefined);
      }
      this.#slots.set(name, slot);
    }
    return slot;
  }

  #setEntry(seq: number, id: number): void {
    // Fill a gap with NONE rather than leave a hole (a holey array is slower for every read).
    while (this.#entries.length < seq) this.#entries.push(NONE);
    this.#entries[seq] = id;
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
   * After a transaction is committed: free (zero, and give the space back as
   * chunks empty) the bytes of values it erased or replaced — they sit in
   * shared chunks that outlive them, and an erased value must not linger in
   * memory — and free the slots of names left with nothing. (Not before
   * commit: undo puts them back.)
   */
  protected settle(writes: readonly Write[]): void {
    for (const w of writes) {
      if (w.kind === 'value' && w.before !== NONE) this.#bytes.free(w.before);
      if (w.kind === 'value' && w.after === NONE) this.#release(w.ref);
      else if (w.kind === 'index' && w.after === undefined) this.#release(w.name);
    }
  }

  #release(name: string): void {
    const slot = this.#slots.get(name);
    if (slot === undefined || this.#valueIds[slot] !== NONE || this.#recs[slot] !== undefined) return;
    this.#slots.delete(name);
    this.#freeSlots.push(slot);
  }

  /** Put back what `writes` replaced, newest first. */
  protected undo(writes: readonly Write[]): void {
    for (let i = writes.length - 1; i >= 0; i--) {
      const w = writes[i]!;
      switch (w.kind) {
        case 'entry':
          this.#bytes.free(w.after); // our own copy, never committed
          if (w.before !== NONE) this.#entries[w.seq] = w.before;
          else if (w.seq === this.#entries.length - 1) this.#entries.length = w.seq;
          else this.#entries[w.seq] = NONE;
          break;
        case 'value':
          if (w.after !== NONE) this.#bytes.free(w.after);
          this.#valueIds[this.#slot(w.ref)] = w.before;
          this.#release(w.ref); // a name the transaction brought in leaves again
          break;
        case 'index':
          this.#recs[this.#slot(w.name)] = w.before;
          this.#release(w.name);
          break;
        case 'node':
          if (w.before !== undefined) this.nodes.set(w.level, w.index, w.before);
          else this.nodes.truncate(w.level, w.index);
          break;
      }
    }
  }
}
