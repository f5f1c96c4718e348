// Transparency-log benchmarks (issue: tlog) at 1,000,000 leaves: append rate,
// inclusion and consistency proofs (generate, verify), memory per leaf.
import { init, MerkleTree, MemoryNodeStore, verifyInclusion, verifyConsistency, hashLeaf } from '../dist/tlog.js';
import { runSuite, sized, stamp, writeSection } from './harness.mjs';

await init();
const N = sized(1_000_000, 10_000);
const leaf = (i) => new TextEncoder().encode(`{"op":"put","key":"k${i}","v":${i}}`);

// Append rate: batches of 1000 (how the memory store flushes), and one at a time.
const store = new MemoryNodeStore();
const tree = new MerkleTree(store);
let t = performance.now();
for (let i = 0; i < N; i += 1000) tree.appendMany(Array.from({ length: 1000 }, (_, j) => leaf(i + j)));
const batchRate = N / ((performance.now() - t) / 1000);
const single = new MerkleTree();
const M = sized(200_000, 2_000);
t = performance.now();
for (let i = 0; i < M; i++) single.append(leaf(i));
const singleRate = M / ((performance.now() - t) / 1000);
const bytesPerLeaf = store.bytesHeld() / N;

let seed = 1;
const rand = (n) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
const root = tree.root();
const proofs = Array.from({ length: 64 }, () => {
  const i = rand(N);
  return { i, proof: tree.inclusionProof(i), leaf: tree.leafHash(i) };
});
const cons = Array.from({ length: 64 }, () => {
  const s1 = 1 + rand(N - 1);
  return { s1, proof: tree.consistencyProof(s1), r1: tree.root(s1) };
});
let k = 0;
const rows = await runSuite('tlog @1M', [
  // A tree keeps the hashes of its right edge until its next append, so repeated proofs share them;
  // a tree object made per request (as the memory store makes one per operation) hashes them first.
  { name: 'inclusion proof: generate', fn: () => tree.inclusionProof(rand(N)) },
  { name: 'inclusion proof: generate on a new tree object (right edge not yet hashed)', fn: () => new MerkleTree(store).inclusionProof(rand(N)) },
  { name: 'inclusion proof: verify', fn: () => { const p = proofs[k++ & 63]; return verifyInclusion(p.leaf, p.i, N, p.proof, root); } },
  { name: 'consistency proof: generate', fn: () => tree.consistencyProof(1 + rand(N - 1)) },
  { name: 'consistency proof: verify', fn: () => { const c = cons[k++ & 63]; return verifyConsistency(c.s1, N, c.proof, c.r1, root); } },
  { name: 'root of a past size', fn: () => tree.root(1 + rand(N)) },
  { name: 'leaf hash (for reference)', fn: () => hashLeaf(leaf(7)) },
]);
if (!proofs.every((p) => verifyInclusion(p.leaf, p.i, N, p.proof, root).ok)) throw new Error('a generated proof failed');

const md = [
  `_${stamp()}_`,
  '',
  `**RFC 6962 tree at ${N.toLocaleString('en')} leaves** (targets: append ≥ 300k leaves/s; proofs ≤ 20 µs; ≤ 80 bytes/leaf)`,
  '',
  '| what | result |',
  '|---|---:|',
  `| append, batches of 1000 (appendMany) | ${Math.round(batchRate).toLocaleString('en')} leaves/s |`,
  `| append, one at a time (${M.toLocaleString('en')} leaves) | ${Math.round(singleRate).toLocaleString('en')} leaves/s |`,
  `| node store memory | ${bytesPerLeaf.toFixed(1)} bytes/leaf |`,
  ...rows.map((r) => `| ${r.name} | ${r.meanUs.toFixed(2)} µs ±${r.rme.toFixed(0)}% |`),
].join('\n');
console.log(md);
writeSection('tlog', `## Transparency log\n\n${md}`);
