import { bytesEqual, sha256Batch, toHex } from '../bindings/index.js';
import { openCheckpoint } from '../tlog/checkpoint.js';
import { hashLeafBatch } from '../tlog/hasher.js';
import { parseVerifierKey } from '../tlog/note.js';
import { MemoryNodeStore } from '../tlog/storage.js';
import { MerkleTree } from '../tlog/tree.js';
import { verifyConsistency } from '../tlog/verify.js';
import type { BackendTx } from './backend.js';
import { decodeEntry, HEAD_INDEX, isObject, keyIndexName, versionIndexName, type LogEntry } from './entry.js';
import { POLICY_TAGS } from './types.js';

export type EntryStatus = 'ok' | 'erased' | 'tampered';

/**
 * Reasons a verifier gives, per entry or for the whole log:
 * entry-missing (deleted), entry-unreadable (bytes are not an entry),
 * entry-moved (its seq is not its position: inserted, deleted before it, or
 * reordered), chain-broken (prev is not the previous entry's leaf hash),
 * node-mismatch (the stored tree disagrees with the entry bytes),
 * value-changed, value-missing (deleted without a forget or purge),
 * version-out-of-order (a put or rollback whose version is not its key's
 * previous one + 1: a repeated or skipped version), parent-mismatch (its
 * parent_hash is not its key's previous version's write_hash) — both what a
 * write made through an edited index leaves in the log for good,
 * rollback-mismatch (a rollback whose policy or quarantine status is not the
 * restored version's at that point, or that restores an erased version — a
 * quarantine lifted or a retention escaped by editing the index),
 * immutable-violated (a put or rollback over an immutable latest version, or
 * a forget erasing an immutable one), purge-mismatch (a purge of a version
 * that is not session or ephemeral), retention-missed (a session or
 * ephemeral version written before its
 * session's last purge and still not erased: left out of an edited retention
 * list),
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

/** A report while it is built; ok ones share one empty reasons list (frozen: it is handed out) until something is flagged. */
interface Report { seq: number; status: EntryStatus; reasons: string[]; op?: string; key?: string; version?: number }
const NO_REASONS = Object.freeze([]) as unknown as string[];

function flag(report: Report, reason: string): void {
  report.status = 'tampered';
  if (report.reasons === NO_REASONS) report.reasons = [reason];
  else if (!report.reasons.includes(reason)) report.reasons.push(reason);
}

// Per-seq bits of a put/rollback entry: the index status rebuilt from the log, and the stored record's.
const QUARANTINED = 1;
const ERASED = 2;
const STORED_QUARANTINED = 4;
const STORED_ERASED = 8;
/** A forget or purge in the log names this version as erased: its value may be gone. */
const ERASURE_LOGGED = 16;
/** Written as ephemeral: its value never reached the backend and is gone after a restart, by design. */
const EPHEMERAL = 32;
/** The top two bits: the version's policy, as its index in POLICY_TAGS (a rollback must carry it on). */
const POLICY_SHIFT = 6;
const EPHEMERAL_POLICY = POLICY_TAGS.indexOf('ephemeral');
const SESSION = POLICY_TAGS.indexOf('session');
const IMMUTABLE = POLICY_TAGS.indexOf('immutable');

/**
 * The seq of each version of one key: an array while versions arrive 1, 2, 3…
 * (as in every log the store writes), a Map from the first that does not. Not
 * an array alone: a version edited to 2^32 − 2 would make one that long, and
 * walking it would stall verify() for minutes. Not a Map alone: a Map per key
 * was a tenth of verify().
 */
class VersionSeqs {
  #dense: number[] = [];
  #sparse: Map<number, number> | undefined;

  get(v: number): number | undefined {
    return this.#sparse ? this.#sparse.get(v) : v >= 1 ? this.#dense[v - 1] : undefined;
  }

  set(v: number, seq: number): void {
    if (!this.#sparse) {
      if (v >= 1 && v <= this.#dense.length + 1) {
        this.#dense[v - 1] = seq;
        return;
      }
      this.#sparse = new Map(this.#dense.map((s, i) => [i + 1, s]));
    }
    this.#sparse.set(v, seq);
  }

  values(): Iterable<number> {
    return this.#sparse ? this.#sparse.values() : this.#dense;
  }
}

/** One key as rebuilt from the log: its head, and the seq of each version's entry. */
interface KeyState {
  readonly ns: string;
  readonly key: string;
  latest: number;
  forgotten: boolean;
  /** The latest version's write_hash and policy (the head repeats them). */
  hash: string | undefined;
  policy: string | undefined;
  readonly seqs: VersionSeqs;
  indexOk: boolean;
}

/**
 * Walk everything, one batch of entries at a time: leaf and value hashes are
 * computed in batches on the core (leaves four at a time); the tree is rebuilt
 * from the entries themselves, so a rewritten node store cannot vouch for
 * rewritten entries. Nothing is kept per entry but its report and a byte of
 * index status: entries are parsed, checked and dropped.
 */
export function verifyStore(tx: BackendTx, ephemeral: ReadonlyMap<string, Uint8Array>): StoreVerification {
  const n = tx.entryCount();
  const reports: Report[] = new Array(n);
  const problems: string[] = [];
  const freshNodes = new MemoryNodeStore();
  const fresh = new MerkleTree(freshNodes);
  const bits = new Uint8Array(n);
  /** Per namespace, per key: two lookups of short strings the parser made, instead of building a name per entry. */
  const keys = new Map<string, Map<string, KeyState>>();
  /** Versions whose value is absent: fine if a forget or purge erased it (known only at the end). */
  const absent: number[] = [];
  /** Session and ephemeral versions (seq, session), and each session's last purge entry: retention is checked at the end. */
  const retainedSeqs: number[] = [];
  const retainedSessions: string[] = [];
  const lastPurge = new Map<string, number>();
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
      const report: Report = { seq, status: 'ok', reasons: NO_REASONS, op: entry?.op, key: entry?.key, version: entry?.version };
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
      const state = rebuildKey(keys, entry, seq, bits, report);
      if (entry.op === 'purge' && typeof entry.detail?.session_id === 'string') lastPurge.set(entry.detail.session_id, seq);
      if (entry.op === 'put' || entry.op === 'rollback') {
        if (entry.policy_tag === 'session' || entry.policy_tag === 'ephemeral') {
          retainedSeqs.push(seq);
          retainedSessions.push(entry.provenance.session_id);
        }
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
      if (!storedVersionMatches(tx.getIndex(name), entry, seq, bits)) states[w]!.indexOk = false;
      const value = entry.policy_tag === 'ephemeral' ? ephemeral.get(name) : tx.getValue(name);
      if (value) {
        valueBytes.push(value);
        valueSeqs.push(seq);
        valueHashes.push(entry.write_hash!);
      } else absent.push(seq);
    }
    const digests = sha256Batch(valueBytes);
    for (let i = 0; i < digests.length; i++) if (!hexEquals(valueHashes[i]!, digests[i]!)) flag(reports[valueSeqs[i]!]!, 'value-changed');
  }

  // endSession purges every session and ephemeral version its session wrote before, in one
  // transaction: one written before its session's last purge and still not erased was left out.
  for (let i = 0; i < retainedSeqs.length; i++) {
    const seq = retainedSeqs[i]!;
    if ((lastPurge.get(retainedSessions[i]!) ?? -1) > seq && (bits[seq]! & ERASED) === 0) flag(reports[seq]!, 'retention-missed');
  }
  for (const seq of absent) {
    const report = reports[seq]!;
    if (bits[seq]! & (ERASURE_LOGGED | EPHEMERAL)) {
      if (report.status === 'ok') report.status = 'erased';
    } else flag(report, 'value-missing');
  }
  for (const state of allStates(keys)) {
    const name = keyIndexName(state.ns, state.key);
    if (!state.indexOk || !sameHead(tx.getIndex(name), state) || !sameFlags(state, bits)) {
      problems.push(`index-mismatch:${state.ns}/${state.key}`);
    }
  }

  const root = toHex(fresh.root());
  if (tx.nodes.leafCount() !== n) problems.push('tree-size-mismatch');
  else if (!interiorOk) problems.push('root-mismatch');
  const head = Number(tx.getIndex(HEAD_INDEX) ?? 0);
  if (head > n) problems.push('truncated');
  const counts = { ok: 0, erased: 0, tampered: 0 };
  for (const r of reports) counts[r.status]++;
  return { ok: counts.tampered === 0 && problems.length === 0, size: n, root, entries: reports, problems: [...new Set(problems)], counts };
}

function* allStates(keys: Map<string, Map<string, KeyState>>): Iterable<KeyState> {
  for (const inNs of keys.values()) yield* inNs.values();
}

/**
 * Apply one entry to its key's rebuilt index: a put or rollback adds a
 * version; forget erases them all (and logs the erasure of those it names);
 * purge one; quarantine and promote flip one.
 */
function rebuildKey(keys: Map<string, Map<string, KeyState>>, e: LogEntry, seq: number, bits: Uint8Array, report: Report): KeyState {
  let inNs = keys.get(e.ns);
  if (!inNs) keys.set(e.ns, (inNs = new Map()));
  let state = inNs.get(e.key);
  if (!state) inNs.set(e.key, (state = { ns: e.ns, key: e.key, latest: 0, forgotten: false, hash: undefined, policy: undefined, seqs: new VersionSeqs(), indexOk: true }));
  const at = state.seqs.get(e.version);
  switch (e.op) {
    case 'put':
    case 'rollback':
      // The store writes version latest + 1 with the latest's write_hash as parent. (Then the state
      // follows the entry either way, so that one bad entry is flagged, not every later one.)
      if (e.version !== state.latest + 1) flag(report, 'version-out-of-order');
      if ((e.parent_hash ?? null) !== (state.hash ?? null)) flag(report, 'parent-mismatch');
      if (e.op === 'rollback' && !restoresAsLogged(e, state, bits)) flag(report, 'rollback-mismatch');
      if (state.policy === 'immutable') flag(report, 'immutable-violated'); // overwritten or rolled back
      state.seqs.set(e.version, seq);
      bits[seq] =
        (e.quarantined === true ? QUARANTINED : 0) | (e.policy_tag === 'ephemeral' ? EPHEMERAL : 0) | (POLICY_TAGS.indexOf(e.policy_tag!) << POLICY_SHIFT);
      state.latest = e.version;
      state.forgotten = false;
      state.hash = e.write_hash;
      state.policy = e.policy_tag;
      break;
    case 'forget':
      state.forgotten = true;
      for (const s of state.seqs.values()) {
        if ((bits[s]! & ERASED) === 0 && bits[s]! >>> POLICY_SHIFT === IMMUTABLE) flag(report, 'immutable-violated');
        bits[s]! |= ERASED;
      }
      for (const v of (e.detail?.erased as number[] | undefined) ?? []) {
        const s = state.seqs.get(v);
        if (s !== undefined) bits[s]! |= ERASURE_LOGGED;
      }
      break;
    case 'purge':
      // Retention purges session and ephemeral values only (the list it follows is index data).
      if (at !== undefined && bits[at]! >>> POLICY_SHIFT !== SESSION && bits[at]! >>> POLICY_SHIFT !== EPHEMERAL_POLICY) flag(report, 'purge-mismatch');
      if (at !== undefined) bits[at]! |= ERASED | ERASURE_LOGGED;
      break;
    case 'quarantine':
      if (at !== undefined) bits[at]! |= QUARANTINED;
      break;
    case 'promote':
      if (at !== undefined) bits[at]! &= ~QUARANTINED;
      break;
  }
  return state;
}

/**
 * A rollback carries on the policy and quarantine status the restored version
 * has at that point in the log, and never restores an erased one: the store
 * takes both from the index, so an index edited for the moment (a quarantine
 * lifted, a session value made persistent, a forgotten value put back) would
 * otherwise leave a clean-looking copy behind.
 */
function restoresAsLogged(e: LogEntry, state: KeyState, bits: Uint8Array): boolean {
  const to = e.provenance.rolled_back_to;
  const target = to === undefined ? undefined : state.seqs.get(to);
  if (target === undefined) return false;
  const b = bits[target]!;
  return (b & ERASED) === 0 && b >>> POLICY_SHIFT === POLICY_TAGS.indexOf(e.policy_tag!) && ((b & QUARANTINED) !== 0) === (e.quarantined === true);
}

/**
 * The stored index record of the version this entry wrote: the fields fixed at
 * writing must equal the entry's; its status flags are kept in `bits` and
 * compared with the rebuilt ones once the whole log has been read.
 */
function storedVersionMatches(r: unknown, e: LogEntry, seq: number, bits: Uint8Array): boolean {
  if (!isObject(r)) return false;
  if (r.v !== e.version || r.seq !== seq || r.policy !== e.policy_tag) return false;
  if (typeof r.quarantined !== 'boolean' || typeof r.erased !== 'boolean' || Object.keys(r).length !== 5) return false;
  bits[seq]! |= (r.quarantined ? STORED_QUARANTINED : 0) | (r.erased ? STORED_ERASED : 0);
  return true;
}

/** Every version's stored status flags equal the rebuilt ones. */
function sameFlags(state: KeyState, bits: Uint8Array): boolean {
  for (const seq of state.seqs.values()) {
    const b = bits[seq]!;
    if (((b & QUARANTINED) !== 0) !== ((b & STORED_QUARANTINED) !== 0) || ((b & ERASED) !== 0) !== ((b & STORED_ERASED) !== 0)) return false;
  }
  return true;
}

/** `hex` is the lowercase hex of `bytes`, compared without building a string. */
function hexEquals(hex: string, bytes: Uint8Array): boolean {
  if (hex.length !== bytes.length * 2) return false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (hex.charCodeAt(2 * i) !== HEX_CODES[b >>> 4] || hex.charCodeAt(2 * i + 1) !== HEX_CODES[b & 15]) return false;
  }
  return true;
}
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

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

/** The stored head of a key is exactly the rebuilt one: its four fields, nothing else. */
function sameHead(stored: unknown, rebuilt: KeyState): boolean {
  return (
    isObject(stored) && Object.keys(stored).length === 4 && stored.latest === rebuilt.latest && stored.forgotten === rebuilt.forgotten &&
    stored.hash === rebuilt.hash && stored.policy === rebuilt.policy
  );
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
