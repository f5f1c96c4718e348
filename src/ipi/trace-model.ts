import { assertFinite, assertOptions, describe, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import { assertAnchors } from './checks.js';
import { scaleLogit, type Anchors } from './calibration.js';
import { TRACE_MODEL } from './trace-model.generated.js';

/**
 * What the trace model reads about a pending call in its session, each in [0, 1]
 * (training/train-traces.mjs fits it on scripted and recorded sessions). The order
 * is the model's input order; the names are part of the model file.
 */
export const TRACE_FEATURES = [
  'content', // the call's own argument text, on the content scale
  'provenance', // an argument copied from an untrusted passage: that passage's score × how specific the value is
  'copiedUntrusted', // how specific the most specific value copied from untrusted text (and absent from trusted text) is
  'copiedRisk', // the highest score of a line an argument was copied from
  'copiedContext', // the highest score of the window around such a line
  'copiedSegment', // the highest score of the carrier string (message, field) holding such a line
  'affinity', // an injection-like passage names what the tool does and touches, the user did not name all of it
  'toolTrusted', // the user's own words (never a system prompt's) name every word of the tool's name that says what it does or touches
  'argsTrusted', // the share of the call's specific values that appear in trusted text
  'sessionRisk', // the highest passage score seen in the session
  'recentRisk', // the highest passage score of the latest tool result
  'afterRisky', // 1 / (1 + calls since the first passage at medium or above); 0 before one
  'write', // the tool's name says it changes something (send, delete, transfer, …)
  'surprise', // bits per word of the call under the session's trusted text and earlier calls
  'noArgs', // the call carries no value at all
  'novelEntity', // an address, URL, IBAN or number in the arguments that nothing seen contains
  'askedRead', // the user's words so far ask for an answer (a question, or a turn opening with a reading verb) and no change (no verb that sends, changes or hands work over)
  'copiedRequest', // how specific the most specific value copied from a line that asks its reader for a change is
  'requested', // a line of a tool result asks its reader for what the tool does and touches, and the user did not name all of it
  'verbTrusted', // the user's own words (never a system prompt's) hold the tool's verb or a synonym of it ("post the build number" for send_message)
  'requestedOnly', // requested, for a write whose verb the user's words never used: only a tool result asked for this change
  'requestedAfterRead', // requestedOnly, when the user's words asked only for an answer: a change no one but a tool result asked for
] as const;

export type TraceFeature = (typeof TRACE_FEATURES)[number];

/**
 * Features that are scores of what the session read: evidence of an injection,
 * never evidence against one. A fit over pairwise products learns to explain away
 * (once a request line alone marks a call, a high session risk adds little, and a
 * product's weight goes negative), so more risk can lower a call's score. Not in
 * `TraceModel`: it scores a call as the highest the fit gives with each of these
 * anywhere between zero and its value, so that no risk read, and no reading that
 * raises one, lowers a call's score.
 */
export const TRACE_RISK_FEATURES: readonly TraceFeature[] = ['content', 'copiedRisk', 'copiedContext', 'copiedSegment', 'sessionRisk', 'recentRisk', 'afterRisky'];
const RISK_INDEXES = TRACE_RISK_FEATURES.map((f) => TRACE_FEATURES.indexOf(f));

export interface TraceModelFile {
  readonly name: string;
  readonly version: number;
  readonly features: readonly string[];
  readonly bias: number;
  readonly weights: readonly number[];
  /** Products of two features: [i, j, weight]. */
  readonly pairs: readonly (readonly [number, number, number])[];
  readonly anchors: Anchors;
}

/** What scores a call from its features (`TRACE_FEATURES`, in order) on the detector's scale. */
export interface TraceScorer {
  score(features: ArrayLike<number>): number;
  /** Each feature's share of the score, for reasons (optional). */
  contributions?(features: ArrayLike<number>): Float64Array;
}

/** A model file is data a host may load from anywhere: every field is checked before it is used. */
function assertTraceModelFile(m: unknown): asserts m is TraceModelFile {
  assertOptions(m, 'model');
  const f = m as Record<string, unknown>;
  if (!Array.isArray(f.features) || f.features.some((x) => typeof x !== 'string')) throw new ParapetTypeError(`"model.features" must be an array of names, got ${describe(f.features)}`);
  assertFinite(f.bias, 'model.bias');
  if (!Array.isArray(f.weights) || f.weights.length !== TRACE_FEATURES.length) throw new ParapetTypeError(`"model.weights" must be an array of ${TRACE_FEATURES.length} numbers`);
  f.weights.forEach((w, i) => assertFinite(w, `model.weights[${i}]`));
  if (!Array.isArray(f.pairs)) throw new ParapetTypeError(`"model.pairs" must be an array of [i, j, weight], got ${describe(f.pairs)}`);
  f.pairs.forEach((p: unknown, k) => {
    const ok = Array.isArray(p) && p.length === 3 && [p[0], p[1]].every((i) => Number.isInteger(i) && i >= 0 && i < TRACE_FEATURES.length) && Number.isFinite(p[2]);
    if (!ok) throw new ParapetTypeError(`"model.pairs[${k}]" must be [i, j, weight] with feature indexes below ${TRACE_FEATURES.length}`);
  });
  assertAnchors(f.anchors, 'model.anchors');
}

/**
 * Logistic regression over the features and their pairwise products, read as
 * rising in the session's risk (`TRACE_RISK_FEATURES`): the highest logit over the
 * calls whose risk features each lie between zero and the call's own. The fit is
 * linear in each feature when the others are fixed (a product of two features is
 * its only way to combine them), so that highest is at a corner: each risk feature
 * at zero or at its value, at most 2^7 of them, read from one pass over the weights.
 */
export class TraceModel implements TraceScorer {
  readonly #m: TraceModelFile;
  /** The products, flat (first feature, second, weight): a call reads them once or twice (the floor), a flagged one twice more for its reasons. */
  readonly #pairI: Int32Array;
  readonly #pairJ: Int32Array;
  readonly #pairW: Float64Array;
  /** The weight of each product, indexed [i * F + j] both ways round (a square's on the diagonal): for the corners. */
  readonly #pairMatrix: Float64Array;

  constructor(model: TraceModelFile = TRACE_MODEL) {
    assertTraceModelFile(model);
    if (model.features.length !== TRACE_FEATURES.length || model.features.some((f, i) => f !== TRACE_FEATURES[i])) {
      throw new ParapetRangeError(`the trace model expects features ${model.features.join(', ')}, this build computes ${TRACE_FEATURES.join(', ')}`, 'invalid-value');
    }
    this.#m = model;
    this.#pairI = Int32Array.from(model.pairs, (p) => p[0]);
    this.#pairJ = Int32Array.from(model.pairs, (p) => p[1]);
    this.#pairW = Float64Array.from(model.pairs, (p) => p[2]);
    const n = TRACE_FEATURES.length;
    this.#pairMatrix = new Float64Array(n * n);
    for (const [i, j, w] of model.pairs) {
      this.#pairMatrix[i * n + j] = this.#pairMatrix[i * n + j]! + w;
      if (i !== j) this.#pairMatrix[j * n + i] = this.#pairMatrix[j * n + i]! + w;
    }
  }

  logit(x: ArrayLike<number>): number {
    return this.#highestCorner(x).logit;
  }

  /** The call's score on the detector's scale. */
  score(x: ArrayLike<number>): number {
    return scaleLogit(this.logit(x), this.#m.anchors);
  }

  /** Each feature's share of the logit (its weight times its value, products split evenly), for reasons. */
  contributions(x: ArrayLike<number>): Float64Array {
    const read = this.#read(x);
    const m = this.#m;
    const out = new Float64Array(m.weights.length);
    for (let i = 0; i < m.weights.length; i++) out[i] = m.weights[i]! * read[i]!;
    const pi = this.#pairI;
    const pj = this.#pairJ;
    const pw = this.#pairW;
    for (let k = 0; k < pw.length; k++) {
      const c = (pw[k]! * read[pi[k]!]! * read[pj[k]!]!) / 2;
      out[pi[k]!] = out[pi[k]!]! + c;
      out[pj[k]!] = out[pj[k]!]! + c;
    }
    return out;
  }

  /** The call as scored: the corner that scores highest (the call as it is when none scores higher). */
  #read(x: ArrayLike<number>): ArrayLike<number> {
    const { corner } = this.#highestCorner(x);
    if (corner === FULL_CORNER) return x;
    const y = Float64Array.from(x);
    RISK_INDEXES.forEach((r, k) => void ((corner & (1 << k)) === 0 && (y[r] = 0)));
    return y;
  }

  /**
   * The highest logit over the corners (each risk feature at zero or at its value), and which: bit k of `corner`
   * set when `RISK_INDEXES[k]` is at its value. With the risk features held apart the fit reads
   * base + Σ a_r·x_r + Σ w_rs·x_r·x_s, each a_r folding in the products with the features held fixed.
   */
  #highestCorner(x: ArrayLike<number>): { logit: number; corner: number } {
    const on = RISK_INDEXES.filter((r) => x[r] !== 0);
    const asRead = this.#linear(x);
    if (on.length === 0) return { logit: asRead, corner: FULL_CORNER };
    const n = TRACE_FEATURES.length;
    const m = this.#pairMatrix;
    const held = Float64Array.from(x);
    for (const r of on) held[r] = 0;
    const base = this.#linear(held);
    // a_r·x_r: feature r's weight and its products with every feature held, and its square, at its value.
    const gain = on.map((r) => {
      let a = this.#m.weights[r]! + m[r * n + r]! * x[r]!;
      for (let j = 0; j < n; j++) if (j !== r) a += m[r * n + j]! * held[j]!;
      return a * x[r]!;
    });
    const all = (1 << on.length) - 1;
    let best = asRead;
    let bestSubset = all;
    for (let subset = 0; subset < all; subset++) {
      let z = base;
      for (let k = 0; k < on.length; k++) {
        if ((subset & (1 << k)) === 0) continue;
        z += gain[k]!;
        const rk = on[k]!;
        for (let l = k + 1; l < on.length; l++) if ((subset & (1 << l)) !== 0) z += m[rk * n + on[l]!]! * x[rk]! * x[on[l]!]!;
      }
      if (z > best) {
        best = z;
        bestSubset = subset;
      }
    }
    if (bestSubset === all) return { logit: best, corner: FULL_CORNER };
    // As bits over RISK_INDEXES: a feature at zero in the call is at its value in every corner.
    let corner = FULL_CORNER;
    on.forEach((r, k) => void ((bestSubset & (1 << k)) === 0 && (corner &= ~(1 << RISK_INDEXES.indexOf(r)))));
    return { logit: best, corner };
  }

  #linear(x: ArrayLike<number>): number {
    const m = this.#m;
    let z = m.bias;
    for (let i = 0; i < m.weights.length; i++) z += m.weights[i]! * x[i]!;
    const pi = this.#pairI;
    const pj = this.#pairJ;
    const pw = this.#pairW;
    for (let k = 0; k < pw.length; k++) z += pw[k]! * x[pi[k]!]! * x[pj[k]!]!;
    return z;
  }
}

/** The corner with every risk feature at its value: the call as it is. */
const FULL_CORNER = (1 << RISK_INDEXES.length) - 1;
