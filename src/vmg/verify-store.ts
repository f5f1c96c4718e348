import { bytesEqual, sha256Batch, toHex } from '../bindings/index.js';
import { openCheckpoint } from '../tlog/checkpoint.js';
import { hashLeafBatch } from '../tlog/hasher.js';
import { parseVerifierKey } from '../tlog/note.js';
import { MemoryNodeStore } from '../tlog/storage.js';
import { MerkleTree } from '../tlog/tree.js';
import { verifyConsistency } from '../tlog/verify.js';
import type { BackendTx } from './backend.js';
import { decodeEntry, HEAD_INDEX, keyIndexName, valueRef, versionIndexName, type KeyHead, type LogEntry, type VersionIndex } from './entry.js';

export type EntryStatus = 'ok' | 'erased' | 'tampered';

/**
 * Reasons a verifier gives, per entry or for the whole log:
 * entry-missing (deleted), entry-unreadable (bytes are not an entry),
 * entry-moved (its seq is not its position: inserted, deleted before it, or
 * reordered), chain-broken (prev is not the previous entry's leaf hash),
 * node-mismatch (the stored tree disagrees with the entry bytes),
 * value-changed, value-missing (deleted without a forget or purge),
 * log-level: truncated, root-mismatch (any stored interior node differs from
 * the tree rebuilt from the entries), tree-size-mismatch, and
 * index-mismatch:<ns>/<key> (the derived index disagrees with the log).
 */
export interface EntryReport {
  readonly seq: number;
  readonly status: EntryStatus;
  readonly op?: string;
  readonly key?: string;
  readonly version?: number;
  readonly reasons: readonly string[];
}

export interface StoreVerification {
  readonly ok: boolean;
  readonly size: number;
  /** Root recomputed from the entries themselves. */
  readonly root: string;
  readonly entries: readonly EntryReport[];
  readonly problems: readonly string[];
  readonly counts: Readonly<Record<EntryStatus, number>>;
}

const BATCH = 4096;

/** Entries [start, end) as stored; a missing one reads as empty bytes (it still occupies its leaf). */
function readEntries(tx: BackendTx, start: number, end: number): Uint8Array[] {
  const raw: Uint8Array[] = [];
  for (let seq = start; seq < end; seq++) raw.push(tx.getEntry(seq) ?? new Uint8Array(0));
  return raw;
}

/**
 * Walk everything. Leaf and value hashes are computed in batches on the core;
 * the tree is rebuilt from the entries themselves, so a rewritten node store
 * cannot vouch for rewritten entries.
 */
export function verifyStore(tx: BackendTx, ephemeral: ReadonlyMap<string, Uint8Array>): StoreVerification {
  const n = tx.entryCount();
  const reports: { seq: number; status: EntryStatus; reasons: string[]; op?: string; key?: string; version?: number }[] = [];
  const problems: string[] = [];
  const freshNodes = new MemoryNodeStore();
  const fresh = new MerkleTree(freshNodes);
  const entries: (LogEntry | undefined)[] = new Array(n);
  let prevLeaf: string | null = null;

  for (let start = 0; start < n; start += BATCH) {
    const end = Math.min(n, start + BATCH);
    const raw = readEntries(tx, start, end);
    const leaves = hashLeafBatch(raw);
    fresh.appendLeafHashes(leaves);
    for (let seq = start; seq < end; seq++) {
      const bytes = raw[seq - start]!;
      const leaf = leaves[seq - start]!;
      const reasons: string[] = [];
      const entry = bytes.length > 0 ? decodeEntry(bytes) : undefined;
      if (bytes.length === 0) reasons.push('entry-missing');
      else if (!entry) reasons.push('entry-unreadable');
      else {
        if (entry.seq !== seq) reasons.push('entry-moved');
        if (entry.prev !== prevLeaf) reasons.push('chain-broken');
      }
      const stored = tx.nodes.get(0, seq);
      if (!stored || !bytesEqual(stored, leaf)) reasons.push('node-mismatch');
      entries[seq] = entry;
      prevLeaf = toHex(leaf);
      reports.push({ seq, status: reasons.length ? 'tampered' : 'ok', reasons, op: entry?.op, key: entry?.key, version: entry?.version });
    }
  }

  checkValues(tx, entries, reports, ephemeral);
  problems.push(...checkIndexes(tx, entries));

  const root = toHex(fresh.root());
  if (tx.nodes.leafCount() !== n) problems.push('tree-size-mismatch');
  else if (!sameInteriorNodes(tx, freshNodes, n)) problems.push('root-mismatch');
  const head = Number(tx.getIndex(HEAD_INDEX) ?? 0);
  if (head > n) problems.push('truncated');
  const counts = { ok: 0, erased: 0, tampered: 0 };
  for (const r of reports) counts[r.status]++;
  return { ok: counts.tampered === 0 && problems.length === 0, size: n, root, entries: reports, problems: [...new Set(problems)], counts };
}

/**
 * Every stored interior node equals the one rebuilt from the entries (leaves
 * are checked per entry). Comparing them all, not only the root's, catches a
 * node that no root covers but an inclusion proof would hand out.
 */
function sameInteriorNodes(tx: BackendTx, fresh: MemoryNodeStore, n: number): boolean {
  for (let level = 1; n >> level > 0; level++) {
    for (let i = 0; i < n >> level; i++) {
      const stored = tx.nodes.get(level, i);
      if (!(stored instanceof Uint8Array) || !bytesEqual(stored, fresh.get(level, i)!)) return false;
    }
  }
  return true;
}

/** Values of put/rollback entries: present and matching, or erased by a later forget/purge. */
function checkValues(
  tx: BackendTx,
  entries: readonly (LogEntry | undefined)[],
  reports: { status: EntryStatus; reasons: string[] }[],
  ephemeral: ReadonlyMap<string, Uint8Array>,
): void {
  const erasedBy = new Set<string>();
  for (const e of entries) {
    if (!e) continue;
    if (e.op === 'forget') for (const v of (e.detail?.erased as number[] | undefined) ?? []) erasedBy.add(valueRef(e.ns, e.key, v));
    if (e.op === 'purge') erasedBy.add(valueRef(e.ns, e.key, e.version));
  }
  const pending: { seq: number; bytes: Uint8Array; hash: string }[] = [];
  entries.forEach((e, seq) => {
    if (!e || (e.op !== 'put' && e.op !== 'rollback')) return;
    const ref = valueRef(e.ns, e.key, e.version);
    const bytes = e.policy_tag === 'ephemeral' ? ephemeral.get(ref) : tx.getValue(ref);
    if (bytes) pending.push({ seq, bytes, hash: e.write_hash ?? '' });
    else if (erasedBy.has(ref) || e.policy_tag === 'ephemeral') {
      // Ephemeral values never reach a durable backend: after a restart they are gone by design.
      if (reports[seq]!.status === 'ok') reports[seq]!.status = 'erased';
    } else flag(reports[seq]!, 'value-missing');
  });
  for (let i = 0; i < pending.length; i += BATCH) {
    const slice = pending.slice(i, i + BATCH);
    sha256Batch(slice.map((p) => p.bytes)).forEach((h, j) => {
      if (toHex(h) !== slice[j]!.hash) flag(reports[slice[j]!.seq]!, 'value-changed');
    });
  }
}

/**
 * Rebuild the index (key heads and version records) from the log and compare
 * it with the stored one; a mismatch is a log-level problem
 * `index-mismatch:<ns>/<key>`.
 */
function checkIndexes(tx: BackendTx, entries: readonly (LogEntry | undefined)[]): string[] {
  const rebuilt = new Map<string, { ns: string; key: string; head: KeyHead; versions: Map<number, VersionIndex> }>();
  entries.forEach((e, seq) => {
    if (!e || e.op === 'refused') return;
    const name = keyIndexName(e.ns, e.key);
    let item = rebuilt.get(name);
    if (!item) rebuilt.set(name, (item = { ns: e.ns, key: e.key, head: { latest: 0, forgotten: false }, versions: new Map() }));
    const { head, versions } = item;
    if (e.op === 'put' || e.op === 'rollback') {
      versions.set(e.version, { v: e.version, seq, hash: e.write_hash ?? '', policy: e.policy_tag!, session: e.provenance.session_id, quarantined: e.quarantined === true, erased: false });
      head.latest = e.version;
      head.forgotten = false;
    } else if (e.op === 'forget') {
      head.forgotten = true;
      for (const v of versions.values()) v.erased = true;
    } else if (e.op === 'purge') {
      const v = versions.get(e.version);
      if (v) v.erased = true;
    } else if (e.op === 'quarantine' || e.op === 'promote') {
      const v = versions.get(e.version);
      if (v) v.quarantined = e.op === 'quarantine';
    }
  });
  const problems: string[] = [];
  for (const [name, { ns, key, head, versions }] of rebuilt) {
    let ok = sameRecord(tx.getIndex(name), head);
    for (const v of versions.values()) ok = sameRecord(tx.getIndex(versionIndexName(ns, key, v.v)), v) && ok;
    if (!ok) problems.push(`index-mismatch:${ns}/${key}`);
  }
  return problems;
}

/** A stored index record equals the rebuilt one: the same fields with the same scalar values, in any order. */
function sameRecord(stored: unknown, want: KeyHead | VersionIndex): boolean {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return false;
  const keys = Object.keys(want);
  if (Object.keys(stored).length !== keys.length) return false;
  for (const k of keys) if ((stored as Record<string, unknown>)[k] !== (want as unknown as Record<string, unknown>)[k]) return false;
  return true;
}

function flag(report: { status: EntryStatus; reasons: string[] }, reason: string): void {
  report.status = 'tampered';
  if (!report.reasons.includes(reason)) report.reasons.push(reason);
}

export type AgainstResult =
  | { readonly valid: true; readonly checkpointSize: number; readonly size: number }
  | { readonly valid: false; readonly reason: 'checkpoint-invalid' | 'truncated' | 'rewritten'; readonly message: string };

/**
 * The live log extends `checkpointNote`: the checkpoint opens with the
 * verifier key for this store's origin, the log (rehashed from its entries)
 * is at least that long, and a consistency proof from the checkpoint to the
 * live head verifies against the checkpoint's root.
 */
export function verifyStoreAgainst(tx: BackendTx, checkpointNote: string, verifierKey: string, origin: string): AgainstResult {
  let verifier;
  try {
    verifier = parseVerifierKey(verifierKey);
  } catch (e) {
    return { valid: false, reason: 'checkpoint-invalid', message: (e as Error).message };
  }
  const opened = openCheckpoint(checkpointNote, [verifier], { origin });
  if (!opened.valid) return { valid: false, reason: 'checkpoint-invalid', message: `${opened.reason}: ${opened.message}` };
  const cp = opened.checkpoint;
  const n = tx.entryCount();
  const fresh = new MerkleTree();
  for (let start = 0; start < n; start += BATCH) fresh.appendMany(readEntries(tx, start, Math.min(n, start + BATCH)));
  if (fresh.size < cp.size) return { valid: false, reason: 'truncated', message: `the log holds ${fresh.size} entries; the checkpoint vouches for ${cp.size}` };
  if (cp.size === 0) return { valid: true, checkpointSize: 0, size: fresh.size };
  const proof = fresh.consistencyProof(cp.size);
  const check = verifyConsistency(cp.size, fresh.size, proof, cp.root, fresh.root());
  if (!check.valid) return { valid: false, reason: 'rewritten', message: `the log no longer extends the checkpoint at size ${cp.size} (${check.reason})` };
  return { valid: true, checkpointSize: cp.size, size: fresh.size };
}
