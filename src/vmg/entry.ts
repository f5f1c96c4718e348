import { canonicalJson } from '../canonical/jcs.js';
import { POLICY_TAGS, PROVENANCE_KINDS, type PolicyTag, type Provenance, type ProvenanceKind } from './types.js';

/** Provenance under the log's wire names (the Provenance a record carries, field for field). */
export interface WireProvenance {
  readonly agent_id: string;
  readonly session_id: string;
  readonly timestamp: number;
  readonly kind: ProvenanceKind;
  readonly actor?: string;
  readonly reason?: string;
  readonly rolled_back_from?: number;
  readonly rolled_back_to?: number;
}

/** A record's provenance from its entry's: the same facts under TypeScript names; absent fields stay absent. */
export function provenanceOf(p: WireProvenance): Provenance {
  const out: { -readonly [K in keyof Provenance]: Provenance[K] } = { agentId: p.agent_id, sessionId: p.session_id, timestamp: p.timestamp, kind: p.kind };
  if (p.actor !== undefined) out.actor = p.actor;
  if (p.reason !== undefined) out.reason = p.reason;
  if (p.rolled_back_from !== undefined) out.rolledBackFrom = p.rolled_back_from;
  if (p.rolled_back_to !== undefined) out.rolledBackTo = p.rolled_back_to;
  return out;
}

/**
 * One log entry, the wire format: its RFC 8785 canonical bytes are the Merkle
 * leaf, and `prev` (the previous entry's leaf hash) chains it to the entry
 * before. Its field names are the log's (snake_case) and never change with
 * the TypeScript API: leaves already vouched for by checkpoints must stay the
 * same bytes. It commits to the metadata and the value's hash, never to the
 * value: values live beside the log, so erasing one leaves the log verifiable.
 */
/** What an entry records: a write, an erasure, a status change, a session's end, or a refused operation. */
export type LogOp = 'put' | 'rollback' | 'forget' | 'purge' | 'session-end' | 'quarantine' | 'promote' | 'refused';

export interface LogEntry {
  readonly v: 1;
  readonly seq: number;
  readonly prev: string | null;
  readonly op: LogOp;
  /** Empty for `session-end`, which concerns no key. */
  readonly ns: string;
  readonly key: string;
  /** The version written (put, rollback) or acted on (the others; 0 for `session-end`). */
  readonly version: number;
  readonly policy_tag?: PolicyTag;
  readonly provenance: WireProvenance;
  readonly write_hash?: string;
  readonly parent_hash?: string | null;
  readonly quarantined?: boolean;
  /** Operation-specific facts: erased versions, the refused operation, the approver, reasons. */
  readonly detail?: Readonly<Record<string, unknown>>;
}

/**
 * canonicalJson(entry), written field by field in canonical (sorted) key
 * order instead of by the generic writer: entries are written on every put,
 * and their shape is known. Fields that are undefined are absent, as in the
 * generic writer; `detail` and free-form provenance fields go through it.
 * test/vmg-entry.test.ts holds the two equal.
 */
export function entryJson(e: LogEntry): string {
  let out = '{';
  if (e.detail !== undefined) out += `"detail":${canonicalJson(e.detail)},`;
  out += `"key":${jsonString(e.key)},"ns":${jsonString(e.ns)},"op":${oneOf(e.op, OPS)}`;
  if (e.parent_hash !== undefined) out += `,"parent_hash":${e.parent_hash === null ? 'null' : hashString(e.parent_hash)}`;
  if (e.policy_tag !== undefined) out += `,"policy_tag":${oneOf(e.policy_tag, POLICY_TAGS)}`;
  out += `,"prev":${e.prev === null ? 'null' : hashString(e.prev)},"provenance":${provenanceJson(e.provenance)}`;
  if (e.quarantined !== undefined) out += `,"quarantined":${jsonBoolean(e.quarantined)}`;
  out += `,"seq":${jsonNumber(e.seq)},"v":${jsonNumber(e.v)},"version":${jsonNumber(e.version)}`;
  if (e.write_hash !== undefined) out += `,"write_hash":${hashString(e.write_hash)}`;
  return `${out}}`;
}

function provenanceJson(p: WireProvenance): string {
  // The common shape (four fields) is written directly; anything else by the generic writer.
  if (p.actor !== undefined || p.reason !== undefined || p.rolled_back_from !== undefined || p.rolled_back_to !== undefined) return canonicalJson(p);
  return `{"agent_id":${jsonString(p.agent_id)},"kind":${oneOf(p.kind, PROVENANCE_KINDS)},"session_id":${jsonString(p.session_id)},"timestamp":${jsonNumber(p.timestamp)}}`;
}

// Type checks stay: an entry that is not what its type says must fail the
// way canonicalJson would, not be written differently.
const jsonString = canonicalJson;
const jsonNumber = (n: unknown): string => (typeof n === 'number' && Number.isFinite(n) ? String(n) : canonicalJson(n));
const jsonBoolean = (b: unknown): string => (b === true ? 'true' : b === false ? 'false' : canonicalJson(b));
// Strings that need no escaping are written as they are, without the
// generic writer's scan: one of a fixed set of names, or 64 lowercase hex
// digits (three per entry). Anything else goes through the generic writer.
const oneOf = (s: unknown, names: readonly string[]): string => (names.includes(s as string) ? `"${s as string}"` : canonicalJson(s));
const hashString = (s: unknown): string => (isHex64(s) ? `"${s}"` : canonicalJson(s));

function isHex64(s: unknown): s is string {
  if (typeof s !== 'string' || s.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parse stored entry bytes; undefined when they are not an entry of the
 * shape the store writes (never throws). Every field a reader or verify()
 * touches is checked here, so that tampered bytes that are still JSON (a
 * provenance of null, an `erased` list that is a number) read as
 * "entry-unreadable" instead of breaking the code that walks the log.
 */
export function decodeEntry(bytes: Uint8Array | undefined): LogEntry | undefined {
  if (!bytes) return undefined;
  let e: unknown;
  try {
    e = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  return isLogEntry(e) ? e : undefined;
}

const OPS: readonly LogOp[] = ['put', 'rollback', 'forget', 'purge', 'session-end', 'quarantine', 'promote', 'refused'];
/** Shape checks for what storage hands back (not trusted): here, in the index readers and in verify(). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);

function isProvenance(p: unknown): p is WireProvenance {
  return (
    isObject(p) && typeof p.agent_id === 'string' && typeof p.session_id === 'string' && typeof p.timestamp === 'number' &&
    Number.isFinite(p.timestamp) && PROVENANCE_KINDS.includes(p.kind as ProvenanceKind) &&
    optional(p.actor, (v) => typeof v === 'string') && optional(p.reason, (v) => typeof v === 'string') &&
    optional(p.rolled_back_from, isCount) && optional(p.rolled_back_to, isCount)
  );
}

function isLogEntry(e: unknown): e is LogEntry {
  if (!isObject(e) || e.v !== 1 || !isCount(e.seq) || !(e.prev === null || isHex64(e.prev)) || !OPS.includes(e.op as LogOp)) return false;
  if (typeof e.ns !== 'string' || typeof e.key !== 'string' || !isCount(e.version) || !isProvenance(e.provenance)) return false;
  if (!optional(e.policy_tag, (v) => POLICY_TAGS.includes(v as PolicyTag)) || !optional(e.write_hash, isHex64)) return false;
  if (!optional(e.parent_hash, (v) => v === null || isHex64(v)) || !optional(e.quarantined, (v) => typeof v === 'boolean')) return false;
  if (!optional(e.detail, isObject)) return false;
  // A version is written with its policy and its value's hash; a session end names its session.
  if ((e.op === 'put' || e.op === 'rollback') && (e.policy_tag === undefined || e.write_hash === undefined)) return false;
  if (e.op === 'session-end' && typeof (e.detail as Record<string, unknown> | undefined)?.session_id !== 'string') return false;
  // The one detail field the log walk reads: the versions a forget erased.
  const erased = (e.detail as Record<string, unknown> | undefined)?.erased;
  return erased === undefined || (Array.isArray(erased) && erased.every(isCount));
}


/**
 * The index, derived from the log (verify() rebuilds and compares it): per
 * key a small head, and per version a record of where its entry is and its
 * current status. One record per version keeps a write O(1) however long a
 * key's history grows.
 */
export interface KeyHead {
  latest: number;
  forgotten: boolean;
  /**
   * The latest version's write_hash and policy: what a put needs of the
   * version before it (its parent_hash, and whether it is immutable), so that
   * a put reads one record, not two — that second lookup was a tenth of a put
   * on the memory backend at a million names.
   */
  hash: string;
  policy: PolicyTag;
}

/**
 * What reads need to find a version and decide whether to serve it; the rest
 * (its hashes, provenance, session) is in its log entry. No write_hash here:
 * the head carries the latest one, and a hash string kept per version was most
 * of what a million versions held in memory beside their bytes.
 */
export interface VersionIndex {
  v: number;
  /** The entry that wrote it. */
  seq: number;
  policy: PolicyTag;
  quarantined: boolean;
  erased: boolean;
}

/*
 * Names share a prefix per key, and a version's value and its index record
 * share one name (ns and key cannot contain NUL): a backend that sorts by name
 * keeps a key's head, its versions and their values side by side, and may
 * store a value and its record in one row (SQLite does: a put touches fewer
 * pages).
 */
export const keyIndexName = (ns: string, key: string) => `k\u0000${ns}\u0000${key}`;
export const versionIndexName = (ns: string, key: string, v: number) => `k\u0000${ns}\u0000${key}\u0000${v}`;
/** Where a version's value lives beside the log: the name of its index record. */
export const valueRef = versionIndexName;
export const sessionIndexName = (session: string) => `s\u0000${session}`;
export const HEAD_INDEX = 'm\u0000head';
