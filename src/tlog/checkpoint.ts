import { fromBase64, toBase64 } from '../bindings/encoding.js';
import { assertBytes, assertInteger, assertOptions, describe, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import type { VerifyResult } from '../bindings/result.js';
import { openNote, signNote, type NoteSigner, type NoteVerifier, type OpenedNote } from './note.js';

/**
 * C2SP tlog-checkpoint v1.0.0: the signed tree head of a log.
 *   <origin>\n<decimal size>\n<base64 root>\n[<extension line>\n]*
 * inside a signed note.
 */
export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Uint8Array;
  readonly extensions: readonly string[];
}

/** The checkpoint's note text. Throws a typed error for values that cannot be written. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  if (typeof checkpoint !== 'object' || checkpoint === null) throw new ParapetTypeError(`"checkpoint" must be an object, got ${describe(checkpoint)}`);
  const { origin, size, root, extensions = [] } = checkpoint;
  if (!Array.isArray(extensions)) throw new ParapetTypeError(`"extensions" must be an array of lines, got ${describe(extensions)}`);
  if (typeof origin !== 'string' || origin.length === 0 || /[\n\u0000-\u001f]/.test(origin)) {
    throw new ParapetRangeError('"origin" must be a non-empty single line', 'invalid-value');
  }
  assertInteger(size, 'size', 0, Number.MAX_SAFE_INTEGER);
  assertBytes(root, 'root', 32);
  for (const [i, line] of extensions.entries()) {
    if (typeof line !== 'string' || line.length === 0 || /[\u0000-\u001f]/.test(line)) {
      throw new ParapetRangeError(`"extensions[${i}]" must be a non-empty single line`, 'invalid-value');
    }
  }
  return [origin, String(size), toBase64(root), ...extensions].join('\n') + '\n';
}

/** A checkpoint read from note text, or `malformed-checkpoint` and why. */
export type ParsedCheckpoint = VerifyResult<'malformed-checkpoint', { readonly checkpoint: Checkpoint }, {}>;

const malformed = (message: string): ParsedCheckpoint => ({ ok: false, code: 'malformed-checkpoint', message });

/** Parse checkpoint text (a note's text, signatures not checked). Never throws. */
export function parseCheckpoint(text: string): ParsedCheckpoint {
  if (typeof text !== 'string' || !text.endsWith('\n')) return malformed('checkpoint text must end with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) return malformed('checkpoint needs origin, size and root lines');
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin.length === 0) return malformed('empty origin line');
  // Decimal without leading zeros (tlog-checkpoint §Note text); beyond 2^53 we cannot represent it exactly.
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText)) return malformed('tree size is not a canonical decimal');
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) return malformed('tree size is too large');
  let root: Uint8Array;
  try {
    root = fromBase64(rootText);
  } catch {
    return malformed('root hash is not base64');
  }
  if (root.length !== 32) return malformed('root hash is not 32 bytes');
  if (extensions.some((l) => l.length === 0)) return malformed('empty extension line');
  return { ok: true, checkpoint: { origin, size, root, extensions } };
}

/** Sign a checkpoint with the log's key (and any cosigners); returns the signed note. */
export function signCheckpoint(checkpoint: Checkpoint, signers: readonly NoteSigner[]): string {
  return signNote(formatCheckpoint(checkpoint), signers);
}

export type CheckpointFailure = 'malformed' | 'bad-signature' | 'unverified' | 'malformed-checkpoint' | 'origin-mismatch' | 'missing-signer';

/** An opened note's signers, with its text parsed as a checkpoint. */
export type CheckpointResult = VerifyResult<CheckpointFailure, Omit<OpenedNote, 'text'> & { readonly checkpoint: Checkpoint }, {}>;

export interface OpenCheckpointOptions {
  /** The origin this client expects (a checkpoint for another log is refused). */
  readonly origin?: string;
  /** Names whose valid signatures are all required (e.g. the log and a witness). Default: any one verifier. */
  readonly require?: readonly string[];
}

/**
 * Verify a signed checkpoint against `verifiers` and parse it. Never throws on
 * the note. Valid when the note opens (see `openNote`), its text is a
 * well-formed checkpoint, the origin is the expected one, and every required
 * signer verified.
 */
export function openCheckpoint(
  note: string | Uint8Array,
  verifiers: readonly NoteVerifier[],
  options: OpenCheckpointOptions = {},
): CheckpointResult {
  assertOptions(options);
  if (options.origin !== undefined && typeof options.origin !== 'string') throw new ParapetTypeError('"options.origin" must be a string');
  if (options.require !== undefined && !(Array.isArray(options.require) && options.require.every((n) => typeof n === 'string'))) {
    throw new ParapetTypeError('"options.require" must be an array of key names');
  }
  const opened = openNote(note, verifiers);
  if (!opened.ok) return { ok: false, code: opened.code, message: opened.message };
  const parsed = parseCheckpoint(opened.text);
  if (!parsed.ok) return parsed;
  const { checkpoint } = parsed;
  if (options.origin !== undefined && checkpoint.origin !== options.origin) {
    return { ok: false, code: 'origin-mismatch', message: `checkpoint is for ${JSON.stringify(checkpoint.origin)}, expected ${JSON.stringify(options.origin)}` };
  }
  const missing = (options.require ?? []).filter((name) => !opened.verified.includes(name));
  if (missing.length > 0) return { ok: false, code: 'missing-signer', message: `no valid signature from ${missing.join(', ')}` };
  return { ok: true, checkpoint, verified: opened.verified, timestamps: opened.timestamps, unknown: opened.unknown };
}
