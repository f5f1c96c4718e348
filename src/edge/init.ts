/**
 * `init` for edge runtimes (workerd, other workers) that forbid compiling
 * wasm from bytes: core.wasm arrives as a precompiled `WebAssembly.Module`
 * through the runtime's module loader, and the embedded base64 copy of it the
 * default entries carry stays out of the bundle.
 */
import wasmModule from '../core.wasm';
import { ready, readySync, type InitOptions, type InitSyncOptions } from '../ready.js';

export type { InitOptions, InitSyncOptions, Sha512 } from '../ready.js';

/** As the default `init`, with the precompiled core.wasm beside this file as the default module. */
export function init(options?: InitOptions): Promise<void> {
  return ready(options, () => wasmModule);
}

/** As the default `initSync`, with the precompiled core.wasm beside this file as the default module. */
export function initSync(options?: InitSyncOptions): void {
  readySync(options, () => wasmModule);
}
