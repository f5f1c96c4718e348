// Trains the injection classifier: L2-regularised logistic regression over
// parapet's own hashed features (log1p term counts, L2-normalised), full-batch
// Adam, so the result is the same on every run (no sampling, no shuffling).
//
//   node models/train-ipi.mjs [--data data/ipi/dev.jsonl.gz] [--no-write | --check]
//
// Reports leave-one-source-out AUROC and TPR at 1% / 5% FPR for every source that
// holds injections (judging generalisation, not fit), then trains on everything
// and writes models/ipi-classifier.onnx, models/ipi-classifier.f32 (the same
// weights for the in-core scorer) and models/ipi-classifier.json (metadata and
// metrics). Requires `npm run build` first (it featurizes with dist/).
import { readFileSync, writeFileSync } from 'node:fs';
import { dataFile, readJsonl } from '../scripts/jsonl.mjs';
import { init, featurize, normalizeText } from '../dist/index.js';
import { generate, rng } from './synth-ipi.mjs';
import { writeOnnxLinear } from './onnx-linear.mjs';
import { auroc, tprAtFpr } from '../scripts/metrics.mjs';
import { scoringRanges } from '../dist/ipi.js';

export const BUCKETS = 1 << 18;
export const CHAR_NGRAMS = [3, 5];
const EPOCHS = 12;
const BATCH = 32;
const L2 = 1e-4;
const LR = 0.02;

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

/** Sparse feature vector: distinct ids with log1p(count) / L2 norm, as the core computes it. */
export function vectorize(text) {
  const ids = featurize(text, { buckets: BUCKETS, charNgrams: CHAR_NGRAMS });
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const idx = Uint32Array.from(counts.keys());
  const val = Float64Array.from(counts.values(), (c) => Math.log1p(c));
  const norm = Math.sqrt(val.reduce((a, v) => a + v * v, 0)) || 1;
  for (let i = 0; i < val.length; i++) val[i] /= norm;
  return { idx, val };
}

/**
 * Mini-batch Adam on the class-balanced logistic loss, with a seeded shuffle
 * per epoch: deterministic, and ~20× faster than full-batch here. Updates are
 * sparse (only the weights a batch touches, with their L2 term).
 */
export function train(samples) {
  const w = new Float64Array(BUCKETS);
  let b = 0;
  const m = new Float64Array(BUCKETS + 1);
  const v = new Float64Array(BUCKETS + 1);
  const pos = samples.filter((s) => s.label === 1).length;
  const neg = samples.length - pos;
  const weightOf = (label) => (label === 1 ? samples.length / (2 * pos) : samples.length / (2 * neg));
  const grad = new Float64Array(BUCKETS + 1);
  const order = samples.map((_, i) => i);
  const random = rng(7);
  let t = 0;
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let start = 0; start < order.length; start += BATCH) {
      const batch = order.slice(start, start + BATCH).map((i) => samples[i]);
      const touched = new Set();
      for (const s of batch) {
        let z = b;
        for (let i = 0; i < s.idx.length; i++) z += w[s.idx[i]] * s.val[i];
        const g = (1 / (1 + Math.exp(-z)) - s.label) * weightOf(s.label);
        for (let i = 0; i < s.idx.length; i++) {
          grad[s.idx[i]] += g * s.val[i];
          touched.add(s.idx[i]);
        }
        grad[BUCKETS] += g;
      }
      touched.add(BUCKETS);
      t++;
      const c1 = 1 - 0.9 ** t;
      const c2 = 1 - 0.999 ** t;
      for (const j of touched) {
        const gj = grad[j] / batch.length + (j < BUCKETS ? L2 * w[j] : 0);
        grad[j] = 0;
        m[j] = 0.9 * m[j] + 0.1 * gj;
        v[j] = 0.999 * v[j] + 0.001 * gj * gj;
        const step = (LR * (m[j] / c1)) / (Math.sqrt(v[j] / c2) + 1e-8);
        if (j < BUCKETS) w[j] -= step;
        else b -= step;
      }
    }
  }
  return { w: Float32Array.from(w), b };
}

const scoreVector = (model, s) => {
  let z = model.b;
  for (let i = 0; i < s.idx.length; i++) z += model.w[s.idx[i]] * s.val[i];
  return 1 / (1 + Math.exp(-z));
};

/** A text's score: the highest of the whole text and its windows and lines (as the detector computes it). */
export const score = (model, s) => Math.max(scoreVector(model, s), ...(s.windows ?? []).map((w) => scoreVector(model, w)));

/** Vectors for evaluation: the whole text and each range the detector scores (windows and lines; see scoringRanges). */
export const vectorizeForScoring = (text) => {
  const normal = normalizeText(text);
  const ranges = scoringRanges(normal);
  const parts = [];
  for (let i = 0; i < ranges.length; i += 2) parts.push(vectorize(normal.slice(ranges[i], ranges[i + 1])));
  return { ...vectorize(text), windows: parts };
};

async function main() {
  await init();
  const real = readJsonl(arg('data', dataFile('dev.jsonl.gz')));
  const synth = generate();
  const all = [...real, ...synth].map((r) => ({ ...r, ...vectorize(r.text) }));
  const sources = [...new Set(real.filter((r) => r.label === 1).map((r) => r.source))].sort();
  if (process.argv.includes('--check')) {
    // Reproduce the committed weights byte for byte (no evaluation runs).
    const { w } = train(all);
    const committed = readFileSync(new URL('./ipi-classifier.f32', import.meta.url));
    const same = Buffer.from(w.buffer).equals(committed);
    console.log(same ? 'models/ipi-classifier.f32 reproduced exactly' : 'models/ipi-classifier.f32 differs from a fresh training run');
    process.exit(same ? 0 : 1);
  }
  const metrics = {};
  console.log('leave-one-source-out (train on every other source + synthetic, test on the held-out one)');
  console.log('source                 n   pos   AUROC   TPR@1%FPR  TPR@5%FPR');
  for (const held of sources) {
    const model = train(all.filter((s) => s.source !== held));
    const test = all.filter((s) => s.source === held).map((s) => ({ ...s, ...vectorizeForScoring(s.text) }));
    const scores = test.map((s) => score(model, s));
    const labels = test.map((s) => s.label);
    const row = { n: test.length, positives: labels.filter((l) => l === 1).length, auroc: auroc(scores, labels), tpr1: tprAtFpr(scores, labels, 0.01), tpr5: tprAtFpr(scores, labels, 0.05) };
    metrics[held] = row;
    console.log(`${held.padEnd(20)} ${String(row.n).padStart(4)} ${String(row.positives).padStart(5)}   ${row.auroc.toFixed(3)}   ${row.tpr1.toFixed(3)}      ${row.tpr5.toFixed(3)}`);
  }
  const model = train(all);
  // Absolute thresholds for the detector before a session has a baseline:
  // scores that 1% and 0.1% of the benign training texts exceed.
  const negatives = all.filter((s) => s.label === 0).map((s) => score(model, { ...s, ...vectorizeForScoring(s.text) })).sort((a, b) => a - b);
  const quantile = (q) => negatives[Math.min(negatives.length - 1, Math.floor(q * negatives.length))];
  const meta = {
    name: 'parapet-ipi-linear', version: 1, buckets: BUCKETS, charNgrams: CHAR_NGRAMS, bias: model.b,
    thresholds: { low: quantile(0.95), medium: quantile(0.99), high: Math.max(quantile(0.999), 0.9) },
    training: { real: real.length, synthetic: synth.length, epochs: EPOCHS, batch: BATCH, l2: L2, lr: LR, data: 'dev.jsonl + models/synth-ipi.mjs (seed 20261130)' },
    leaveOneSourceOut: metrics,
  };
  if (!process.argv.includes('--no-write')) {
    writeFileSync(new URL('./ipi-classifier.f32', import.meta.url), Buffer.from(model.w.buffer));
    writeFileSync(new URL('./ipi-classifier.onnx', import.meta.url), writeOnnxLinear(model.w, model.b));
    writeFileSync(new URL('./ipi-classifier.json', import.meta.url), `${JSON.stringify(meta, null, 2)}\n`);
    console.log(`wrote models/ipi-classifier.{onnx,f32,json} (${BUCKETS} buckets, bias ${model.b.toFixed(4)})`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
