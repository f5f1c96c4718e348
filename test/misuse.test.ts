import { beforeAll, describe, expect, it } from 'vitest';
import {
  fromBase64, fromHex, hashChain, hmacSha256, init, merkleNodeHash, merkleNodeHashBatch, ParapetRangeError,
  ParapetStateError, ParapetTypeError, sha256, sha256Batch, shannonEntropy, toBase64, toHex,
} from '../src/index.js';

beforeAll(() => init());

describe('misuse gets typed errors that name the parameter', () => {
  it('refuses update and digest after digest, and after destroy', () => {
    const h = sha256.create().update(new Uint8Array(3));
    h.digest();
    expect(() => h.update(new Uint8Array(1))).toThrow(ParapetStateError);
    expect(() => h.digest()).toThrow(/already finished/);
    const d = sha256.create();
    d.destroy();
    d.destroy(); // idempotent
    expect(() => d.update(new Uint8Array(1))).toThrow(expect.objectContaining({ code: 'hasher-finished' }));
  });

  it('refuses wrong types', () => {
    expect(() => sha256('abc' as unknown as Uint8Array)).toThrow(ParapetTypeError);
    expect(() => sha256('abc' as unknown as Uint8Array)).toThrow(/"data" must be a Uint8Array, got string/);
    expect(() => sha256.create().update([1, 2] as unknown as Uint8Array)).toThrow(/"data"/);
    expect(() => sha256Batch([new Uint8Array(1), null as unknown as Uint8Array])).toThrow(/"messages\[1\]"/);
    expect(() => hmacSha256(new Uint8Array(1), {} as Uint8Array)).toThrow(/"message"/);
    expect(() => shannonEntropy(undefined as unknown as Uint8Array)).toThrow(/"data"/);
    expect(() => hashChain(new Uint8Array(32), 'x' as unknown as Uint8Array[])).toThrow(/"records"/);
  });

  it('refuses wrong lengths', () => {
    expect(() => hashChain(new Uint8Array(31), [])).toThrow(ParapetRangeError);
    expect(() => hashChain(new Uint8Array(31), [])).toThrow(/"prev" must be 32 bytes, got 31/);
    expect(() => merkleNodeHash(new Uint8Array(32), new Uint8Array(33))).toThrow(/"right"/);
    expect(() => merkleNodeHashBatch(new Uint8Array(65))).toThrow(/"pairs"/);
    expect(() => sha256.create().digestInto(new Uint8Array(31))).toThrow(/"out"/);
  });

  it('encoding helpers accept only canonical forms', () => {
    expect(() => fromHex('abc')).toThrow(/"hex"/);
    expect(() => fromHex('zz')).toThrow(ParapetRangeError);
    expect(Array.from(fromHex('00ff'))).toEqual([0, 255]);
    // toHex at every length up to a few hundred bytes, and past its 4 KiB scratch, against Buffer's.
    for (const n of [...Array.from({ length: 43 }, (_, i) => i * 7), 2047, 2048, 2049, 5000]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 113 + n) & 0xff);
      expect(toHex(bytes)).toBe(Buffer.from(bytes).toString('hex'));
      expect(Array.from(fromHex(toHex(bytes)))).toEqual(Array.from(bytes));
    }
    expect(toBase64(new Uint8Array([1, 2, 3, 4]))).toBe('AQIDBA==');
    expect(Array.from(fromBase64('AQIDBA=='))).toEqual([1, 2, 3, 4]);
    for (const bad of ['AQIDBA', 'AQID BA==', 'AQIDBB==', 'AQ-_', '====']) expect(() => fromBase64(bad), bad).toThrow(/base64/);
  });
});
