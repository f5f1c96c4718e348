import { decodeBase64Unchecked } from '../bindings/encoding.js';
import { assertOptions, ParapetTypeError } from '../bindings/errors.js';
import { LinearModel } from '../bindings/linear.js';
import { readText } from '../bindings/reading.js';
import { featurize } from '../bindings/text.js';
import { scaleLogit, type Anchors } from './calibration.js';
import { assertAnchors } from './checks.js';
import { MODEL_META, MODEL_WEIGHTS_BASE64 } from './model.generated.js';
import { windowRanges } from './windows.js';

/**
 * The embedded content weights, decoded afresh (a caller may keep or change its copy).
 * The one place that reads the base64: a bundler that inlines a constant used once
 * would otherwise carry the 1.4 MB string twice.
 */
export function embeddedWeights(): Float32Array {
  return new Float32Array(decodeBase64Unchecked(MODEL_WEIGHTS_BASE64).slice().buffer);
}

/**
 * What the detector needs from a content model: a text's score on the
 * detector's scale (`calibration.ts`: 0.35 / 0.6 / 0.85 are the 5% / 1% / 0.1%
 * false-positive points), and the passages of a tool result with theirs.
 */
export interface ContentScorer {
  score(text: string): number;
  passages(text: string): readonly Passage[];
}

/** A line of a tool result as the session keeps it: its own score, and its window's (the lines packed around it). */
export interface Passage {
  readonly text: string;
  readonly score: number;
  readonly context: number;
}

/** A replacement content model: raw logits (the detector calibrates them with `anchors`). */
export interface ContentModelOptions {
  readonly weights: Float32Array;
  readonly bias: number;
  readonly anchors: Anchors;
}

/**
 * The embedded content model, scored in the core: the text is read as prose
 * whatever carries it (JSON, Python reprs, YAML, markup, escapes: `readingRanges`
 * in the bindings), cut into the ranges the model was trained on (the whole
 * reading, each string of the carrier, paragraphs, windows, lines and sentences),
 * and scores the highest of them.
 */
export class CoreClassifier implements ContentScorer {
  readonly #model: LinearModel;
  readonly #weights: Float32Array;
  readonly #anchors: Anchors;

  constructor(options?: ContentModelOptions) {
    if (options !== undefined) assertOptions(options);
    const weights = options?.weights ?? embeddedWeights();
    if (options && !(options.weights instanceof Float32Array)) throw new ParapetTypeError(`"weights" must be a Float32Array`);
    const anchors = options?.anchors ?? MODEL_META.anchors;
    assertAnchors(anchors);
    this.#weights = weights;
    this.#anchors = anchors;
    this.#model = new LinearModel(weights, options?.bias ?? MODEL_META.bias, { mode: 'text', charNgrams: [MODEL_META.charNgrams[0], MODEL_META.charNgrams[1]], normalize: false });
  }

  /** The highest logit of the text's ranges (for parity checks and training). */
  logit(text: string): number {
    if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string`);
    return this.#model.maxLogitOfReading(text);
  }

  score(text: string): number {
    return scaleLogit(this.logit(text), this.#anchors);
  }

  /**
   * The reading's lines, each with its own score and its window's: where provenance
   * traces a copied value to. A line, not a window, because a bill's IBAN line next
   * to an injected paragraph is not the injection; the window's score travels with
   * it, because an instruction spread over several lines scores as a whole.
   */
  passages(text: string): Passage[] {
    const reading = readText(text).text;
    const w = windowRanges(reading);
    const out: Passage[] = [];
    for (let i = 0; i < w.length; i += 2) {
      const window = reading.slice(w[i], w[i + 1]);
      const context = this.score(window);
      const lines = window.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
      if (lines.length === 1) out.push({ text: lines[0]!, score: context, context });
      else for (const line of lines) out.push({ text: line, score: this.score(line), context });
    }
    return out;
  }

  /**
   * Which words pushed the score up or down: each word's features (its unigram
   * and character n-grams) weighted as the model weights them, mean per feature.
   * An explanation for people (the playground highlights it), not the score.
   */
  explain(text: string): { word: string; weight: number }[] {
    const out: { word: string; weight: number }[] = [];
    for (const word of readText(text).text.split(/(\s+)/)) {
      if (!/[\p{L}\p{N}]/u.test(word)) {
        out.push({ word, weight: 0 });
        continue;
      }
      const ids = featurize(word, { mode: 'text', buckets: this.#weights.length, charNgrams: [MODEL_META.charNgrams[0], MODEL_META.charNgrams[1]], normalize: false });
      let sum = 0;
      for (const id of ids) sum += this.#weights[id]!;
      out.push({ word, weight: ids.length ? sum / ids.length : 0 });
    }
    return out;
  }
}
