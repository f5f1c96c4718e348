/** Typed errors of the memory store; each has a stable `code`. */
export class MemoryStoreError extends Error {
  constructor(
    message: string,
    readonly code: 'version-conflict' | 'immutable' | 'not-found' | 'erased' | 'needs-force' | 'retention' | 'backend' | 'closed',
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** `expectedVersion` did not match: someone else wrote first. Nothing was written. */
export class VersionConflictError extends MemoryStoreError {
  constructor(
    readonly key: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`version conflict on "${key}": expected ${expected}, found ${actual}`, 'version-conflict');
  }
}

/** The key holds an immutable record: it cannot be overwritten, rolled back or forgotten. The attempt is logged. */
export class ImmutableRecordError extends MemoryStoreError {
  constructor(
    readonly key: string,
    readonly operation: string,
  ) {
    super(`"${key}" is immutable: ${operation} refused`, 'immutable');
  }
}
