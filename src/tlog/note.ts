import { sha256 } from '../bindings/index.js';
import { bytesEqual, fromBase64, toBase64, toHex } from '../bindings/encoding.js';
import { assertBytes, assertInteger, describe, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import type { VerifyResult } from '../bindings/result.js';
import { ed25519PublicKey, ed25519Sign, ed25519Verify } from '../crypto/ed25519.js';

/**
 * C2SP signed notes (signed-note v1.0.0): UTF-8 text ending in "\n", a blank
 * line, then signature lines "— <name> <base64(keyID[4] ‖ signature)>".
 * Ed25519 (type 0x01) and Ed25519 witness cosignatures (cosignature/v1, type
 * 0x04) are supported; lines from other keys are reported as unknown.
 */

export const ALG_ED25519 = 0x01;
export const ALG_COSIGNATURE_V1 = 0x04;

const EM_DASH = '\u2014';
/** Go's note package refuses more; C2SP requires accepting at least 16. */
export const MAX_SIGNATURES = 100;

/** A parsed verifier key `<name>+<hex keyID>+<base64(type ‖ public key)>`. */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: Uint8Array; // 4 bytes
  readonly type: number;
  readonly publicKey: Uint8Array;
  /** The key in its text form. */
  readonly text: string;
}

/** A parsed signer key `PRIVATE+KEY+<name>+<hex keyID>+<base64(type ‖ seed)>` (Go's note format). */
export interface NoteSigner {
  readonly name: string;
  readonly keyId: Uint8Array;
  readonly type: number;
  readonly secretKey: Uint8Array;
  /** For cosignatures: the time to sign at (seconds); defaults to now. */
  readonly timestamp?: number;
}

export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name) && isWellFormedUtf16(name) && !/\p{Cc}/u.test(name);
}

function isWellFormedUtf16(s: string): boolean {
  return !/\p{Cs}/u.test(s);
}

/** Key ID = SHA-256(name ‖ 0x0A ‖ type ‖ public key)[0:4] (signed-note §Signatures). */
export function keyIdFor(name: string, type: number, publicKey: Uint8Array): Uint8Array {
  if (typeof name !== 'string') throw new ParapetTypeError(`"name" must be a string, got ${describe(name)}`);
  assertInteger(type, 'type', 0, 255);
  assertBytes(publicKey, 'publicKey');
  const nameBytes = new TextEncoder().encode(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = type;
  input.set(publicKey, nameBytes.length + 2);
  return sha256(input).subarray(0, 4);
}

const badKey = (text: string, why: string) => new ParapetRangeError(`verifier key "${text}" is not valid: ${why}`, 'invalid-value');

/** Parse a verifier key; throws a typed error naming what is wrong (keys are configuration, not attacker input). */
export function parseVerifierKey(text: string): NoteVerifier {
  if (typeof text !== 'string') throw new ParapetTypeError(`verifier key must be a string`);
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  if (first < 0 || second < 0) throw badKey(text, "expected <name>+<key id>+<key>");
  const name = text.slice(0, first);
  const idHex = text.slice(first + 1, second);
  if (!isValidKeyName(name)) throw badKey(text, 'bad name');
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw badKey(text, 'key id must be 8 lowercase hex digits');
  let raw: Uint8Array;
  try {
    raw = fromBase64(text.slice(second + 1));
  } catch {
    throw badKey(text, 'key is not base64');
  }
  const type = raw[0];
  if (type !== ALG_ED25519 && type !== ALG_COSIGNATURE_V1) throw badKey(text, `unsupported algorithm ${String(type)}`);
  const publicKey = raw.subarray(1);
  if (publicKey.length !== 32) throw badKey(text, 'Ed25519 keys are 32 bytes');
  const keyId = keyIdFor(name, type, publicKey);
  if (toHex(keyId) !== idHex) throw badKey(text, 'key id does not match the key');
  return { name, keyId, type, publicKey, text };
}

/** Parse a signer key as written by `generateNoteKey`. */
export function parseSignerKey(text: string): NoteSigner {
  if (typeof text !== 'string') throw new ParapetTypeError('signer key must be a string');
  // Split on the first two '+' after the prefix only: base64 may contain '+'.
  const rest = text.startsWith('PRIVATE+KEY+') ? text.slice('PRIVATE+KEY+'.length) : '';
  const first = rest.indexOf('+');
  const second = first < 0 ? -1 : rest.indexOf('+', first + 1);
  if (second < 0) throw new ParapetRangeError('signer key must be PRIVATE+KEY+<name>+<key id>+<key>', 'invalid-value');
  const name = rest.slice(0, first);
  const idHex = rest.slice(first + 1, second);
  const b64 = rest.slice(second + 1);
  if (!isValidKeyName(name)) throw new ParapetRangeError('signer key has a bad name', 'invalid-value');
  const raw = fromBase64(b64);
  const type = raw[0]!;
  if ((type !== ALG_ED25519 && type !== ALG_COSIGNATURE_V1) || raw.length !== 33) {
    throw new ParapetRangeError('signer key must hold an Ed25519 seed', 'invalid-value');
  }
  const secretKey = raw.slice(1);
  const keyId = keyIdFor(name, type, ed25519PublicKey(secretKey));
  if (toHex(keyId) !== idHex) throw new ParapetRangeError('signer key id does not match the key', 'invalid-value');
  return { name, keyId, type, secretKey };
}

/** A new key pair for signing notes (type 0x01) or cosigning checkpoints (type 0x04). */
export function generateNoteKey(name: string, type: number = ALG_ED25519): { signerKey: string; verifierKey: string } {
  if (typeof name !== 'string' || !isValidKeyName(name)) throw new ParapetRangeError(`"name" must be non-empty, without spaces or '+'`, 'invalid-value');
  if (type !== ALG_ED25519 && type !== ALG_COSIGNATURE_V1) throw new ParapetRangeError(`"type" must be 1 or 4`, 'invalid-value');
  const secretKey = crypto.getRandomValues(new Uint8Array(32));
  return noteKeysFromSeed(name, secretKey, type);
}

/** The key pair of a given 32-byte seed (for deterministic tests and key import). */
export function noteKeysFromSeed(name: string, secretKey: Uint8Array, type: number = ALG_ED25519): { signerKey: string; verifierKey: string } {
  if (typeof name !== 'string' || !isValidKeyName(name)) throw new ParapetRangeError(`"name" must be non-empty, without spaces or '+'`, 'invalid-value');
  if (type !== ALG_ED25519 && type !== ALG_COSIGNATURE_V1) throw new ParapetRangeError(`"type" must be 1 or 4`, 'invalid-value');
  const publicKey = ed25519PublicKey(secretKey);
  const id = toHex(keyIdFor(name, type, publicKey));
  const tag = (key: Uint8Array) => toBase64(Uint8Array.of(type, ...key));
  return { signerKey: `PRIVATE+KEY+${name}+${id}+${tag(secretKey)}`, verifierKey: `${name}+${id}+${tag(publicKey)}` };
}

const isSigner = (s: unknown): s is NoteSigner =>
  typeof s === 'object' && s !== null && typeof (s as NoteSigner).name === 'string' &&
  (s as NoteSigner).keyId instanceof Uint8Array && (s as NoteSigner).secretKey instanceof Uint8Array;

/** One signature line of a note. */
export interface NoteSignature {
  readonly name: string;
  readonly keyId: Uint8Array;
  /** The bytes after the key id: 64 for Ed25519, 72 (timestamp ‖ signature) for cosignatures. */
  readonly signature: Uint8Array;
}

export type NoteFailure =
  | 'malformed' //      not a signed note (structure, encoding, too many signatures)
  | 'bad-signature' //  a signature from a configured key does not verify
  | 'unverified'; //    no configured key signed it

/** What an opened note holds: its text and who signed it. */
export interface OpenedNote {
  readonly text: string;
  /** Names of configured keys whose signatures verified, in note order. */
  readonly verified: readonly string[];
  /** Cosignature timestamps by signer name (type 0x04 keys). */
  readonly timestamps: Readonly<Record<string, number>>;
  /** Signatures from keys not configured, ignored as the spec says. */
  readonly unknown: readonly { name: string; keyId: string }[];
}

/** An opened note, or why it was refused (with its text once it parsed). */
export type NoteResult = VerifyResult<NoteFailure, OpenedNote, { readonly text?: string }>;

/** A note split into its text and signature lines, or `malformed` and why. */
export type ParsedNote = VerifyResult<'malformed', { readonly text: string; readonly signatures: readonly NoteSignature[] }, {}>;

const malformed = (message: string): ParsedNote => ({ ok: false, code: 'malformed', message });

/**
 * Split a note (text, or its UTF-8 bytes) into text and signature lines,
 * checking only its structure (no signature is verified). Never throws.
 */
export function parseNote(input: string | Uint8Array): ParsedNote {
  let note: string;
  if (input instanceof Uint8Array) {
    try {
      note = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input);
    } catch {
      return malformed('note is not valid UTF-8');
    }
  } else if (typeof input === 'string') note = input;
  else return malformed('note is not a string');
  if (!isWellFormedUtf16(note)) return malformed('note is not valid UTF-8');
  // The text may hold no control characters but newline (signed-note §Format).
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(note)) return malformed('note contains a control character');
  if (!note.endsWith('\n')) return malformed('note does not end with a newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return malformed('note has no blank line before its signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length === 1 && lines[0] === '') return malformed('note has no signatures');
  if (lines.length > MAX_SIGNATURES) return malformed(`note has more than ${MAX_SIGNATURES} signatures`);
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    const m = /^\u2014 (\S+) (\S+)$/u.exec(line);
    if (!m || !line.startsWith(`${EM_DASH} `)) return malformed(`not a signature line: ${JSON.stringify(line.slice(0, 80))}`);
    const name = m[1]!;
    if (!isValidKeyName(name)) return malformed(`bad signer name ${JSON.stringify(name)}`);
    let raw: Uint8Array;
    try {
      raw = fromBase64(m[2]!);
    } catch {
      return malformed(`signature of ${name} is not base64`);
    }
    if (raw.length < 5) return malformed(`signature of ${name} is too short`);
    signatures.push({ name, keyId: raw.subarray(0, 4), signature: raw.subarray(4) });
  }
  return { ok: true, text, signatures };
}

/** The message a cosignature/v1 signs: "cosignature/v1\ntime <t>\n" ‖ checkpoint text. */
export function cosignedMessage(text: string, timestamp: number): Uint8Array {
  return new TextEncoder().encode(`cosignature/v1\ntime ${timestamp}\n${text}`);
}

function readU64(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  const value = view.getBigUint64(0);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}

/**
 * Open a signed note with the configured verifier keys. Never throws on the
 * note's content. Valid only if at least one configured key signed it and no
 * configured key has only failing signatures (a bad signature from a known key
 * is an attack, not noise); signatures from unknown keys are reported and
 * ignored. A key's repeated lines are not checked once one verified, as in Go's
 * note.Open, and a failing line of a key with a valid one is ignored whatever
 * the order: anyone who relays the note could add such a line.
 */
export function openNote(note: string | Uint8Array, verifiers: readonly NoteVerifier[]): NoteResult {
  assertVerifiers(verifiers, 'verifiers');
  const parsed = parseNote(note);
  if (!parsed.ok) return parsed;
  const { text, signatures } = parsed;
  const bytes = new TextEncoder().encode(text);
  const verified: string[] = [];
  // Keyed by configured names, which may be any valid key name, "__proto__" included.
  const timestamps: Record<string, number> = Object.create(null) as Record<string, number>;
  const unknown: { name: string; keyId: string }[] = [];
  const seenUnknown = new Set<string>();
  const good = new Set<NoteVerifier>();
  const failed: NoteVerifier[] = [];
  for (const sig of signatures) {
    const key = verifiers.find((v) => v.name === sig.name && bytesEqual(v.keyId, sig.keyId));
    if (!key) {
      const line = `${sig.name} ${toHex(sig.keyId)} ${toHex(sig.signature)}`;
      if (!seenUnknown.has(line)) unknown.push({ name: sig.name, keyId: toHex(sig.keyId) });
      seenUnknown.add(line);
      continue;
    }
    if (good.has(key)) continue;
    let ok = false;
    if (key.type === ALG_ED25519) {
      ok = sig.signature.length === 64 && ed25519Verify(sig.signature, bytes, key.publicKey);
    } else if (key.type === ALG_COSIGNATURE_V1 && sig.signature.length === 72) {
      const timestamp = readU64(sig.signature.subarray(0, 8));
      ok = timestamp !== undefined && ed25519Verify(sig.signature.subarray(8), cosignedMessage(text, timestamp), key.publicKey);
      if (ok) timestamps[key.name] = timestamp!;
    }
    if (!ok) {
      if (!failed.includes(key)) failed.push(key);
      continue;
    }
    good.add(key);
    if (!verified.includes(key.name)) verified.push(key.name);
  }
  const bad = failed.find((key) => !good.has(key));
  if (bad) return { ok: false, code: 'bad-signature', message: `invalid signature for key ${bad.name}+${toHex(bad.keyId)}`, text };
  if (verified.length === 0) return { ok: false, code: 'unverified', message: 'no configured key signed this note', text };
  return { ok: true, text, verified, timestamps, unknown };
}

const isVerifier = (v: unknown): v is NoteVerifier =>
  typeof v === 'object' && v !== null && typeof (v as NoteVerifier).name === 'string' &&
  (v as NoteVerifier).keyId instanceof Uint8Array && (v as NoteVerifier).publicKey instanceof Uint8Array;

/** The verifier list is the caller's configuration: anything but parsed keys is misuse, refused before the note is read. */
export function assertVerifiers(value: unknown, name: string): asserts value is readonly NoteVerifier[] {
  if (!Array.isArray(value)) throw new ParapetTypeError(`"${name}" must be an array of verifier keys (from parseVerifierKey), got ${describe(value)}`);
  for (let i = 0; i < value.length; i++) {
    if (!isVerifier(value[i])) throw new ParapetTypeError(`"${name}[${i}]" must be a verifier key from parseVerifierKey, got ${describe(value[i])}`);
  }
}

/**
 * Sign `text` (which must end in "\n" and hold no control characters but
 * newline) with each signer; returns the note. Cosigners (type 0x04) sign at
 * their `timestamp`, or now.
 */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  if (typeof text !== 'string' || !text.endsWith('\n') || /[\u0000-\u0009\u000b-\u001f\u007f]/.test(text) || !isWellFormedUtf16(text)) {
    throw new ParapetRangeError('"text" must be UTF-8 ending in a newline, without other control characters', 'invalid-value');
  }
  if (text.includes('\n\n')) throw new ParapetRangeError('"text" must not contain a blank line', 'invalid-value');
  if (!Array.isArray(signers) || !signers.every(isSigner)) throw new ParapetTypeError('"signers" must be an array of signer keys (from parseSignerKey)');
  if (signers.length === 0) throw new ParapetRangeError('"signers" must not be empty', 'invalid-value');
  const bytes = new TextEncoder().encode(text);
  const lines = signers.map((s) => {
    let body: Uint8Array;
    if (s.type === ALG_COSIGNATURE_V1) {
      const timestamp = s.timestamp ?? Math.floor(Date.now() / 1000);
      const stamp = new Uint8Array(8);
      new DataView(stamp.buffer).setBigUint64(0, BigInt(timestamp));
      body = Uint8Array.of(...stamp, ...ed25519Sign(cosignedMessage(text, timestamp), s.secretKey));
    } else {
      body = ed25519Sign(bytes, s.secretKey);
    }
    return `${EM_DASH} ${s.name} ${toBase64(Uint8Array.of(...s.keyId, ...body))}\n`;
  });
  return `${text}\n${lines.join('')}`;
}
