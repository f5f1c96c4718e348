// npm run eval:traces [-- FILE.jsonl[.gz]]   (format: data/ipi/README.md; default data/ipi/traces-dev.jsonl.gz)
// Replays each trace through a detector session — the user prompt as trusted,
// earlier calls assessed and their results observed as untrusted — and scores
// the pending call. Prints AUROC, TPR at 1% / 2% / 5% FPR and the flag rate.
import { init, IpiDetector } from '../dist/ipi.js';
import { auroc, tprAtFpr } from './metrics.mjs';
import { dataFile, readJsonl } from './jsonl.mjs';

const file = process.argv[2] ?? dataFile('traces-dev.jsonl.gz');
await init();
const detector = new IpiDetector({ mode: 'block', env: {} });
const traces = readJsonl(file);
const results = traces.map((t) => {
  const s = detector.session(t.trace_id);
  s.observe({ role: 'user', content: t.user_prompt });
  for (const step of t.steps) {
    s.evaluate(step.call);
    s.observe({ role: 'tool', toolName: step.call.name, content: typeof step.result === 'string' ? step.result : JSON.stringify(step.result) });
  }
  const risk = s.evaluate(t.pending);
  s.end();
  return { suite: t.suite, kind: t.meta?.kind, label: t.label, score: risk.score, flagged: risk.flagged, latency: risk.latencyMs };
});
const fmt = (x) => (Number.isNaN(x) ? '   —  ' : x.toFixed(3).padStart(6));
const report = (name, set) => {
  const s = set.map((r) => r.score);
  const l = set.map((r) => r.label);
  const pos = set.filter((r) => r.label === 1);
  const neg = set.filter((r) => r.label === 0);
  const flagTpr = pos.filter((r) => r.flagged).length / Math.max(1, pos.length);
  const flagFpr = neg.filter((r) => r.flagged).length / Math.max(1, neg.length);
  console.log(`${name.padEnd(22)} ${String(set.length).padStart(4)}  ${fmt(auroc(s, l))}  ${fmt(tprAtFpr(s, l, 0.01))}  ${fmt(tprAtFpr(s, l, 0.02))}  ${fmt(tprAtFpr(s, l, 0.05))}   ${fmt(flagTpr)} / ${fmt(flagFpr)}`);
};
console.log(`${'set'.padEnd(22)}    n   AUROC  TPR@1%  TPR@2%  TPR@5%   flagged TPR / FPR`);
for (const suite of [...new Set(results.map((r) => r.suite))].sort()) report(suite, results.filter((r) => r.suite === suite));
report('hard negatives only', results.filter((r) => r.kind !== 'benign'));
report('all', results);
const lat = results.map((r) => r.latency).sort((a, b) => a - b);
console.log(`assess latency: p50 ${(lat[Math.floor(lat.length / 2)] * 1000).toFixed(0)} µs, p99 ${(lat[Math.floor(lat.length * 0.99)] * 1000).toFixed(0)} µs`);
