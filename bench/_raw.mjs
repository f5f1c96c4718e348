import { readFileSync } from 'node:fs';
const m = new WebAssembly.Module(readFileSync('build/core.wasm'));
const x = new WebAssembly.Instance(m, {}).exports;
const base = x.heapBase();
x.memory.grow(20);
const json = JSON.stringify({to:'alice@example.com', body: 'Lorem ipsum dolor sit amet, '.repeat(140)}).slice(0,4096);
const bytes = new TextEncoder().encode(json);
new Uint8Array(x.memory.buffer).set(bytes, base);
const out = base + 8192;
function t(name, fn, n) { for (let i=0;i<n/10;i++) fn(); const s=performance.now(); for (let i=0;i<n;i++) fn(); const dt=(performance.now()-s)/n; console.log(name, (dt*1000).toFixed(3),'us'); }
t('raw featurize json', () => x.featurize(base, bytes.length, 1, 4096, 3, 5, out, 100000), 20000);
t('raw featurize json nograms', () => x.featurize(base, bytes.length, 1, 4096, 0, 0, out, 100000), 20000);
t('raw featurize text nograms', () => x.featurize(base, bytes.length, 0, 4096, 0, 0, out, 100000), 20000);
t('raw shingles', () => x.shingles(base, bytes.length, 1, 5, out, 100000), 20000);
t('raw sha 1K', () => x.sha256(base, 1024, out), 100000);
t('raw node x1000', () => x.merkleNodeBatch(base, 1000, base), 2000);
