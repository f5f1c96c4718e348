/**
 * parapet/tlog for edge runtimes (the transparency log): the same API as the default entry,
 * with the edge `init`. A module's own export takes precedence over
 * `export *`, so `init` and `initSync` here are the edge ones.
 */
export * from '../tlog/index.js';
export { init, initSync } from './init.js';
