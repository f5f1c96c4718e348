// The shipped content weights as int8 with one scale (w ≈ q · scale). Start-up
// parses and decodes the embedded weights, and that cost grows with their bytes:
// float32 made the detector's cold start about 60 ms of compiling and decoding a
// 1.4 MB base64 string. One scale for all (the largest weight maps to 127) moves a
// range's logit by about 0.01 (decision 69); the detector widens them back to
// float32 once, at construction (src/ipi/classifier.ts), with the same arithmetic.

/**
 * `w` quantized: `q[i] = round(w[i] / scale)`, `scale = max |w| / 127` rounded to
 * float32, so that `q · scale` is exact before its one rounding to float32 and the
 * core's float32 lanes widen the weights to the same bits as the double arithmetic
 * here.
 */
export function quantizeWeights(w) {
  let max = 0;
  for (let i = 0; i < w.length; i++) max = Math.max(max, Math.abs(w[i]));
  const scale = max > 0 ? Math.fround(max / 127) : 1;
  // fround may round the scale down: the largest weight still maps to 127.
  const clamp = (x) => Math.max(-127, Math.min(127, x));
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = clamp(Math.round(w[i] / scale));
  return { q, scale };
}

/** The float32 weights the detector scores with: `q[i] · scale`, rounded once to float32. */
export function dequantizeWeights(q, scale) {
  const w = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) w[i] = q[i] * scale;
  return w;
}
