/**
 * parapet/vmg — Verifiable Memory Governance. The memory store, its default
 * in-memory backend and the backend interface. Node's SQLite backend is
 * `parapet/vmg/sqlite`; the browser's IndexedDB backend `parapet/vmg/indexeddb`.
 *
 * @module parapet/vmg
 */
export { init, initSync } from '../init.js';
export { VmgMemoryStore, type OpenOptions, type PutOptions, type GetOptions, type HistoryItem, type PurgeReport } from './store.js';
export { MemoryBackend } from './backend.js';
/** The extension API for storage backends (decision 45). */
export type { StorageBackend, BackendTx, IndexValue } from './backend.js';
export { MemoryStoreError, VersionConflictError, ImmutableRecordError, MEMORY_STORE_ERROR_CODES, type MemoryStoreErrorCode } from './errors.js';
export type {
  StoreVerification, StoreReport, StoreVerifyCode, StoreProblem, EntryReport, EntryReason, EntryStatus, AgainstResult,
} from './verify-store.js';
/** The log's wire format: entries as their canonical JSON holds them. */
export type { LogEntry, LogOp, WireProvenance } from './entry.js';
export {
  POLICY_TAGS, PROVENANCE_KINDS, DERIVED_KINDS, type PolicyTag, type ProvenanceKind, type Provenance, type MemoryRecord,
  type RecordProof, type ContentGuard,
} from './types.js';
export { canonicalJson, canonicalJsonBytes } from '../canonical/jcs.js';
export { registerRetentionHook } from './hooks.js';
