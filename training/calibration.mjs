// The detector's score scale for the training scripts, read from the built package
// so that training and the detector cannot disagree (src/ipi/calibration.ts).
export { calibrate, LEVELS } from '../dist/ipi.js';

/**
 * Anchors (logits) at the given benign false-positive rates of `groups`
 * (Map: group → held-out benign logits), each group weighing the same: the
 * logit where the weight above it first exceeds the rate. Anchors must increase;
 * ties (many benign items at one logit) are pulled apart by 1e-3.
 */
export function anchorsAt(groups, rates) {
  const pool = [];
  for (const xs of groups.values()) for (const x of xs) pool.push([x, 1 / xs.length / groups.size]);
  pool.sort((a, b) => b[0] - a[0]);
  const at = (fpr) => {
    let acc = 0;
    for (const [x, w] of pool) {
      acc += w;
      if (acc > fpr) return x;
    }
    return pool[pool.length - 1][0];
  };
  const a = { low: at(rates.low), medium: at(rates.medium), high: at(rates.high) };
  if (!(a.medium > a.low)) a.medium = a.low + 1e-3;
  if (!(a.high > a.medium)) a.high = a.medium + 1e-3;
  return a;
}
