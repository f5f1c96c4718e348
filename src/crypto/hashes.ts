import { createBLAKE2b, createSHA512, type IHasher } from 'hash-wasm';
import { assertBytes, ParapetStateError } from '../bindings/errors.js';

/**
 * SHA-512 and BLAKE2b-512 from hash-wasm, made synchronous by compiling their
 * hashers once in `initHashes()`. Used for Ed25519 (SHA-512), SSHSIG message
 * hashes (SHA-512) and minisign's prehash (BLAKE2b-512).
 */
let sha512Hasher: IHasher | undefined;
let blake2bHasher: IHasher | undefined;
let pending: Promise<void> | undefined;

export function initHashes(): Promise<void> {
  if (sha512Hasher && blake2bHasher) return Promise.resolve();
  pending ??= Promise.all([createSHA512(), createBLAKE2b(512)]).then(
    ([s, b]) => {
      sha512Hasher = s;
      blake2bHasher = b;
    },
    (cause: unknown) => {
      pending = undefined;
      throw new ParapetStateError(`parapet: could not load SHA-512/BLAKE2b (${String(cause)})`, 'init-failed', { cause });
    },
  );
  return pending;
}

function run(hasher: IHasher | undefined, data: Uint8Array): Uint8Array {
  if (!hasher) throw new ParapetStateError('parapet: call `await init()` before hashing with SHA-512 or BLAKE2b', 'not-initialized');
  assertBytes(data, 'data');
  hasher.init();
  hasher.update(data);
  return hasher.digest('binary');
}

export const sha512 = (data: Uint8Array): Uint8Array => run(sha512Hasher, data);
export const blake2b512 = (data: Uint8Array): Uint8Array => run(blake2bHasher, data);
