import { isObject, keyIndexName, type LogEntry } from './entry.js';
import { flag, type Report } from './entry-report.js';
import { POLICY_TAGS } from './types.js';

// Per-seq bits of a put/rollback entry: the index status rebuilt from the log, and the stored record's.
const QUARANTINED = 1;
const ERASED = 2;
const STORED_QUARANTINED = 4;
const STORED_ERASED = 8;
/** A forget or purge in the log names this version as erased: its value may be gone. */
const ERASURE_LOGGED = 16;
/** Written as ephemeral: its value never reached the backend and is gone after a restart, by design. */
const EPHEMERAL = 32;
/** Its value is held by the backend (or the store, if ephemeral). */
const VALUE_HELD = 64;
/** Bits 8–9: the version's policy, as its index in POLICY_TAGS (a rollback must carry it on). */
const POLICY_SHIFT = 8;
const EPHEMERAL_POLICY = POLICY_TAGS.indexOf('ephemeral');
const SESSION = POLICY_TAGS.indexOf('session');
const IMMUTABLE = POLICY_TAGS.indexOf('immutable');

/**
 * The seq of each version of one key: versions 1 … n in an array (as a log the
 * store writes has them), any other version in a Map beside it. Not an array
 * alone: a version edited to 2^32 − 2 would make one that long, and walking it
 * would stall verify() for minutes. Not a Map alone: a Map per key was a tenth
 * of verify(). Not a Map for everything once one version is out of order:
 * searches over the Map cost its size, and one edited entry would then make
 * every promote of its key cost all its versions.
 *
 * Exported for tests that count its lookups; not part of the package's API.
 */
export class VersionSeqs {
  readonly #dense: number[] = [];
  /** Versions outside 1 … dense.length: only in a log edited or forged (never one of the array's). */
  #outliers: Map<number, number> | undefined;

  get(v: number): number | undefined {
    return v >= 1 && v <= this.#dense.length ? this.#dense[v - 1] : this.#outliers?.get(v);
  }

  set(v: number, seq: number): void {
    const dense = this.#dense;
    if (v >= 1 && v <= dense.length) dense[v - 1] = seq;
    else if (v === dense.length + 1) {
      dense.push(seq);
      this.#outliers?.delete(v);
    } else (this.#outliers ??= new Map()).set(v, seq);
  }

  values(): Iterable<number> {
    return this.#outliers ? [...this.#dense, ...this.#outliers.values()] : this.#dense;
  }

  /**
   * The highest version at most `latest` whose seq `accept`s. Searches the
   * versions held, never the numbers between: `latest` is taken from an entry,
   * and one claiming version 10^12 made a count down from it run for hours.
   */
  newest(latest: number, accept: (seq: number) => boolean): number | undefined {
    let best: number | undefined;
    if (this.#outliers) for (const [v, seq] of this.#outliers) if (v <= latest && (best === undefined || v > best) && accept(seq)) best = v;
    for (let v = Math.min(latest, this.#dense.length); v >= 1 && (best === undefined || v > best); v--) if (accept(this.get(v)!)) return v;
    return best;
  }
}

/** One key as rebuilt from the log: its head, and the seq of each version's entry. */
export interface KeyState {
  readonly ns: string;
  readonly key: string;
  latest: number;
  forgotten: boolean;
  /** The latest version's write_hash and policy (the head repeats them). */
  hash: string | undefined;
  policy: string | undefined;
  readonly seqs: VersionSeqs;
  /** False once a version record of this key was found not to match its entry. */
  indexOk: boolean;
}

/**
 * The index as the log says it should be, rebuilt one entry at a time by
 * verify(), with a byte of status per entry; and the checks of each write
 * against what the log said before it. The store takes some fields of a new
 * entry from the index (decision 12), so an index edited for one write leaves
 * an entry that only this comparison can tell is wrong.
 */
export class RebuiltIndex {
  readonly #bits: Uint16Array;
  /** Per namespace, per key: two lookups of short strings the parser made, instead of building a name per entry. */
  readonly #keys = new Map<string, Map<string, KeyState>>();
  /** Session and ephemeral versions (seq, session), and each session's last end: retention is checked once the log is read. */
  readonly #retainedSeqs: number[] = [];
  readonly #retainedSessions: string[] = [];
  readonly #lastEnd = new Map<string, number>();

  constructor(entries: number) {
    this.#bits = new Uint16Array(entries);
  }

  /**
   * Apply entry `e` (at `seq`, not a refusal) to its key: a put or rollback
   * adds a version; forget erases them all (and logs the erasure of those it
   * names); purge one; quarantine and promote flip one. Flags on `report`
   * what the store would not have written from a sound index.
   */
  apply(e: LogEntry, seq: number, report: Report): KeyState {
    const bits = this.#bits;
    let inNs = this.#keys.get(e.ns);
    if (!inNs) this.#keys.set(e.ns, (inNs = new Map()));
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
        if (e.op === 'rollback' && !this.#restoresAsLogged(e, state)) flag(report, 'rollback-mismatch');
        if (state.policy === 'immutable') flag(report, 'immutable-violated'); // overwritten or rolled back
        state.seqs.set(e.version, seq);
        bits[seq] =
          (e.quarantined === true ? QUARANTINED : 0) | (e.policy_tag === 'ephemeral' ? EPHEMERAL : 0) | (POLICY_TAGS.indexOf(e.policy_tag!) << POLICY_SHIFT);
        state.latest = e.version;
        state.forgotten = false;
        state.hash = e.write_hash;
        state.policy = e.policy_tag;
        if (e.policy_tag === 'session' || e.policy_tag === 'ephemeral') {
          this.#retainedSeqs.push(seq);
          this.#retainedSessions.push(e.provenance.session_id);
        }
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
      case 'purge': {
        // Retention purges session and ephemeral values only (the list it follows is index data).
        const policy = at === undefined ? undefined : bits[at]! >>> POLICY_SHIFT;
        if (policy !== undefined && policy !== SESSION && policy !== EPHEMERAL_POLICY) flag(report, 'purge-mismatch');
        if (at !== undefined) bits[at]! |= ERASED | ERASURE_LOGGED;
        break;
      }
      // The store quarantines a key's latest version, and promotes its newest quarantined one (it finds both in the index).
      case 'quarantine':
        if (e.version !== state.latest) flag(report, 'quarantine-mismatch');
        if (at !== undefined) bits[at]! |= QUARANTINED;
        break;
      case 'promote':
        if (e.version !== this.#newestQuarantined(state)) flag(report, 'quarantine-mismatch');
        if (at !== undefined) bits[at]! &= ~QUARANTINED;
        break;
    }
    return state;
  }

  /**
   * The stored index record of the version entry `e` (at `seq`) wrote: the
   * fields fixed at writing must equal the entry's; its status flags are kept
   * and compared with the rebuilt ones once the whole log has been read.
   */
  recordMatches(r: unknown, e: LogEntry, seq: number): boolean {
    if (!isObject(r)) return false;
    if (r.v !== e.version || r.seq !== seq || r.policy !== e.policy_tag) return false;
    if (typeof r.quarantined !== 'boolean' || typeof r.erased !== 'boolean' || Object.keys(r).length !== 5) return false;
    this.#bits[seq]! |= (r.quarantined ? STORED_QUARANTINED : 0) | (r.erased ? STORED_ERASED : 0);
    return true;
  }

  /** A `session-end` entry at `seq`: every session and ephemeral version its session wrote before it must be erased by then. */
  sessionEnded(e: LogEntry, seq: number): void {
    this.#lastEnd.set(e.detail!.session_id as string, seq);
  }

  /** The value of the version written at `seq` is held. */
  valueHeld(seq: number): void {
    this.#bits[seq]! |= VALUE_HELD;
  }

  /**
   * Versions the log says were erased (forgotten, or purged at session end)
   * whose value the backend still holds: the store deletes a value in the
   * transaction that logs its erasure, so one held was never deleted or was put
   * back. Not ephemeral ones: they are held by the store object that wrote
   * them, never by the backend, and a forget made through another store
   * object cannot reach that copy (it is not served, and goes at its session's end).
   */
  *erasedButHeld(): Iterable<number> {
    const bits = this.#bits;
    const mask = ERASED | VALUE_HELD | EPHEMERAL;
    for (let seq = 0; seq < bits.length; seq++) if ((bits[seq]! & mask) === (ERASED | VALUE_HELD)) yield seq;
  }

  /** The value of the version written at `seq` may be absent: a forget or purge erased it, or it was ephemeral. */
  mayBeAbsent(seq: number): boolean {
    return (this.#bits[seq]! & (ERASURE_LOGGED | EPHEMERAL)) !== 0;
  }

  /**
   * Session and ephemeral versions written before their session's last end
   * and still not erased. endSession purges every such version of its session
   * in the transaction that logs the end, following the session's list in the
   * index: one left was left out of that list (or the list was emptied).
   */
  *retentionMissed(): Iterable<number> {
    for (let i = 0; i < this.#retainedSeqs.length; i++) {
      const seq = this.#retainedSeqs[i]!;
      if ((this.#lastEnd.get(this.#retainedSessions[i]!) ?? -1) > seq && (this.#bits[seq]! & ERASED) === 0) yield seq;
    }
  }

  /** Every key the log names, with the name of its head in the index. */
  *keys(): Iterable<{ name: string; state: KeyState }> {
    for (const inNs of this.#keys.values()) for (const state of inNs.values()) yield { name: keyIndexName(state.ns, state.key), state };
  }

  /** The stored head of a key and its versions' stored status flags are exactly the rebuilt ones. */
  keyMatches(storedHead: unknown, state: KeyState): boolean {
    return state.indexOk && sameHead(storedHead, state) && this.#sameFlags(state);
  }

  #sameFlags(state: KeyState): boolean {
    for (const seq of state.seqs.values()) {
      const b = this.#bits[seq]!;
      if (((b & QUARANTINED) !== 0) !== ((b & STORED_QUARANTINED) !== 0) || ((b & ERASED) !== 0) !== ((b & STORED_ERASED) !== 0)) return false;
    }
    return true;
  }

  #newestQuarantined(state: KeyState): number | undefined {
    const bits = this.#bits;
    return state.seqs.newest(state.latest, (seq) => (bits[seq]! & (QUARANTINED | ERASED)) === QUARANTINED);
  }

  /**
   * A rollback carries on the policy and quarantine status the restored version
   * has at that point in the log, and never restores an erased one: the store
   * takes both from the index, so an index edited for the moment (a quarantine
   * lifted, a session value made persistent, a forgotten value put back) would
   * otherwise leave a clean-looking copy behind.
   */
  #restoresAsLogged(e: LogEntry, state: KeyState): boolean {
    const to = e.provenance.rolled_back_to;
    const target = to === undefined ? undefined : state.seqs.get(to);
    if (target === undefined) return false;
    const b = this.#bits[target]!;
    return (b & ERASED) === 0 && b >>> POLICY_SHIFT === POLICY_TAGS.indexOf(e.policy_tag!) && ((b & QUARANTINED) !== 0) === (e.quarantined === true);
  }
}

/** The stored head of a key is exactly the rebuilt one: its four fields, nothing else. */
function sameHead(stored: unknown, rebuilt: KeyState): boolean {
  return (
    isObject(stored) && Object.keys(stored).length === 4 && stored.latest === rebuilt.latest && stored.forgotten === rebuilt.forgotten &&
    stored.hash === rebuilt.hash && stored.policy === rebuilt.policy
  );
}
