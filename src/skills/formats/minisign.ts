import { bytesEqual, fromBase64, toBase64 } from '../../bindings/encoding.js';
import { assertBytes, ParapetRangeError, ParapetTypeError } from '../../bindings/errors.js';
import { blake2b512 } from '../../crypto/hashes.js';
import { ed25519Sign, ed25519Verify } from '../../crypto/ed25519.js';

/**
 * minisign (jedisct1) public keys and signatures, Ed25519 only:
 * - public key: base64("Ed" ‖ key id[8] ‖ public key[32]);
 * - signature file: "untrusted comment: …", base64(alg[2] ‖ key id[8] ‖ sig[64]),
 *   "trusted comment: …", base64(global sig[64]). alg "ED" signs
 *   BLAKE2b-512(file) (the default since 0.10), "Ed" the file itself (legacy);
 *   the global signature covers sig ‖ trusted comment, so the comment cannot be
 *   swapped.
 */
export interface MinisignKey {
  readonly keyId: Uint8Array;
  readonly publicKey: Uint8Array;
}

export interface MinisignSignature {
  readonly prehashed: boolean;
  readonly keyId: Uint8Array;
  readonly signature: Uint8Array;
  readonly trustedComment: string;
  readonly globalSignature: Uint8Array;
}

const isBytes = (v: unknown): v is Uint8Array => v instanceof Uint8Array;

/**
 * The trusted-comment field in which parapet's minisign signatures carry the
 * signer's raw public key (base64), tab-separated like minisign's own fields.
 */
export const MINISIGN_KEY_FIELD = 'parapet-key:';

/** The public key a trusted comment names in its `parapet-key:` field; undefined unless exactly one well-formed field. */
export function commentPublicKey(trustedComment: string): Uint8Array | undefined {
  const fields = trustedComment.split('\t').filter((f) => f.startsWith(MINISIGN_KEY_FIELD));
  if (fields.length !== 1) return undefined;
  try {
    const key = fromBase64(fields[0]!.slice(MINISIGN_KEY_FIELD.length));
    return key.length === 32 ? key : undefined;
  } catch {
    return undefined;
  }
}

/** Parse a public key: the bare base64 line or a whole .pub file. Undefined if it is not one. */
export function parseMinisignPublicKey(text: string): MinisignKey | undefined {
  if (typeof text !== 'string') return undefined;
  const line = text.split('\n').map((l) => l.trim()).find((l) => l.startsWith('RW'));
  if (!line) return undefined;
  try {
    const raw = fromBase64(line);
    if (raw.length !== 42 || raw[0] !== 0x45 || raw[1] !== 0x64) return undefined;
    return { keyId: raw.slice(2, 10), publicKey: raw.slice(10) };
  } catch {
    return undefined;
  }
}

/**
 * Parse a .minisig file; undefined when malformed (never throws). Its four
 * lines and nothing after them: a skill bundle leaves this file out of its
 * digest, so text after the signature would ride along unsigned. (The first
 * line's untrusted comment is free text by minisign's design and is not read.)
 */
export function parseMinisignSignature(text: string): MinisignSignature | undefined {
  if (typeof text !== 'string') return undefined;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length === 5 && lines[4] === '') lines.pop();
  if (lines.length !== 4 || !lines[0]!.startsWith('untrusted comment:') || !lines[2]!.startsWith('trusted comment: ')) return undefined;
  try {
    const sig = fromBase64(lines[1]!.trim());
    const global = fromBase64(lines[3]!.trim());
    if (sig.length !== 74 || global.length !== 64) return undefined;
    const alg = String.fromCharCode(sig[0]!, sig[1]!);
    if (alg !== 'ED' && alg !== 'Ed') return undefined;
    return { prehashed: alg === 'ED', keyId: sig.slice(2, 10), signature: sig.slice(10), trustedComment: lines[2]!.slice('trusted comment: '.length), globalSignature: global };
  } catch {
    return undefined;
  }
}

/** Verify `message` against a parsed signature and key: both the signature and the trusted-comment signature. */
export function verifyMinisign(message: Uint8Array, sig: MinisignSignature, key: MinisignKey): boolean {
  if (!(message instanceof Uint8Array) || !isBytes(sig?.keyId) || !isBytes(sig.signature) || !isBytes(sig.globalSignature)) return false;
  if (typeof sig.trustedComment !== 'string' || !isBytes(key?.keyId) || !isBytes(key.publicKey)) return false;
  if (!bytesEqual(sig.keyId, key.keyId)) return false;
  const signed = sig.prehashed ? blake2b512(message) : message;
  if (!ed25519Verify(sig.signature, signed, key.publicKey)) return false;
  const comment = new TextEncoder().encode(sig.trustedComment);
  const global = new Uint8Array(64 + comment.length);
  global.set(sig.signature);
  global.set(comment, 64);
  return ed25519Verify(sig.globalSignature, global, key.publicKey);
}

/** A minisign public key file for a raw Ed25519 key and an 8-byte key id. */
export function minisignPublicKeyFile(publicKey: Uint8Array, keyId: Uint8Array): string {
  assertBytes(publicKey, 'publicKey', 32);
  assertBytes(keyId, 'keyId', 8);
  const id = [...keyId].reverse().map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
  return `untrusted comment: minisign public key ${id}\n${toBase64(Uint8Array.of(0x45, 0x64, ...keyId, ...publicKey))}\n`;
}

/**
 * A prehashed ("ED") minisign signature of `message`, as `minisign -S` writes
 * it, so `minisign -V` (and `-H`) can check it.
 */
export function signMinisign(message: Uint8Array, secretKey: Uint8Array, keyId: Uint8Array, trustedComment: string): string {
  assertBytes(keyId, 'keyId', 8);
  if (typeof trustedComment !== 'string') throw new ParapetTypeError('"trustedComment" must be a string');
  if (/[\r\n]/.test(trustedComment)) throw new ParapetRangeError('"trustedComment" must be one line', 'invalid-value');
  const signature = ed25519Sign(blake2b512(message), secretKey);
  const comment = new TextEncoder().encode(trustedComment);
  const global = ed25519Sign(Uint8Array.of(...signature, ...comment), secretKey);
  return `untrusted comment: signature from parapet\n${toBase64(Uint8Array.of(0x45, 0x44, ...keyId, ...signature))}\ntrusted comment: ${trustedComment}\n${toBase64(global)}\n`;
}
