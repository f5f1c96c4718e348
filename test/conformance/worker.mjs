// Runner for workerd (Cloudflare's runtime), which forbids compiling wasm
// from bytes. The package is imported by name, as an application would, so
// the `workerd` export conditions pick each subpath's edge entry: its `init`
// loads core.wasm as a precompiled module through the runtime's module loader,
// and Ed25519's SHA-512 is supplied synchronously (@noble/hashes) instead of
// hash-wasm's wasm. Bundled by the test, with core.wasm left as an import for
// workerd to resolve.
import { sha512 } from '@noble/hashes/sha2.js';
import * as core from 'parapet';
import * as tlog from 'parapet/tlog';
import * as vmg from 'parapet/vmg';
import * as ipi from 'parapet/ipi';
import * as skills from 'parapet/skills';
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
      await runChecks({ core, tlog, vmg, ipi, skills }, { init: { sha512 } });
    } finally {
      console.log = log;
    }
    return new Response(lines.join('\n'), { headers: { 'content-type': 'text/plain' } });
  },
};
