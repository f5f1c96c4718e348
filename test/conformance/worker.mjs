// Runner for workerd (Cloudflare's runtime), which forbids compiling wasm
// from bytes: core.wasm arrives as a precompiled module through the
// runtime's module loader, and Ed25519's SHA-512 is supplied synchronously
// (@noble/hashes) instead of hash-wasm's wasm. Bundled by the test, with
// ./core.wasm left as an import for workerd to resolve.
import wasm from './core.wasm';
import { sha512 } from '@noble/hashes/sha2.js';
import * as core from '../../dist/edge.js';
import * as tlog from '../../dist/tlog.js';
import * as vmg from '../../dist/vmg.js';
import * as ipi from '../../dist/ipi.js';
import * as skills from '../../dist/skills.js';
import { runChecks } from './checks.mjs';

export default {
  async fetch() {
    const lines = ['runtime: workerd'];
    const log = console.log;
    console.log = (...args) => {
      lines.push(args.join(' '));
      log(...args);
    };
    try {
      await tlog.initEd25519(sha512);
      await runChecks({ core, tlog, vmg, ipi, skills }, { wasm });
    } finally {
      console.log = log;
    }
    return new Response(lines.join('\n'), { headers: { 'content-type': 'text/plain' } });
  },
};
