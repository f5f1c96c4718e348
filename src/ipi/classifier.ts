import { decodeBase64Unchecked } from '../bindings/encoding.js';
import { LinearModel, sigmoid } from '../bindings/linear.js';
import { featurize, normalizeText } from '../bindings/text.js';
import { MODEL_META, MODEL_WEIGHTS_BASE64 } from './model.generated.js';
import { scoringRanges } from './windows.js';

/** What the detector needs from a classifier: P(injection) of a text. */
export interface IpiClassifier {
  probability(text: string): number;
}

/** Probability thresholds calibrated on benign training text (models/ipi-classifier.json). */
export const THRESHOLDS: { readonly low: number; readonly medium: number; readonly high: number } = MODEL_META.thresholds;

/**
 * The embedded linear model, scored in the core: the highest probability of
 * the whole text, of each window and of each line (see `scoringRanges`).
 */
export class CoreClassifier implements IpiClassifier {
  readonly #model: LinearModel;
  readonly #weights: Float32Array;

  constructor() {
    this.#weights = new Float32Array(decodeBase64Unchecked(MODEL_WEIGHTS_BASE64).slice().buffer);
    // Text is normalised once per call here, not once per window.
    this.#model = new LinearModel(this.#weights, MODEL_META.bias, {
      charNgrams: [MODEL_META.charNgrams[0], MODEL_META.charNgrams[1]],
      normalize: false,
    });
  }

  /**
   * Which words pushed the score up or down: each word's features (its
   * unigram and character n-grams) weighted as the model weights them, mean
   * per feature. An explanation for people (the playground highlights it),
   * not the score itself, which also counts bigrams and context.
   */
  explain(text: string): { word: string; weight: number }[] {
    const out: { word: string; weight: number }[] = [];
    for (const word of normalizeText(text).split(/(\s+)/)) {
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

  probability(text: string): number {
    // The whole text and each window: windows alone were ~30% faster but lost
    // recall at 1% FPR in leave-one-source-out tests (agentdojo-slack 0.94 → 0.65).
    // Windows and lines are scored as byte ranges of the text staged once
    // (sigmoid is monotonic, so the highest logit gives the highest probability).
    const normal = normalizeText(text);
    return sigmoid(this.#model.maxLogit(normal, scoringRanges(normal)));
  }

  /** The logit of the whole text, no windows (for parity checks against the ONNX export). */
  logit(text: string): number {
    return this.#model.logit(normalizeText(text));
  }
}
