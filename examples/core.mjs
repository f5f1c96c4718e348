// The core (`parapet`): SHA-256 and friends on the WebAssembly core.
// Run after `npm run build`: node examples/core.mjs
import {
  init, sha256, sha256Utf8, sha256Batch, hashChain, merkleLeafHash, merkleNodeHash, hmacSha256,
  shannonEntropy, RunningStats, normalizeText, featurize, toHex,
} from 'parapet';

await init(); // once; idempotent. Afterwards every call below is synchronous.

const bytes = new TextEncoder().encode('abc');
console.log('sha256("abc"):', toHex(sha256(bytes)));

const h = sha256.create();
h.update(bytes.subarray(0, 1)).update(bytes.subarray(1));
console.log('streaming, any split:', toHex(h.digest()));
console.log('sha256Utf8("abc"):', toHex(sha256Utf8('abc')));
console.log('batch of 2:', sha256Batch([bytes, new Uint8Array(0)]).map(toHex).join(' '));

const links = hashChain(new Uint8Array(32), [bytes, bytes]); // h_i = SHA-256(h_{i-1} ‖ r_i)
console.log('hash chain, last link:', toHex(links[links.length - 1]));

const leaf = merkleLeafHash(bytes); // RFC 6962: SHA-256(0x00 ‖ d)
console.log('RFC 6962 leaf:', toHex(leaf));
console.log('RFC 6962 node:', toHex(merkleNodeHash(leaf, leaf))); // SHA-256(0x01 ‖ l ‖ r)

const key = new TextEncoder().encode('key');
console.log('hmac-sha256("key", "abc"):', toHex(hmacSha256(key, bytes)));

console.log('entropy of 0..255, bits per byte:', shannonEntropy(Uint8Array.from({ length: 256 }, (_, i) => i)));
const stats = new RunningStats(1);
for (const x of [1, 2, 3, 4]) stats.push(x, 0);
console.log('running mean of 1..4:', stats.mean(0));
console.log('normalizeText("ｉｇｎｏｒｅ\\u200b"):', JSON.stringify(normalizeText('ｉｇｎｏｒｅ\u200b')));
console.log('featurize a tool call: feature ids:', featurize('{"to":"alice@example.com","body":"hello"}').length > 0);
