import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The benchmarks are run by hand, so nothing else notices when one stops running
// against the API (the memory-store bench once called a method that had moved, and
// `npm run bench` stopped there). BENCH_SMOKE=1 runs each at a small size, every
// case once, measuring nothing worth reading.
const runAll = new URL('../bench/run-all.mjs', import.meta.url).pathname;
const results = new URL('../bench/RESULTS.md', import.meta.url);

describe('npm run bench', () => {
  it('runs every benchmark to its end against the built package (BENCH_SMOKE=1)', () => {
    const run = spawnSync(process.execPath, [runAll], { encoding: 'utf8', env: { ...process.env, BENCH_SMOKE: '1' }, timeout: 120_000 });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    for (const name of ['core', 'tlog', 'vmg', 'skills', 'ipi']) expect(run.stderr).toContain(`== ${name} ==`);
    expect(run.stdout).toMatch(/cold start: import \+ init \+ detector \+ first inspect/);
  }, 180_000);

  it('refuses to write smoke figures into bench/RESULTS.md, and leaves it as it was', () => {
    const before = readFileSync(results);
    const run = spawnSync(process.execPath, [new URL('../bench/skills.bench.mjs', import.meta.url).pathname, '--write'], { encoding: 'utf8', env: { ...process.env, BENCH_SMOKE: '1' }, timeout: 60_000 });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/BENCH_SMOKE figures are not results/);
    expect(readFileSync(results).equals(before)).toBe(true);
  }, 90_000);
});
