import { MemoryNodeStore } from '../tlog/storage.js';
import type { BackendTx, IndexValue } from './backend.js';
import { ByteStore } from './byte-store.js';
import { MemoryStoreError } from './errors.js';
import { NameSlots } from './name-slots.js';

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
 * A store's state in JavaScript memory, with the journal of the running
 * transaction: what MemoryBackend is, and what IndexedDbBackend mirrors its
 * database into. Internal: backends outside this package implement
 * StorageBackend (decision 45).
 *
 * Writes go straight to the held state and are journaled with what they
 * replaced; a callback that throws has its journal undone, so it changes
 * nothing. (Staging writes in maps and applying them after the callback cost
 * a third of a put: every read looked in two maps.) Transactions cannot
 * interleave: the callback is synchronous, and a backend that persists
 * asynchronously serialises them.
 *
 * Bytes live in a ByteStore; values and index records share one slot per
 * name (a version's value and its record share a name), found through
 * NameSlots (a version's through its key), so a put looks each name up once.
 */
export class JournaledMemory {
  readonly nodes = new MemoryNodeStore();
  closed = false;
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
      // A handle kept past its transaction would write outside any journal: unlogged, never undone.
      if (!this.#journal) throw new MemoryStoreError('a transaction handle was used after its transaction ended', 'transaction-ended');
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
          // The new hash is not journaled: it is in the store (a persisting backend reads it there).
          journal().push({ kind: 'node', level, index: i, before: old?.slice() });
          this.nodes.set(level, i, hash);
        },
      },
    };
  }

  /** The entry bytes at `seq`, or undefined. */
  entryAt(seq: number): Uint8Array | undefined {
    const id = this.#entries[seq];
    return id === undefined ? undefined : this.bytesOf(id);
  }

  /** The bytes a Write names (undefined: none, a deleted value). */
  bytesOf(id: number): Uint8Array | undefined {
    return id === NONE ? undefined : this.#bytes.get(id);
  }

  /*
   * Outside any transaction, what is held — for a persisting backend loading
   * its state, and for tests and the playground playing an attacker who edits
   * memory directly. `hold(…, undefined)` removes.
   */
  holdNode(level: number, i: number, hash: Uint8Array): void {
    if (hash.length === 32) this.nodes.set(level, i, hash);
    else {
      (this.#damagedNodes ??= new Set()).add(`${level}/${i}`);
      this.nodes.set(level, i, new Uint8Array(32)); // keeps the level's count; never read
    }
  }

  hold(kind: 'entry', seq: number, bytes: Uint8Array | undefined): void;
  hold(kind: 'value', ref: string, bytes: Uint8Array | undefined): void;
  hold(kind: 'index', name: string, value: IndexValue | undefined): void;
  hold(kind: 'entry' | 'value' | 'index', at: number | string, data: Uint8Array | IndexValue | undefined): void {
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
  heldEntries(): (Uint8Array | undefined)[] {
    return this.#entries.map((_, seq) => this.entryAt(seq));
  }

  heldValue(name: string): Uint8Array | undefined {
    const slot = this.#slots.get(name);
    return slot === undefined || this.#valueIds[slot] === NONE ? undefined : this.#bytes.get(this.#valueIds[slot]!);
  }

  heldIndex(name: string): IndexValue | undefined {
    const slot = this.#slots.get(name);
    return slot === undefined ? undefined : this.#recs[slot];
  }

  /** Bytes held for entries and values (erased ones come back as their chunks empty). */
  heldBytes(): number {
    return this.#bytes.bytesHeld();
  }

  /** Names held with a value or an index record (in no particular order). */
  heldNames(): { values: string[]; index: string[] } {
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
   * rethrow. Returns the result and the journal (for a backend to persist,
   * and to `undo` if persisting fails).
   */
  run<T>(fn: (tx: BackendTx) => T): { result: T; writes: Write[] } {
    if (this.closed) throw new MemoryStoreError('the memory backend is closed', 'closed');
    // A nested transaction would share the outer journal: undoing one would undo the other's writes.
    if (this.#journal) throw new MemoryStoreError('transactions on one backend cannot nest', 'transaction-nested');
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
  settle(writes: readonly Write[]): void {
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
  undo(writes: readonly Write[]): void {
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
