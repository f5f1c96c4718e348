// Trains the detector's content model (models/README.md is its card).
//
//   npm run train:ipi                 leave-one-source-out evaluation, then the shipped model
//   node training/train-ipi.mjs --check      retrain the shipped weights and compare byte for byte
//   node training/train-ipi.mjs --no-write   evaluate only
//   node training/train-ipi.mjs --folds DIR  also keep the held-out models of the AgentDojo
//                                           sources (training/train-traces.mjs scores their
//                                           suites with them)
//   node training/train-ipi.mjs --no-write --seeds A,B,C   evaluate with other generator samples
//                                           (how much the figures owe to the draw)
//
// Every text is read the way the detector reads it (the core's carrier-invariant
// reading, then its ranges: the whole reading, each string of the carrier,
// paragraphs, windows, lines and sentences), each range hashed into features by the
// core's tokenizer in text mode, and the model is a multiple-instance logistic
// regression (training/mil.mjs) over them, fit once per sample of the generator and
// averaged (GENERATOR_SEEDS). Requires `npm run build` (it uses dist/).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { featurize, init, readingRanges } from '../dist/index.js';
import { linearModelOnnx } from '../dist/ipi.js';
import { auroc } from '../scripts/metrics.mjs';
import { loadTexts, SOURCES, weigh } from './data.mjs';
import { generate } from './synth-ipi.mjs';
import { anchorsAt } from './calibration.mjs';
import { pack, score, train } from './mil.mjs';
import { dequantizeWeights, quantizeWeights } from './quantize.mjs';
import { reliability, table } from './report.mjs';

export const BUCKETS = 1 << 18;
export const CHAR_NGRAMS = [3, 5];
/**
 * `negativeRanges`: the share of a benign text's weight given to its ranges other than
 * the highest (all pushed down, not only the one the score takes), for the real
 * tool-output sources only (decision 87).
 */
export const TRAINING = { epochs: 8, batch: 32, lr: 0.02, l2: 1e-5, seed: 7, negativeRanges: 0.1 };
/**
 * One model per sample of the generator, weights averaged (decision 68): two
 * trainings that differed only in the generator's seed moved held-out recall by 3–5
 * points per source and flipped single canonical texts across `medium`; the mean of
 * models fit on three samples keeps what they agree on.
 */
export const GENERATOR_SEEDS = [20261201, 20261211, 20261221];
/** The benign false-positive rates the levels stand for (calibration.ts: LEVELS). */
export const LEVEL_FPR = { low: 0.05, medium: 0.01, high: 0.001 };

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const flag = (name) => process.argv.includes(`--${name}`);

/**
 * One bag per text: a sparse vector per range, log(1 + count) L2-normalised (as the
 * core scores it). A reading with no range (under 3 bytes: a lone "id") is scored by
 * the core as one range of the whole, so it is trained as one.
 */
export function bagOf(text) {
  const read = readingRanges(text);
  const reading = read.text;
  const ranges = read.ranges.length > 0 || reading.length === 0 ? read.ranges : [0, reading.length];
  const bags = [];
  for (let i = 0; i < ranges.length; i += 2) {
    const ids = featurize(reading.slice(ranges[i], ranges[i + 1]), { mode: 'text', buckets: BUCKETS, charNgrams: CHAR_NGRAMS, normalize: false });
    const counts = new Map();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    const idx = Uint32Array.from(counts.keys());
    const val = Float32Array.from(counts.values(), (c) => Math.log1p(c));
    let norm = 0;
    for (const x of val) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < val.length; k++) val[k] /= norm;
    bags.push({ idx, val });
  }
  return bags;
}

function fitOne(rows) {
  const weights = weigh(rows).map((w, i) => (rows[i].label === 0 && USER_TURN_SOURCES.includes(rows[i].source) ? w * USER_TURN_WEIGHT : w));
  const spread = (r) => (r.label === 0 && r.source !== 'synthetic' && !USER_TURN_SOURCES.includes(r.source) ? TRAINING.negativeRanges : 0);
  return train(pack(rows.map((r, i) => ({ bags: r.bags, label: r.label, weight: weights[i], spread: spread(r) }))), { buckets: BUCKETS, ...TRAINING });
}

/** The real rows with each generator sample in turn, one model each, and the mean of their weights and biases. */
function fit(real, samples) {
  const w = new Float32Array(BUCKETS);
  let b = 0;
  for (const synthetic of samples) {
    const model = fitOne([...real, ...synthetic]);
    for (let j = 0; j < BUCKETS; j++) w[j] += model.w[j] / samples.length;
    b += model.b / samples.length;
  }
  return { w, b };
}

function scoreAll(model, rows) {
  const P = pack(rows.map((r) => ({ bags: r.bags, label: r.label })));
  return rows.map((_, i) => score(model, P, i));
}

/**
 * Sources whose benign texts are requests a user types to an assistant, not tool
 * output (their data card says so: benign as a user turn, where the same words in a
 * tool result could well be an injection). The detector reads tool output, so they
 * do not set its levels; their flag rates at each level are reported all the same.
 */
export const USER_TURN_SOURCES = ['notinject', 'wildguard'];
/**
 * Their benign texts weigh half as negatives in training: a request a user types
 * ("please email the report to …") is what an injection in a tool result says, so
 * at full weight they taught the model that a plain request is benign. Held out,
 * half weight raised the pooled AUROC of every injection source (asb 0.55 → 0.60,
 * bipia 0.62 → 0.65, garak 0.84 → 0.87); leaving them out altogether cost the
 * canonical families a quarter of their placements (models/README.md).
 */
export const USER_TURN_WEIGHT = 0.5;

/**
 * Logits at the level false-positive rates of the benign pool: every tool-output
 * source with at least 50 benign texts, each weighted the same (so the 2,000
 * how-to pages do not outvote the 208 BIPIA contexts), scored by models that did
 * not see it (leave-one-source-out): a false-positive rate on benign text of a
 * kind the model has not seen.
 */
export function anchorsFrom(negatives) {
  const bySource = new Map();
  for (const { source, logit } of negatives) {
    if (USER_TURN_SOURCES.includes(source)) continue;
    if (!bySource.has(source)) bySource.set(source, []);
    bySource.get(source).push(logit);
  }
  return anchorsAt(new Map([...bySource].filter(([, xs]) => xs.length >= 50)), LEVEL_FPR);
}

/** Per held-out source: AUROC, recall at each level, benign flag rates. */
export function evaluate(oof, anchors) {
  const negatives = oof.filter((r) => r.label === 0).map((r) => r.logit);
  const rows = [];
  for (const source of SOURCES) {
    const set = oof.filter((r) => r.source === source);
    const pos = set.filter((r) => r.label === 1).map((r) => r.logit);
    const neg = set.filter((r) => r.label === 0).map((r) => r.logit);
    const rate = (xs, t) => (xs.length ? xs.filter((x) => x >= t).length / xs.length : NaN);
    rows.push({
      source, n: set.length, positives: pos.length,
      auroc: pos.length && neg.length >= 10 ? auroc([...pos, ...neg], [...pos.map(() => 1), ...neg.map(() => 0)]) : NaN,
      aurocPooled: pos.length ? auroc([...pos, ...negatives], [...pos.map(() => 1), ...negatives.map(() => 0)]) : NaN,
      recallLow: rate(pos, anchors.low), recallMedium: rate(pos, anchors.medium), recallHigh: rate(pos, anchors.high),
      fpLow: rate(neg, anchors.low), fpMedium: rate(neg, anchors.medium),
    });
  }
  return rows;
}

async function main() {
  await init();
  const started = Date.now();
  const rows = loadTexts();
  const seeds = arg('seeds')?.split(',').map(Number) ?? GENERATOR_SEEDS;
  if (seeds.some((x) => !Number.isSafeInteger(x)) || (arg('seeds') && !flag('no-write'))) throw new Error('--seeds takes whole numbers, and only with --no-write: the shipped model uses GENERATOR_SEEDS');
  const samples = seeds.map((seed) => generate(undefined, seed));
  for (const r of [...rows, ...samples.flat()]) r.bags = bagOf(r.text);
  console.error(`read and featurized ${rows.length} texts and ${samples.length} generator samples of ${samples[0].length} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (flag('check')) {
    // The shipped weights, retrained (no evaluation): the same bytes on every run.
    const { w, b } = fit(rows, samples);
    const { q, scale } = quantizeWeights(w);
    const committed = readFileSync(new URL('../models/ipi-content.i8', import.meta.url));
    const meta = JSON.parse(readFileSync(new URL('../models/ipi-content.json', import.meta.url), 'utf8'));
    const same = Buffer.from(q.buffer).equals(committed) && meta.weightScale === scale && meta.bias === b;
    console.log(same ? 'models/ipi-content.i8 reproduced exactly' : 'models/ipi-content.i8 differs from a fresh training run');
    process.exit(same ? 0 : 1);
  }
  const foldsDir = arg('folds');
  const oof = [];
  for (const held of SOURCES) {
    const model = fit(rows.filter((r) => !r.origins.includes(held)), samples);
    const test = rows.filter((r) => r.source === held);
    scoreAll(model, test).forEach((logit, i) => oof.push({ source: held, label: test[i].label, family: test[i].family, logit }));
    if (foldsDir && held.startsWith('agentdojo-')) {
      mkdirSync(foldsDir, { recursive: true });
      writeFileSync(`${foldsDir}/${held}.f32`, Buffer.from(model.w.buffer));
      writeFileSync(`${foldsDir}/${held}.json`, JSON.stringify({ bias: model.b }));
    }
    console.error(`held out ${held} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  const anchors = anchorsFrom(oof.filter((r) => r.label === 0));
  const metrics = evaluate(oof, anchors);
  console.log(table(metrics));
  console.log(reliability(oof, anchors));
  const model = fit(rows, samples);
  const { q, scale } = quantizeWeights(model.w);
  const meta = {
    name: 'parapet-ipi-content', version: 2, buckets: BUCKETS, charNgrams: CHAR_NGRAMS, bias: model.b, weightScale: scale, anchors,
    levelFalsePositiveRates: LEVEL_FPR, training: { ...TRAINING, texts: rows.length + samples[0].length, synthetic: samples[0].length, generatorSeeds: GENERATOR_SEEDS },
    leaveOneSourceOut: metrics,
  };
  if (!flag('no-write')) {
    writeFileSync(new URL('../models/ipi-content.i8', import.meta.url), Buffer.from(q.buffer));
    writeFileSync(new URL('../models/ipi-content.onnx', import.meta.url), linearModelOnnx(dequantizeWeights(q, scale), model.b));
    writeFileSync(new URL('../models/ipi-content.json', import.meta.url), `${JSON.stringify(meta, null, 2)}\n`);
    writeFileSync(new URL('./results/ipi-content-oof.json', import.meta.url), `${JSON.stringify(oof.map((r) => [r.source, r.label, r.logit]))}\n`);
    console.log(`wrote models/ipi-content.{i8,onnx,json} (bias ${model.b.toFixed(4)})`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
