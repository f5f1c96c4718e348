import { bytesEqual, fromBase64, toBase64 } from '../bindings/encoding.js';
import { assertInteger, ParapetRangeError, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import { openCheckpoint, type Checkpoint, type OpenCheckpointOptions } from './checkpoint.js';
import type { NoteVerifier } from './note.js';
import { verifyConsistency } from './verify.js';

/**
 * Why a witness refused a checkpoint:
 * - the note failed to open (its own reasons, e.g. bad-signature);
 * - `rollback`: a smaller tree than one already accepted;
 * - `fork`: the same size with a different root (two views of one log);
 * - `truncate-and-reroot`: a larger tree that does not extend the accepted one
 *   (the log was cut back and rebuilt, or the proof is bogus).
 */
export type WitnessFailure =
  | 'malformed' | 'bad-signature' | 'unverified' | 'malformed-checkpoint' | 'origin-mismatch' | 'missing-signer'
  | 'rollback' | 'fork' | 'truncate-and-reroot';

export type WitnessResult =
  | { readonly accepted: true; readonly checkpoint: Checkpoint; readonly previousSize: number | undefined }
  | { readonly accepted: false; readonly reason: WitnessFailure; readonly message: string; readonly checkpoint?: Checkpoint };

/** Persisted witness state; `version` is checked on load. */
export interface WitnessState {
  readonly version: 1;
  readonly origins: Readonly<Record<string, { readonly size: number; readonly root: string }>>;
}

/**
 * Trusted state that never goes backwards: the last verified checkpoint per
 * origin. A new checkpoint is accepted only if its signatures verify and a
 * consistency proof shows it extends the one held. The first checkpoint seen
 * for an origin is trusted on first use — pin it with `fromJSON` to avoid that.
 */
export class CheckpointWitness {
  private readonly latest = new Map<string, { size: number; root: Uint8Array }>();

  constructor(
    private readonly verifiers: readonly NoteVerifier[],
    private readonly options: Omit<OpenCheckpointOptions, 'origin'> = {},
  ) {
    if (!Array.isArray(verifiers) || verifiers.length === 0) throw new ParapetRangeError('"verifiers" must not be empty', 'invalid-value');
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
    const opened = openCheckpoint(note, this.verifiers, this.options);
    if (!opened.valid) return { accepted: false, reason: opened.reason, message: opened.message };
    const cp = opened.checkpoint;
    const held = this.latest.get(cp.origin);
    if (held === undefined) {
      this.latest.set(cp.origin, { size: cp.size, root: cp.root.slice() });
      return { accepted: true, checkpoint: cp, previousSize: undefined };
    }
    if (cp.size < held.size) {
      return { accepted: false, reason: 'rollback', message: `size ${cp.size} is below the accepted ${held.size}`, checkpoint: cp };
    }
    if (cp.size === held.size) {
      if (!bytesEqual(cp.root, held.root)) return { accepted: false, reason: 'fork', message: `a different root for size ${cp.size}`, checkpoint: cp };
      return { accepted: true, checkpoint: cp, previousSize: held.size };
    }
    // From an accepted empty tree every later tree is an extension.
    if (held.size > 0) {
      const proof = verifyConsistency(held.size, cp.size, consistencyProof, held.root, cp.root);
      if (!proof.valid) {
        return {
          accepted: false,
          reason: 'truncate-and-reroot',
          message: `size ${cp.size} does not extend the accepted size ${held.size} (${proof.reason}: ${proof.message})`,
          checkpoint: cp,
        };
      }
    }
    this.latest.set(cp.origin, { size: cp.size, root: cp.root.slice() });
    return { accepted: true, checkpoint: cp, previousSize: held.size };
  }

  toJSON(): WitnessState {
    const origins: Record<string, { size: number; root: string }> = {};
    for (const [origin, { size, root }] of this.latest) origins[origin] = { size, root: toBase64(root) };
    return { version: 1, origins };
  }

  /** Restore state saved by `toJSON` (or pin known checkpoints), validating every field. */
  static fromJSON(state: unknown, verifiers: readonly NoteVerifier[], options: Omit<OpenCheckpointOptions, 'origin'> = {}): CheckpointWitness {
    const s = state as WitnessState;
    if (typeof state !== 'object' || state === null || s.version !== 1) {
      throw new ParapetStateError('witness state must have version 1', 'state-version');
    }
    if (typeof s.origins !== 'object' || s.origins === null) throw new ParapetTypeError('"state.origins" must be an object');
    const witness = new CheckpointWitness(verifiers, options);
    for (const [origin, entry] of Object.entries(s.origins)) {
      assertInteger(entry?.size, `state.origins[${origin}].size`, 0, Number.MAX_SAFE_INTEGER);
      const root = fromBase64(entry.root);
      if (root.length !== 32) throw new ParapetRangeError(`"state.origins[${origin}].root" must be 32 bytes`);
      witness.latest.set(origin, { size: entry.size, root });
    }
    return witness;
  }
}
