import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { hex, readVectorJson } from './helpers/vectors.js';

// Each case loads the package afresh (vi.resetModules): the core and the
// SHA-512 source start unset, as in a new process.
const wasmBytes = readFileSync(new URL('../build/core.wasm', import.meta.url));
const [rfc8032] = readVectorJson<{ vectors: { secretKey: string; publicKey: string; message: string; signature: string }[] }>(
  'rfc8032/ed25519_rfc8032.json',
).vectors;
// RFC 7693 Appendix A.
const BLAKE2B_ABC = 'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923';
const abc = new TextEncoder().encode('abc');
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function fresh() {
  vi.resetModules();
  const root = await import('../src/index.js');
  const ed = await import('../src/crypto/ed25519.js');
  const hashes = await import('../src/crypto/hashes.js');
  return { root, ed, hashes };
}

/** A runtime without node:crypto reachable synchronously (a browser, an edge worker, Node < 20.16). */
function hideNativeCrypto() {
  const original = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
  Object.defineProperty(process, 'getBuiltinModule', { value: undefined, configurable: true, writable: true });
  return () => (original ? Object.defineProperty(process, 'getBuiltinModule', original) : delete (process as { getBuiltinModule?: unknown }).getBuiltinModule);
}

describe('one init', () => {
  it('every subpath exports the same init and initSync', async () => {
    const { root } = await fresh();
    const entries = await Promise.all([import('../src/tlog/index.js'), import('../src/vmg/index.js'), import('../src/skills/index.js'), import('../src/ipi/index.js')]);
    for (const entry of entries) {
      expect(entry.init).toBe(root.init);
      expect(entry.initSync).toBe(root.initSync);
    }
  });

  it('initSync readies Ed25519: a store signs a checkpoint right after it', async () => {
    const { root } = await fresh();
    const { VmgMemoryStore } = await import('../src/vmg/index.js');
    const { generateNoteKey, parseSignerKey, parseVerifierKey, openCheckpoint } = await import('../src/tlog/index.js');
    root.initSync();
    const keys = generateNoteKey('example.com/memory');
    const store = await VmgMemoryStore.open({ agentId: 'a', sessionId: 's', signer: parseSignerKey(keys.signerKey), origin: 'example.com/memory' });
    await store.put('k', { v: 1 }, { policyTag: 'persistent' });
    const note = await store.checkpoint();
    const opened = openCheckpoint(note, [parseVerifierKey(keys.verifierKey)], { origin: 'example.com/memory' });
    expect(opened.ok && opened.checkpoint.size).toBe(1);
    await store.close();
  });

  it('signs with the runtime SHA-512 after either init (RFC 8032 §7.1)', async () => {
    for (const run of [(r: typeof import('../src/index.js')) => r.initSync(), (r: typeof import('../src/index.js')) => r.init()]) {
      const { root, ed } = await fresh();
      await run(root);
      expect(toHex(ed.ed25519Sign(hex(rfc8032!.message), hex(rfc8032!.secretKey)))).toBe(rfc8032!.signature);
    }
  });
});

describe('init options are checked before anything loads', () => {
  it('refuses the positional form of earlier releases, unknown options and wrong types, loading nothing', async () => {
    const { root, ed } = await fresh();
    const module = new WebAssembly.Module(wasmBytes);
    const bad: unknown[] = [module, wasmBytes, Promise.resolve(module), null, 'core.wasm', { modul: module }, { module: 42 }, { sha512: 'sha512' }];
    for (const options of bad) {
      await expect(root.init(options as never), String(options)).rejects.toMatchObject({ name: 'ParapetTypeError', code: 'invalid-type' });
      expect(() => root.initSync(options as never), String(options)).toThrow(root.ParapetTypeError);
    }
    // initSync cannot wait for a promise or a fetch.
    expect(() => root.initSync({ module: Promise.resolve(module) } as never)).toThrow(root.ParapetTypeError);
    expect(root.isInitialized()).toBe(false);
    expect(() => ed.ed25519PublicKey(new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'not-initialized' }));
  });

  it('refuses a sha512 that does not compute SHA-512, whose use would let forged signatures verify', async () => {
    const wrong = [
      () => new Uint8Array(64), // constant: every signature equation becomes solvable without the key
      (m: Uint8Array) => nobleSha512(m).subarray(0, 32),
      (m: Uint8Array) => nobleSha512(m.subarray(0, 64)), // right for one block only
      (() => {
        const out = new Uint8Array(64);
        return (m: Uint8Array) => (out.set(nobleSha512(m)), out); // reuses its output buffer
      })(),
      () => {
        throw new Error('boom');
      },
    ];
    for (const sha512 of wrong) {
      const { root, ed } = await fresh();
      expect(() => root.initSync({ sha512 })).toThrow(expect.objectContaining({ name: 'ParapetRangeError', code: 'invalid-value' }));
      await expect(root.init({ sha512 })).rejects.toMatchObject({ name: 'ParapetRangeError', code: 'invalid-value' });
      expect(root.isInitialized()).toBe(false);
      expect(() => ed.ed25519PublicKey(new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'not-initialized' }));
    }
  });
});

describe('a runtime without node:crypto', () => {
  let restore: () => unknown;
  beforeEach(() => {
    restore = hideNativeCrypto();
  });
  afterEach(() => restore());

  it('initSync() refuses, loading nothing, since hash-wasm compiles only asynchronously', async () => {
    const { root } = await fresh();
    expect(() => root.initSync()).toThrow(expect.objectContaining({ name: 'ParapetStateError', code: 'init-failed' }));
    expect(root.isInitialized()).toBe(false);
  });

  it('init() takes SHA-512 and BLAKE2b from hash-wasm', async () => {
    const { root, ed, hashes } = await fresh();
    await root.init();
    expect(toHex(ed.ed25519Sign(hex(rfc8032!.message), hex(rfc8032!.secretKey)))).toBe(rfc8032!.signature);
    expect(toHex(hashes.blake2b512(abc))).toBe(BLAKE2B_ABC);
  });

  it('a supplied sha512 serves initSync and init; minisign, which needs BLAKE2b, says so', async () => {
    for (const run of [(r: typeof import('../src/index.js')) => r.initSync({ sha512: nobleSha512 }), (r: typeof import('../src/index.js')) => r.init({ sha512: nobleSha512 })]) {
      const { root, ed, hashes } = await fresh();
      await run(root);
      expect(root.isInitialized()).toBe(true);
      expect(toHex(ed.ed25519Sign(hex(rfc8032!.message), hex(rfc8032!.secretKey)))).toBe(rfc8032!.signature);
      expect(toHex(hashes.sha512(abc))).toBe(toHex(nobleSha512(abc)));
      expect(() => hashes.blake2b512(abc)).toThrow(expect.objectContaining({ code: 'not-initialized', message: expect.stringMatching(/BLAKE2b/) }));
    }
  });
});
