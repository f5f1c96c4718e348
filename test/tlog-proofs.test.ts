import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { init, toHex } from '../src/index.js';
import { emptyRoot, hashChildren, hashLeaf } from '../src/tlog/hasher.js';
import { isPowerOfTwo, splitPoint } from '../src/tlog/math.js';
import { MerkleTree } from '../src/tlog/tree.js';
import { verifyConsistency, verifyInclusion } from '../src/tlog/verify.js';
import { hex, readVectorJson, vectorPath } from './helpers/vectors.js';
import { ParapetRangeError, ParapetTypeError } from '../src/bindings/errors.js';
import { expectThrows } from './helpers/errors.js';

await init();

const b64 = (s: string) => Uint8Array.from(Buffer.from(s, 'base64'));
const proofOf = (p: string[] | null) => (p ?? []).map(b64);

function vectorFiles(kind: 'inclusion' | 'consistency'): string[] {
  const root = vectorPath(`rfc6962/testdata/${kind}`);
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.json'))
    .map((d) => `rfc6962/testdata/${kind}/${d.parentPath.slice(root.length).replace(/^\//, '')}/${d.name}`.replace('//', '/'));
}

describe('RFC 6962 vectors (transparency-dev/merkle testdata)', () => {
  const results = { valid: 0, rejected: 0 };

  it('inclusion: every valid case verifies and every other is rejected', () => {
    for (const f of vectorFiles('inclusion')) {
      const v = readVectorJson<{ leafIdx: number; treeSize: number; root: string; leafHash: string; proof: string[] | null; wantErr: boolean }>(f);
      const r = verifyInclusion(b64(v.leafHash), v.leafIdx, v.treeSize, proofOf(v.proof), b64(v.root));
      expect(r.ok, f).toBe(!v.wantErr);
      results[r.ok ? 'valid' : 'rejected']++;
    }
  });

  it('consistency: every valid case verifies and every other is rejected', () => {
    for (const f of vectorFiles('consistency')) {
      const v = readVectorJson<{ size1: number; size2: number; root1: string; root2: string; proof: string[] | null; wantErr: boolean }>(f);
      const r = verifyConsistency(v.size1, v.size2, proofOf(v.proof), b64(v.root1), b64(v.root2));
      expect(r.ok, f).toBe(!v.wantErr);
      results[r.ok ? 'valid' : 'rejected']++;
    }
  });

  it('counts 12 valid and 184 rejected cases, as the README says', () => {
    expect(results).toEqual({ valid: 12, rejected: 184 });
  });
});

describe('MerkleTree against roots.json and the derived proofs', () => {
  const roots = readVectorJson<{ leafInputs: string[]; roots: { treeSize: number; root: string }[] }>('rfc6962/roots.json');
  const derived = readVectorJson<{
    inclusion: { treeSize: number; leafIdx: number; leafHash: string; root: string; proof: string[] }[];
    consistency: { size1: number; size2: number; root1: string; root2: string; proof: string[] }[];
  }>('rfc6962/derived_proofs_size1to8.json');

  it('has the published root at every size 0..8, appending one by one or in a batch', () => {
    const single = new MerkleTree();
    const batch = new MerkleTree();
    batch.appendMany(roots.leafInputs.map(hex));
    expect(toHex(emptyRoot())).toBe(roots.roots[0]!.root);
    for (const input of roots.leafInputs) single.append(hex(input));
    for (const { treeSize, root } of roots.roots) {
      expect(toHex(single.root(treeSize)), `size ${treeSize}`).toBe(root);
      expect(toHex(batch.root(treeSize)), `batch size ${treeSize}`).toBe(root);
    }
  });

  it('generates exactly the 36 inclusion and 36 consistency proofs of sizes 1..8', () => {
    const tree = new MerkleTree();
    tree.appendMany(roots.leafInputs.map(hex));
    expect(derived.inclusion).toHaveLength(36);
    expect(derived.consistency).toHaveLength(36);
    for (const v of derived.inclusion) {
      expect(tree.inclusionProof(v.leafIdx, v.treeSize).map(toHex)).toEqual(v.proof);
      expect(toHex(tree.leafHash(v.leafIdx))).toBe(v.leafHash);
      expect(verifyInclusion(hex(v.leafHash), v.leafIdx, v.treeSize, v.proof.map(hex), hex(v.root)).ok).toBe(true);
    }
    for (const v of derived.consistency) {
      expect(tree.consistencyProof(v.size1, v.size2).map(toHex)).toEqual(v.proof);
      expect(verifyConsistency(v.size1, v.size2, v.proof.map(hex), hex(v.root1), hex(v.root2)).ok).toBe(true);
    }
  });
});

/** Naive recursive RFC 6962 MTH, straight from §2.1. */
function naiveRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return emptyRoot();
  if (leaves.length === 1) return hashLeaf(leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return hashChildren(naiveRoot(leaves.slice(0, k)), naiveRoot(leaves.slice(k)));
}

const flipBit = (proof: Uint8Array[], i: number, bit: number) =>
  proof.map((p, j) => (j === i ? p.map((b, k) => (k === bit >> 3 ? b ^ (1 << (bit & 7)) : b)) : p));

describe('properties over random trees', () => {
  const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => new TextEncoder().encode(`leaf ${i}`));
  const big = new MerkleTree();
  const bigLeaves = leavesOf(3000);
  big.appendMany(bigLeaves.slice(0, 1234));
  for (const l of bigLeaves.slice(1234, 1300)) big.append(l);
  big.appendMany(bigLeaves.slice(1300));

  it('roots equal the naive recursive definition', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), (n) => toHex(big.root(n)) === toHex(naiveRoot(bigLeaves.slice(0, n)))),
      { numRuns: 60 },
    );
  });

  it('every inclusion proof verifies, and any bit flip, truncation, extension or index change is rejected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.nat(), fc.nat(), fc.nat(255), (size, idx, which, bit) => {
        const index = idx % size;
        const proof = big.inclusionProof(index, size);
        const root = big.root(size);
        const leaf = big.leafHash(index);
        if (!verifyInclusion(leaf, index, size, proof, root).ok) return false;
        if (proof.length > 0) {
          const i = which % proof.length;
          if (verifyInclusion(leaf, index, size, flipBit(proof, i, bit), root).ok) return false;
          if (verifyInclusion(leaf, index, size, proof.slice(0, -1), root).ok) return false;
        }
        if (verifyInclusion(leaf, index, size, [...proof, root], root).ok) return false;
        if (size > 1 && verifyInclusion(leaf, (index + 1 + (which % (size - 1))) % size, size, proof, root).ok) return false;
        return !verifyInclusion(leaf, index, size, proof, flipBit([root], 0, bit)[0]!).ok;
      }),
      { numRuns: 300 },
    );
  });

  it('every consistency proof verifies, and tampering is rejected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 3000 }), fc.nat(), fc.nat(255), (a, b, which, bit) => {
        const [size1, size2] = a <= b ? [a, b] : [b, a];
        const proof = big.consistencyProof(size1, size2);
        const r1 = big.root(size1);
        const r2 = big.root(size2);
        if (!verifyConsistency(size1, size2, proof, r1, r2).ok) return false;
        if (proof.length > 0) {
          if (verifyConsistency(size1, size2, flipBit(proof, which % proof.length, bit), r1, r2).ok) return false;
          if (verifyConsistency(size1, size2, proof.slice(1), r1, r2).ok) return false;
        }
        if (size1 !== size2 && verifyConsistency(size1, size2, [...proof, r2], r1, r2).ok) return false;
        if (size1 !== size2 && verifyConsistency(size1 + 1 <= size2 ? size1 + 1 : size1 - 1, size2, proof, r1, r2).ok) return false;
        return !verifyConsistency(size1, size2, proof, flipBit([r1], 0, bit)[0]!, r2).ok;
      }),
      { numRuns: 300 },
    );
  });

  it('size 0: a proof from the empty tree proves nothing and is refused as such', () => {
    expect(big.consistencyProof(0, 5)).toEqual([]);
    expect(verifyConsistency(0, 5, [], emptyRoot(), big.root(5))).toMatchObject({ ok: false, code: 'empty-tree' });
    expect(verifyConsistency(0, 0, [], emptyRoot(), emptyRoot())).toMatchObject({ ok: false, code: 'empty-tree' });
  });
});

describe('misuse and hostile input', () => {
  const tree = new MerkleTree();
  tree.appendMany([new Uint8Array([1]), new Uint8Array([2]), new Uint8Array([3])]);

  it('verifiers return reasons instead of throwing', () => {
    const root = tree.root();
    const leaf = tree.leafHash(0);
    const proof = tree.inclusionProof(0);
    expect(verifyInclusion(leaf, 3, 3, proof, root)).toMatchObject({ ok: false, code: 'index-out-of-range' });
    expect(verifyInclusion(leaf, -1, 3, proof, root)).toMatchObject({ ok: false, code: 'invalid-size' });
    expect(verifyInclusion(leaf, 0.5, 3, proof, root)).toMatchObject({ ok: false, code: 'invalid-size' });
    expect(verifyInclusion(leaf, 0, 3, [new Uint8Array(31), ...proof.slice(1)], root)).toMatchObject({ code: 'bad-hash-length' });
    expect(verifyInclusion(leaf, 0, 3, 'junk' as unknown as Uint8Array[], root)).toMatchObject({ code: 'bad-hash-length' });
    expect(verifyInclusion(null as unknown as Uint8Array, 0, 3, proof, root)).toMatchObject({ code: 'bad-hash-length' });
    const bad = verifyInclusion(tree.leafHash(1), 0, 3, proof, root);
    expect(bad).toMatchObject({ ok: false, code: 'root-mismatch' });
    expect(bad.ok ? undefined : toHex(bad.expected!)).toBe(toHex(root));
    expect(verifyConsistency(3, 2, [], root, root)).toMatchObject({ code: 'size-order' });
    expect(verifyConsistency(NaN, 2, [], root, root)).toMatchObject({ code: 'invalid-size' });
  });

  it('the tree throws typed errors for caller misuse', () => {
    expectThrows(() => tree.inclusionProof(3), ParapetRangeError, 'invalid-value');
    expectThrows(() => tree.inclusionProof(0, 4), ParapetRangeError, 'invalid-value');
    expectThrows(() => tree.consistencyProof(4, 3), ParapetRangeError, 'invalid-value');
    expectThrows(() => tree.root(9), ParapetRangeError, 'invalid-value');
    expectThrows(() => new MerkleTree().inclusionProof(0), ParapetRangeError, 'invalid-value');
    expectThrows(() => tree.appendLeafHash(new Uint8Array(31)), ParapetRangeError, 'invalid-length');
    expectThrows(() => tree.append('x' as unknown as Uint8Array), ParapetTypeError, 'invalid-type');
    expect(tree.size).toBe(3);
  });
});

describe('appendLeafHashes', () => {
  it('builds the same tree as appending one by one, in uneven batches', () => {
    const leaves = Array.from({ length: 777 }, (_, i) => new TextEncoder().encode(`entry ${i}`));
    const one = new MerkleTree();
    for (const l of leaves) one.append(l);
    const batched = new MerkleTree();
    for (const [a, b] of [[0, 1], [1, 100], [100, 101], [101, 513], [513, 777]] as const) batched.appendLeafHashes(leaves.slice(a, b).map(hashLeaf));
    for (const size of [1, 2, 3, 100, 101, 512, 513, 776, 777]) expect(toHex(batched.root(size))).toBe(toHex(one.root(size)));
    expectThrows(() => batched.appendLeafHashes([new Uint8Array(31)]), ParapetRangeError, 'invalid-length');
  });
});

describe('size arithmetic', () => {
  // Reference in BigInt, exact for every safe integer.
  const refIsPowerOfTwo = (n: number) => n > 0 && (BigInt(n) & (BigInt(n) - 1n)) === 0n;
  const refSplitPoint = (n: number) => {
    let k = 1n;
    while (k * 2n < BigInt(n)) k *= 2n;
    return Number(k);
  };
  // Around every power of two up to 2^53 (where the 32-bit path hands over to floating point), and at random.
  const edges = Array.from({ length: 53 }, (_, e) => [-1, 0, 1].map((d) => 2 ** e + d)).flat().filter((n) => n >= 1 && n <= Number.MAX_SAFE_INTEGER);

  it('isPowerOfTwo and splitPoint agree with an exact reference at every power of two ± 1 and at random', () => {
    for (const n of [...edges, Number.MAX_SAFE_INTEGER]) {
      expect(isPowerOfTwo(n), `isPowerOfTwo(${n})`).toBe(refIsPowerOfTwo(n));
      if (n >= 2) expect(splitPoint(n), `splitPoint(${n})`).toBe(refSplitPoint(n));
    }
    fc.assert(
      fc.property(fc.integer({ min: 2, max: Number.MAX_SAFE_INTEGER }), (n) => isPowerOfTwo(n) === refIsPowerOfTwo(n) && splitPoint(n) === refSplitPoint(n)),
    );
    expect(isPowerOfTwo(0)).toBe(false);
  });
});
