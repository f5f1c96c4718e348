// Ranking metrics for the detector's evaluations.

/** Area under the ROC curve (ties count half): P(score of a positive > score of a negative). */
export function auroc(scores, labels) {
  const pairs = scores.map((s, i) => [s, labels[i]]).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let pos = 0;
  for (let i = 0; i < pairs.length; ) {
    let j = i;
    while (j < pairs.length && pairs[j][0] === pairs[i][0]) j++;
    const avgRank = (i + j + 1) / 2; // ranks are 1-based
    for (let k = i; k < j; k++) if (pairs[k][1] === 1) {
      rankSum += avgRank;
      pos++;
    }
    i = j;
  }
  const neg = pairs.length - pos;
  if (pos === 0 || neg === 0) return NaN;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/**
 * True-positive rate at the strictest threshold whose false-positive rate is
 * at most `fpr` (a score must be strictly above the threshold to count).
 */
export function tprAtFpr(scores, labels, fpr) {
  const neg = scores.filter((_, i) => labels[i] === 0).sort((a, b) => b - a);
  const pos = scores.filter((_, i) => labels[i] === 1);
  if (pos.length === 0) return NaN;
  const allowed = Math.floor(fpr * neg.length);
  const threshold = neg.length === 0 ? -Infinity : neg[Math.min(allowed, neg.length - 1)];
  return pos.filter((s) => s > threshold).length / pos.length;
}
