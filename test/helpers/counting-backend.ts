import type { BackendTx, StorageBackend } from '../../src/vmg/index.js';

/** Counts units of work; past its budget, the next one throws (so that a runaway loop fails the test instead of hanging it). */
export class WorkMeter {
  count = 0;
  budget = Number.POSITIVE_INFINITY;

  tick(): void {
    if (++this.count > this.budget) throw new Error(`work budget of ${this.budget} exceeded`);
  }

  /** Count what `fn` does, from zero, within `budget`. */
  async measure<T>(fn: () => Promise<T>, budget = Number.POSITIVE_INFINITY): Promise<{ result: T; count: number }> {
    this.count = 0;
    this.budget = budget;
    try {
      const result = await fn();
      return { result, count: this.count };
    } finally {
      this.budget = Number.POSITIVE_INFINITY;
    }
  }
}

/** A backend that ticks `meter` on every read and write its transactions make of `inner`. */
export class CountingBackend<B extends StorageBackend> implements StorageBackend {
  constructor(
    readonly inner: B,
    readonly meter: WorkMeter,
  ) {}

  transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    return this.inner.transaction((tx) => fn(this.#counted(tx)));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  #counted(tx: BackendTx): BackendTx {
    const m = this.meter;
    return {
      entryCount: () => (m.tick(), tx.entryCount()),
      getEntry: (seq) => (m.tick(), tx.getEntry(seq)),
      putEntry: (seq, bytes) => (m.tick(), tx.putEntry(seq, bytes)),
      getValue: (ref) => (m.tick(), tx.getValue(ref)),
      putValue: (ref, bytes) => (m.tick(), tx.putValue(ref, bytes)),
      deleteValue: (ref) => (m.tick(), tx.deleteValue(ref)),
      getIndex: (name) => (m.tick(), tx.getIndex(name)),
      setIndex: (name, value) => (m.tick(), tx.setIndex(name, value)),
      deleteIndex: (name) => (m.tick(), tx.deleteIndex(name)),
      nodes: {
        leafCount: () => (m.tick(), tx.nodes.leafCount()),
        get: (level, i) => (m.tick(), tx.nodes.get(level, i)),
        set: (level, i, hash) => (m.tick(), tx.nodes.set(level, i, hash)),
      },
      ...(tx.prefetch ? { prefetch: (what: Parameters<NonNullable<BackendTx['prefetch']>>[0]) => (m.tick(), tx.prefetch!(what)) } : {}),
      ...(tx.storedEntries ? { storedEntries: () => (m.tick(), tx.storedEntries!()) } : {}),
    };
  }
}
