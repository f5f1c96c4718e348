/**
 * parapet/vmg/indexeddb — a StorageBackend on IndexedDB for browsers. The
 * whole store is mirrored in memory at open (memory stores are small); each
 * operation runs against the mirror, its writes are then put in one IndexedDB
 * readwrite transaction, and undone in the mirror if that fails. Operations
 * are queued, so none sees another's writes before they are committed. One
 * writer per database: where Web Locks exist, the backend holds an exclusive
 * lock named after the database while it is open, and a second tab or worker
 * that opens the same store is refused instead of forking its log.
 *
 * @module parapet/vmg/indexeddb
 */
import type { BackendTx, IndexValue, StorageBackend } from './backend.js';
import { ParapetError } from '../bindings/errors.js';
import { MemoryStoreError } from './errors.js';
import { JournaledMemory, type Write } from './journaled-memory.js';

const STORES = ['entries', 'values', 'index', 'nodes'] as const;
/**
 * The database version is the layout's: 2 since key heads carry their latest
 * version's hash and policy. A database of another (an earlier build's, or a
 * later one's) is refused rather than misread, as SqliteBackend refuses a file.
 */
const LAYOUT = 2;

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** The bytes as an ArrayBuffer holding exactly them (IndexedDB would store a view's whole buffer). */
const ownBuffer = (b: Uint8Array): ArrayBuffer =>
  b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? (b.buffer as ArrayBuffer) : (b.slice().buffer as ArrayBuffer);

/** The part of the Web Locks API (navigator.locks) the backend uses. */
export interface LockManagerLike {
  request(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<void> | void): Promise<unknown>;
}

export interface IndexedDbOptions {
  /** Default: globalThis.indexedDB. */
  readonly factory?: IDBFactory;
  /** Default: navigator.locks where it exists; null opts out (one writer is then the caller's to ensure). */
  readonly locks?: LockManagerLike | null;
}

export class IndexedDbBackend implements StorageBackend {
  /** The mirror every operation runs against. */
  readonly #memory = new JournaledMemory();
  #queue: Promise<unknown> = Promise.resolve();
  #unlock: (() => void) | undefined;

  private constructor(private readonly db: IDBDatabase) {}

  /**
   * Open (creating if needed) the database `name` and load it. Refuses with
   * a MemoryStoreError: `locked` when another tab or worker has the same
   * store open (where Web Locks exist), `layout-mismatch` for a database of
   * another layout, `store-damaged` for records the backend never writes,
   * `open-failed` when IndexedDB is missing or will not open the database.
   */
  static async open(name: string, options: IndexedDbOptions | IDBFactory = {}): Promise<IndexedDbBackend> {
    const { factory = globalThis.indexedDB, locks = defaultLocks() } = isFactory(options) ? { factory: options } : options;
    if (!factory) throw new MemoryStoreError('IndexedDB is not available in this runtime', 'open-failed');
    const unlock = locks
      ? await exclusive(locks, `parapet-vmg:${name}`).catch((e: unknown) => {
        throw new MemoryStoreError(`the Web Lock for the store "${name}" could not be requested`, 'open-failed', { cause: e });
      })
      : undefined;
    if (locks && !unlock) throw new MemoryStoreError(`the store "${name}" is open in another tab or worker: one writer per database`, 'locked');
    try {
      const open = factory.open(name, LAYOUT);
      let refused: number | undefined;
      open.onupgradeneeded = (event) => {
        if (event.oldVersion !== 0) {
          refused = event.oldVersion;
          open.transaction!.abort(); // leaves the database as it was
          return;
        }
        for (const s of STORES) open.result.createObjectStore(s);
      };
      const db = await request(open).catch((e: unknown) => {
        const version = refused ?? ((e as Error)?.name === 'VersionError' ? 'newer' : undefined);
        if (version === undefined) throw new MemoryStoreError(`IndexedDB would not open the database "${name}"`, 'open-failed', { cause: e });
        throw new MemoryStoreError(`the IndexedDB database "${name}" is not a parapet memory store of this version (layout ${version}, expected ${LAYOUT})`, 'layout-mismatch');
      });
      const backend = new IndexedDbBackend(db);
      backend.#unlock = unlock;
      try {
        await backend.#load();
      } catch (e) {
        db.close();
        if (e instanceof ParapetError) throw e;
        throw new MemoryStoreError(`the IndexedDB database "${name}" could not be read`, 'open-failed', { cause: e });
      }
      return backend;
    } catch (e) {
      unlock?.();
      throw e;
    }
  }

  /**
   * Load the database into the mirror. What is stored is not trusted: a record
   * of the wrong type, or keyed where the backend never writes, makes open()
   * fail with MemoryStoreError code `store-damaged` (nothing else), and keys are
   * bounded by the number of rows, so that one edited key cannot make loading
   * allocate without bound. Gaps within the bounds load as missing records,
   * which verify() reports.
   */
  async #load(): Promise<void> {
    const t = this.db.transaction([...STORES], 'readonly');
    const all = async (store: string) => {
      const os = t.objectStore(store);
      const [keys, values] = await Promise.all([request(os.getAllKeys()), request(os.getAll())]);
      return keys.map((k, i) => [k, values[i]] as const);
    };
    const [entries, values, index, nodes] = (await Promise.all(STORES.map(all))) as [Row[], Row[], Row[], Row[]];
    const damaged = (what: string) => new MemoryStoreError(`the IndexedDB database "${this.db.name}" is damaged: ${what}`, 'store-damaged');
    const memory = this.#memory;
    // A log of n entries is keyed 0 … n − 1; deleted rows leave gaps, but not beyond twice the rows.
    const seqLimit = 2 * entries.length + 64;
    for (const [seq, b] of entries) {
      if (!isIndexBelow(seq, seqLimit)) throw damaged(`an entry keyed ${describeKey(seq)}`);
      if (!(b instanceof ArrayBuffer)) throw damaged(`entry ${seq as number} is not bytes`);
      memory.hold('entry', seq as number, new Uint8Array(b));
    }
    for (const [ref, b] of values) {
      if (typeof ref !== 'string') throw damaged(`a value keyed ${describeKey(ref)}`);
      if (!(b instanceof ArrayBuffer)) throw damaged(`value ${JSON.stringify(ref)} is not bytes`);
      memory.hold('value', ref, new Uint8Array(b));
    }
    // Index records may be any value: every reader checks their shape.
    for (const [name, v] of index) {
      if (typeof name !== 'string') throw damaged(`an index record keyed ${describeKey(name)}`);
      memory.hold('index', name, v as IndexValue);
    }
    // Node (level, i) is keyed [level, i]; a tree of 2^53 leaves has 54 levels. Replayed level by level, index by index.
    const nodeLimit = 2 * nodes.length + 64;
    const sorted: [number, number, ArrayBuffer][] = [];
    for (const [key, h] of nodes) {
      if (!Array.isArray(key) || key.length !== 2 || !isIndexBelow(key[0], 64) || !isIndexBelow(key[1], nodeLimit)) throw damaged(`a tree node keyed ${describeKey(key)}`);
      if (!(h instanceof ArrayBuffer)) throw damaged(`tree node ${describeKey(key)} is not bytes`);
      sorted.push([key[0] as number, key[1] as number, h]);
    }
    sorted.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [level, i, h] of sorted) memory.holdNode(level, i, new Uint8Array(h));
  }

  transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    // Serialise: the next operation runs only after this one is committed (or undone).
    const run = this.#queue.then(async () => {
      const { result, writes } = this.#memory.run(fn);
      try {
        await this.#persist(writes);
      } catch (e) {
        this.#memory.undo(writes);
        throw new MemoryStoreError(`IndexedDB did not commit the operation: nothing was written`, 'backend', { cause: e });
      }
      this.#memory.settle(writes);
      return result;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #persist(writes: readonly Write[]): Promise<void> {
    if (writes.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = this.db.transaction([...STORES], 'readwrite');
      for (const w of writes) {
        if (w.kind === 'entry') t.objectStore('entries').put(ownBuffer(this.#memory.bytesOf(w.after)!), w.seq);
        else if (w.kind === 'value') {
          const bytes = this.#memory.bytesOf(w.after);
          if (bytes === undefined) t.objectStore('values').delete(w.ref);
          else t.objectStore('values').put(ownBuffer(bytes), w.ref);
        } else if (w.kind === 'index') {
          if (w.after === undefined) t.objectStore('index').delete(w.name);
          else t.objectStore('index').put(w.after, w.name);
        } else t.objectStore('nodes').put(this.#memory.nodes.get(w.level, w.index)!.slice().buffer, [w.level, w.index]);
      }
      t.oncomplete = () => resolve();
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error ?? new Error('IndexedDB transaction aborted'));
    });
  }

  async close(): Promise<void> {
    await this.#queue;
    this.#memory.closed = true;
    this.db.close();
    this.#unlock?.();
    this.#unlock = undefined;
  }
}

type Row = readonly [IDBValidKey, unknown];

const isIndexBelow = (k: unknown, limit: number): k is number => typeof k === 'number' && Number.isInteger(k) && k >= 0 && k < limit;
const describeKey = (k: unknown): string => (typeof k === 'string' ? JSON.stringify(k) : Array.isArray(k) ? `[${k.map(describeKey).join(', ')}]` : String(k));

const isFactory = (o: IndexedDbOptions | IDBFactory): o is IDBFactory => typeof (o as IDBFactory).open === 'function';

function defaultLocks(): LockManagerLike | null {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return locks && typeof locks.request === 'function' ? locks : null;
}

/** Take `name` exclusively if nobody holds it; resolves to its release, or undefined when it is held elsewhere. */
function exclusive(locks: LockManagerLike, name: string): Promise<(() => void) | undefined> {
  return new Promise((resolve, reject) => {
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(undefined);
          return;
        }
        // Held until the returned promise settles: until close().
        return new Promise<void>((release) => resolve(release));
      })
      .catch(reject);
  });
}
