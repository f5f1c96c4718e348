import { describe, ParapetStateError, ParapetTypeError } from './bindings/errors.js';
import { loadCore, loadCoreSync, type InitSource } from './bindings/instance.js';
import { adoptHashes, hashesReady, loadHashWasm, syncHashes, type Sha512 } from './crypto/hashes.js';

export type { Sha512 } from './crypto/hashes.js';

/** What `init` takes. Both keys are optional: `await init()` is the usual call. */
export interface InitOptions {
  /**
   * The core: a compiled `WebAssembly.Module`, the wasm bytes, a fetch
   * `Response`, or a promise of one. Default: the copy this package carries
   * (embedded in the default entry; the precompiled `core.wasm` module in the
   * edge entries).
   */
  readonly module?: InitSource;
  /**
   * A synchronous SHA-512 for Ed25519 and SSHSIG, for runtimes with neither
   * node:crypto nor leave to compile wasm from bytes (edge workers without
   * `nodejs_compat`). It is checked against FIPS 180-4 examples first.
   */
  readonly sha512?: Sha512;
}

/** What `initSync` takes: as `InitOptions`, with the core already at hand (no `Response`, no promise). */
export interface InitSyncOptions {
  readonly module?: WebAssembly.Module | BufferSource;
  readonly sha512?: Sha512;
}

const KEYS = new Set(['module', 'sha512']);

/** Load the core and ready Ed25519 (SHA-512): what every entry's `init` does. */
export async function ready(options: InitOptions | undefined, fallback: () => InitSource): Promise<void> {
  const { module, sha512 } = readOptions(options, 'init');
  const hashes = hashesReady() ? undefined : syncHashes(sha512);
  await Promise.all([
    loadCore(module as InitSource | undefined, fallback),
    hashes || hashesReady() ? undefined : loadHashWasm().then(adoptHashes),
  ]);
  if (hashes) adoptHashes(hashes);
}

/**
 * `ready` without the promise. Everything that can fail is checked before
 * anything loads, so that a refused call leaves the package as it was.
 */
export function readySync(options: InitSyncOptions | undefined, fallback: () => WebAssembly.Module | BufferSource): void {
  const { module, sha512 } = readOptions(options, 'initSync');
  if (module !== undefined && !(module instanceof WebAssembly.Module) && !isBytes(module)) {
    throw new ParapetTypeError(`"module" must be a WebAssembly.Module or the wasm bytes for initSync, got ${describe(module)} (a Response or a promise needs \`await init({ module })\`)`);
  }
  const hashes = hashesReady() ? undefined : syncHashes(sha512);
  if (!hashes && !hashesReady()) {
    throw new ParapetStateError(
      'parapet: initSync needs a synchronous SHA-512 for Ed25519, and this runtime has none (no node:crypto): ' +
        'pass one, initSync({ sha512 }), or call `await init()`',
      'init-failed',
    );
  }
  loadCoreSync((module as WebAssembly.Module | BufferSource | undefined) ?? fallback());
  if (hashes) adoptHashes(hashes);
}

function readOptions(options: unknown, fn: 'init' | 'initSync'): { module?: unknown; sha512?: Sha512 } {
  if (options === undefined) return {};
  // The positional form `init(wasm)` of earlier releases: say what to write instead of loading the embedded core.
  if (options === null || typeof options !== 'object' || options instanceof WebAssembly.Module || isBytes(options) || isResponseOrPromise(options)) {
    throw new ParapetTypeError(`${fn} takes an options object, got ${describe(options)}: pass the core as ${fn}({ module })`);
  }
  for (const key of Object.keys(options)) {
    if (!KEYS.has(key)) throw new ParapetTypeError(`${fn} has no option "${key}" (it takes module and sha512)`);
  }
  const { module, sha512 } = options as InitOptions;
  if (sha512 !== undefined && typeof sha512 !== 'function') throw new ParapetTypeError(`"sha512" must be a function, got ${describe(sha512)}`);
  if (fn === 'init' && module !== undefined && !(module instanceof WebAssembly.Module) && !isBytes(module) && !isResponseOrPromise(module)) {
    throw new ParapetTypeError(`"module" must be a WebAssembly.Module, the wasm bytes, a Response or a promise of one, got ${describe(module)}`);
  }
  return { module, ...(sha512 !== undefined ? { sha512 } : {}) };
}

function isBytes(value: unknown): value is BufferSource {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

// By shape: touching the global `Response` in Node 20 loads its fetch implementation (~15 ms).
function isResponseOrPromise(value: unknown): boolean {
  const v = value as { arrayBuffer?: unknown; then?: unknown } | null;
  return typeof v?.arrayBuffer === 'function' || typeof v?.then === 'function';
}
