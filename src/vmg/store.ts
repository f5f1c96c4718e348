import { sha256, toHex } from '../bindings/index.js';
import { hexEquals } from '../bindings/encoding.js';
import { assertInteger, describe, ParapetRangeError, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import { canonicalJson, wellFormed } from '../canonical/jcs.js';
import { hashLeaf } from '../tlog/hasher.js';
import { MerkleTree } from '../tlog/tree.js';
import { signCheckpoint, type Checkpoint } from '../tlog/checkpoint.js';
import type { NoteSigner } from '../tlog/note.js';
import { MemoryBackend, type BackendTx, type StorageBackend } from './backend.js';
import { decodeEntry, entryJson, HEAD_INDEX, provenanceOf, valueRef, type LogEntry, type WireProvenance } from './entry.js';
import { Utf8Scratch } from './scratch.js';
import { appendSessionList, clearSessionList, readSessionList } from './session-list.js';
import { KeyView } from './key-view.js';
import { ImmutableRecordError, MemoryStoreError, VersionConflictError } from './errors.js';
import {
  DERIVED_KINDS, POLICY_TAGS, PROVENANCE_KINDS, type ContentGuard, type MemoryRecord, type PolicyTag, type ProvenanceKind, type RecordProof,
} from './types.js';
import { verifyStore, verifyStoreAgainst, type AgainstResult, type StoreVerification } from './verify-store.js';

export interface OpenOptions {
  readonly backend?: StorageBackend;
  readonly agentId: string;
  readonly sessionId: string;
  /** Milliseconds since the epoch; injectable for tests. */
  readonly clock?: () => number;
  /** Signs checkpoints; `origin` names the log in them. */
  readonly signer?: NoteSigner;
  readonly origin?: string;
  /** Flags injected content: such writes land quarantined. */
  readonly guard?: ContentGuard;
  /** Guard levels that count as flagged. Default medium and high. */
  readonly guardLevels?: readonly string[];
}

export interface PutOptions {
  readonly policyTag: PolicyTag;
  readonly namespace?: string;
  /** Compare-and-set: the version the caller last saw (0 = the key must not exist yet). */
  readonly expectedVersion?: number;
  readonly provenanceKind?: ProvenanceKind;
}

export interface GetOptions {
  readonly namespace?: string;
  readonly includeQuarantined?: boolean;
  /** Read this version (1 or more) instead of the latest. */
  readonly version?: number;
}

export interface HistoryItem extends MemoryRecord {
  /** The value was erased (forget, retention); `value` is undefined. */
  readonly erased: boolean;
}

export interface PurgeReport {
  readonly sessionId: string;
  readonly purged: readonly { readonly namespace: string; readonly key: string; readonly version: number; readonly policyTag: PolicyTag }[];
}

const DEFAULT_NS = 'default';
const NOT_FLAGGED: readonly string[] = Object.freeze([]);

/**
 * A non-empty string that goes into log entries: canonical JSON refuses a lone
 * surrogate, and refused here the error names the parameter instead of the
 * entry field deep inside the write.
 */
function checkText(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) throw new ParapetTypeError(`"${name}" must be a non-empty string`);
  if (!wellFormed(value)) throw new ParapetRangeError(`"${name}" holds a lone surrogate (not I-JSON)`, 'invalid-value');
}

/**
 * An options argument: an object, or absent when nothing in it is required.
 * Without this a missing one surfaced as the platform's TypeError from deep
 * inside the operation ("cannot read properties of undefined").
 */
function checkOptions<T extends object>(value: T | undefined, method: string, required?: string): T {
  if (value === undefined && required === undefined) return {} as T;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ParapetTypeError(`"options" of ${method}() must be an object${required ? ` with ${required}` : ''}, got ${describe(value)}`);
  }
  return value;
}

/** Stored value bytes are what their entry's write_hash says, or the operation stops: reads never serve, and rollbacks never copy, content edited at rest. */
function assertValueMatches(bytes: Uint8Array, writeHash: string, key: string, version: number): void {
  if (!hexEquals(writeHash, sha256(bytes))) throw new MemoryStoreError(`value of "${key}" v${version} does not match its write_hash: run verify()`, 'store-damaged');
}

/**
 * A session id names index records (`s\0<session>` and `s\0<session>\0<i>`,
 * session-list.ts): with a NUL in it, session "a\u00000"'s count would be
 * session "a"'s first retention record, and each session's retention would
 * read, extend or clear the other's.
 */
function checkSessionId(value: unknown): asserts value is string {
  checkText(value, 'sessionId');
  if (value.includes('\u0000')) throw new ParapetRangeError('"sessionId" must not contain NUL', 'invalid-value');
}

function checkKey(key: unknown): asserts key is string {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) throw new ParapetTypeError('"key" must be a non-empty string of at most 1024 characters');
  if (key.includes('\u0000')) throw new ParapetRangeError('"key" must not contain NUL', 'invalid-value');
  checkText(key, 'key');
}

function checkNamespace(ns: unknown): string {
  if (ns === undefined) return DEFAULT_NS;
  if (typeof ns !== 'string' || ns.length === 0 || ns.length > 256 || ns.includes('\u0000')) {
    throw new ParapetTypeError('"namespace" must be a non-empty string of at most 256 characters without NUL');
  }
  checkText(ns, 'namespace');
  return ns;
}

/** The guard's reasons a put or rollback entry logged for its content (empty: none; entries are checked by shape, not this field). */
function loggedGuard(entry: LogEntry): readonly string[] {
  const guard = entry.detail?.guard;
  return Array.isArray(guard) ? guard.filter((r): r is string => typeof r === 'string') : [];
}

const decoder = new TextDecoder();
// Two: a put's value bytes are still in use while its entry is encoded.
const valueScratch = new Utf8Scratch();
const entryScratch = new Utf8Scratch();

/**
 * Verifiable Memory Governance: an agent's long-term memory where every
 * write is attributable, versioned, retained by policy and provably
 * untampered. Every operation appends one entry to a hash-chained log that is
 * also an RFC 6962 tree; values live beside the log.
 */
export class VmgMemoryStore {
  readonly agentId: string;
  readonly sessionId: string;
  readonly #backend: StorageBackend;
  readonly #clock: () => number;
  readonly #guard: ContentGuard | undefined;
  readonly #guardLevels: readonly string[];
  readonly #signer: NoteSigner | undefined;
  readonly #origin: string;
  /** Ephemeral values: held here only, never given to a backend. */
  readonly #ephemeral = new Map<string, Uint8Array>();

  private constructor(options: OpenOptions) {
    checkText(options?.agentId, 'agentId');
    checkSessionId(options.sessionId);
    this.agentId = options.agentId;
    this.sessionId = options.sessionId;
    this.#backend = options.backend ?? new MemoryBackend();
    this.#clock = options.clock ?? Date.now;
    this.#guard = options.guard;
    this.#guardLevels = options.guardLevels ?? ['medium', 'high'];
    this.#signer = options.signer;
    this.#origin = options.origin ?? `parapet/vmg/${options.agentId}`;
  }

  /** Open a store over `backend` (default: a new MemoryBackend). */
  static async open(options: OpenOptions): Promise<VmgMemoryStore> {
    // No consistency check here: a damaged backend must still open so that
    // verify() can say what is wrong; reads and writes refuse it instead.
    return new VmgMemoryStore(options);
  }

  /** Store `value` (any I-JSON value) as the next version of `key`. */
  async put(key: string, value: unknown, options: PutOptions): Promise<MemoryRecord> {
    checkKey(key);
    options = checkOptions(options, 'put', '`policyTag`');
    const ns = checkNamespace(options.namespace);
    const policy = options.policyTag;
    if (typeof policy !== 'string') throw new ParapetTypeError(`"policyTag" must be one of ${POLICY_TAGS.join(', ')}, got ${describe(policy)}`);
    if (!POLICY_TAGS.includes(policy)) throw new ParapetRangeError(`"policyTag" must be one of ${POLICY_TAGS.join(', ')}`, 'invalid-value');
    const kind = options.provenanceKind ?? 'user';
    if (!PROVENANCE_KINDS.includes(kind)) throw new ParapetRangeError(`"provenanceKind" must be one of ${PROVENANCE_KINDS.join(', ')}`, 'invalid-value');
    if (options.expectedVersion !== undefined) assertInteger(options.expectedVersion, 'expectedVersion', 0, Number.MAX_SAFE_INTEGER);
    const text = canonicalJson(value); // refuses non-JSON before anything is written
    const flagged = this.#flags(text);
    const quarantined = DERIVED_KINDS.includes(kind) || flagged.length > 0;
    const outcome = await this.#transaction((tx) => {
      const view = new KeyView(tx, ns, key);
      const latest = view.latest;
      if (options.expectedVersion !== undefined && options.expectedVersion !== latest) {
        return { conflict: latest } as const;
      }
      // The head carries what a put needs of the version before it. An immutable
      // version is never erased (forget refuses it, purge takes session values only).
      const prior = view.head;
      if (prior && prior.policy === 'immutable') {
        this.#append(tx, { op: 'refused', ns, key, version: latest, provenance: this.#provenance(kind), detail: { operation: 'put' } });
        return { refused: true } as const;
      }
      // Encoded here, not before the transaction: a backend may run this callback after other
      // puts (IndexedDB queues them), and by then the scratch buffer is theirs.
      const bytes = valueScratch.encode(text);
      const record = this.#writeVersion(tx, view, {
        op: 'put', policy, provenance: this.#provenance(kind), writeHash: toHex(sha256(bytes)), parentHash: prior ? prior.hash : null,
        quarantined, bytes, detail: flagged.length > 0 ? { guard: flagged } : undefined, text,
      });
      return { record };
    });
    if ('conflict' in outcome) throw new VersionConflictError(key, options.expectedVersion!, outcome.conflict!);
    if ('refused' in outcome) throw new ImmutableRecordError(key, 'put');
    return outcome.record;
  }

  /**
   * The latest version of `key` that is not quarantined (unless asked) and
   * not erased, or the version `version`, with an inclusion proof of its log
   * entry against the current tree head. Undefined when there is none.
   */
  async get(key: string, options?: GetOptions): Promise<{ record: MemoryRecord; proof: RecordProof } | undefined> {
    checkKey(key);
    options = checkOptions(options, 'get');
    const ns = checkNamespace(options.namespace);
    // The option's earlier name, ignored, would read the latest version where a past one was asked for.
    if ('asOf' in options) throw new ParapetTypeError('"asOf" is now "version": get(key, { version })');
    const asked = options.version;
    if (asked !== undefined) assertInteger(asked, 'version', 1, Number.MAX_SAFE_INTEGER);
    const includeQuarantined = options.includeQuarantined === true;
    return this.#transaction((tx) => {
      const view = new KeyView(tx, ns, key);
      const usable = (v: { erased: boolean; quarantined: boolean }) => !v.erased && (includeQuarantined || !v.quarantined);
      const at = asked === undefined ? undefined : view.version(asked);
      // The walk back stops at an immutable version: it superseded the ones before it for good, so
      // quarantined it leaves the key with no value, not an older one (a rollback immutability forbids).
      const newest = asked === undefined ? view.newest((v) => usable(v) || v.policy === 'immutable') : undefined;
      const chosen = asked === undefined ? (newest && usable(newest) ? newest : undefined) : at && usable(at) ? at : undefined;
      if (!chosen) return undefined;
      const record = this.#record(tx, ns, key, chosen.v, chosen.seq, chosen.quarantined);
      if (!record) return undefined;
      const tree = this.#tree(tx);
      const size = tree.size;
      return {
        record,
        proof: { seq: chosen.seq, size, leafHash: tree.leafHash(chosen.seq), root: tree.root(size), proof: tree.inclusionProof(chosen.seq, size) },
      };
    });
  }

  /** Every version of `key`, oldest first; erased ones have no value. */
  async history(key: string, options?: { namespace?: string }): Promise<HistoryItem[]> {
    checkKey(key);
    const ns = checkNamespace(checkOptions(options, 'history').namespace);
    return this.#transaction((tx) => {
      return new KeyView(tx, ns, key).versions().map((v) => {
        const record = this.#record(tx, ns, key, v.v, v.seq, v.quarantined, true)!;
        return { ...record, erased: v.erased || record.value === undefined };
      });
    });
  }

  /**
   * Roll `key` back to `toVersion` as a forward write: version n+1 carries
   * the old content; its provenance names the actor and both versions.
   */
  async rollback(key: string, toVersion: number, options: { reason: string; namespace?: string }): Promise<MemoryRecord> {
    checkKey(key);
    options = checkOptions(options, 'rollback', '`reason`');
    const ns = checkNamespace(options.namespace);
    assertInteger(toVersion, 'toVersion', 1, Number.MAX_SAFE_INTEGER);
    checkText(options.reason, 'reason');
    const outcome = await this.#transaction((tx) => {
      const view = new KeyView(tx, ns, key);
      const target = view.version(toVersion);
      const prior = view.head;
      if (!target || !prior) return { missing: true } as const;
      if (prior.policy === 'immutable') {
        this.#append(tx, { op: 'refused', ns, key, version: view.latest, provenance: this.#provenance('user'), detail: { operation: 'rollback', to: toVersion, reason: options.reason } });
        return { refused: true } as const;
      }
      const targetEntry = this.#versionEntry(tx, ns, key, toVersion, target.seq);
      const bytes = target.erased ? undefined : this.#loadValue(tx, ns, key, toVersion, target.policy);
      if (!bytes) return { erased: true } as const;
      // The copy would join this session's retention list, not the writer's: the value would outlive the
      // session it was kept for (and verify() could not tell, the copy being this session's).
      const { provenance: { session_id: writtenIn }, policy_tag: retained } = targetEntry; // the log's, not the index's
      if ((retained === 'session' || retained === 'ephemeral') && writtenIn !== this.sessionId) return { otherSession: writtenIn, policy: retained } as const;
      assertValueMatches(bytes, targetEntry.write_hash!, key, toVersion); // content edited at rest is not copied into a new version
      const provenance: WireProvenance = {
        ...this.#provenance(targetEntry.provenance.kind),
        actor: this.agentId, reason: options.reason, rolled_back_from: view.latest, rolled_back_to: toVersion,
      };
      // The guard's verdict on the content goes with it, so that promoting the copy needs force as the original would.
      const guard = loggedGuard(targetEntry);
      const record = this.#writeVersion(tx, view, {
        op: 'rollback', policy: target.policy, provenance, writeHash: targetEntry.write_hash!, parentHash: prior.hash, quarantined: target.quarantined, bytes,
        detail: guard.length > 0 ? { guard } : undefined,
      });
      return { record };
    });
    if ('missing' in outcome) throw new MemoryStoreError(`"${key}" has no version ${toVersion}`, 'not-found');
    if ('refused' in outcome) throw new ImmutableRecordError(key, 'rollback');
    if ('erased' in outcome) throw new MemoryStoreError(`version ${toVersion} of "${key}" was erased; it cannot be restored`, 'erased');
    if ('otherSession' in outcome) {
      throw new MemoryStoreError(`version ${toVersion} of "${key}" is a ${outcome.policy} value of session ${JSON.stringify(outcome.otherSession)}: only that session can restore it`, 'retention');
    }
    return outcome.record;
  }

  /** Erase every version's value of `key` (the log keeps their hashes). Immutable keys refuse. */
  async forget(key: string, options?: { namespace?: string; reason?: string }): Promise<{ erased: number[] }> {
    checkKey(key);
    options = checkOptions(options, 'forget');
    const ns = checkNamespace(options.namespace);
    if (options.reason) checkText(options.reason, 'reason');
    const outcome = await this.#transaction((tx) => {
      const view = new KeyView(tx, ns, key);
      if (!view.head) return { missing: true } as const;
      const all = view.versions();
      if (all.some((v) => v.policy === 'immutable' && !v.erased)) {
        this.#append(tx, { op: 'refused', ns, key, version: view.latest, provenance: this.#provenance('user'), detail: { operation: 'forget' } });
        return { refused: true } as const;
      }
      const erased = all.filter((v) => !v.erased).map((v) => v.v);
      for (const v of all) {
        this.#eraseValue(tx, ns, key, v.v);
        if (!v.erased) view.saveVersion({ ...v, erased: true });
      }
      this.#append(tx, { op: 'forget', ns, key, version: view.latest, provenance: this.#provenance('user'), detail: { erased, ...(options.reason ? { reason: options.reason } : {}) } });
      view.saveHead({ ...view.head, forgotten: true });
      return { erased };
    });
    if ('missing' in outcome) throw new MemoryStoreError(`"${key}" does not exist`, 'not-found');
    if ('refused' in outcome) throw new ImmutableRecordError(key, 'forget');
    return outcome;
  }

  /**
   * Retention at session end: erase `session` values written in `sessionId`
   * and its `ephemeral` values, one audited `purge` entry each, then one
   * `session-end` entry — always, even when nothing was purged: it is what
   * lets verify() see a value that escaped retention (its session ended
   * before it and it is not erased) however the retention list was edited.
   */
  async endSession(sessionId: string = this.sessionId): Promise<PurgeReport> {
    checkSessionId(sessionId);
    const purged = await this.#transaction((tx) => {
      const out: PurgeReport['purged'][number][] = [];
      const list = readSessionList(tx, sessionId);
      for (const [ns, key, version] of list) {
        const view = new KeyView(tx, ns, key);
        const v = view.version(version);
        if (!v || v.erased) continue;
        this.#eraseValue(tx, ns, key, version);
        view.saveVersion({ ...v, erased: true });
        this.#append(tx, { op: 'purge', ns, key, version, provenance: this.#provenance('user'), detail: { session_id: sessionId, policy_tag: v.policy } });
        out.push({ namespace: ns, key, version, policyTag: v.policy });
      }
      this.#append(tx, { op: 'session-end', ns: '', key: '', version: 0, provenance: this.#provenance('user'), detail: { session_id: sessionId, purged: out.length } });
      clearSessionList(tx, sessionId, list);
      return out;
    });
    return { sessionId, purged };
  }

  /** Quarantine the latest version of `key` (e.g. after a later detection). */
  async quarantine(key: string, options: { reason: string; namespace?: string }): Promise<void> {
    options = checkOptions(options, 'quarantine', '`reason`');
    await this.#setQuarantine(key, options.namespace, true, { reason: options.reason });
  }

  /**
   * Release the latest quarantined version of `key` into normal reads. Content
   * the guard flags needs `force: true`; both outcomes are logged.
   */
  async promote(key: string, options: { approver: string; force?: boolean; namespace?: string }): Promise<void> {
    options = checkOptions(options, 'promote', '`approver`');
    checkText(options.approver, 'approver');
    await this.#setQuarantine(key, options.namespace, false, { approver: options.approver, force: options.force === true });
  }

  async #setQuarantine(key: string, namespace: string | undefined, on: boolean, detail: { reason?: string; approver?: string; force?: boolean }): Promise<void> {
    checkKey(key);
    const ns = checkNamespace(namespace);
    if (on) checkText(detail.reason, 'reason');
    const outcome = await this.#transaction((tx) => {
      const view = new KeyView(tx, ns, key);
      const target = on ? view.version(view.latest) : view.newest((v) => v.quarantined && !v.erased);
      if (!target || target.erased) return { missing: true } as const;
      if (!on) {
        const flagged = this.#promoteFlags(tx, ns, key, target);
        if (flagged.length > 0 && !detail.force) {
          this.#append(tx, { op: 'refused', ns, key, version: target.v, provenance: { ...this.#provenance('user'), actor: detail.approver }, detail: { operation: 'promote', guard: flagged } });
          return { needsForce: flagged } as const;
        }
      }
      view.saveVersion({ ...target, quarantined: on });
      this.#append(tx, {
        op: on ? 'quarantine' : 'promote', ns, key, version: target.v,
        provenance: { ...this.#provenance('user'), actor: detail.approver ?? this.agentId, ...(detail.reason ? { reason: detail.reason } : {}) },
        detail: on ? undefined : { forced: detail.force === true },
      });
      return {};
    });
    if ('missing' in outcome) throw new MemoryStoreError(`"${key}" has no ${on ? '' : 'quarantined '}version to ${on ? 'quarantine' : 'promote'}`, 'not-found');
    if ('needsForce' in outcome) throw new MemoryStoreError(`promoting "${key}" needs force (${outcome.needsForce!.join(', ')})`, 'needs-force');
  }

  /**
   * Why releasing version `target` needs `force`, if it does: the guard flags
   * its content now; or a guard flagged it when it was written (its entry says
   * so: a store object without that guard, or with a laxer one, must not lift
   * the quarantine quietly); or its content cannot be read here to inspect — an
   * ephemeral value another store object holds, which that object would then
   * serve unseen.
   */
  #promoteFlags(tx: BackendTx, ns: string, key: string, target: { v: number; seq: number; policy: PolicyTag }): readonly string[] {
    const logged = loggedGuard(this.#versionEntry(tx, ns, key, target.v, target.seq));
    const bytes = this.#loadValue(tx, ns, key, target.v, target.policy);
    const now = bytes ? this.#flags(decoder.decode(bytes)) : ['content-unavailable'];
    return logged.length === 0 ? now : [...now, 'flagged-at-write', ...logged.filter((r) => !now.includes(r))];
  }

  /** Walk the whole log and report, per entry, ok | erased | tampered with reasons. */
  async verify(): Promise<StoreVerification> {
    return this.#transaction((tx) => verifyStore(tx, this.#ephemeral));
  }

  /** Sign the current tree head as a C2SP checkpoint (needs `signer`). */
  async checkpoint(): Promise<string> {
    if (!this.#signer) throw new MemoryStoreError('checkpoint() needs a signer: pass `signer` to VmgMemoryStore.open', 'no-signer');
    const head = await this.treeHead();
    return signCheckpoint({ origin: this.#origin, size: head.size, root: head.root, extensions: [] }, [this.#signer]);
  }

  /** The current tree size and root. */
  async treeHead(): Promise<Pick<Checkpoint, 'size' | 'root'>> {
    return this.#transaction((tx) => {
      const tree = this.#tree(tx);
      return { size: tree.size, root: tree.root() };
    });
  }

  /**
   * Prove that the live log extends a checkpoint saved earlier: its signature
   * verifies with `verifierKey`, and the log's own entries (rehashed, not the
   * stored nodes) reproduce its root at its size.
   */
  async verifyAgainst(checkpointNote: string, verifierKey: string): Promise<AgainstResult> {
    return this.#transaction((tx) => verifyStoreAgainst(tx, checkpointNote, verifierKey, this.#origin));
  }

  async close(): Promise<void> {
    this.#ephemeral.clear();
    await this.#backend.close();
  }

  // — internals —

  /**
   * One backend transaction. A damaged tree node store (a hash missing or cut
   * short at rest) surfaces from the tree as a typed ParapetStateError; here it
   * becomes the store's own error, like every other sign of a damaged backend.
   */
  #transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    // The error is mapped inside the callback (where the tree throws it), not
    // by awaiting here: one promise less per operation.
    return this.#backend.transaction((tx) => {
      try {
        return fn(tx);
      } catch (e) {
        if (e instanceof ParapetStateError && e.code === 'store-damaged') throw new MemoryStoreError(`${e.message}: run verify()`, 'store-damaged', { cause: e });
        throw e;
      }
    });
  }

  #provenance(kind: ProvenanceKind): WireProvenance {
    return { agent_id: this.agentId, session_id: this.sessionId, timestamp: this.#clock(), kind };
  }

  #flags(text: string): readonly string[] {
    if (!this.#guard) return NOT_FLAGGED;
    const verdict = this.#guard.inspect(text);
    return this.#guardLevels.includes(verdict.level) ? [`guard:${verdict.level}`, ...(verdict.reasons ?? []).map((r) => (typeof r === 'string' ? r : r.code))] : [];
  }

  #tree(tx: BackendTx): MerkleTree {
    const tree = new MerkleTree(tx.nodes);
    if (tree.size !== tx.entryCount()) {
      throw new MemoryStoreError(`backend holds ${tx.entryCount()} entries but ${tree.size} tree leaves: run verify()`, 'store-damaged');
    }
    return tree;
  }

  #append(tx: BackendTx, fields: Omit<LogEntry, 'v' | 'seq' | 'prev'>): number {
    const tree = this.#tree(tx);
    const seq = tree.size;
    // Every append leaves the head at the log's size. One that differs means a truncated log (or an edited
    // head): refuse, rather than overwrite with the new size the one record that says so.
    const head = tx.getIndex(HEAD_INDEX);
    if (head === undefined ? seq > 0 : head !== seq) {
      throw new MemoryStoreError(`the log holds ${seq} entries but its recorded head says ${JSON.stringify(head ?? null)}: run verify()`, 'store-damaged');
    }
    const prev = seq > 0 ? toHex(tree.leafHash(seq - 1)) : null;
    const bytes = entryScratch.encode(entryJson({ v: 1, seq, prev, ...fields })); // undefined fields are absent; copied by the backend
    tx.putEntry(seq, bytes);
    tree.appendLeafHash(hashLeaf(bytes));
    // Only the size: enough to notice a truncated log, and free. (A root here
    // cost log n node hashes per write; verify() recomputes the root anyway.)
    tx.setIndex(HEAD_INDEX, tree.size);
    return seq;
  }

  /**
   * The one way a new version comes to exist (put and rollback): its log
   * entry, its value, and the key's index, all in the caller's transaction.
   */
  #writeVersion(tx: BackendTx, view: KeyView, w: {
    op: 'put' | 'rollback'; policy: PolicyTag; provenance: WireProvenance; writeHash: string; parentHash: string | null;
    quarantined: boolean; bytes: Uint8Array; detail?: LogEntry['detail'];
    /** The value's canonical JSON, when the caller has it (saves decoding the bytes back). */
    text?: string;
  }): MemoryRecord {
    const { ns, key } = view;
    const version = view.latest + 1;
    const seq = this.#append(tx, {
      op: w.op, ns, key, version, policy_tag: w.policy, provenance: w.provenance, write_hash: w.writeHash, parent_hash: w.parentHash,
      quarantined: w.quarantined, detail: w.detail,
    });
    const name = view.nameOf(version); // the value's reference and the version record's name
    this.#storeValue(tx, name, ns, key, version, w.policy, w.bytes);
    view.saveVersion({ v: version, seq, policy: w.policy, quarantined: w.quarantined, erased: false }, name);
    view.saveHead({ latest: version, forgotten: false, hash: w.writeHash, policy: w.policy });
    return {
      namespace: ns, key, value: JSON.parse(w.text ?? decoder.decode(w.bytes)), version, policyTag: w.policy, provenance: provenanceOf(w.provenance),
      writeHash: w.writeHash, parentHash: w.parentHash, quarantined: w.quarantined, seq,
    };
  }

  #entryAt(tx: BackendTx, seq: number): LogEntry {
    const entry = decodeEntry(tx.getEntry(seq));
    if (!entry) throw new MemoryStoreError(`log entry ${seq} is missing or unreadable: run verify()`, 'store-damaged');
    return entry;
  }

  #storeValue(tx: BackendTx, ref: string, ns: string, key: string, version: number, policy: PolicyTag, bytes: Uint8Array): void {
    // Ephemeral values stay here, in an array of their own (`bytes` may be a reused buffer or a backend's view).
    if (policy === 'ephemeral') this.#ephemeral.set(ref, bytes.slice());
    else tx.putValue(ref, bytes);
    if (policy === 'session' || policy === 'ephemeral') appendSessionList(tx, this.sessionId, [ns, key, version]);
  }

  #loadValue(tx: BackendTx, ns: string, key: string, version: number, policy: PolicyTag): Uint8Array | undefined {
    const ref = valueRef(ns, key, version);
    return policy === 'ephemeral' ? this.#ephemeral.get(ref) : tx.getValue(ref);
  }

  #eraseValue(tx: BackendTx, ns: string, key: string, version: number): void {
    const ref = valueRef(ns, key, version);
    this.#ephemeral.delete(ref);
    tx.deleteValue(ref);
  }

  /**
   * The entry at `seq`, which the index says wrote `version` of `key`: checked
   * to be that put or rollback (the index is derived data), so its write_hash
   * and policy are there to use.
   */
  #versionEntry(tx: BackendTx, ns: string, key: string, version: number, seq: number): LogEntry {
    const entry = this.#entryAt(tx, seq);
    if (entry.ns !== ns || entry.key !== key || entry.version !== version || (entry.op !== 'put' && entry.op !== 'rollback')) {
      throw new MemoryStoreError(`index points "${key}" v${version} at entry ${seq}, which is not it: run verify()`, 'store-damaged');
    }
    return entry;
  }

  /**
   * A record built from its log entry (the authority for metadata), not from
   * the index; a value whose hash no longer matches is not returned as valid.
   */
  #record(tx: BackendTx, ns: string, key: string, version: number, seq: number, quarantined: boolean, allowMissing = false): MemoryRecord | undefined {
    const entry = this.#versionEntry(tx, ns, key, version, seq);
    const bytes = this.#loadValue(tx, ns, key, version, entry.policy_tag!);
    if (bytes) assertValueMatches(bytes, entry.write_hash!, key, version);
    if (!bytes && !allowMissing) return undefined;
    return {
      namespace: ns, key, value: bytes ? JSON.parse(decoder.decode(bytes)) : undefined, version, policyTag: entry.policy_tag!,
      provenance: provenanceOf(entry.provenance), writeHash: entry.write_hash!, parentHash: entry.parent_hash ?? null, quarantined, seq,
    };
  }
}
