/**
 * parapet for edge runtimes (workerd, other workers) that forbid compiling
 * wasm from bytes: core.wasm arrives as a precompiled `WebAssembly.Module`
 * through the runtime's module loader.
 */
import wasmModule from './core.wasm';
import { loadCore, type InitSource } from './bindings/instance.js';

/** Load the core; defaults to the precompiled module bundled beside this file. */
export function init(source?: InitSource): Promise<void> {
  return loadCore(source, () => wasmModule);
}

export * from './bindings/index.js';
