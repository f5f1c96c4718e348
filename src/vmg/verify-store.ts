import { bytesEqual, sha256Batch, toHex } from '../bindings/index.js';
import { hexEquals } from '../bindings/encoding.js';
import { openCheckpoint } from '../tlog/checkpoint.js';
import { hashLeafBatch } from '../tlog/hasher.js';
import { parseVerifierKey } from '../tlog/note.js';
import { MemoryNodeStore } from '../tlog/storage.js';
import { MerkleTree } from '../tlog/tree.js';
import { verifyConsistency } from '../tlog/verify.js';
import type { BackendTx } from './backend.js';
import type { VerifyResult } from '../bindings/result.js';
import { decodeEntry, HEAD_INDEX, isCount, versionIndexName, type LogEntry, type LogOp } from './entry.js';
import { flag, NO_REASONS, type EntryReason, type EntryStatus, type Report } from './entry-report.js';
import { RebuiltIndex, type KeyState } from './rebuilt-index.js';

export type { EntryReason, EntryStatus };

/**
 * Reasons a verifier gives, per entry (EntryReason) or for the whole log
 * (StoreProblem):
 * - the log: entry-missing (deleted), entry-unreadable (bytes are not an
 *   entry), entry-moved (its seq is not its position: inserted, deleted before
 *   it, or reordered), chain-broken (prev is not the previous entry's leaf
 *   hash), node-mismatch (the stored tree disagrees with the entry bytes);
 * - values: value-changed, value-missing (deleted without a forget or purge),
 *   ephemeral-stored (the backend holds a value written as ephemeral, which
 *   is never given to it),
 *   value-not-erased (held although a forget or purge erased it: never
 *   deleted, or put back);
 * - writes made through an edited index, which stay in the log for good
 *   (rebuilt-index.ts): version-out-of-order (not the key's previous version
 *   + 1), parent-mismatch (parent_hash not the previous version's write_hash),
 *   rollback-mismatch (policy or quarantine status not the restored version's
 *   at that point, or an erased version restored), immutable-violated (a put,
 *   rollback or forget past an immutable version), purge-mismatch (a purge of
 *   a value neither session nor ephemeral), retention-missed (a session or
 *   ephemeral version written before its session's last end, not erased),
 *   quarantine-mismatch (a quarantine not of the latest version, a promote
 *   not of the newest quarantined one);
 * - log-level problems: entries-beyond-end (the backend holds entries keyed
 *   far past the rows it has — more than twice the rows, plus 64 — and the walk
 *   stopped there: the report covers the log up to that point), truncated (the stored head counts more entries than
 *   the log holds), head-mismatch (the stored head is not the log's size: every
 *   append sets it), root-mismatch (any stored interior node differs from the
 *   tree rebuilt from the entries), tree-size-mismatch, and index-mismatch
 *   (the derived index of the key `ns`/`key` disagrees with the log).
 */
export interface EntryReport {
  readonly seq: number;
  readonly status: EntryStatus;
  /** What the entry says it is (absent when it is missing or unreadable). */
  readonly op?: LogOp;
  readonly ns?: string;
  readonly key?: string;
  readonly version?: number;
  readonly reasons: readonly EntryReason[];
}

/** A finding about the log as a whole rather than one entry. */
export type StoreProblem =
  | { readonly code: 'entries-beyond-end' | 'truncated' | 'head-mismatch' | 'root-mismatch' | 'tree-size-mismatch'; readonly message: string }
  | { readonly code: 'index-mismatch'; readonly message: string; readonly ns: string; readonly key: string };

/**
 * Why a store does not verify: a log-level problem's code, or
 * `entry-tampered` when entries are flagged. The most serious finding is the
 * result's `code` — the log's structure first (the walk stopped early, the
 * log was cut, the tree or head disagree), then tampered entries, then the
 * derived index — and `problems` and `entries` hold every finding.
 */
export type StoreVerifyCode = StoreProblem['code'] | 'entry-tampered';

/** What verify() found, whatever the verdict. */
export interface StoreReport {
  /** Entries walked (the log's length, unless entries-beyond-end stopped the walk). */
  readonly size: number;
  /** Root recomputed from the entries themselves, hex. */
  readonly root: string;
  readonly entries: readonly EntryReport[];
  /** Empty when the store verifies. */
  readonly problems: readonly StoreProblem[];
  readonly counts: Readonly<Record<EntryStatus, number>>;
}

export type StoreVerification = VerifyResult<StoreVerifyCode, StoreReport, StoreReport>;

/** The order findings rank in for the result's code (see StoreVerifyCode). */
const SEVERITY: readonly StoreVerifyCode[] = ['entries-beyond-end', 'truncated', 'tree-size-mismatch', 'root-mismatch', 'head-mismatch', 'entry-tampered', 'index-mismatch'];

function verdict(report: StoreReport): StoreVerification {
  const tampered = report.counts.tampered;
  if (tampered === 0 && report.problems.length === 0) return { ok: true, ...report };
  const first = report.entries.find((e) => e.status === 'tampered');
  const findings: { code: StoreVerifyCode; message: string }[] = [...report.problems];
  if (first) findings.push({ code: 'entry-tampered', message: `${tampered} ${tampered === 1 ? 'entry' : 'entries'} tampered, the first at seq ${first.seq} (${first.reasons.join(', ')})` });
  const top = findings.reduce((a, b) => (SEVERITY.indexOf(b.code) < SEVERITY.indexOf(a.code) ? b : a));
  const more = findings.length - 1;
  return { ok: false, code: top.code, message: more > 0 ? `${top.message}; and ${more} more finding${more === 1 ? '' : 's'}` : top.message, ...report };
}

const BATCH = 4096;

/**
 * How far a walk goes: the log's length, unless the backend says it holds far
 * fewer entries than that (a row inserted far beyond the end; deleted rows
 * leave gaps, but not beyond twice the rows held).
 */
function walkLength(tx: BackendTx): { n: number; beyondEnd: boolean } {
  const n = tx.entryCount();
  const held = tx.storedEntries?.();
  const limit = held === undefined ? n : 2 * held + 64;
  return n > limit ? { n: limit, beyondEnd: true } : { n, beyondEnd: false };
}

/** Entries [start, end) as stored; a missing one reads as empty bytes (it still occupies its leaf). */
function readEntries(tx: BackendTx, start: number, end: number): Uint8Array[] {
  const raw: Uint8Array[] = [];
  for (let seq = start; seq < end; seq++) raw.push(tx.getEntry(seq) ?? new Uint8Array(0));
  return raw;
}

/**
 * Walk everything, one batch of entries at a time: leaf and value hashes are
 * computed in batches on the core (leaves four at a time); the tree is rebuilt
 * from the entries themselves, so a rewritten node store cannot vouch for
 * rewritten entries. Nothing is kept per entry but its report and 16 bits of
 * index status: entries are parsed, checked and dropped.
 */
export function verifyStore(tx: BackendTx, ephemeral: ReadonlyMap<string, Uint8Array>): StoreVerification {
  const { n, beyondEnd } = walkLength(tx);
  const reports: Report[] = new Array(n);
  const problems: StoreProblem[] = beyondEnd
    ? [{ code: 'entries-beyond-end', message: `the backend holds entries keyed far beyond its ${tx.storedEntries!()} rows: the walk stopped at ${n}` }]
    : [];
  const freshNodes = new MemoryNodeStore();
  const fresh = new MerkleTree(freshNodes);
  const index = new RebuiltIndex(n);
  /** Versions whose value is absent: fine if a forget or purge erased it (known only at the end). */
  const absent: number[] = [];
  let prevLeaf: Uint8Array | undefined;
  let interiorOk = true;

  for (let start = 0; start < n; start += BATCH) {
    const end = Math.min(n, start + BATCH);
    tx.prefetch?.({ start, end }); // SQLite: the batch's rows in one query instead of a query per entry and node
    const raw = readEntries(tx, start, end);
    const leaves = hashLeafBatch(raw);
    fresh.appendLeafHashes(leaves);
    if (interiorOk) interiorOk = sameInteriorNodes(tx, freshNodes, start, end);
    // First the log itself; then, with the batch's names known (one more query on SQLite), index and values.
    // The batch's versions written (put, rollback), in parallel arrays: no object per entry.
    const seqs: number[] = [];
    const written: LogEntry[] = [];
    const states: KeyState[] = [];
    const names: string[] = [];
    for (let seq = start; seq < end; seq++) {
      const bytes = raw[seq - start]!;
      const leaf = leaves[seq - start]!;
      const entry = bytes.length > 0 ? decodeEntry(bytes) : undefined;
      const report: Report = { seq, status: 'ok', reasons: NO_REASONS, op: entry?.op, ns: entry?.ns, key: entry?.key, version: entry?.version };
      reports[seq] = report;
      if (bytes.length === 0) flag(report, 'entry-missing');
      else if (!entry) flag(report, 'entry-unreadable');
      else {
        if (entry.seq !== seq) flag(report, 'entry-moved');
        if (entry.prev === null ? prevLeaf !== undefined : prevLeaf === undefined || !hexEquals(entry.prev, prevLeaf)) flag(report, 'chain-broken');
      }
      const stored = tx.nodes.get(0, seq);
      if (!stored || !bytesEqual(stored, leaf)) flag(report, 'node-mismatch');
      prevLeaf = leaf;
      if (!entry || entry.op === 'refused') continue;
      if (entry.op === 'session-end') {
        index.sessionEnded(entry, seq);
        continue;
      }
      const state = index.apply(entry, seq, report);
      if (entry.op === 'put' || entry.op === 'rollback') {
        seqs.push(seq);
        written.push(entry);
        states.push(state);
        names.push(versionIndexName(entry.ns, entry.key, entry.version));
      }
    }
    if (names.length > 0) tx.prefetch?.({ names });
    const valueBytes: Uint8Array[] = [];
    const valueSeqs: number[] = [];
    const valueHashes: string[] = [];
    for (let w = 0; w < seqs.length; w++) {
      const seq = seqs[w]!;
      const entry = written[w]!;
      const name = names[w]!; // the version's index record and its value share it
      if (!index.recordMatches(tx.getIndex(name), entry, seq)) states[w]!.indexOk = false;
      const stored = tx.getValue(name);
      const isEphemeral = entry.policy_tag === 'ephemeral';
      // An ephemeral value lives in the store object that wrote it and must never reach the backend.
      if (isEphemeral && stored !== undefined) flag(reports[seq]!, 'ephemeral-stored');
      const value = isEphemeral ? ephemeral.get(name) : stored;
      if (value) {
        index.valueHeld(seq);
        valueBytes.push(value);
        valueSeqs.push(seq);
        valueHashes.push(entry.write_hash!);
      } else absent.push(seq);
    }
    const digests = sha256Batch(valueBytes);
    for (let i = 0; i < digests.length; i++) if (!hexEquals(valueHashes[i]!, digests[i]!)) flag(reports[valueSeqs[i]!]!, 'value-changed');
  }

  for (const seq of index.retentionMissed()) flag(reports[seq]!, 'retention-missed');
  for (const seq of index.erasedButHeld()) flag(reports[seq]!, 'value-not-erased');
  for (const seq of absent) {
    const report = reports[seq]!;
    if (index.mayBeAbsent(seq)) {
      if (report.status === 'ok') report.status = 'erased';
    } else flag(report, 'value-missing');
  }
  for (const { name, state } of index.keys()) {
    if (!index.keyMatches(tx.getIndex(name), state)) {
      problems.push({ code: 'index-mismatch', ns: state.ns, key: state.key, message: `the index of ${JSON.stringify(state.key)} in namespace ${JSON.stringify(state.ns)} disagrees with the log` });
    }
  }

  const root = toHex(fresh.root());
  const leaves = tx.nodes.leafCount();
  if (leaves !== n) problems.push({ code: 'tree-size-mismatch', message: `the stored tree has ${leaves} leaves for ${n} entries` });
  else if (!interiorOk) problems.push({ code: 'root-mismatch', message: 'a stored tree node differs from the tree rebuilt from the entries' });
  // Every append sets the head to the new size, in its own transaction: it is n (absent only while the log is empty).
  const head = tx.getIndex(HEAD_INDEX);
  if (isCount(head) && head > n) problems.push({ code: 'truncated', message: `the recorded head counts ${head} entries; the log holds ${n}` });
  else if (head === undefined ? n > 0 : head !== n) problems.push({ code: 'head-mismatch', message: `the recorded head (${JSON.stringify(head ?? null)}) is not the log's size, ${n}` });
  const counts = { ok: 0, erased: 0, tampered: 0 };
  for (const r of reports) counts[r.status]++;
  return verdict({ size: n, root, entries: reports, problems, counts });
}

/**
 * Every stored interior node completed by leaves [start, end) equals the one
 * rebuilt from the entries (leaves are checked per entry), visited by the leaf
 * that completes it — node (level, i) by leaf (i + 1)·2^level − 1 — so a batch
 * reads the nodes of its own log rows. Comparing them all, not only the root's,
 * catches a node that no root covers but an inclusion proof would hand out.
 */
function sameInteriorNodes(tx: BackendTx, fresh: MemoryNodeStore, start: number, end: number): boolean {
  for (let seq = start; seq < end; seq++) {
    for (let level = 1, span = 2; (seq + 1) % span === 0; level++, span *= 2) {
      const i = (seq + 1) / span - 1;
      const stored = tx.nodes.get(level, i);
      if (!(stored instanceof Uint8Array) || !bytesEqual(stored, fresh.get(level, i)!)) return false;
    }
  }
  return true;
}

/**
 * Whether the live log extends a checkpoint: `checkpoint-invalid` (the note
 * does not open with the key for this store's origin), `truncated` (the log is
 * shorter than the checkpoint vouches for) or `rewritten` (no consistency
 * proof from the checkpoint to the live log).
 */
export type AgainstResult = VerifyResult<'checkpoint-invalid' | 'truncated' | 'rewritten', { readonly checkpointSize: number; readonly size: number }, {}>;

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
    return { ok: false, code: 'checkpoint-invalid', message: (e as Error).message };
  }
  const opened = openCheckpoint(checkpointNote, [verifier], { origin });
  if (!opened.ok) return { ok: false, code: 'checkpoint-invalid', message: `${opened.code}: ${opened.message}` };
  const cp = opened.checkpoint;
  const { n, beyondEnd } = walkLength(tx);
  if (beyondEnd) return { ok: false, code: 'rewritten', message: `the log holds entries far beyond its ${tx.storedEntries!()} rows: it no longer extends the checkpoint` };
  const fresh = new MerkleTree();
  for (let start = 0; start < n; start += BATCH) fresh.appendMany(readEntries(tx, start, Math.min(n, start + BATCH)));
  if (fresh.size < cp.size) return { ok: false, code: 'truncated', message: `the log holds ${fresh.size} entries; the checkpoint vouches for ${cp.size}` };
  if (cp.size === 0) return { ok: true, checkpointSize: 0, size: fresh.size };
  const proof = fresh.consistencyProof(cp.size);
  const check = verifyConsistency(cp.size, fresh.size, proof, cp.root, fresh.root());
  if (!check.ok) return { ok: false, code: 'rewritten', message: `the log no longer extends the checkpoint at size ${cp.size} (${check.code})` };
  return { ok: true, checkpointSize: cp.size, size: fresh.size };
}
