import { CORE_WASM_BASE64 } from './core-wasm.generated.js';
import { decodeBase64Unchecked } from './bindings/encoding.js';
import { ready, readySync, type InitOptions, type InitSyncOptions } from './ready.js';

export type { InitOptions, InitSyncOptions, Sha512 } from './ready.js';

function embeddedBytes(): Uint8Array {
  return decodeBase64Unchecked(CORE_WASM_BASE64);
}

/**
 * Load the WebAssembly core and ready Ed25519: the one `init` that every
 * subpath exports. With no options, the core embedded in this package and the
 * runtime's SHA-512 are used; pass `{ module }` to load another core (a
 * `WebAssembly.Module`, bytes, a `Response` or a promise of one) and
 * `{ sha512 }` where the runtime has no SHA-512 of its own that parapet can
 * use synchronously. Idempotent: later calls resolve at once, and a failed
 * call can be retried. After it resolves, every hot call is synchronous.
 */
export function init(options?: InitOptions): Promise<void> {
  return ready(options, embeddedBytes);
}

/**
 * `init` without the promise, for a core at hand (the embedded one, a
 * `WebAssembly.Module` or bytes). Throws, loading nothing, where no synchronous
 * SHA-512 exists (a browser without `sha512`): use `await init()` there.
 */
export function initSync(options?: InitSyncOptions): void {
  readySync(options, embeddedBytes);
}
