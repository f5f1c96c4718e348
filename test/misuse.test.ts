import { beforeAll, describe, expect, it } from 'vitest';
import {
  fromBase64, fromHex, hashChain, hmacSha256, init, merkleNodeHash, merkleNodeHashBatch, ParapetError, ParapetRangeError,
  ParapetStateError, ParapetTypeError, sha256, sha256Batch, sha256Utf8, shannonEntropy, toBase64, toHex,
} from '../src/index.js';
import { expectThrows } from './helpers/errors.js';

beforeAll(() => init());

describe('misuse gets typed errors with stable codes', () => {
  it('every error class is a ParapetError named after its class, and no longer a TypeError or RangeError', () => {
    const cases = [
      [new ParapetTypeError('m'), 'ParapetTypeError', 'invalid-type'],
      [new ParapetRangeError('m'), 'ParapetRangeError', 'invalid-length'],
      [new ParapetRangeError('m', 'invalid-value'), 'ParapetRangeError', 'invalid-value'],
      [new ParapetStateError('m', 'destroyed', { cause: 'c' }), 'ParapetStateError', 'destroyed'],
    ] as const;
    for (const [error, name, code] of cases) {
      expect(error).toBeInstanceOf(ParapetError);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(TypeError);
      expect(error).not.toBeInstanceOf(RangeError);
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
    }
    expect(cases[3][0].cause).toBe('c');
  });

  it('refuses update and digest after digest, and after destroy', () => {
    const h = sha256.create().update(new Uint8Array(3));
    h.digest();
    expectThrows(() => h.update(new Uint8Array(1)), ParapetStateError, 'hasher-finished');
    expectThrows(() => h.digest(), ParapetStateError, 'hasher-finished');
    const d = sha256.create();
    d.destroy();
    d.destroy(); // idempotent
    expectThrows(() => d.update(new Uint8Array(1)), ParapetStateError, 'hasher-finished');
  });

  it('refuses wrong types', () => {
    expectThrows(() => sha256('abc' as unknown as Uint8Array), ParapetTypeError, 'invalid-type');
    expectThrows(() => sha256.create().update([1, 2] as unknown as Uint8Array), ParapetTypeError, 'invalid-type');
    expectThrows(() => sha256Batch([new Uint8Array(1), null as unknown as Uint8Array]), ParapetTypeError, 'invalid-type');
    expectThrows(() => hmacSha256(new Uint8Array(1), {} as Uint8Array), ParapetTypeError, 'invalid-type');
    expectThrows(() => shannonEntropy(undefined as unknown as Uint8Array), ParapetTypeError, 'invalid-type');
    expectThrows(() => hashChain(new Uint8Array(32), 'x' as unknown as Uint8Array[]), ParapetTypeError, 'invalid-type');
    expectThrows(() => sha256Utf8(new Uint8Array(1) as unknown as string), ParapetTypeError, 'invalid-type');
  });

  it('refuses wrong lengths', () => {
    expectThrows(() => hashChain(new Uint8Array(31), []), ParapetRangeError, 'invalid-length');
    expectThrows(() => merkleNodeHash(new Uint8Array(32), new Uint8Array(33)), ParapetRangeError, 'invalid-length');
  });

  it('a digest buffer that is too short and node pairs that are not whole are typed range errors', () => {
    // Both were the platform's bare RangeError, which a caller catching ParapetError missed.
    expectThrows(() => sha256.create().digestInto(new Uint8Array(31)), ParapetRangeError, 'invalid-length');
    expectThrows(() => merkleNodeHashBatch(new Uint8Array(65)), ParapetRangeError, 'invalid-length');
  });

  it('encoding helpers accept only canonical forms', () => {
    expectThrows(() => fromHex('abc'), ParapetRangeError, 'invalid-value');
    expectThrows(() => fromHex('zz'), ParapetRangeError, 'invalid-value');
    expectThrows(() => fromHex(7 as unknown as string), ParapetTypeError, 'invalid-type');
    expect(Array.from(fromHex('00ff'))).toEqual([0, 255]);
    // toHex at every length up to a few hundred bytes, and past its 4 KiB scratch, against Buffer's.
    for (const n of [...Array.from({ length: 43 }, (_, i) => i * 7), 2047, 2048, 2049, 5000]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 113 + n) & 0xff);
      expect(toHex(bytes)).toBe(Buffer.from(bytes).toString('hex'));
      expect(Array.from(fromHex(toHex(bytes)))).toEqual(Array.from(bytes));
    }
    expect(toBase64(new Uint8Array([1, 2, 3, 4]))).toBe('AQIDBA==');
    expect(Array.from(fromBase64('AQIDBA=='))).toEqual([1, 2, 3, 4]);
    for (const bad of ['AQIDBA', 'AQID BA==', 'AQIDBB==', 'AQ-_', '====']) expectThrows(() => fromBase64(bad), ParapetRangeError, 'invalid-value', bad);
  });
});
