import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { init, initSync, isInitialized, ParapetStateError, sha256, toHex } from '../src/index.js';
import { loadCore } from '../src/bindings/instance.js';
import { expectRejects, expectThrows } from './helpers/errors.js';

// This file runs in its own module graph: the core starts unloaded here.
const wasmBytes = readFileSync(new URL('../build/core.wasm', import.meta.url));

describe('init', () => {
  it('refuses hot calls before init with a typed error', () => {
    expect(isInitialized()).toBe(false);
    expect(() => sha256(new Uint8Array(1))).toThrow(ParapetStateError);
    try {
      sha256(new Uint8Array(1));
    } catch (e) {
      expect((e as ParapetStateError).code).toBe('not-initialized');
    }
  });

  it('reports a bad source as init-failed, loads nothing, and can be retried', async () => {
    await expect(loadCore(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]), () => wasmBytes)).rejects.toMatchObject({ code: 'init-failed' });
    await expect(loadCore(Promise.reject(new Error('network down')), () => wasmBytes)).rejects.toMatchObject({ code: 'init-failed' });
    expect(isInitialized()).toBe(false);
    const response = new Response(new Uint8Array(wasmBytes), { status: 404 });
    await expectRejects(init({ module: response }), ParapetStateError, 'init-failed');
    expect(isInitialized()).toBe(false);
  });

  it('initSync reports a bad module as init-failed, not as the platform\'s CompileError', () => {
    expectThrows(() => initSync({ module: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }), ParapetStateError, 'init-failed');
    expect(isInitialized()).toBe(false);
  });

  it('reads the constants it shares with the core from the core: one that does not export them is refused', async () => {
    // The same core with one export renamed (same length, so the module stays valid).
    const renamed = new Uint8Array(wasmBytes);
    const at = Buffer.from(renamed).indexOf('SHA256_CONTEXT_BYTES');
    expect(at).toBeGreaterThan(0);
    renamed[at + 'SHA256_CONTEXT_BYTE'.length] = 'Z'.charCodeAt(0);
    expect(WebAssembly.validate(renamed)).toBe(true);
    await expectRejects(loadCore(renamed, () => wasmBytes), ParapetStateError, 'init-failed');
    expectThrows(() => initSync({ module: renamed }), ParapetStateError, 'init-failed');
    expect(isInitialized()).toBe(false);
  });

  it('accepts a Response and is idempotent and memoised afterwards', async () => {
    const response = new Response(new Uint8Array(wasmBytes), { headers: { 'content-type': 'application/wasm' } });
    const [a, b] = [init({ module: response }), init()];
    await Promise.all([a, b]);
    expect(isInitialized()).toBe(true);
    const first = toHex(sha256(new TextEncoder().encode('abc')));
    await init({ module: Promise.resolve(new WebAssembly.Module(wasmBytes)) });
    initSync();
    expect(toHex(sha256(new TextEncoder().encode('abc')))).toBe(first);
    expect(first).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
