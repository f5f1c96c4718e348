// Text tables for the evaluations: per-source metrics and a reliability diagram.
import { calibrate, LEVELS } from './calibration.mjs';

const f = (x, w = 6) => (Number.isNaN(x) ? '—'.padStart(w) : x.toFixed(3).padStart(w));

/** The leave-one-source-out table (Markdown, so the model card can carry it as printed). */
export function table(rows) {
  const out = ['| held-out source | n | injections | AUROC (own) | AUROC (pooled benign) | recall @ low (5% FPR) | @ medium (1%) | @ high (0.1%) | benign flagged @ low | @ medium |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) out.push(`| ${r.source} | ${r.n} | ${r.positives} | ${f(r.auroc)} | ${f(r.aurocPooled)} | ${f(r.recallLow)} | ${f(r.recallMedium)} | ${f(r.recallHigh)} | ${f(r.fpLow)} | ${f(r.fpMedium)} |`);
  return out.join('\n');
}

/**
 * Reliability diagram as text: per score bin, how many texts fell in it and what
 * share of them were injections (on the held-out scores, classes as sampled).
 */
export function reliability(scored, anchors, bins = 10) {
  const counts = Array.from({ length: bins }, () => ({ n: 0, pos: 0 }));
  for (const r of scored) {
    const s = calibrate(r.logit, anchors);
    const b = Math.min(bins - 1, Math.floor(s * bins));
    counts[b].n++;
    counts[b].pos += r.label;
  }
  const lines = ['score bin     texts  injections  share  ', '----------  -------  ----------  ------'];
  counts.forEach((c, i) => {
    const share = c.n ? c.pos / c.n : NaN;
    const bar = Number.isNaN(share) ? '' : '█'.repeat(Math.round(share * 30));
    lines.push(`${(i / bins).toFixed(1)}–${((i + 1) / bins).toFixed(1)}  ${String(c.n).padStart(7)}  ${String(c.pos).padStart(10)}  ${f(share)}  ${bar}`);
  });
  lines.push(`levels: low ≥ ${LEVELS.low}, medium ≥ ${LEVELS.medium}, high ≥ ${LEVELS.high}`);
  return lines.join('\n');
}
