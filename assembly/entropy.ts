// Streaming statistics for the detector's signals: byte entropy, entropy of a
// model's top-k choice, Welford running moments in many slots, and a diagonal
// Gaussian over fixed-length vectors. No allocation: state lives in regions the
// caller owns.

/** Byte histogram for `shannonEntropy`, reset on every call. */
const COUNTS: usize = memory.data(256 * 4, 16);

const INV_LN2: f64 = 1.4426950408889634;

/** Shannon entropy of `len` bytes at `ptr`, in bits per byte (0 for empty input). */
export function shannonEntropy(ptr: usize, len: usize): f64 {
  if (len == 0) return 0;
  memory.fill(COUNTS, 0, 256 * 4);
  for (let i: usize = 0; i < len; i++) {
    const slot = COUNTS + (<usize>load<u8>(ptr + i) << 2);
    store<u32>(slot, load<u32>(slot) + 1);
  }
  // H = log2(n) - (1/n) Σ c log2 c: one division instead of 256.
  let sum: f64 = 0;
  for (let b: usize = 0; b < 256; b++) {
    const c = <f64>load<u32>(COUNTS + (b << 2));
    if (c > 0) sum += c * Math.log(c);
  }
  const n = <f64>len;
  const h = (Math.log(n) - sum / n) * INV_LN2;
  return h > 0 ? h : 0;
}

/**
 * Entropy in bits of the distribution given by `k` natural-log probabilities
 * (f64) at `ptr`, renormalised over those k: top-k logprobs from a model sum
 * to less than one and the tail is unknown, so we measure the spread among
 * the candidates we were shown. Non-finite entries count as probability 0.
 */
export function logprobEntropy(ptr: usize, k: usize): f64 {
  let top = -Infinity;
  for (let i: usize = 0; i < k; i++) {
    const v = load<f64>(ptr + (i << 3));
    if (isFinite(v) && v > top) top = v;
  }
  if (!isFinite(top)) return 0;
  // Shift by the max so exp() cannot overflow (log-sum-exp).
  let z: f64 = 0, weighted: f64 = 0;
  for (let i: usize = 0; i < k; i++) {
    const v = load<f64>(ptr + (i << 3));
    if (!isFinite(v)) continue;
    const d = v - top;
    const e = Math.exp(d);
    z += e;
    weighted += e * d;
  }
  // H = ln Z - (Σ e_i d_i) / Z, in nats, then to bits.
  const h = (Math.log(z) - weighted / z) * INV_LN2;
  return h > 0 ? h : 0;
}

/** `count` distributions of `k` logprobs each, back to back; entropies (f64) to `out`. */
export function logprobEntropyBatch(ptr: usize, k: usize, count: usize, out: usize): void {
  for (let i: usize = 0; i < count; i++) {
    store<f64>(out + (i << 3), logprobEntropy(ptr + i * (k << 3), k));
  }
}

// Welford slots: each slot is three f64 — count, mean, M2 (sum of squared
// deviations). Welford's update stays accurate where the naive Σx² − n·mean²
// cancels catastrophically (values with a large common offset).

/** Push `x` into slot `slot` of the slot array at `state`. */
export function statsPush(state: usize, slot: usize, x: f64): void {
  const p = state + slot * 24;
  const n = load<f64>(p) + 1;
  const mean = load<f64>(p, 8);
  const delta = x - mean;
  const nextMean = mean + delta / n;
  store<f64>(p, n);
  store<f64>(p, nextMean, 8);
  store<f64>(p, load<f64>(p, 16) + delta * (x - nextMean), 16);
}

/** Push `count` values (f64 at `values`) into one slot. */
export function statsPushMany(state: usize, slot: usize, values: usize, count: usize): void {
  for (let i: usize = 0; i < count; i++) statsPush(state, slot, load<f64>(values + (i << 3)));
}

/** Push one value into each of the first `count` slots: values[i] goes to slot i. */
export function statsPushVector(state: usize, values: usize, count: usize): void {
  for (let i: usize = 0; i < count; i++) statsPush(state, i, load<f64>(values + (i << 3)));
}

/** Sample variance (n − 1 denominator) of a slot; 0 until it holds two values. */
export function statsVariance(state: usize, slot: usize): f64 {
  const p = state + slot * 24;
  const n = load<f64>(p);
  return n < 2 ? 0 : load<f64>(p, 16) / (n - 1);
}

/**
 * z-score of `x` against a slot: (x − mean) / stdDev. With fewer than two
 * values there is no spread to measure, so the score is 0. With zero spread,
 * any different value is infinitely surprising and reported as ±Infinity.
 */
export function statsZScore(state: usize, slot: usize, x: f64): f64 {
  const p = state + slot * 24;
  if (load<f64>(p) < 2) return 0;
  const d = x - load<f64>(p, 8);
  const sd = Math.sqrt(statsVariance(state, slot));
  if (sd == 0) return d == 0 ? 0 : (d > 0 ? Infinity : -Infinity);
  return d / sd;
}

// Diagonal Gaussian over vectors of `dim` f32: state is f64 count, then
// `dim` Welford slots laid out as mean[dim] then m2[dim] so that scoring reads
// two contiguous arrays.

/** Add the vector of `dim` f32 at `x` to the Gaussian at `state`. */
export function gaussPush(state: usize, dim: usize, x: usize): void {
  const n = load<f64>(state) + 1;
  store<f64>(state, n);
  const means = state + 8;
  const m2s = means + (dim << 3);
  for (let i: usize = 0; i < dim; i++) {
    const v = <f64>load<f32>(x + (i << 2));
    const mp = means + (i << 3);
    const mean = load<f64>(mp);
    const delta = v - mean;
    const next = mean + delta / n;
    store<f64>(mp, next);
    const qp = m2s + (i << 3);
    store<f64>(qp, load<f64>(qp) + delta * (v - next));
  }
}

/**
 * Anomaly score of the f32 vector at `x`: the Mahalanobis distance under a
 * diagonal covariance, sqrt(Σ (x_i − μ_i)² / (σ_i² + floor)), divided by
 * sqrt(dim) so that scores compare across dimensions (≈1 for a typical
 * sample). `floor` keeps dimensions that never varied from dividing by zero.
 */
export function gaussScore(state: usize, dim: usize, x: usize, floor: f64): f64 {
  const n = load<f64>(state);
  if (n < 2 || dim == 0) return 0;
  const means = state + 8;
  const m2s = means + (dim << 3);
  const denom = n - 1;
  let sum: f64 = 0;
  for (let i: usize = 0; i < dim; i++) {
    const d = <f64>load<f32>(x + (i << 2)) - load<f64>(means + (i << 3));
    sum += (d * d) / (load<f64>(m2s + (i << 3)) / denom + floor);
  }
  return Math.sqrt(sum / <f64>dim);
}
