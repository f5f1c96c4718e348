/**
 * parapet — the default, isomorphic entry. Runs anywhere that compiles wasm
 * from bytes (Node, Deno, Bun, browsers); edge workers resolve to `edge/index.ts`
 * through the `workerd` / `worker` export conditions.
 *
 * @module parapet
 */
export { init, initSync, type InitOptions, type InitSyncOptions, type Sha512 } from './init.js';
export * from './bindings/index.js';
