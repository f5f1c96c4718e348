import { heldMemory, MemoryBackend, type IndexValue } from '../../src/vmg/backend.js';

/**
 * A MemoryBackend whose held state a test edits directly, as an attacker with
 * write access to the backend (the process's memory) would: outside any
 * transaction, unjournaled. The one raw backend of the suite.
 */
export class RawMemoryBackend extends MemoryBackend {
  readonly #memory = heldMemory(this);

  /** Every entry held, by seq (undefined: missing). */
  entries(): (Uint8Array | undefined)[] {
    return this.#memory.heldEntries();
  }
  setEntry(seq: number, bytes: Uint8Array | undefined): void {
    this.#memory.hold('entry', seq, bytes);
  }
  /** Replace the whole log by `list` (seq 0 … list.length − 1). */
  setEntries(list: readonly Uint8Array[]): void {
    for (let seq = this.entries().length - 1; seq >= 0; seq--) this.setEntry(seq, undefined);
    list.forEach((bytes, seq) => this.setEntry(seq, bytes));
  }
  names(): { values: string[]; index: string[] } {
    return this.#memory.heldNames();
  }
  value(name: string): Uint8Array | undefined {
    return this.#memory.heldValue(name);
  }
  setValue(name: string, bytes: Uint8Array | undefined): void {
    this.#memory.hold('value', name, bytes);
  }
  index(name: string): IndexValue | undefined {
    return this.#memory.heldIndex(name);
  }
  setIndex(name: string, value: IndexValue | undefined): void {
    this.#memory.hold('index', name, value);
  }
  /** Bytes held for entries and values. */
  bytesHeld(): number {
    return this.#memory.heldBytes();
  }
  leafCount(): number {
    return this.#memory.nodes.leafCount();
  }
  node(level: number, i: number): Uint8Array | undefined {
    return this.#memory.nodes.get(level, i);
  }
  setNode(level: number, i: number, hash: Uint8Array): void {
    this.#memory.holdNode(level, i, hash);
  }
  /** A deep copy of everything held but the tree (entries, values, index records). */
  snapshot() {
    const { values, index } = this.names();
    return structuredClone({
      entries: this.entries(),
      values: Object.fromEntries(values.map((n) => [n, this.value(n)])),
      index: Object.fromEntries(index.map((n) => [n, this.index(n)])),
    });
  }
}
