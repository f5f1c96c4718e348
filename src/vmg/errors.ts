import { ParapetError } from '../bindings/errors.js';

/**
 * Every code a MemoryStoreError carries, with what it means: a record over the
 * union, so a code cannot be added without being described here, and the test
 * that throws each one (test/vmg-errors.test.ts) finds a code nothing throws.
 */
export const MEMORY_STORE_ERROR_CODES = Object.freeze({
  'version-conflict': '`expectedVersion` did not match: someone else wrote first (VersionConflictError)',
  immutable: 'the key holds an immutable record: the overwrite, rollback or forget was refused and logged (ImmutableRecordError)',
  'not-found': 'no such key or version, nothing to quarantine or promote, or no store at the path a read-only backend was given',
  erased: 'the version asked for was erased (forget, retention, or an ephemeral value another store object held)',
  'needs-force': 'promoting content a guard flags, or cannot inspect, needs `force: true`',
  retention: "a session value can be restored only by its own session: a copy would outlive that session's retention",
  'no-signer': 'checkpoint() needs the `signer` option',
  'store-damaged': 'what storage holds fails the store\'s checks (edited or lost at rest): run verify()',
  'layout-mismatch': 'the database is a store of another layout version: refused rather than misread',
  locked: 'another tab or worker holds the store open (one writer per database)',
  'open-failed': 'the backend could not be opened (the runtime lacks it, or the file cannot be opened or created)',
  backend: 'the storage itself failed an operation (I/O, a lock held past the busy timeout, an aborted transaction); nothing was written',
  closed: 'the store or its backend was used after close()',
  'transaction-ended': 'a backend transaction handle was used after its transaction ended',
  'transaction-nested': 'a backend transaction was started inside another on the same backend',
} as const satisfies Record<string, string>);

export type MemoryStoreErrorCode = keyof typeof MEMORY_STORE_ERROR_CODES;

/** Typed errors of the memory store; each has a stable `code` (see MEMORY_STORE_ERROR_CODES). */
export class MemoryStoreError extends ParapetError {
  declare readonly code: MemoryStoreErrorCode;
  constructor(message: string, code: MemoryStoreErrorCode, options?: { cause?: unknown }) {
    super(message, code, options);
  }
}

/** `expectedVersion` did not match: someone else wrote first. Nothing was written. */
export class VersionConflictError extends MemoryStoreError {
  declare readonly code: 'version-conflict';
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
  declare readonly code: 'immutable';
  constructor(
    readonly key: string,
    readonly operation: 'put' | 'rollback' | 'forget',
  ) {
    super(`"${key}" is immutable: ${operation} refused`, 'immutable');
  }
}
