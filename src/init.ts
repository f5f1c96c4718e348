import { CORE_WASM_BASE64 } from './core-wasm.generated.js';
import { decodeBase64Unchecked } from './bindings/encoding.js';
import { loadCore, loadCoreSync, type InitSource } from './bindings/instance.js';

function embeddedBytes(): Uint8Array {
  return decodeBase64Unchecked(CORE_WASM_BASE64);
}

/**
 * Load the WebAssembly core. With no argument, the copy embedded in this
 * package is used; pass a `WebAssembly.Module` (edge runtimes), bytes, a
 * `Response` or a promise of one to load another. Idempotent: later calls
 * resolve at once. After it resolves, every hot call is synchronous.
 */
export function init(source?: InitSource): Promise<void> {
  return loadCore(source, embeddedBytes);
}

/** `init` without the promise, for the embedded core or a module/bytes at hand. */
export function initSync(source?: WebAssembly.Module | BufferSource): void {
  loadCoreSync(source ?? embeddedBytes());
}
