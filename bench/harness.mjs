// Shared benchmark plumbing: benchmark.js suites, ratio tables, and the
// machine/date stamp that goes with every result.
import Benchmark from 'benchmark';
import { cpus, totalmem } from 'node:os';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

/**
 * BENCH_SMOKE=1: every benchmark once, at a small size, measuring nothing worth
 * reading (and refusing --write). `test/bench-smoke.test.ts` runs it so that a
 * benchmark that no longer runs against the API is a failing test, not a surprise
 * on the day its figures are needed.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';
/** `full`, or `smoke` under BENCH_SMOKE. */
export const sized = (full, smoke) => (SMOKE ? smoke : full);
/** Short runs: machines here are noisy and CI time is finite; ratios are what we read. */
export const OPTIONS = { minSamples: 8, maxTime: Number(process.env.BENCH_MAX_TIME ?? 0.6), minTime: 0.05 };
/** Rounds per suite, alternating the order of its cases; each case reports its best round. */
export const ROUNDS = SMOKE ? 1 : Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * Run `cases` ({ name, fn, defer?, perOp? }) as one suite, ROUNDS times with
 * the order of the cases reversed every other round, and return rows
 * { name, hz, meanUs, rme, perOp } in input order, each case's best round.
 * Why rounds: on these machines a case's mean moves by 20–30% with what ran
 * before it in the process (one SHA-256 case measured 0.83× or 1.1× its peer
 * depending on order); the best of alternating rounds is stable and treats
 * every case alike. `perOp` divides one call into units (e.g. nodes per batch
 * call) so that rates compare per unit.
 */
export async function runSuite(title, cases) {
  const best = new Map();
  for (let round = 0; round < ROUNDS; round++) {
    const ordered = round % 2 === 0 ? cases : [...cases].reverse();
    for (const row of await (SMOKE ? callOnce(ordered) : runOnce(title, ordered))) {
      const seen = best.get(row.name);
      if (!seen || row.meanUs < seen.meanUs) best.set(row.name, row);
    }
  }
  const rows = cases.map((c) => best.get(c.name));
  for (const r of rows) process.stderr.write(`  ${title} · ${r.name}: ${r.meanUs.toFixed(3)} µs ±${r.rme.toFixed(1)}% (best of ${ROUNDS})\n`);
  return rows;
}

/** Under BENCH_SMOKE: each case called once (benchmark.js calibrates for seconds even at its smallest settings). */
async function callOnce(cases) {
  const rows = [];
  for (const c of cases) {
    const t = performance.now();
    await c.fn();
    const meanUs = (Math.max(performance.now() - t, 1e-3) * 1000) / (c.perOp ?? 1);
    rows.push({ name: c.name, hz: 1e6 / meanUs, meanUs, rme: 0, bytes: c.bytes });
  }
  return rows;
}

function runOnce(title, cases) {
  return new Promise((resolve) => {
    const suite = new Benchmark.Suite(title);
    for (const c of cases) {
      suite.add(c.name, c.defer ? { defer: true, fn: (d) => c.fn().then(() => d.resolve()) } : c.fn, OPTIONS);
    }
    const rows = [];
    suite.on('cycle', (e) => {
      const b = e.target;
      const c = cases.find((x) => x.name === b.name);
      const perOp = c.perOp ?? 1;
      rows.push({ name: b.name, hz: b.hz * perOp, meanUs: (b.stats.mean * 1e6) / perOp, rme: b.stats.rme, bytes: c.bytes });
    });
    suite.on('complete', () => resolve(rows));
    suite.run({ async: true });
  });
}

/** Markdown table of one suite: time per unit, throughput when bytes are known, ratio to `baseline`. */
export function table(title, rows, baseline) {
  const base = rows.find((r) => r.name === baseline) ?? rows[0];
  const lines = [`**${title}**`, '', '| implementation | µs / op | MB/s | vs ' + base.name + ' |', '|---|---:|---:|---:|'];
  for (const r of rows) {
    const mbs = r.bytes ? ((r.bytes * r.hz) / 1e6).toFixed(0) : '';
    lines.push(`| ${r.name} | ${r.meanUs.toFixed(3)} ±${r.rme.toFixed(0)}% | ${mbs} | ${(base.meanUs / r.meanUs).toFixed(2)}× |`);
  }
  return lines.join('\n');
}

export function stamp() {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpu} × ${cpus().length} · ${(totalmem() / 2 ** 30).toFixed(0)} GiB`;
}

/**
 * Replace the section between `<!-- name:start -->` and `<!-- name:end -->` of
 * bench/RESULTS.md (appending it if absent) when run with --write.
 */
export function writeSection(name, markdown) {
  if (!process.argv.includes('--write')) return;
  if (SMOKE) throw new Error('BENCH_SMOKE figures are not results: run without it to --write');
  const file = new URL('./RESULTS.md', import.meta.url);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n\nWritten by `npm run bench -- --write`; ratios are measured in the same run (each case: the best of 3 rounds in alternating order, see bench/harness.mjs).\n';
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown}\n${end}`;
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  writeFileSync(file, re.test(text) ? text.replace(re, block) : `${text.trimEnd()}\n\n${block}\n`);
}
