import type { BackendTx, IndexValue } from './backend.js';
import { isCount, isObject, keyIndexName, versionIndexName, type KeyHead, type VersionIndex } from './entry.js';
import { MemoryStoreError } from './errors.js';
import { POLICY_TAGS } from './types.js';

/** One key's index inside a transaction: its head and, on demand, its version records. */
export class KeyView {
  /** Made on first use: most operations read one or two records (a Map per put showed in profiles). */
  #cache: Map<number, VersionIndex> | undefined;
  readonly head: KeyHead | undefined;
  /** Built once: a backend hashes a name on every lookup, and a new string has to be hashed anew. */
  readonly #headName: string;

  constructor(
    private readonly tx: BackendTx,
    readonly ns: string,
    readonly key: string,
  ) {
    this.#headName = keyIndexName(ns, key);
    this.head = asKeyHead(tx.getIndex(this.#headName), key);
    // Each version is one log entry: a head claiming more is damaged, and
    // walking its versions (get, history, forget) would not end.
    if (this.head && this.head.latest > tx.entryCount()) {
      throw new MemoryStoreError(`the index head of "${key}" claims ${this.head.latest} versions in a log of ${tx.entryCount()} entries: run verify()`, 'store-damaged');
    }
  }

  /** The name of version `v`'s index record, which is also its value's reference. */
  nameOf(v: number): string {
    return versionIndexName(this.ns, this.key, v);
  }

  get latest(): number {
    return this.head?.latest ?? 0;
  }

  /**
   * Version `v`'s record, or undefined when the key has no such version. Every
   * version 1 … latest has one (records are never deleted, only marked erased),
   * so a missing one is damage, and stops the operation with a typed error:
   * walking on past missing records would let one edited head (a latest of
   * 10^12 in a log inflated to match) stall a read.
   */
  version(v: number): VersionIndex | undefined {
    if (v < 1 || v > this.latest) return undefined; // versions start at 1: a key's first put asks for its "latest", 0
    const cache = (this.#cache ??= new Map());
    let rec = cache.get(v);
    if (!rec) {
      rec = asVersionIndex(this.tx.getIndex(this.nameOf(v)), this.key, v);
      if (!rec) throw new MemoryStoreError(`the index record of "${this.key}" v${v} is missing: run verify()`, 'store-damaged');
      cache.set(v, rec);
    }
    return rec;
  }

  /** All version records, oldest first. */
  versions(): VersionIndex[] {
    const out: VersionIndex[] = [];
    for (let v = 1; v <= this.latest; v++) out.push(this.version(v)!);
    return out;
  }

  /** The newest version matching `accept`, searching back from the latest. */
  newest(accept: (rec: VersionIndex) => boolean): VersionIndex | undefined {
    for (let v = this.latest; v >= 1; v--) {
      const rec = this.version(v)!;
      if (accept(rec)) return rec;
    }
    return undefined;
  }

  /** Records are never changed once saved: a change saves a new object. `name` saves building it again. */
  saveVersion(rec: VersionIndex, name = this.nameOf(rec.v)): void {
    this.#cache?.set(rec.v, rec);
    this.tx.setIndex(name, rec as unknown as IndexValue);
  }

  saveHead(head: KeyHead): void {
    this.tx.setIndex(this.#headName, head as unknown as IndexValue);
  }
}

// Index records come from storage, which is not trusted: a record of the
// wrong shape stops the operation with a typed error (verify() says more).

function asKeyHead(value: IndexValue | undefined, key: string): KeyHead | undefined {
  if (value === undefined) return undefined;
  if (
    isObject(value) && isCount(value.latest) && typeof value.forgotten === 'boolean' && typeof value.hash === 'string' &&
    POLICY_TAGS.includes(value.policy as never)
  ) {
    return value as unknown as KeyHead;
  }
  throw new MemoryStoreError(`the index head of "${key}" is unreadable: run verify()`, 'store-damaged');
}

function asVersionIndex(value: IndexValue | undefined, key: string, v: number): VersionIndex | undefined {
  if (value === undefined) return undefined;
  if (
    isObject(value) && value.v === v && isCount(value.seq) && POLICY_TAGS.includes(value.policy as never) &&
    typeof value.quarantined === 'boolean' && typeof value.erased === 'boolean'
  ) {
    return value as unknown as VersionIndex;
  }
  throw new MemoryStoreError(`the index record of "${key}" v${v} is unreadable: run verify()`, 'store-damaged');
}
