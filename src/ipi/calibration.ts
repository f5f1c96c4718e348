import { describe, ParapetTypeError } from '../bindings/errors.js';
import { assertAnchors } from './checks.js';
import type { IpiLevel } from './types.js';

/**
 * The detector's one score scale. `inspect` and `assess` both report a score
 * in [0, 1] whose cut-offs mean the same thing: a score at `LEVELS.low` is
 * exceeded by 5% of benign inputs, at `LEVELS.medium` by 1%, at `LEVELS.high`
 * by 0.1% (each model's anchors are measured on benign data it was not trained
 * on: models/README.md). Between and beyond the anchors the score is linear in
 * the model's logit, so it keeps the model's ranking.
 */
export const LEVELS = Object.freeze({ low: 0.35, medium: 0.6, high: 0.85 });

/** The logits at which a model's benign false-positive rate is 5%, 1% and 0.1%. */
export interface Anchors {
  readonly low: number;
  readonly medium: number;
  readonly high: number;
}

/**
 * Map a logit to the score scale. Below the low anchor the score falls
 * linearly to 0 over as many logits as lie between the low and the medium
 * anchor; above the high anchor it rises to 1 over the high–medium distance.
 */
export function calibrate(logit: number, a: Anchors): number {
  if (typeof logit !== 'number') throw new ParapetTypeError(`"logit" must be a number, got ${describe(logit)}`);
  assertAnchors(a);
  return scaleLogit(logit, a);
}

/** `calibrate` for anchors checked once where a model was built (the per-call path). */
export function scaleLogit(logit: number, a: Anchors): number {
  if (Number.isNaN(logit)) return 1; // fail closed: an unscorable input is not a benign one
  const span = (from: number, to: number): number => Math.max(1e-6, to - from);
  if (logit >= a.high) return Math.min(1, LEVELS.high + (1 - LEVELS.high) * ((logit - a.high) / span(a.medium, a.high)));
  if (logit >= a.medium) return LEVELS.medium + (LEVELS.high - LEVELS.medium) * ((logit - a.medium) / span(a.medium, a.high));
  if (logit >= a.low) return LEVELS.low + (LEVELS.medium - LEVELS.low) * ((logit - a.low) / span(a.low, a.medium));
  return Math.max(0, LEVELS.low * (1 - (a.low - logit) / span(a.low, a.medium)));
}

export function levelOf(score: number): IpiLevel {
  return score >= LEVELS.high ? 'high' : score >= LEVELS.medium ? 'medium' : score >= LEVELS.low ? 'low' : 'none';
}
