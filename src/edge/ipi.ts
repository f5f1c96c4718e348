/**
 * parapet/ipi for edge runtimes (the injection detector): the same API as the default entry,
 * with the edge `init`. A module's own export takes precedence over
 * `export *`, so `init` and `initSync` here are the edge ones.
 */
export * from '../ipi/index.js';
export { init, initSync } from './init.js';
