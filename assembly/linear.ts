// A linear model over a bag of hashed features, for the injection
// classifier: x_j = log1p(count_j) for each distinct feature j, L2-normalised,
// logit = bias + Σ w_j x_j. The same arithmetic runs in ONNX (models/), so the
// two can be checked against each other.

/**
 * Logit of the `n` feature ids (u32) at `ids` under the f32 weights at
 * `weights`. `counts` is a u16 scratch array with one slot per bucket; it
 * must be all zero on entry and is left all zero on exit (only the touched
 * slots are visited, so a call costs O(n), not O(buckets)). u16, not f32:
 * half the memory and cache lines for the random accesses a large model
 * makes (a count saturates at 65,535).
 */
export function linearLogit(ids: usize, n: usize, counts: usize, weights: usize, bias: f64): f64 {
  for (let i: usize = 0; i < n; i++) {
    const c = counts + (<usize>load<u32>(ids + (i << 2)) << 1);
    const v = load<u16>(c);
    if (v != 0xffff) store<u16>(c, v + 1);
  }
  let dot: f64 = 0;
  let norm: f64 = 0;
  for (let i: usize = 0; i < n; i++) {
    const id = <usize>load<u32>(ids + (i << 2));
    const c = counts + (id << 1);
    const count = <f64>load<u16>(c);
    if (count == 0) continue; // already taken by an earlier occurrence
    const x = Math.log1p(count);
    dot += <f64>load<f32>(weights + (id << 2)) * x;
    norm += x * x;
    store<u16>(c, 0);
  }
  return norm > 0 ? bias + dot / Math.sqrt(norm) : bias;
}
