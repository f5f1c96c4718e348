// Trains the detector's trace model: what `assess` uses to decide whether a pending
// tool call, in its session, was caused by an injection in an earlier tool result.
//
//   npm run train:traces [-- --folds DIR]   leave-one-suite-out evaluation, then models/ipi-trace.json
//   node training/train-traces.mjs --check  retrain and compare with the shipped model
//
// Each trace (data/ipi/traces-dev.jsonl.gz, and the scripted suites of
// training/traces/) is replayed through a detector session — the user's prompt as
// trusted text, each earlier call assessed and its result observed — and the
// features the session computes for the pending call (src/ipi/trace-model.ts) are
// recorded. The model is a logistic regression over those features and their
// pairwise products, read as rising in the risk features (TraceModel): held-out
// scores and levels are computed through that reading, as `assess` scores. With --folds (written by `train-ipi.mjs --folds DIR`), the
// AgentDojo suites' traces are read by content models that never saw those
// sources, so their rows are held out for content as well.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CoreClassifier, init, IpiDetector, TRACE_FEATURES, TraceModel } from '../dist/ipi.js';
import { auroc, tprAtFpr } from '../scripts/metrics.mjs';
import { dataFile, readJsonl } from '../scripts/jsonl.mjs';
import { generateTraces } from './traces/generate.mjs';
import { LEVEL_FPR } from './train-ipi.mjs';
import { anchorsAt } from './calibration.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const flag = (name) => process.argv.includes(`--${name}`);
const F = TRACE_FEATURES.length;
const PAIRS = [];
for (let i = 0; i < F; i++) for (let j = i + 1; j < F; j++) PAIRS.push([i, j]);
const L2 = 3e-3;
const STEPS = 3000;

/** The features of each trace's pending call, as the session computes them. */
export function traceFeatures(traces, scorerFor) {
  const rows = [];
  for (const t of traces) {
    let captured;
    const recorder = { score: (x) => { captured = Float64Array.from(x); return 0; }, contributions: () => new Float64Array(F) };
    const detector = new IpiDetector({ mode: 'warn', env: {}, classifier: scorerFor(t.suite), traceModel: recorder });
    const s = detector.session(t.trace_id);
    s.observe({ role: 'user', content: t.user_prompt });
    for (const step of t.steps) {
      s.evaluate(step.call);
      s.observe({ role: 'tool', toolName: step.call.name, content: typeof step.result === 'string' ? step.result : JSON.stringify(step.result) });
    }
    s.evaluate(t.pending);
    s.end();
    rows.push({ suite: t.suite, kind: t.meta?.kind ?? (t.label ? 'attacked' : 'benign'), label: t.label, x: captured, task: t.injection_task ?? null, attack: t.attack ?? null });
  }
  return rows;
}

const expand = (x) => {
  const z = new Float64Array(F + PAIRS.length);
  z.set(x);
  PAIRS.forEach(([i, j], k) => (z[F + k] = x[i] * x[j]));
  return z;
};

/** Full-batch Adam on the L2-regularised logistic loss, suites and classes balanced: deterministic. */
export function fit(rows) {
  const X = rows.map((r) => expand(r.x));
  const D = X[0].length;
  const groups = new Map();
  for (const r of rows) groups.set(`${r.suite}|${r.label}`, (groups.get(`${r.suite}|${r.label}`) ?? 0) + 1);
  const nGroups = (label) => [...groups.keys()].filter((k) => k.endsWith(`|${label}`)).length;
  const weight = rows.map((r) => 1 / groups.get(`${r.suite}|${r.label}`) / nGroups(r.label) / 2);
  const w = new Float64Array(D);
  let b = 0;
  const m = new Float64Array(D + 1);
  const v = new Float64Array(D + 1);
  for (let t = 1; t <= STEPS; t++) {
    const g = new Float64Array(D + 1);
    for (let n = 0; n < X.length; n++) {
      let z = b;
      for (let d = 0; d < D; d++) z += w[d] * X[n][d];
      const e = (1 / (1 + Math.exp(-z)) - rows[n].label) * weight[n];
      for (let d = 0; d < D; d++) g[d] += e * X[n][d];
      g[D] += e;
    }
    for (let d = 0; d <= D; d++) {
      const gd = g[d] + (d < D ? L2 * w[d] : 0);
      m[d] = 0.9 * m[d] + 0.1 * gd;
      v[d] = 0.999 * v[d] + 0.001 * gd * gd;
      const step = (0.05 * (m[d] / (1 - 0.9 ** t))) / (Math.sqrt(v[d] / (1 - 0.999 ** t)) + 1e-8);
      if (d < D) w[d] -= step;
      else b -= step;
    }
  }
  return { w, b };
}

/** A fit as the model file holds it. */
const modelFile = (model, anchors) => ({
  name: 'parapet-ipi-trace', version: 1, features: [...TRACE_FEATURES], bias: model.b,
  weights: [...model.w.slice(0, F)], pairs: PAIRS.map(([i, j], k) => [i, j, model.w[F + k]]), anchors,
});
/** A fit's logit as `TraceModel` reads it (rising in the risk features), before levels are set. */
const scorer = (model) => {
  const read = new TraceModel(modelFile(model, { low: 0, medium: 1, high: 2 }));
  return (x) => read.logit(x);
};

/** Logits at the level false-positive rates of benign calls, each suite weighted the same. */
function anchorsFrom(benign) {
  const bySuite = new Map();
  for (const r of benign) {
    if (!bySuite.has(r.suite)) bySuite.set(r.suite, []);
    bySuite.get(r.suite).push(r.logit);
  }
  return anchorsAt(bySuite, LEVEL_FPR);
}

/**
 * A write only a tool result asked for, after a user who asked only for an answer: the session scores it `medium` at
 * least whatever the fit gives (decision 110), so held out it ranks there too: the held-out logits are saved as the
 * session acts on them. The session leaves a turn it reads as unsure to the model; no user turn of these traces reads so.
 */
const REQUESTED_AFTER_READ = TRACE_FEATURES.indexOf('requestedAfterRead');
const unaskedWrite = (x) => x[REQUESTED_AFTER_READ] >= 0.5;

function report(oof, anchors) {
  const f = (x) => (Number.isNaN(x) ? '—' : x.toFixed(3));
  const lines = ['| held-out suite | traces | attacker calls | AUROC | recall @ 2% FPR | flagged (≥ medium): attacker calls | benign calls | of them, injection present but ignored |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  const suites = [...new Set(oof.map((r) => r.suite))].sort();
  for (const suite of [...suites, 'all']) {
    const set = suite === 'all' ? oof : oof.filter((r) => r.suite === suite);
    const s = set.map((r) => r.logit);
    const l = set.map((r) => r.label);
    const pos = set.filter((r) => r.label === 1);
    const neg = set.filter((r) => r.label === 0);
    const ignored = neg.filter((r) => r.kind === 'injected_ignored');
    const flaggedShare = (xs) => (xs.length ? xs.filter((r) => r.logit >= anchors.medium).length / xs.length : NaN);
    lines.push(`| ${suite} | ${set.length} | ${pos.length} | ${f(auroc(s, l))} | ${f(tprAtFpr(s, l, 0.02))} | ${f(flaggedShare(pos))} | ${f(flaggedShare(neg))} | ${f(flaggedShare(ignored))} |`);
  }
  return lines.join('\n');
}

async function main() {
  await init();
  const traces = [...readJsonl(dataFile('traces-dev.jsonl.gz')), ...generateTraces()];
  const shipped = new CoreClassifier();
  const folds = arg('folds');
  const heldOut = new Map();
  const scorerFor = (suite) => {
    const source = `agentdojo-${suite}`;
    if (!folds || !existsSync(`${folds}/${source}.f32`)) return shipped;
    if (!heldOut.has(source)) {
      const content = JSON.parse(readFileSync(new URL('../models/ipi-content.json', import.meta.url), 'utf8'));
      const w = new Float32Array(new Uint8Array(readFileSync(`${folds}/${source}.f32`)).buffer);
      heldOut.set(source, new CoreClassifier({ weights: w, bias: JSON.parse(readFileSync(`${folds}/${source}.json`, 'utf8')).bias, anchors: content.anchors }));
    }
    return heldOut.get(source);
  };
  if (!folds) console.error('no --folds: the AgentDojo suites are evaluated with the shipped content model, which was trained on AgentDojo texts');
  // The shipped model learns from what the shipped content model reads, as the detector will;
  // the held-out evaluation reads each AgentDojo suite with a content model that never saw it.
  const rows = traceFeatures(traces, () => shipped);
  if (flag('check')) {
    const model = fit(rows);
    const shippedModel = JSON.parse(readFileSync(new URL('../models/ipi-trace.json', import.meta.url), 'utf8'));
    const same = shippedModel.bias === model.b && shippedModel.weights.every((x, i) => x === model.w[i]) && shippedModel.pairs.every(([, , x], k) => x === model.w[F + k]);
    console.log(same ? 'models/ipi-trace.json reproduced exactly' : 'models/ipi-trace.json differs from a fresh training run');
    process.exit(same ? 0 : 1);
  }
  const evalRows = folds ? traceFeatures(traces, scorerFor) : rows;
  const oof = [];
  for (const suite of [...new Set(evalRows.map((r) => r.suite))].sort()) {
    const logit = scorer(fit(evalRows.filter((r) => r.suite !== suite)));
    for (const r of evalRows.filter((x) => x.suite === suite)) oof.push({ ...r, logit: logit(r.x) });
  }
  // From the fit's logits (no benign call of these sessions is floored), then each floored call raised to `medium`.
  const anchors = anchorsFrom(oof.filter((r) => r.label === 0));
  for (const r of oof) if (unaskedWrite(r.x)) r.logit = Math.max(r.logit, anchors.medium);
  console.log(report(oof, anchors));
  const model = fit(rows);
  const file = {
    ...modelFile(model, anchors),
    training: { traces: rows.length, suites: [...new Set(rows.map((r) => r.suite))].sort(), l2: L2, steps: STEPS, contentHeldOut: Boolean(folds) },
  };
  if (!flag('no-write')) {
    writeFileSync(new URL('../models/ipi-trace.json', import.meta.url), `${JSON.stringify(file, null, 2)}\n`);
    writeFileSync(new URL('./results/ipi-trace-oof.json', import.meta.url), `${JSON.stringify(oof.map((r) => [r.suite, r.kind, r.label, r.logit, r.task, r.attack]))}\n`);
    console.log('wrote models/ipi-trace.json');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
