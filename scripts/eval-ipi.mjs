// npm run eval:ipi [-- FILE.jsonl[.gz]]   (lines: { text, label, source }; default data/ipi/dev.jsonl.gz)
// AUROC and TPR at 1% / 5% FPR of IpiDetector.inspect, overall and per source.
import { init, IpiDetector } from '../dist/ipi.js';
import { auroc, tprAtFpr } from './metrics.mjs';
import { dataFile, readJsonl } from './jsonl.mjs';

const file = process.argv[2] ?? dataFile('dev.jsonl.gz');
await init();
const detector = new IpiDetector({ mode: 'warn', env: {} });
const rows = readJsonl(file);
const scored = rows.map((r) => ({ ...r, score: detector.inspect(r.text).score }));
const report = (name, set) => {
  const s = set.map((r) => r.score);
  const l = set.map((r) => r.label);
  const pos = l.filter((x) => x === 1).length;
  console.log(`${name.padEnd(24)} ${String(set.length).padStart(5)} ${String(pos).padStart(5)}  ${fmt(auroc(s, l))}  ${fmt(tprAtFpr(s, l, 0.01))}  ${fmt(tprAtFpr(s, l, 0.05))}`);
};
const fmt = (x) => (Number.isNaN(x) ? '   —  ' : x.toFixed(3).padStart(6));
console.log(`${'source'.padEnd(24)}     n   pos   AUROC  TPR@1%  TPR@5%`);
for (const src of [...new Set(rows.map((r) => r.source))].sort()) report(src, scored.filter((r) => r.source === src));
report('all', scored);
