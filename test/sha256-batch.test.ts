import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  hashChain, hmacSha256, init, merkleLeafHash, merkleLeafHashBatch, merkleNodeHash, merkleNodeHashBatch, sha256,
  sha256Batch, toHex,
} from '../src/index.js';
import { hex, readVectorJson } from './helpers/vectors.js';

beforeAll(() => init());

const nodeSha256 = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

const messages = fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 60 });

describe('sha256Batch', () => {
  it('equals hashing each message on its own (property)', () => {
    fc.assert(
      fc.property(messages, (ms) => {
        const got = sha256Batch(ms).map(toHex);
        return got.length === ms.length && got.every((d, i) => d === toHex(nodeSha256(ms[i]!)));
      }),
    );
  });

  it('hashes four at a time on SIMD lanes, whatever the mix of lengths (block boundaries included)', () => {
    const fill = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);
    for (const lens of [[64, 64, 64, 64], [128, 64, 192, 64], [0, 0, 0, 0], [63, 64, 65, 1000], [55, 56, 119, 120], [4096, 4096, 4096, 4095, 10]]) {
      const ms = lens.map((n, i) => fill(n, i));
      expect(sha256Batch(ms).map(toHex), lens.join(',')).toEqual(ms.map((m) => toHex(nodeSha256(m))));
    }
  });

  it('splits batches larger than one crossing and hashes oversize messages alone', () => {
    const ms = [new Uint8Array(200_000).fill(1), new Uint8Array(100_000).fill(2), new Uint8Array(300_000).fill(3), new Uint8Array(0)];
    expect(sha256Batch(ms).map(toHex)).toEqual(ms.map((m) => toHex(nodeSha256(m))));
    const many = Array.from({ length: 5000 }, (_, i) => new Uint8Array(100).fill(i & 0xff));
    expect(sha256Batch(many).map(toHex)).toEqual(many.map((m) => toHex(nodeSha256(m))));
  });
});

describe('hashChain', () => {
  const sequential = (prev: Uint8Array, records: Uint8Array[]) => {
    const links: string[] = [];
    let h = prev;
    for (const r of records) {
      h = nodeSha256(h, r);
      links.push(toHex(h));
    }
    return links;
  };

  it('equals h_i = SHA-256(h_{i-1} ‖ r_i) computed one by one (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), messages, (prev, rs) => {
        const got = hashChain(prev, rs).map(toHex);
        const want = sequential(prev, rs);
        return got.length === want.length && got.every((d, i) => d === want[i]);
      }),
    );
  });

  it('carries the chain across crossings and oversize records', () => {
    const prev = new Uint8Array(32).fill(9);
    const rs = [
      ...Array.from({ length: 3000 }, (_, i) => new Uint8Array(150).fill(i & 0xff)),
      new Uint8Array(400_000).fill(7),
      ...Array.from({ length: 10 }, (_, i) => new Uint8Array(i)),
    ];
    expect(hashChain(prev, rs).map(toHex)).toEqual(sequential(prev, rs));
  });
});

describe('RFC 6962 hashing', () => {
  const roots = readVectorJson<{
    hasherVectors: { op: string; leafHex?: string; leftHex?: string; rightHex?: string; want: string }[];
    leafInputs: string[];
    leafHashes: string[];
    nodeHashes: { levels: string[][] };
  }>('rfc6962/roots.json');

  it('matches the upstream hasher vectors', () => {
    for (const v of roots.hasherVectors) {
      if (v.op === 'emptyRoot') expect(toHex(sha256(new Uint8Array(0)))).toBe(v.want);
      else if (v.op === 'hashLeaf') expect(toHex(merkleLeafHash(hex(v.leafHex!)))).toBe(v.want);
      else if (v.op === 'hashChildren') {
        // These children are raw strings, not 32-byte hashes: check the definition directly.
        expect(toHex(nodeSha256(new Uint8Array([1]), hex(v.leftHex!), hex(v.rightHex!)))).toBe(v.want);
      } else throw new Error(`unknown op ${v.op}`);
    }
  });

  it('builds every level of the 8-leaf tree with the batched leaf and node hashes', () => {
    const leaves = merkleLeafHashBatch(roots.leafInputs.map(hex));
    expect(leaves.map(toHex)).toEqual(roots.leafHashes);
    let level: Uint8Array = Uint8Array.from(Buffer.concat(leaves));
    for (let l = 0; level.length > 32; l++) {
      const want = roots.nodeHashes.levels[l]!;
      expect(Array.from({ length: level.length / 32 }, (_, i) => toHex(level.subarray(i * 32, i * 32 + 32)))).toEqual(want);
      level = merkleNodeHashBatch(level);
    }
  });

  it('node hashing equals SHA-256(0x01 ‖ l ‖ r), single and batched (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 64, maxLength: 64 }), { maxLength: 40 }), (pairs) => {
        const flat = Uint8Array.from(pairs.flatMap((p) => Array.from(p)));
        const batch = merkleNodeHashBatch(flat);
        return pairs.every((p, i) => {
          const want = toHex(nodeSha256(new Uint8Array([1]), p));
          return toHex(batch.subarray(i * 32, i * 32 + 32)) === want && toHex(merkleNodeHash(p.subarray(0, 32), p.subarray(32))) === want;
        });
      }),
    );
  });

  it('leaf hashing equals SHA-256(0x00 ‖ d), including leaves larger than one crossing', () => {
    const big = new Uint8Array(300_000).fill(5);
    expect(toHex(merkleLeafHash(big))).toBe(toHex(nodeSha256(new Uint8Array([0]), big)));
    const pairs = new Uint8Array(64 * 5000).map((_, i) => i * 7);
    const batch = merkleNodeHashBatch(pairs);
    expect(toHex(batch.subarray(4999 * 32))).toBe(toHex(nodeSha256(new Uint8Array([1]), pairs.subarray(4999 * 64))));
  });

  it('batched leaves (four lanes, each behind its prefix) equal SHA-256(0x00 ‖ d) at every length and mix of lengths', () => {
    // Every length 0..200 once, so each lane meets every padding boundary (55/56/63/64 with the prefix byte).
    const byLength = Array.from({ length: 201 }, (_, n) => new Uint8Array(n).map((_, i) => (n * 31 + i * 7) & 0xff));
    expect(merkleLeafHashBatch(byLength).map(toHex)).toEqual(byLength.map((d) => toHex(nodeSha256(new Uint8Array([0]), d))));
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 700 }), { maxLength: 24 }), (leaves) => {
        const batch = merkleLeafHashBatch(leaves).map(toHex);
        return leaves.every((d, i) => batch[i] === toHex(nodeSha256(new Uint8Array([0]), d)));
      }),
    );
  });
});

describe('HMAC-SHA256', () => {
  const wycheproof = readVectorJson<{
    testGroups: { keySize: number; tagSize: number; tests: { tcId: number; key: string; msg: string; tag: string; result: string }[] }[];
  }>('wycheproof/testvectors_v1/hmac_sha256_test.json');

  it('agrees with all 174 Wycheproof cases (truncated tags compared on their length)', () => {
    let count = 0;
    for (const group of wycheproof.testGroups) {
      for (const t of group.tests) {
        const tag = hmacSha256(hex(t.key), hex(t.msg)).subarray(0, group.tagSize / 8);
        expect(toHex(tag) === t.tag, `tcId ${t.tcId}`).toBe(t.result === 'valid');
        count++;
      }
    }
    expect(count).toBe(174);
  });

  it('matches node:crypto for random keys and messages, and for inputs larger than one crossing', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 500 }), (k, m) =>
        toHex(hmacSha256(k, m)) === createHmac('sha256', k).update(m).digest('hex'),
      ),
    );
    const k = new Uint8Array(100).fill(3);
    const m = new Uint8Array(600_000).fill(4);
    expect(toHex(hmacSha256(k, m))).toBe(createHmac('sha256', k).update(m).digest('hex'));
  });
});
