import { MemoryBackend, type IndexValue } from '../../src/vmg/index.js';

/**
 * A MemoryBackend whose held state a test edits directly, as an attacker with
 * write access to the backend would: outside any transaction, unjournaled.
 */
export class RawMemoryBackend extends MemoryBackend {
  entries(): (Uint8Array | undefined)[] {
    return this.heldEntries();
  }
  setEntry(seq: number, bytes: Uint8Array | undefined): void {
    this.hold('entry', seq, bytes);
  }
  names(): { values: string[]; index: string[] } {
    return this.heldNames();
  }
  value(name: string): Uint8Array | undefined {
    return this.heldValue(name);
  }
  setValue(name: string, bytes: Uint8Array | undefined): void {
    this.hold('value', name, bytes);
  }
  index(name: string): IndexValue | undefined {
    return this.heldIndex(name);
  }
  setIndex(name: string, value: IndexValue | undefined): void {
    this.hold('index', name, value);
  }
  leafCount(): number {
    return this.nodes.leafCount();
  }
  node(level: number, i: number): Uint8Array | undefined {
    return this.nodes.get(level, i);
  }
  setNode(level: number, i: number, hash: Uint8Array): void {
    this.holdNode(level, i, hash);
  }
}
