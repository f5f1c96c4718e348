import { describe, ParapetRangeError, ParapetStateError, ParapetTypeError, assertBytes } from '../bindings/errors.js';

/**
 * SHA-512 (Ed25519, SSHSIG message hashes) and BLAKE2b-512 (minisign's
 * prehash), synchronous once a set of them has been adopted by `init`.
 *
 * Sources, the first that applies: a SHA-512 the caller supplies; the
 * runtime's own node:crypto, reached through `getBuiltinModule` on
 * `globalThis.process` (Node ≥ 20.16, Deno, Bun) rather than a static import, so that browsers and
 * bundlers never see it, and loaded at the first hash, so that an `init` for
 * SHA-256 alone costs nothing here; hash-wasm's, compiled once by the async
 * `init` where neither exists (browsers, older Node).
 */
export type Sha512 = (message: Uint8Array) => Uint8Array;
type Hash = (data: Uint8Array) => Uint8Array;
export interface HashSet {
  readonly sha512: Hash;
  readonly blake2b512?: Hash;
}
interface NodeCrypto {
  createHash(algorithm: string): { update(data: Uint8Array): { digest(): Uint8Array } };
}
type GetBuiltinModule = (id: string) => unknown;

let adopted: HashSet | undefined;
let pending: Promise<HashSet> | undefined;

/** True once SHA-512 is synchronous. */
export function hashesReady(): boolean {
  return adopted !== undefined;
}

/** The first set adopted stays: `init` is idempotent, and a later call cannot swap the hash under Ed25519. */
export function adoptHashes(set: HashSet): void {
  adopted ??= set;
}

/**
 * The synchronous sources at hand: the caller's SHA-512 (checked first) with
 * the runtime's BLAKE2b where there is one, or the runtime's own pair;
 * undefined where only hash-wasm would do.
 */
export function syncHashes(sha512?: Sha512): HashSet | undefined {
  const native = nativeHashes();
  if (sha512 !== undefined) return { sha512: checkedSha512(sha512), ...(native ? { blake2b512: native.blake2b512 } : {}) };
  return native;
}

/** hash-wasm's SHA-512 and BLAKE2b-512, compiled once; a failed load is forgotten so that init can be retried. */
export function loadHashWasm(): Promise<HashSet> {
  pending ??= import('hash-wasm').then(
    async ({ createSHA512, createBLAKE2b }) => {
      const [s, b] = await Promise.all([createSHA512(), createBLAKE2b(512)]);
      const of = (hasher: typeof s): Hash => (data) => {
        hasher.init();
        hasher.update(data);
        return hasher.digest('binary');
      };
      return { sha512: of(s), blake2b512: of(b) };
    },
  ).catch((cause: unknown) => {
    pending = undefined;
    throw new ParapetStateError(
      `parapet: could not load SHA-512 for Ed25519 (${String(cause)}). Runtimes that forbid compiling wasm ` +
        'from bytes (edge workers) must pass a synchronous one: init({ sha512 })',
      'init-failed',
      { cause },
    );
  });
  return pending;
}

function nativeHashes(): HashSet | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: GetBuiltinModule } }).process;
  if (typeof runtime?.getBuiltinModule !== 'function') return undefined;
  let crypto: NodeCrypto | undefined;
  const of = (algorithm: string): Hash => (data) => {
    crypto ??= runtime.getBuiltinModule!('node:crypto') as NodeCrypto | undefined;
    if (!crypto) throw new ParapetStateError('parapet: this runtime has getBuiltinModule but no node:crypto; pass init({ sha512 })', 'init-failed');
    // A copy: a Buffer's slice() shares memory, and callers expect a plain Uint8Array.
    return new Uint8Array(crypto.createHash(algorithm).update(data).digest());
  };
  return { sha512: of('sha512'), blake2b512: of('blake2b512') };
}

const FIPS_ABC = 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f';
const FIPS_TWO_BLOCK_INPUT = 'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu';
const FIPS_TWO_BLOCK = '8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909';

/**
 * A supplied SHA-512 must compute SHA-512: with a wrong hash (a constant, a
 * truncation, a buffer reused between calls) Ed25519's verification equation
 * can be met by anyone, so a forged checkpoint or skill would verify.
 * Checked against FIPS 180-4's examples, one and two blocks long.
 */
function checkedSha512(sha512: unknown): Hash {
  if (typeof sha512 !== 'function') throw new ParapetTypeError(`"sha512" must be a function, got ${describe(sha512)}`);
  const f = sha512 as Hash;
  const hex = (bytes: unknown) => (bytes instanceof Uint8Array ? Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') : '');
  let ok = false;
  try {
    const one = f(new TextEncoder().encode('abc'));
    const two = f(new TextEncoder().encode(FIPS_TWO_BLOCK_INPUT));
    ok = hex(one) === FIPS_ABC && hex(two) === FIPS_TWO_BLOCK;
  } catch {
    ok = false;
  }
  if (!ok) throw new ParapetRangeError('"sha512" does not compute SHA-512 (it fails the FIPS 180-4 examples)', 'invalid-value');
  return f;
}

function run(hash: Hash | undefined, data: Uint8Array, what: string): Uint8Array {
  if (!hash) throw new ParapetStateError(`parapet: ${what}`, 'not-initialized');
  assertBytes(data, 'data');
  return hash(data);
}

export const sha512 = (data: Uint8Array): Uint8Array => run(adopted?.sha512, data, 'call `await init()` before hashing with SHA-512');
export const blake2b512 = (data: Uint8Array): Uint8Array =>
  run(adopted?.blake2b512, data, adopted
    ? 'minisign needs BLAKE2b-512, which this runtime lacks when init is given its own sha512 (no node:crypto, no hash-wasm)'
    : 'call `await init()` before hashing with BLAKE2b');
