// Multiple-instance logistic regression over bags of sparse range vectors: a text
// is an injection if any of its ranges is, so each text is scored by its highest
// range and the loss reaches that range only (max pooling). Training on whole-text
// labels instead taught the model that a long benign text around an attack is
// benign, and scoring by the highest range then flagged benign windows it had never
// been asked about. A benign sample may also push its other ranges down (`spread`):
// every range of a benign text is benign. Mini-batch Adam with a seeded shuffle:
// deterministic.
import { rng } from './synth/random.mjs';

/** Samples `{ bags: [{ idx: Uint32Array, val: Float32Array }], label, weight, spread }` packed into flat typed arrays. */
export function pack(samples) {
  let ranges = 0;
  let nnz = 0;
  for (const s of samples) {
    ranges += s.bags.length;
    for (const b of s.bags) nnz += b.idx.length;
  }
  const sampleStart = new Int32Array(samples.length + 1);
  const rangeStart = new Int32Array(ranges + 1);
  const idx = new Uint32Array(nnz);
  const val = new Float32Array(nnz);
  let r = 0;
  let p = 0;
  samples.forEach((s, i) => {
    sampleStart[i] = r;
    for (const b of s.bags) {
      rangeStart[r++] = p;
      // Ids sorted within a range: the weight lookups then walk memory in order.
      const key = new Float64Array(b.idx.length);
      for (let k = 0; k < b.idx.length; k++) key[k] = b.idx[k] * 65536 + k;
      key.sort();
      for (let k = 0; k < key.length; k++) {
        const j = key[k] % 65536;
        idx[p] = b.idx[j];
        val[p] = b.val[j];
        p++;
      }
    }
  });
  sampleStart[samples.length] = r;
  rangeStart[r] = p;
  return { n: samples.length, sampleStart, rangeStart, idx, val, labels: Int8Array.from(samples, (s) => s.label), weights: Float64Array.from(samples, (s) => s.weight ?? 1), spread: Float64Array.from(samples, (s) => s.spread ?? 0) };
}

export function train(P, { buckets, epochs = 8, batch = 32, lr = 0.02, l2 = 1e-5, seed = 7 }) {
  const w = new Float32Array(buckets);
  let b = 0;
  const m = new Float32Array(buckets + 1);
  const v = new Float32Array(buckets + 1);
  const grad = new Float64Array(buckets + 1);
  const stamp = new Int32Array(buckets);
  const touched = new Int32Array(buckets);
  const order = Int32Array.from({ length: P.n }, (_, i) => i);
  const random = rng(seed);
  const { sampleStart, rangeStart, idx, val, labels, weights, spread } = P;
  let t = 0;
  let nt = 0; // buckets touched in this batch
  const logitOf = (r) => {
    let z = b;
    for (let q = rangeStart[r]; q < rangeStart[r + 1]; q++) z += w[idx[q]] * val[q];
    return z;
  };
  const addGradient = (r, g) => {
    for (let q = rangeStart[r]; q < rangeStart[r + 1]; q++) {
      const j = idx[q];
      grad[j] += g * val[q];
      if (stamp[j] !== t) {
        stamp[j] = t;
        touched[nt++] = j;
      }
    }
  };
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = P.n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const x = order[i];
      order[i] = order[j];
      order[j] = x;
    }
    for (let start = 0; start < P.n; start += batch) {
      t++;
      nt = 0;
      let gb = 0;
      const end = Math.min(P.n, start + batch);
      for (let k = start; k < end; k++) {
        const s = order[k];
        if (sampleStart[s] === sampleStart[s + 1]) continue; // an empty text: nothing to learn from
        let best = -Infinity;
        let arg = sampleStart[s];
        for (let r = sampleStart[s]; r < sampleStart[s + 1]; r++) {
          const z = logitOf(r);
          if (z > best) {
            best = z;
            arg = r;
          }
        }
        const g = (1 / (1 + Math.exp(-best)) - labels[s]) * weights[s];
        addGradient(arg, g);
        gb += g;
        // A benign text's other ranges are benign too (the multiple-instance assumption):
        // pushed down beside its highest, together weighing `spread` of the text.
        const others = sampleStart[s + 1] - sampleStart[s] - 1;
        if (spread[s] > 0 && labels[s] === 0 && others > 0) {
          const share = (spread[s] * weights[s]) / others;
          for (let r = sampleStart[s]; r < sampleStart[s + 1]; r++) {
            if (r === arg) continue;
            const gr = share / (1 + Math.exp(-logitOf(r)));
            addGradient(r, gr);
            gb += gr;
          }
        }
      }
      const c1 = 1 - 0.9 ** t;
      const c2 = 1 - 0.999 ** t;
      const size = end - start;
      for (let u = 0; u < nt; u++) {
        const j = touched[u];
        const gj = grad[j] / size + l2 * w[j];
        grad[j] = 0;
        m[j] = 0.9 * m[j] + 0.1 * gj;
        v[j] = 0.999 * v[j] + 0.001 * gj * gj;
        w[j] -= (lr * (m[j] / c1)) / (Math.sqrt(v[j] / c2) + 1e-8);
      }
      const gj = gb / size;
      m[buckets] = 0.9 * m[buckets] + 0.1 * gj;
      v[buckets] = 0.999 * v[buckets] + 0.001 * gj * gj;
      b -= (lr * (m[buckets] / c1)) / (Math.sqrt(v[buckets] / c2) + 1e-8);
    }
  }
  return { w, b };
}

/** The highest logit of sample `s`'s ranges. */
export function score(model, P, s) {
  let best = -Infinity;
  for (let r = P.sampleStart[s]; r < P.sampleStart[s + 1]; r++) {
    let z = model.b;
    for (let q = P.rangeStart[r]; q < P.rangeStart[r + 1]; q++) z += model.w[P.idx[q]] * P.val[q];
    if (z > best) best = z;
  }
  return best;
}
