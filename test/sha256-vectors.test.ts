import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { init, sha256, sha256Utf8, toHex } from '../src/index.js';
import { canonicalJsonBytes } from '../src/canonical/jcs.js';
import { hex, parseMonte, parseRsp, readVectorJson, readVectorText } from './helpers/vectors.js';
import { ParapetTypeError } from '../src/bindings/errors.js';
import { expectThrows } from './helpers/errors.js';

beforeAll(() => init());

describe('SHA-256 against NIST CAVP (byte-oriented)', () => {
  for (const file of ['SHA256ShortMsg.rsp', 'SHA256LongMsg.rsp', 'SHA256ShortMsg21.rsp', 'SHA256LongMsg21.rsp']) {
    it(file, () => {
      const records = parseRsp(readVectorText(`sha256/${file}`));
      expect(records.length).toBeGreaterThanOrEqual(64);
      for (const { len, msg, md } of records) {
        expect(msg.length * 8).toBe(len);
        expect(toHex(sha256(msg)), `Len = ${len}`).toBe(md);
      }
    });
  }

  for (const file of ['SHA256Monte.rsp', 'SHA256Monte21.rsp']) {
    it(`${file} (SHAVS Monte Carlo, 100 × 1000 chained hashes)`, () => {
      const { seed, mds } = parseMonte(readVectorText(`sha256/${file}`));
      expect(mds).toHaveLength(100);
      let s = hex(seed);
      for (let j = 0; j < 100; j++) {
        let [a, b, c] = [s, s, s];
        for (let i = 3; i < 1003; i++) {
          const m = new Uint8Array(96);
          m.set(a, 0);
          m.set(b, 32);
          m.set(c, 64);
          [a, b, c] = [b, c, sha256(m)];
        }
        s = c;
        expect(toHex(s), `COUNT = ${j}`).toBe(mds[j]);
      }
    });
  }
});

describe('SHA-256 FIPS 180-4 examples', () => {
  const { vectors } = readVectorJson<{
    vectors: { name: string; msgAscii: string; repeat: number; msgHex: string | null; digestHex: string }[];
  }>('sha256/fips180-examples.json');

  for (const v of vectors) {
    it(v.name, () => {
      const unit = v.msgHex !== null ? hex(v.msgHex) : new TextEncoder().encode(v.msgAscii);
      const message = new Uint8Array(unit.length * v.repeat);
      for (let i = 0; i < v.repeat; i++) message.set(unit, i * unit.length);
      expect(toHex(sha256(message))).toBe(v.digestHex);
      // The same through the streaming API in uneven pieces.
      const h = sha256.create();
      for (let at = 0; at < message.length; at += 4099) h.update(message.subarray(at, at + 4099));
      expect(toHex(h.digest())).toBe(v.digestHex);
    });
  }
});

describe('sha256Utf8', () => {
  it('equals node:crypto over the UTF-8 TextEncoder gives, lone surrogates included (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const want = createHash('sha256').update(new TextEncoder().encode(text)).digest('hex');
        expect(toHex(sha256Utf8(text))).toBe(want);
      }),
      { numRuns: 500 },
    );
    const long = 'ü'.repeat(100_000); // past one staging crossing
    expect(toHex(sha256Utf8(long))).toBe(createHash('sha256').update(long, 'utf8').digest('hex'));
    expectThrows(() => sha256Utf8(new Uint8Array(1) as unknown as string), ParapetTypeError, 'invalid-type');
  });

  it('canonicalJsonBytes hands out an array of its own, not a view into a shared pool', () => {
    const bytes = canonicalJsonBytes({ b: 1, a: 'x' });
    expect(new TextDecoder().decode(bytes)).toBe('{"a":"x","b":1}');
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
  });
});
