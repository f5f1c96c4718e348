/**
 * parapet/vmg — Verifiable Memory Governance. The memory store, its default
 * in-memory backend and the backend interface. Node's SQLite backend is
 * `parapet/vmg/sqlite`; the browser's IndexedDB backend `parapet/vmg/indexeddb`.
 *
 * @module parapet/vmg
 */
export { init, initSync } from '../init.js';
export { VmgMemoryStore, type OpenOptions, type PutOptions, type GetOptions, type HistoryItem, type PurgeReport } from './store.js';
export { MemoryBackend, type StorageBackend, type BackendTx, type IndexValue } from './backend.js';
export { MemoryStoreError, VersionConflictError, ImmutableRecordError } from './errors.js';
export type { StoreVerification, EntryReport, EntryStatus, AgainstResult } from './verify-store.js';
export type { LogEntry } from './entry.js';
export {
  POLICY_TAGS, PROVENANCE_KINDS, DERIVED_KINDS, type PolicyTag, type ProvenanceKind, type Provenance, type MemoryRecord,
  type RecordProof, type ContentGuard,
} from './types.js';
export { canonicalJson, canonicalJsonBytes } from '../canonical/jcs.js';
export { registerRetentionHook } from './hooks.js';
