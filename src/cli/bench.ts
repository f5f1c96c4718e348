import { featurize, hashChain, merkleNodeHashBatch, sha256, shannonEntropy } from '../index.js';
import { parseArgs } from './args.js';
import { printJson } from './io.js';

export const BENCH_USAGE = 'parapet bench [--json]';

/**
 * A quick look at this machine's core speed, without peers. `npm run bench`
 * runs the full comparison (benchmark.js, peers measured in the same run).
 */
export async function benchCommand(argv: readonly string[]): Promise<number> {
  const { flags } = parseArgs(argv, 'bench', { boolean: ['json'] });
  const sample = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 131) & 0xff);
  const msg1k = sample(1024);
  const msg4k = sample(4096);
  const pairs = sample(64 * 1024);
  const records = Array.from({ length: 1000 }, () => sample(512));
  const json = JSON.stringify({ to: 'alice@example.com', body: 'Please find the report attached. '.repeat(130) }).slice(0, 4096);
  const cases: [string, () => unknown, number][] = [
    ['sha256 1 KiB', () => sha256(msg1k), 1],
    ['RFC 6962 node (batch of 1024)', () => merkleNodeHashBatch(pairs), 1024],
    ['hash chain link (512 B records)', () => hashChain(new Uint8Array(32), records), 1000],
    ['featurize 4 KiB JSON', () => featurize(json), 1],
    ['shannonEntropy 4 KiB', () => shannonEntropy(msg4k), 1],
  ];
  const rows = cases.map(([name, fn, per]) => ({ name, microseconds: time(fn) / per }));
  if (flags.has('json')) printJson(rows);
  else for (const r of rows) process.stdout.write(`${r.name.padEnd(34)} ${r.microseconds.toFixed(3).padStart(10)} µs\n`);
  return 0;
}

/** Median µs per call over 15 rounds of ~20 ms each, after a warm-up. */
function time(fn: () => unknown): number {
  let reps = 1;
  for (let t = 0; t < 5; reps *= 2) {
    const start = performance.now();
    for (let i = 0; i < reps; i++) fn();
    t = performance.now() - start;
  }
  const rounds: number[] = [];
  for (let r = 0; r < 15; r++) {
    const start = performance.now();
    for (let i = 0; i < reps; i++) fn();
    rounds.push(((performance.now() - start) * 1000) / reps);
  }
  return rounds.sort((a, b) => a - b)[7]!;
}
