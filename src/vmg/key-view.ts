import type { BackendTx } from './backend.js';
import { keyIndexName, versionIndexName, type KeyHead, type VersionIndex } from './entry.js';

/** One key's index inside a transaction: its head and, on demand, its version records. */
export class KeyView {
  readonly #cache = new Map<number, VersionIndex | undefined>();
  readonly head: KeyHead | undefined;

  constructor(
    private readonly tx: BackendTx,
    readonly ns: string,
    readonly key: string,
  ) {
    const raw = tx.getIndex(keyIndexName(ns, key));
    this.head = raw === undefined ? undefined : (JSON.parse(raw) as KeyHead);
  }

  get latest(): number {
    return this.head?.latest ?? 0;
  }

  version(v: number): VersionIndex | undefined {
    if (!this.#cache.has(v)) {
      const raw = this.tx.getIndex(versionIndexName(this.ns, this.key, v));
      this.#cache.set(v, raw === undefined ? undefined : (JSON.parse(raw) as VersionIndex));
    }
    return this.#cache.get(v);
  }

  /** All version records, oldest first. */
  versions(): VersionIndex[] {
    const out: VersionIndex[] = [];
    for (let v = 1; v <= this.latest; v++) {
      const rec = this.version(v);
      if (rec) out.push(rec);
    }
    return out;
  }

  /** The newest version matching `accept`, searching back from the latest. */
  newest(accept: (rec: VersionIndex) => boolean): VersionIndex | undefined {
    for (let v = this.latest; v >= 1; v--) {
      const rec = this.version(v);
      if (rec && accept(rec)) return rec;
    }
    return undefined;
  }

  saveVersion(rec: VersionIndex): void {
    this.#cache.set(rec.v, rec);
    this.tx.setIndex(versionIndexName(this.ns, this.key, rec.v), JSON.stringify(rec));
  }

  saveHead(head: KeyHead): void {
    this.tx.setIndex(keyIndexName(this.ns, this.key), JSON.stringify(head));
  }
}
