// npm run eval:ipi [-- FILE.jsonl[.gz]]
// Without a file: the content model's leave-one-source-out tables, from the
// held-out scores `npm run train:ipi` saved (training/results/ipi-content-oof.json)
// — per source AUROC, recall at each level and benign flag rates, and a
// reliability diagram. With a file (lines: { text, label, source }): the shipped
// detector's scores on it, the same tables.
import { readFileSync } from 'node:fs';
import { calibrate, init, IpiDetector, LEVELS } from '../dist/ipi.js';
import { auroc } from './metrics.mjs';
import { readJsonl } from './jsonl.mjs';

await init();
const fmt = (x) => (Number.isNaN(x) ? '—' : x.toFixed(3));
const detector = new IpiDetector({ mode: 'warn', env: {} });
const file = process.argv[2];
// Each row: `rank` orders texts for AUROC and `at[level]` says whether the text reaches
// the level. Held-out rows rank and reach by their logit: the score scale clamps at 0
// and 1, and ties there would move the AUROC away from what training reports.
let scored;
if (file) {
  scored = readJsonl(file).map((r) => {
    const score = detector.inspect(r.text).score;
    return { source: r.source ?? 'all', label: r.label, score, rank: score, at: { low: score >= LEVELS.low, medium: score >= LEVELS.medium, high: score >= LEVELS.high } };
  });
} else {
  const { anchors } = JSON.parse(readFileSync(new URL('../models/ipi-content.json', import.meta.url), 'utf8'));
  const oof = JSON.parse(readFileSync(new URL('../training/results/ipi-content-oof.json', import.meta.url), 'utf8'));
  scored = oof.map(([source, label, logit]) => ({ source, label, score: calibrate(logit, anchors), rank: logit, at: { low: logit >= anchors.low, medium: logit >= anchors.medium, high: logit >= anchors.high } }));
  console.log('Leave-one-source-out: every text scored by the model trained without its source (npm run train:ipi).\n');
}
const negatives = scored.filter((r) => r.label === 0).map((r) => r.rank);
console.log('| source | n | injections | AUROC (own) | AUROC (pooled benign) | recall @ low | @ medium | @ high | benign flagged @ low | @ medium |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const source of [...new Set(scored.map((r) => r.source))].sort()) {
  const set = scored.filter((r) => r.source === source);
  const posRows = set.filter((r) => r.label === 1);
  const negRows = set.filter((r) => r.label === 0);
  const pos = posRows.map((r) => r.rank);
  const neg = negRows.map((r) => r.rank);
  const rate = (rows, level) => (rows.length ? rows.filter((r) => r.at[level]).length / rows.length : NaN);
  const own = pos.length && neg.length >= 10 ? auroc([...pos, ...neg], [...pos.map(() => 1), ...neg.map(() => 0)]) : NaN;
  const pooled = pos.length && negatives.length ? auroc([...pos, ...negatives], [...pos.map(() => 1), ...negatives.map(() => 0)]) : NaN;
  console.log(`| ${source} | ${set.length} | ${pos.length} | ${fmt(own)} | ${fmt(pooled)} | ${fmt(rate(posRows, 'low'))} | ${fmt(rate(posRows, 'medium'))} | ${fmt(rate(posRows, 'high'))} | ${fmt(rate(negRows, 'low'))} | ${fmt(rate(negRows, 'medium'))} |`);
}
console.log('\nReliability: texts per score bin and the share of injections among them');
for (let b = 0; b < 10; b++) {
  const bin = scored.filter((r) => Math.min(9, Math.floor(r.score * 10)) === b);
  const share = bin.length ? bin.filter((r) => r.label === 1).length / bin.length : NaN;
  console.log(`${(b / 10).toFixed(1)}–${((b + 1) / 10).toFixed(1)} ${String(bin.length).padStart(7)}  ${fmt(share).padStart(5)}  ${Number.isNaN(share) ? '' : '█'.repeat(Math.round(share * 30))}`);
}
console.log(`levels: low ≥ ${LEVELS.low}, medium ≥ ${LEVELS.medium} (block acts here), high ≥ ${LEVELS.high}`);
