// parapet in a Cloudflare Worker (workerd), which forbids compiling wasm from
// bytes: the `workerd` / `worker` export condition selects each subpath's edge
// entry, whose `init` loads the core.wasm shipped beside it as a precompiled
// module through the runtime's loader (pass `init({ module })` for another copy).
// Ed25519 needs a synchronous SHA-512 there (npm i @noble/hashes).
// Bundle with your usual tool (wrangler, vite, esbuild) keeping *.wasm as modules;
// test/examples.test.ts bundles it with vite and serves it with workerd.
import { init, sha256, toHex } from 'parapet';
import * as tlog from 'parapet/tlog';
import { sha512 } from '@noble/hashes/sha2.js';

let ready;

export default {
  async fetch() {
    ready ??= init({ sha512 }); // one init readies the core and Ed25519 for every subpath
    await ready;
    const digest = toHex(sha256(new TextEncoder().encode('abc')));
    const { signerKey, verifierKey } = tlog.generateNoteKey('example.com/log');
    const tree = new tlog.MerkleTree();
    tree.append(new TextEncoder().encode('hello'));
    const note = tlog.signCheckpoint({ origin: 'example.com/log', size: 1, root: tree.root(), extensions: [] }, [tlog.parseSignerKey(signerKey)]);
    const opened = tlog.openCheckpoint(note, [tlog.parseVerifierKey(verifierKey)], { origin: 'example.com/log' });
    return new Response(`sha256("abc") ${digest}\ncheckpoint opens: ${opened.ok}\n`, { headers: { 'content-type': 'text/plain' } });
  },
};
