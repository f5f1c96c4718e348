import { beforeAll, describe, expect, it } from 'vitest';
import { ed25519PublicKey, ed25519Sign, ed25519Verify } from '../src/crypto/ed25519.js';
import { init, toHex } from '../src/index.js';
import { hex, readVectorJson } from './helpers/vectors.js';

beforeAll(() => init());

describe('Ed25519 (strict RFC 8032)', () => {
  it('signs and verifies the RFC 8032 §7.1 test vectors', () => {
    const { vectors } = readVectorJson<{ vectors: { name: string; secretKey: string; publicKey: string; message: string; signature: string }[] }>(
      'rfc8032/ed25519_rfc8032.json',
    );
    expect(vectors.length).toBeGreaterThanOrEqual(4);
    for (const v of vectors) {
      expect(toHex(ed25519PublicKey(hex(v.secretKey))), v.name).toBe(v.publicKey);
      expect(toHex(ed25519Sign(hex(v.message), hex(v.secretKey))), v.name).toBe(v.signature);
      expect(ed25519Verify(hex(v.signature), hex(v.message), hex(v.publicKey)), v.name).toBe(true);
    }
  });

  it('agrees with all 151 Wycheproof cases, rejecting tcId 151 that ZIP-215 accepts', () => {
    const suite = readVectorJson<{
      testGroups: { publicKey: { pk: string }; tests: { tcId: number; msg: string; sig: string; result: string }[] }[];
    }>('wycheproof/testvectors_v1/ed25519_test.json');
    let count = 0;
    for (const group of suite.testGroups) {
      for (const t of group.tests) {
        expect(ed25519Verify(hex(t.sig), hex(t.msg), hex(group.publicKey.pk)), `tcId ${t.tcId}`).toBe(t.result === 'valid');
        if (t.tcId === 151) expect(t.result).toBe('invalid');
        count++;
      }
    }
    expect(count).toBe(151);
  });

  it('returns false rather than throwing on hostile keys and signatures', () => {
    expect(ed25519Verify(new Uint8Array(63), new Uint8Array(1), new Uint8Array(32))).toBe(false);
    expect(ed25519Verify(new Uint8Array(64), new Uint8Array(1), new Uint8Array(31))).toBe(false);
    expect(ed25519Verify(new Uint8Array(64).fill(255), new Uint8Array(1), new Uint8Array(32).fill(255))).toBe(false);
    expect(ed25519Verify('x' as unknown as Uint8Array, new Uint8Array(1), new Uint8Array(32))).toBe(false);
  });
});
