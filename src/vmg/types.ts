/** Retention policies (see README "Memory governance"). */
export type PolicyTag = 'ephemeral' | 'session' | 'persistent' | 'immutable';
export const POLICY_TAGS: readonly PolicyTag[] = ['ephemeral', 'session', 'persistent', 'immutable'];

/** Where a value came from. Derived kinds land quarantined. */
export type ProvenanceKind = 'user' | 'tool' | 'extraction' | 'reflection' | 'induction' | 'imported';
export const PROVENANCE_KINDS: readonly ProvenanceKind[] = ['user', 'tool', 'extraction', 'reflection', 'induction', 'imported'];
export const DERIVED_KINDS: readonly ProvenanceKind[] = ['extraction', 'reflection', 'induction'];

/**
 * Who wrote a version, when, and from what kind of source, as the store
 * returns it. The log entry carries the same facts under its wire names
 * (`agent_id`, `session_id`, `rolled_back_from`, …; see LogEntry).
 */
export interface Provenance {
  readonly agentId: string;
  readonly sessionId: string;
  /** Milliseconds since the epoch, from the store's clock. */
  readonly timestamp: number;
  readonly kind: ProvenanceKind;
  /** For rollback, quarantine and promote: who acted, and why. */
  readonly actor?: string;
  readonly reason?: string;
  /** For rollback: the latest version when it ran, and the version it restored. */
  readonly rolledBackFrom?: number;
  readonly rolledBackTo?: number;
}

/** One version of one key, as stored and as returned. */
export interface MemoryRecord {
  readonly namespace: string;
  readonly key: string;
  readonly value: unknown;
  readonly version: number;
  readonly policyTag: PolicyTag;
  readonly provenance: Provenance;
  /** SHA-256 of the RFC 8785 canonical value, hex. */
  readonly writeHash: string;
  /** writeHash of the previous version, or null for the first. */
  readonly parentHash: string | null;
  readonly quarantined: boolean;
  /** Index of the log entry that wrote this version. */
  readonly seq: number;
}

/** An inclusion proof of a record's log entry against the tree head it was read at. */
export interface RecordProof {
  readonly seq: number;
  readonly size: number;
  readonly leafHash: Uint8Array;
  readonly root: Uint8Array;
  readonly proof: Uint8Array[];
}

/**
 * Anything with the detector's `inspect`: used to quarantine injected content (vmg
 * does not import ipi). A reason is a string or an object with a stable `code`;
 * the log keeps the code.
 */
export interface ContentGuard {
  inspect(text: string): { score: number; level: string; reasons?: readonly (string | { readonly code: string })[] };
}
