import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { coreMemoryBytes, init, sha256, toHex } from '../src/index.js';

beforeAll(() => init());

const nodeSha256 = (m: Uint8Array) => createHash('sha256').update(m).digest('hex');

function message(len: number, seed: number): Uint8Array {
  const m = new Uint8Array(len);
  for (let i = 0; i < len; i++) m[i] = (i * 131 + seed * 17 + (i >>> 3)) & 0xff;
  return m;
}

describe('SHA-256 streaming', () => {
  it('gives the one-shot and node:crypto digest at every split of every message of 0–300 bytes', () => {
    for (let len = 0; len <= 300; len++) {
      const m = message(len, len);
      const want = nodeSha256(m);
      expect(toHex(sha256(m)), `one-shot len ${len}`).toBe(want);
      for (let split = 0; split <= len; split++) {
        const h = sha256.create();
        h.update(m.subarray(0, split));
        h.update(m.subarray(split));
        const got = toHex(h.digest());
        if (got !== want) expect(got, `len ${len} split ${split}`).toBe(want);
      }
    }
  });

  it('gives the same digest at every pair of splits (three updates) up to 130 bytes', () => {
    for (let len = 0; len <= 130; len += 1) {
      const m = message(len, 7);
      const want = nodeSha256(m);
      for (let a = 0; a <= len; a++) {
        for (let b = a; b <= len; b += 3) {
          const got = toHex(sha256.create().update(m.subarray(0, a)).update(m.subarray(a, b)).update(m.subarray(b)).digest());
          if (got !== want) expect(got, `len ${len} splits ${a},${b}`).toBe(want);
        }
      }
    }
  });

  it('matches node:crypto for random messages cut into random chunks (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2000 }),
        fc.array(fc.nat({ max: 300 }), { maxLength: 20 }),
        (m, cuts) => {
          const h = sha256.create();
          let at = 0;
          for (const c of cuts) {
            h.update(m.subarray(at, at + c));
            at = Math.min(m.length, at + c);
          }
          h.update(m.subarray(at));
          return toHex(h.digest()) === nodeSha256(m) && toHex(sha256(m)) === nodeSha256(m);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('streams inputs larger than one staging crossing', () => {
    const m = message(1_000_003, 3);
    expect(toHex(sha256(m))).toBe(nodeSha256(m));
    const h = sha256.create();
    h.update(m.subarray(0, 5)).update(m.subarray(5, 700_001)).update(m.subarray(700_001));
    expect(toHex(h.digest())).toBe(nodeSha256(m));
  });

  it('keeps interleaved hashers independent', () => {
    const a = sha256.create();
    const b = sha256.create();
    const ma = message(200, 1);
    const mb = message(333, 2);
    a.update(ma.subarray(0, 70));
    b.update(mb.subarray(0, 1));
    sha256(message(90, 9)); // a one-shot in between must not disturb either
    a.update(ma.subarray(70));
    b.update(mb.subarray(1));
    expect(toHex(b.digest())).toBe(nodeSha256(mb));
    expect(toHex(a.digest())).toBe(nodeSha256(ma));
  });

  it('digestInto writes into a caller buffer at any offset view', () => {
    const out = new Uint8Array(40);
    sha256.create().update(message(10, 1)).digestInto(out.subarray(4));
    expect(toHex(out.subarray(4, 36))).toBe(nodeSha256(message(10, 1)));
    expect(Array.from(out.subarray(0, 4))).toEqual([0, 0, 0, 0]);
  });

  it('reclaims the wasm memory of many short-lived hashers', () => {
    sha256.create().digest();
    const before = coreMemoryBytes();
    for (let i = 0; i < 100_000; i++) sha256.create().update(message(3, i)).digest();
    for (let i = 0; i < 1000; i++) sha256.create().destroy();
    // 100k contexts of 128 bytes would grow memory by 12.8 MB if digest() leaked them.
    expect(coreMemoryBytes()).toBe(before);
  });
});
