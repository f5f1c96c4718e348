/**
 * parapet for edge runtimes (workerd, other workers): the core API, with an
 * `init` that loads the precompiled core.wasm instead of compiling embedded
 * bytes. Selected by the `workerd` / `worker` export conditions.
 */
export { init, initSync, type InitOptions, type InitSyncOptions, type Sha512 } from './init.js';
export * from '../bindings/index.js';
