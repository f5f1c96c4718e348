import * as ed from '@noble/ed25519';
import { hashesReady, sha512 } from './hashes.js';
import { assertBytes, ParapetStateError } from '../bindings/errors.js';

/**
 * Ed25519 for signatures across parapet (checkpoints, skills): @noble/ed25519
 * with its SHA-512 supplied synchronously (see hashes.ts; `init` readies it),
 * verifying strictly per RFC 8032 (`zip215: false`; noble's default accepts
 * Wycheproof tcId 151, an R that encodes y = 1 with the sign bit set).
 */

type NobleSha512 = typeof ed.hashes.sha512;

function requireReady(): void {
  if (!hashesReady()) throw new ParapetStateError('parapet: call `await init()` before signing or verifying', 'not-initialized');
  // Wired here rather than at import, so that importing this module changes nothing in noble.
  if (ed.hashes.sha512 !== sha512) ed.hashes.sha512 = sha512 as NobleSha512;
}

/**
 * Strict RFC 8032 verification. Never throws on attacker-controlled input: a
 * malformed key or signature is simply not a valid signature.
 */
export function ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  requireReady();
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return false;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) return false;
  if (!(message instanceof Uint8Array)) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** Sign `message` with a 32-byte Ed25519 secret key (seed). */
export function ed25519Sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  requireReady();
  assertBytes(message, 'message');
  assertBytes(secretKey, 'secretKey', 32);
  return ed.sign(message, secretKey);
}

/** The public key of a 32-byte secret key. */
export function ed25519PublicKey(secretKey: Uint8Array): Uint8Array {
  requireReady();
  assertBytes(secretKey, 'secretKey', 32);
  return ed.getPublicKey(secretKey);
}

/** A fresh key pair from the platform's CSPRNG. */
export function ed25519Keygen(): { secretKey: Uint8Array; publicKey: Uint8Array } {
  requireReady();
  const secretKey = crypto.getRandomValues(new Uint8Array(32));
  return { secretKey, publicKey: ed.getPublicKey(secretKey) };
}
