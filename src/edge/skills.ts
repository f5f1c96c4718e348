/**
 * parapet/skills for edge runtimes (skill signatures): the same API as the default entry,
 * with the edge `init`. A module's own export takes precedence over
 * `export *`, so `init` and `initSync` here are the edge ones.
 */
export * from '../skills/index.js';
export { init, initSync } from './init.js';
