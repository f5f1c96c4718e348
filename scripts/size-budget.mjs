// Size budget of the default entry: its JavaScript (with every chunk it
// imports) plus core.wasm, gzipped, must stay within 80 KB. Prints the sizes;
// with --json, prints them in bytes as JSON (what test/readme-size.test.ts
// compares with the figures in the README).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, posix } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const BUDGET = 80 * 1024;
const seen = new Set();
function walk(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(join(dist, file), 'utf8');
  for (const m of code.matchAll(/from\s+["'](\.\.?\/[^"']+\.js)["']/g)) walk(posix.join(dirname(file), m[1]));
}
const report = (entry, extra = []) => {
  seen.clear();
  walk(entry);
  const files = [...seen, ...extra];
  const raw = files.reduce((n, f) => n + readFileSync(join(dist, f)).length, 0);
  const gz = files.reduce((n, f) => n + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0);
  return { entry, files, raw, gz };
};
const main = report('index.js');
const edge = report('edge.js', ['core.wasm']);
const ok = main.gz <= BUDGET && edge.gz <= BUDGET;
if (process.argv.includes('--json')) {
  const entry = (r) => ({ files: r.files.length, raw: r.raw, gzip: r.gz });
  console.log(JSON.stringify({ budget: BUDGET, ok, 'index.js': entry(main), 'edge.js': entry(edge) }));
} else {
  for (const r of [main, edge]) console.log(`${r.entry.padEnd(10)} ${String(r.files.length).padStart(2)} files  ${(r.raw / 1024).toFixed(1)} KB raw  ${(r.gz / 1024).toFixed(1)} KB gzip`);
  console.log(ok ? `within the ${BUDGET / 1024} KB gzip budget` : `OVER the ${BUDGET / 1024} KB gzip budget`);
}
process.exitCode = ok ? 0 : 1;
