import { bytesEqual, fromBase64, toBase64 } from '../bindings/encoding.js';
import { assertInteger, assertOptions, ParapetRangeError, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import type { VerifyResult } from '../bindings/result.js';
import { openCheckpoint, type Checkpoint, type OpenCheckpointOptions } from './checkpoint.js';
import { parseNote, type NoteVerifier } from './note.js';
import { verifyConsistency } from './verify.js';

/**
 * Why a witness refused a checkpoint:
 * - the note failed to open (its own reasons, e.g. bad-signature);
 * - `unknown-origin`: no key is configured for the checkpoint's origin;
 * - `rollback`: a smaller tree than one already accepted;
 * - `fork`: the same size with a different root (two views of one log);
 * - `truncate-and-reroot`: a larger tree that does not extend the accepted one
 *   (the log was cut back and rebuilt, or the proof is bogus).
 */
export type WitnessFailure =
  | 'malformed' | 'bad-signature' | 'unverified' | 'malformed-checkpoint' | 'origin-mismatch' | 'missing-signer'
  | 'unknown-origin' | 'rollback' | 'fork' | 'truncate-and-reroot';

/**
 * `ok` when the checkpoint was accepted (the witness now holds it), with the
 * size held before; otherwise why not, with the checkpoint once it was read.
 */
export type WitnessResult = VerifyResult<
  WitnessFailure,
  { readonly checkpoint: Checkpoint; readonly previousSize: number | undefined },
  { readonly checkpoint?: Checkpoint }
>;

/** A log the witness follows: its origin line and the keys whose signatures count for it. */
export interface WitnessedLog {
  readonly origin: string;
  readonly keys: readonly NoteVerifier[];
}

/** One held checkpoint in saved state. */
export interface WitnessStateEntry {
  readonly origin: string;
  readonly size: number;
  readonly root: string;
}

/**
 * Persisted witness state; `version` is checked on load. Origins are a list of
 * entries, not object keys, so no origin string can collide with a property of
 * Object.prototype.
 */
export interface WitnessState {
  readonly version: 2;
  readonly checkpoints: readonly WitnessStateEntry[];
}

/** The version 1 layout (origins as object keys); read only by `CheckpointWitness.migrateState`. */
export interface WitnessStateV1 {
  readonly version: 1;
  readonly origins: Readonly<Record<string, { readonly size: number; readonly root: string }>>;
}

export type WitnessOptions = Omit<OpenCheckpointOptions, 'origin'>;

/**
 * Trusted state that never goes backwards: the last verified checkpoint per
 * origin. A new checkpoint is accepted only if it is signed by a key configured
 * for its own origin and a consistency proof shows it extends the one held. The
 * first checkpoint seen for an origin is trusted on first use — pin it with
 * `fromJSON` to avoid that.
 *
 * Keys are bound to origins: pass `{ origin, keys }` pairs. A flat list of keys
 * is also taken, binding each key to the origin equal to its name (the C2SP
 * tlog-checkpoint convention); a log whose key is named otherwise needs a pair.
 */
export class CheckpointWitness {
  private readonly latest = new Map<string, { size: number; root: Uint8Array }>();
  private readonly keysByOrigin: ReadonlyMap<string, readonly NoteVerifier[]>;

  constructor(
    logs: readonly WitnessedLog[] | readonly NoteVerifier[],
    private readonly options: WitnessOptions = {},
  ) {
    assertOptions(options);
    this.keysByOrigin = bindKeys(logs, options);
  }

  /** The checkpoint held for `origin`, if any. */
  current(origin: string): { size: number; root: Uint8Array } | undefined {
    const held = this.latest.get(origin);
    return held && { size: held.size, root: held.root.slice() };
  }

  /**
   * Offer a signed checkpoint with a consistency proof from the size held for
   * its origin (empty when nothing is held or the size is unchanged). Never
   * throws on the note or proof; state changes only when the result is accepted.
   */
  update(note: string | Uint8Array, consistencyProof: readonly Uint8Array[] = []): WitnessResult {
    const parsed = parseNote(note);
    if (!parsed.ok) return parsed;
    // The claimed origin only picks which keys to try; openCheckpoint then
    // checks the signed text names that same origin. Without this binding,
    // logA's key could sign a first checkpoint for logB (trusted on first use)
    // and the real logB would be refused as a rollback from then on.
    const claimed = parsed.text.slice(0, parsed.text.indexOf('\n'));
    const keys = this.keysByOrigin.get(claimed);
    if (keys === undefined) {
      return { ok: false, code: 'unknown-origin', message: `no key is configured for origin ${JSON.stringify(claimed)}` };
    }
    const opened = openCheckpoint(note, keys, { ...this.options, origin: claimed });
    if (!opened.ok) return opened;
    const cp = opened.checkpoint;
    const held = this.latest.get(cp.origin);
    if (held === undefined) {
      this.latest.set(cp.origin, { size: cp.size, root: cp.root.slice() });
      return { ok: true, checkpoint: cp, previousSize: undefined };
    }
    if (cp.size < held.size) {
      return { ok: false, code: 'rollback', message: `size ${cp.size} is below the accepted ${held.size}`, checkpoint: cp };
    }
    if (cp.size === held.size) {
      if (!bytesEqual(cp.root, held.root)) return { ok: false, code: 'fork', message: `a different root for size ${cp.size}`, checkpoint: cp };
      return { ok: true, checkpoint: cp, previousSize: held.size };
    }
    // From an accepted empty tree every later tree is an extension.
    if (held.size > 0) {
      const proof = verifyConsistency(held.size, cp.size, consistencyProof, held.root, cp.root);
      if (!proof.ok) {
        return {
          ok: false,
          code: 'truncate-and-reroot',
          message: `size ${cp.size} does not extend the accepted size ${held.size} (${proof.code}: ${proof.message})`,
          checkpoint: cp,
        };
      }
    }
    this.latest.set(cp.origin, { size: cp.size, root: cp.root.slice() });
    return { ok: true, checkpoint: cp, previousSize: held.size };
  }

  toJSON(): WitnessState {
    const checkpoints: WitnessStateEntry[] = [];
    for (const [origin, { size, root }] of this.latest) checkpoints.push({ origin, size, root: toBase64(root) });
    return { version: 2, checkpoints };
  }

  /**
   * Restore state saved by `toJSON` (or pin known checkpoints), validating every
   * field. Version 1 state is refused: convert it with `migrateState` first.
   */
  static fromJSON(state: unknown, logs: readonly WitnessedLog[] | readonly NoteVerifier[], options: WitnessOptions = {}): CheckpointWitness {
    const s = state as WitnessState;
    if (typeof state === 'object' && state !== null && (state as { version?: unknown }).version === 1) {
      throw new ParapetStateError(
        'witness state version 1 is not read directly: its origins were object keys, and an origin named "__proto__" was saved as nothing; convert it with CheckpointWitness.migrateState',
        'state-version',
      );
    }
    if (typeof state !== 'object' || state === null || s.version !== 2) {
      throw new ParapetStateError('witness state must have version 2', 'state-version');
    }
    if (!Array.isArray(s.checkpoints)) throw new ParapetTypeError('"state.checkpoints" must be an array');
    const witness = new CheckpointWitness(logs, options);
    for (const [i, entry] of s.checkpoints.entries()) {
      const { origin, size, root } = checkEntry(entry, `state.checkpoints[${i}]`);
      if (witness.latest.has(origin)) throw new ParapetRangeError(`"state.checkpoints[${i}]" repeats origin ${JSON.stringify(origin)}`, 'invalid-value');
      witness.latest.set(origin, { size, root });
    }
    return witness;
  }

  /**
   * Convert version 1 state to version 2, validating every field. Version 1
   * saved an origin named "__proto__" as nothing, so such an origin is missing
   * from the result and will be trusted on first use again unless pinned.
   */
  static migrateState(state: unknown): WitnessState {
    const s = state as WitnessStateV1;
    if (typeof state !== 'object' || state === null || s.version !== 1) {
      throw new ParapetStateError('migrateState reads witness state version 1', 'state-version');
    }
    if (typeof s.origins !== 'object' || s.origins === null || Array.isArray(s.origins)) {
      throw new ParapetTypeError('"state.origins" must be an object');
    }
    const checkpoints: WitnessStateEntry[] = [];
    // Own keys only: JSON.parse makes "__proto__" an own property, never the prototype.
    for (const origin of Object.keys(s.origins)) {
      const where = `state.origins[${JSON.stringify(origin)}]`;
      const entry = Object.getOwnPropertyDescriptor(s.origins, origin)!.value as unknown;
      if (typeof entry !== 'object' || entry === null) throw new ParapetTypeError(`"${where}" must be an object`);
      const checked = checkEntry({ ...entry, origin }, where);
      checkpoints.push({ origin, size: checked.size, root: toBase64(checked.root) });
    }
    return { version: 2, checkpoints };
  }
}

function checkEntry(entry: unknown, where: string): { origin: string; size: number; root: Uint8Array } {
  if (typeof entry !== 'object' || entry === null) throw new ParapetTypeError(`"${where}" must be an object`);
  const { origin, size, root: rootText } = entry as Partial<WitnessStateEntry>;
  if (typeof origin !== 'string' || origin.length === 0) throw new ParapetTypeError(`"${where}.origin" must be a non-empty string`);
  assertInteger(size, `${where}.size`, 0, Number.MAX_SAFE_INTEGER);
  if (typeof rootText !== 'string') throw new ParapetTypeError(`"${where}.root" must be a base64 string`);
  const root = fromBase64(rootText);
  if (root.length !== 32) throw new ParapetRangeError(`"${where}.root" must be 32 bytes`);
  return { origin, size, root };
}

const isVerifier = (v: unknown): v is NoteVerifier =>
  typeof v === 'object' && v !== null && typeof (v as NoteVerifier).name === 'string' && (v as NoteVerifier).publicKey instanceof Uint8Array;

/** The keys configured for each origin, from pairs or from a flat list (key name = origin). */
function bindKeys(logs: readonly WitnessedLog[] | readonly NoteVerifier[], options: WitnessOptions): Map<string, readonly NoteVerifier[]> {
  if (!Array.isArray(logs)) throw new ParapetTypeError('"logs" must be an array of { origin, keys } pairs or of verifier keys');
  if (logs.length === 0) throw new ParapetRangeError('"logs" must not be empty', 'invalid-value');
  const byOrigin = new Map<string, NoteVerifier[]>();
  if (logs.every(isVerifier)) {
    // A required co-signer in a flat list would be bound to an origin named
    // like itself and never count for any log: say so now, not at each update.
    if (options.require !== undefined && options.require.length > 0) {
      throw new ParapetTypeError('"options.require" needs { origin, keys } pairs: a flat key list binds each key to the origin equal to its name');
    }
    for (const key of logs as readonly NoteVerifier[]) {
      const list = byOrigin.get(key.name) ?? [];
      list.push(key);
      byOrigin.set(key.name, list);
    }
    return byOrigin;
  }
  for (const [i, log] of (logs as readonly unknown[]).entries()) {
    const { origin, keys } = (log ?? {}) as Partial<WitnessedLog>;
    if (typeof origin !== 'string' || origin.length === 0 || origin.includes('\n')) {
      throw new ParapetTypeError(`"logs[${i}].origin" must be a non-empty single-line string (pairs and bare keys cannot be mixed)`);
    }
    if (!Array.isArray(keys) || keys.length === 0 || !keys.every(isVerifier)) {
      throw new ParapetTypeError(`"logs[${i}].keys" must be a non-empty array of verifier keys`);
    }
    if (byOrigin.has(origin)) throw new ParapetRangeError(`"logs[${i}]" repeats origin ${JSON.stringify(origin)}`, 'invalid-value');
    byOrigin.set(origin, [...keys]);
  }
  return byOrigin;
}
