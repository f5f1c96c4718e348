/**
 * parapet/vmg/indexeddb — a StorageBackend on IndexedDB for browsers. The
 * whole store is mirrored in memory at open (memory stores are small); each
 * operation is staged against the mirror, written in one IndexedDB readwrite
 * transaction, and applied to the mirror only once that commits. One writer
 * per database: two tabs writing the same store are not serialised (use one
 * tab, or a Web Lock, to own it).
 */
import { MemoryBackend, type BackendTx, type StagedWrites, type StorageBackend } from './backend.js';

const STORES = ['entries', 'values', 'index', 'nodes'] as const;

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

export class IndexedDbBackend extends MemoryBackend implements StorageBackend {
  override readonly durable = true;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly db: IDBDatabase) {
    super();
  }

  /** Open (creating if needed) the database `name` and load it. */
  static async open(name: string, factory: IDBFactory = globalThis.indexedDB): Promise<IndexedDbBackend> {
    if (!factory) throw new Error('IndexedDB is not available in this runtime');
    const open = factory.open(name, 1);
    open.onupgradeneeded = () => {
      for (const s of STORES) if (!open.result.objectStoreNames.contains(s)) open.result.createObjectStore(s);
    };
    const db = await request(open);
    const backend = new IndexedDbBackend(db);
    await backend.#load();
    return backend;
  }

  async #load(): Promise<void> {
    const t = this.db.transaction([...STORES], 'readonly');
    const all = async (store: string) => {
      const os = t.objectStore(store);
      const [keys, values] = await Promise.all([request(os.getAllKeys()), request(os.getAll())]);
      return keys.map((k, i) => [k, values[i]] as const);
    };
    const [entries, values, index, nodes] = await Promise.all(STORES.map(all));
    for (const [seq, b] of entries!) this.entries[seq as number] = new Uint8Array(b as ArrayBuffer);
    for (const [ref, b] of values!) this.values.set(ref as string, new Uint8Array(b as ArrayBuffer));
    for (const [name, v] of index!) this.index.set(name as string, v as string);
    // Replay nodes level by level, index by index.
    const sorted = nodes!.map(([k, h]) => [...(k as [number, number]), h] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [level, i, h] of sorted) this.nodes.set(level, i, new Uint8Array(h as ArrayBuffer));
  }

  override transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    // Serialise: the next operation stages only after this one is applied.
    const run = this.#queue.then(async () => {
      const { result, staged } = this.stage(fn);
      await this.#persist(staged);
      this.apply(staged);
      return result;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #persist(staged: StagedWrites): Promise<void> {
    return new Promise((resolve, reject) => {
      const t = this.db.transaction([...STORES], 'readwrite');
      const copy = (b: Uint8Array) => b.slice().buffer;
      for (const [seq, b] of staged.entries) t.objectStore('entries').put(copy(b), seq);
      for (const [ref, b] of staged.values) {
        if (b === null) t.objectStore('values').delete(ref);
        else t.objectStore('values').put(copy(b), ref);
      }
      for (const [name, v] of staged.index) t.objectStore('index').put(v, name);
      for (const [level, i, h] of staged.nodes) t.objectStore('nodes').put(copy(h), [level, i]);
      t.oncomplete = () => resolve();
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error ?? new Error('IndexedDB transaction aborted'));
    });
  }

  override async close(): Promise<void> {
    await this.#queue;
    this.closed = true;
    this.db.close();
  }
}
