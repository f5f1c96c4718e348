// Core benchmarks (issue: core): SHA-256 against its peers at four sizes,
// RFC 6962 node hashing, the hash chain, featurize and entropy. Imports the
// built package (dist/), as a user would.
import { createHash, webcrypto } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSHA256 } from 'hash-wasm';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import * as asSha256 from '@chainsafe/as-sha256';
import { init, sha256, hashChain, merkleNodeHashBatch, featurize, featurizeInto, shannonEntropy } from '../dist/index.js';
import { runSuite, sized, table, stamp, writeSection } from './harness.mjs';

await init();
const hw = await createSHA256();
const hwDigest = (parts) => {
  hw.init();
  for (const p of parts) hw.update(p);
  return hw.digest('binary');
};
const bytes = (n, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

const sections = [];

for (const [label, size] of [['64 B', 64], ['1 KiB', 1024], ['16 KiB', 16384], ['1 MiB', 1 << 20]]) {
  const m = bytes(size);
  const rows = await runSuite(`SHA-256 ${label}`, [
    { name: 'parapet', fn: () => sha256(m), bytes: size },
    { name: 'hash-wasm', fn: () => hwDigest([m]), bytes: size },
    { name: '@noble/hashes', fn: () => nobleSha256(m), bytes: size },
    { name: '@chainsafe/as-sha256', fn: () => asSha256.digest(m), bytes: size },
    { name: 'node:crypto', fn: () => createHash('sha256').update(m).digest(), bytes: size },
    { name: 'WebCrypto', defer: true, fn: () => webcrypto.subtle.digest('SHA-256', m), bytes: size },
  ]);
  sections.push(table(`SHA-256, ${label} messages`, rows, 'hash-wasm'));
}

{
  const pairs = bytes(64 * 1024, 7);
  const one = new Uint8Array(65);
  one[0] = 1;
  one.set(pairs.subarray(0, 64), 1);
  const as64 = Array.from({ length: 4 }, (_, i) => pairs.subarray(i * 64, i * 64 + 64));
  const rows = await runSuite('RFC 6962 node', [
    { name: 'parapet batch (1024 nodes/call)', fn: () => merkleNodeHashBatch(pairs), perOp: 1024 },
    { name: 'hash-wasm (per node)', fn: () => hwDigest([one]) },
    { name: 'node:crypto (per node)', fn: () => createHash('sha256').update(one).digest() },
    { name: 'as-sha256 batch of 4 × 64 B (not 65 B: reference only)', fn: () => asSha256.batchHash4UintArray64s(as64), perOp: 4 },
  ]);
  sections.push(table('RFC 6962 interior nodes, SHA-256(0x01 ‖ l ‖ r), per node', rows, 'hash-wasm (per node)'));
}

{
  const records = Array.from({ length: sized(100_000, 100) }, (_, i) => bytes(512, i));
  const prev = new Uint8Array(32);
  const loop = (digest) => {
    let h = prev;
    for (const r of records) h = digest(h, r);
    return h;
  };
  const rows = await runSuite('hash chain', [
    { name: 'parapet hashChain', fn: () => hashChain(prev, records) },
    { name: 'hash-wasm loop', fn: () => loop((h, r) => hwDigest([h, r])) },
    { name: 'node:crypto loop', fn: () => loop((h, r) => createHash('sha256').update(h).update(r).digest()) },
  ]);
  sections.push(table('Hash chain h_i = SHA-256(h_{i−1} ‖ r_i), 100k records of 512 B, per chain', rows, 'hash-wasm loop'));
}

{
  const json = JSON.stringify({
    tool: 'send_email',
    arguments: { to: 'alice@example.com', subject: 'Quarterly report', body: 'Hello Alice, please find the figures below. '.repeat(100) },
  }).slice(0, 4096);
  const encoded = new TextEncoder().encode(json);
  const target = new Uint32Array(featurize(encoded).length);
  const rows = await runSuite('featurize', [
    { name: 'parapet featurize (string, NFKC)', fn: () => featurize(json), bytes: 4096 },
    { name: 'parapet featurize (UTF-8 bytes)', fn: () => featurize(encoded), bytes: 4096 },
    { name: 'parapet featurizeInto (bytes, caller\'s array)', fn: () => featurizeInto(encoded, target), bytes: 4096 },
    { name: 'parapet featurize (bytes, words only)', fn: () => featurize(encoded, { charNgrams: [0, 0] }), bytes: 4096 },
    { name: 'JavaScript single pass (same features)', fn: () => jsFeaturize(encoded), bytes: 4096 },
  ]);
  sections.push(table('featurize, 4 KiB JSON tool input (4096 buckets, char 3–5-grams)', rows, 'JavaScript single pass (same features)'));
  const ent = await runSuite('entropy', [
    { name: 'parapet shannonEntropy', fn: () => shannonEntropy(encoded), bytes: 4096 },
    { name: 'JavaScript histogram', fn: () => jsEntropy(encoded), bytes: 4096 },
  ]);
  sections.push(table('Shannon entropy of 4 KiB', ent, 'JavaScript histogram'));
}

sections.push(coldStart());

const md = `_${stamp()}_\n\n${sections.join('\n\n')}`;
console.log(md);
writeSection('core', `## Core\n\n${md}`);

/** A plain JavaScript featurizer doing the same work (words, bigrams, 3–5-grams), as the peer to beat. */
function jsFeaturize(b) {
  const out = new Uint32Array(b.length * 6 + 16);
  let at = 0, word = 0x811c9dc5, len = 0, prev = -1, w0 = 0x20, w1 = 0, w2 = 0, w3 = 0, w4 = 0;
  for (let i = 0; i <= b.length; i++) {
    let c = i < b.length ? b[i] : 0x20;
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    [w4, w3, w2, w1, w0] = [w3, w2, w1, w0, c];
    out[at++] = (Math.imul(w2 | (w1 << 8) | (w0 << 16), 0x9e3779b1) >>> 20);
    out[at++] = (Math.imul(w3 | (w2 << 8) | (w1 << 16) | (w0 << 24), 0x85ebca6b) >>> 20);
    out[at++] = (Math.imul((w4 * 0x1000193) ^ (w3 | (w2 << 8) | (w1 << 16) | (w0 << 24)), 0xc2b2ae35) >>> 20);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c >= 0x80) {
      word = Math.imul(word ^ c, 0x01000193);
      len++;
    } else if (len) {
      out[at++] = word >>> 20;
      if (prev >= 0) out[at++] = (Math.imul(prev, 0x2c1b3c6d) + word) >>> 20;
      prev = word;
      word = 0x811c9dc5;
      len = 0;
    }
  }
  return out.subarray(0, at);
}

function jsEntropy(b) {
  const counts = new Uint32Array(256);
  for (let i = 0; i < b.length; i++) counts[b[i]]++;
  let h = 0;
  for (const c of counts) if (c) h -= (c / b.length) * Math.log2(c / b.length);
  return h;
}

/**
 * Cold start in fresh processes: import + init + first hash, against a bare
 * node:crypto import + first hash. Each runs as a script file (as an app's
 * own module would, with Node's module loader already up), median of 15,
 * timed inside the child.
 */
function coldStart() {
  const dir = mkdtempSync(join(tmpdir(), 'parapet-cold-'));
  const script = (name, body) => {
    const file = join(dir, name);
    writeFileSync(file, `const t = performance.now();\n${body}\nconsole.log(performance.now() - t);\n`);
    return file;
  };
  const dist = new URL('../dist/index.js', import.meta.url).href;
  const ours = script('ours.mjs', `const p = await import(${JSON.stringify(dist)}); await p.init(); p.sha256(new Uint8Array(8));`);
  const node = script('node.mjs', `const c = await import('node:crypto'); c.createHash('sha256').update(new Uint8Array(8)).digest();`);
  const run = (file) => {
    const times = [];
    for (let i = 0; i < sized(15, 1); i++) times.push(Number(execFileSync(process.execPath, [file]).toString().trim()));
    return times.sort((a, b) => a - b)[times.length >> 1];
  };
  const [a, b] = [run(ours), run(node)];
  const wasmBytes = statSync(new URL('../build/core.wasm', import.meta.url)).size;
  return [
    '**Cold start** (fresh process, script file, median of 15: import + init + first hash)',
    '',
    '| what | ms |',
    '|---|---:|',
    `| parapet | ${a.toFixed(2)} |`,
    `| node:crypto | ${b.toFixed(2)} |`,
    `| difference | ${(a - b).toFixed(2)} |`,
    '',
    `core.wasm: ${wasmBytes} bytes`,
  ].join('\n');
}
