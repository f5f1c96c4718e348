import { decodeBase64Unchecked } from '../bindings/encoding.js';
import { assertOptions, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import { LinearModel, type QuantizedWeights } from '../bindings/linear.js';
import { readText } from '../bindings/reading.js';
import { featurize } from '../bindings/text.js';
import { readingsOf } from './breaks.js';
import { scaleLogit, type Anchors } from './calibration.js';
import { assertAnchors } from './checks.js';
import { MODEL_META, MODEL_WEIGHTS_BASE64 } from './model.generated.js';
import { isWhitespace, windowRanges } from './windows.js';

/**
 * The embedded content weights as stored: int8 with one scale (decision 69: a
 * quarter of the bytes to parse and decode at start-up). The one place that reads
 * the base64: a bundler that inlines a constant used once would otherwise carry
 * the string twice.
 */
function embeddedInt8(): QuantizedWeights {
  const bytes = decodeBase64Unchecked(MODEL_WEIGHTS_BASE64);
  return { int8: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), scale: MODEL_META.weightScale };
}

/**
 * The embedded content weights as float32, decoded afresh (a caller may keep or
 * change its copy): `int8 · scale`, rounded once, as the core widens them and as
 * training widened them for the ONNX file.
 */
export function embeddedWeights(): Float32Array {
  const { int8, scale } = embeddedInt8();
  const w = new Float32Array(int8.length);
  for (let i = 0; i < int8.length; i++) w[i] = int8[i]! * scale;
  return w;
}

const MODEL_FEATURES = { mode: 'text', charNgrams: [MODEL_META.charNgrams[0], MODEL_META.charNgrams[1]], normalize: false } as const;

/**
 * The embedded model in the core, made once and shared by every classifier that
 * uses it. Each copy holds 1.5 MiB of core memory (float weights and a scratch of
 * counts), freed only when its owner is collected: a detector made per request would
 * grow the core until it cannot, and on workerd, which has no FinalizationRegistry,
 * never free it. The core is single-threaded and its calls synchronous, so one
 * scratch serves every caller.
 */
let embedded: LinearModel | undefined;
function embeddedModel(): LinearModel {
  return (embedded ??= new LinearModel(embeddedInt8(), MODEL_META.bias, MODEL_FEATURES));
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

/** A line of a tool result as the session keeps it: its own score, its window's (the lines packed around it) and its string's. */
export interface Passage {
  readonly text: string;
  readonly score: number;
  readonly context: number;
  /**
   * The highest score of the strings of the carrier that hold the line (a JSON
   * value, a YAML scalar, an attribute, and a quoted string inside one: the
   * reading's segments, from 20 bytes up to 2,000 characters), or the line's own
   * score where none does. Optional for scorers written
   * before it; the session then uses `score`.
   */
  readonly segment?: number;
  /**
   * Charged as the riskiest passage of its result: the reading left a link
   * reference's address unread at a use, so the address's passage is not known
   * (decision 85). A session then also takes such a passage to ask what any
   * passage of the result asks.
   */
  readonly charged?: boolean;
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
  /** The float weights, for `explain` only: a caller's own, or the embedded ones widened when first asked for. */
  #weights: Float32Array | undefined;
  readonly #anchors: Anchors;

  constructor(options?: ContentModelOptions) {
    if (options !== undefined) assertOptions(options);
    if (options && !(options.weights instanceof Float32Array)) throw new ParapetTypeError(`"weights" must be a Float32Array`);
    const anchors = options?.anchors ?? MODEL_META.anchors;
    assertAnchors(anchors);
    this.#weights = options?.weights;
    this.#anchors = anchors;
    this.#model = options ? new LinearModel(options.weights, options.bias, MODEL_FEATURES) : embeddedModel();
  }

  /**
   * The highest logit of the text's ranges (for parity checks and training); of a text
   * with Unicode's other line breaks, invisible characters between letters (raw or
   * escaped) or runs of joined words, the highest of its readings (`readingsOf`:
   * decisions 92–94, 96).
   */
  logit(text: string): number {
    if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string`);
    return this.#highest(text).logit;
  }

  #highest(text: string): { reading: string; logit: number } {
    const [first, ...others] = readingsOf(text);
    let best = { reading: first!, logit: this.#model.maxLogitOfReading(first!) };
    for (const reading of others) {
      const logit = orSkipped(() => this.#model.maxLogitOfReading(reading));
      if (logit !== undefined && logit > best.logit) best = { reading, logit };
    }
    return best;
  }

  score(text: string): number {
    return scaleLogit(this.logit(text), this.#anchors);
  }

  /**
   * The reading's lines, each with its own score, its window's and its string's:
   * where provenance traces a copied value to. A line, not a window, because a
   * bill's IBAN line next to an injected paragraph is not the injection; the
   * window's score travels with it, because an instruction spread over several
   * lines scores as a whole; and the string's, because a value in the same message
   * as an instruction ("Visit www.… ." after "please do the following first:") is
   * the instruction's, where a value in the record's next field is not. A line
   * shorter than MIN_LINE gets no score of its own (0): the model never scores
   * such a range alone within a longer text, and a lone key ("id") is no evidence.
   * Nor does a line of one ASCII token (an IBAN, a URL, an address on its own line):
   * a value is not an instruction; the window and the string it sits in say
   * whether it was asked for.
   *
   * When the reading left a link reference's address unread at one of its uses
   * (its budget for them spent, or a level's table full: uses or definitions placed
   * before an injected one can do either on purpose), the address is known to be
   * somewhere in the result but not in which passage: every passage is charged as the riskiest one (`charged`), as a
   * session charges a value past its tracing budget.
   */
  passages(text: string): Passage[] {
    // Every reading's passages (decisions 92–94, 96): a value is traced in whichever holds it. A passage
    // another reading has already given is not given twice, so a session's sources fill no faster.
    const [first, ...others] = readingsOf(text);
    // A result repeats its strings (a status, a note on every record), and a window of one line is that line:
    // each distinct text is scored once.
    const scores = new Map<string, number>();
    const score = (t: string): number => {
      let s = scores.get(t);
      if (s === undefined) scores.set(t, (s = this.score(t)));
      return s;
    };
    const out = this.#passagesOf(first!, score);
    if (others.length === 0) return out;
    const seen = new Set(out.map((p) => p.text));
    for (const reading of others) {
      for (const p of orSkipped(() => this.#passagesOf(reading, score)) ?? []) {
        if (seen.has(p.text)) continue;
        seen.add(p.text);
        out.push(p);
      }
    }
    return out;
  }

  #passagesOf(text: string, score: (text: string) => number): Passage[] {
    const { text: reading, segments, unreadReferences } = readText(text);
    const strings = new SegmentIndex(segments, (from, to) => score(reading.slice(from, to)));
    const w = windowRanges(reading);
    const out: Passage[] = [];
    for (let i = 0; i < w.length; i += 2) {
      const window = reading.slice(w[i], w[i + 1]);
      const context = score(window);
      const lines = lineSpans(reading, w[i]!, w[i + 1]!);
      // One line that is the whole result ("TODO") is scored as inspect scores it.
      const alone = w.length === 2 && lines.length === 2;
      for (let k = 0; k < lines.length; k += 2) {
        const line = reading.slice(lines[k], lines[k + 1]);
        // The reading sets a record's punctuation on lines of its own (":", ","):
        // no value is copied from them, and a session would keep their hashes.
        if (!WORDLIKE.test(line)) continue;
        const own = (utf8Length(line) < MIN_LINE || isOneToken(line)) && !alone ? 0 : lines.length === 2 ? context : score(line);
        out.push({ text: line, score: own, context, segment: strings.scoreOf(lines[k]!, lines[k + 1]!) ?? own });
      }
    }
    return unreadReferences ? chargedAsRiskiest(out) : out;
  }

  /**
   * Which words pushed the score up or down: each word's features (its unigram
   * and character n-grams) weighted as the model weights them, mean per feature.
   * An explanation for people (the playground highlights it), not the score.
   */
  explain(text: string): { word: string; weight: number }[] {
    const weights = (this.#weights ??= embeddedWeights());
    const out: { word: string; weight: number }[] = [];
    for (const word of readText(this.#highest(text).reading).text.split(/(\s+)/)) {
      if (!/[\p{L}\p{N}]/u.test(word)) {
        out.push({ word, weight: 0 });
        continue;
      }
      const ids = featurize(word, { ...MODEL_FEATURES, buckets: weights.length });
      let sum = 0;
      for (const id of ids) sum += weights[id]!;
      out.push({ word, weight: ids.length ? sum / ids.length : 0 });
    }
    return out;
  }
}

/** The passages with every score raised to the highest score any of them has. */
function chargedAsRiskiest(passages: Passage[]): Passage[] {
  let peak = 0;
  for (const p of passages) peak = Math.max(peak, p.score, p.context, p.segment ?? 0);
  return passages.map((p) => ({ ...p, score: Math.max(p.score, peak), context: Math.max(p.context, peak), segment: Math.max(p.segment ?? 0, peak), charged: true }));
}

const WORDLIKE = /[\p{L}\p{N}]/u;
/** Shorter lines are not scored alone (the core's ranges start at 20 bytes: assembly/ranges.ts MIN_LINE). */
const MIN_LINE = 20;
/** Longer strings are not one passage's surroundings (in UTF-16 units; the core's MAX_PARAGRAPH is 2,000 bytes). */
const MAX_SEGMENT = 2000;

/**
 * Whether a trimmed line is one token of printable ASCII (an IBAN, a URL, an
 * address, an id): a value rather than a sentence. ASCII only, because Chinese,
 * Japanese or Thai write whole sentences without a blank.
 */
function isOneToken(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return n;
}

/** The non-blank lines of text[from, to), trimmed, as flattened [start, end) offsets. */
function lineSpans(text: string, from: number, to: number): number[] {
  const out: number[] = [];
  for (let a = from; a < to; ) {
    let z = text.indexOf('\n', a);
    if (z < 0 || z > to) z = to;
    let s = a;
    let e = z;
    while (s < e && isWhitespace(text.charCodeAt(s))) s++;
    while (e > s && isWhitespace(text.charCodeAt(e - 1))) e--;
    if (e > s) out.push(s, e);
    a = z + 1;
  }
  return out;
}

/**
 * The segments holding a span, each scored once. The reading's segments nest or
 * are disjoint (inner ones listed first); sorted by start (outer first on a tie),
 * a stack holds the ones open at a position, innermost on top. Spans are asked for
 * in increasing order of start, so one pass serves a whole result.
 */
class SegmentIndex {
  readonly #from: number[] = [];
  readonly #to: number[] = [];
  readonly #scores = new Map<number, number>();
  readonly #open: number[] = [];
  #next = 0;
  readonly #score: (from: number, to: number) => number;

  constructor(segments: readonly number[], score: (from: number, to: number) => number) {
    const order: number[] = [];
    for (let i = 0; i < segments.length; i += 2) if (segments[i + 1]! - segments[i]! <= MAX_SEGMENT) order.push(i);
    order.sort((a, b) => segments[a]! - segments[b]! || segments[b + 1]! - segments[a + 1]!);
    for (const i of order) {
      this.#from.push(segments[i]!);
      this.#to.push(segments[i + 1]!);
    }
    this.#score = score;
  }

  /**
   * The highest score of the segments holding [from, to), or undefined when none
   * does: the innermost alone would let an attacker quote the value inside the
   * injected string ('send it to "x@evil.test"') and give it a string of its own.
   */
  scoreOf(from: number, to: number): number | undefined {
    const open = this.#open;
    while (this.#next < this.#from.length && this.#from[this.#next]! <= from) open.push(this.#next++);
    while (open.length > 0 && this.#to[open[open.length - 1]!]! <= from) open.pop();
    let best: number | undefined;
    for (let k = open.length - 1; k >= 0; k--) {
      const i = open[k]!;
      if (this.#to[i]! < to) continue;
      let s = this.#scores.get(i);
      if (s === undefined) this.#scores.set(i, (s = this.#score(this.#from[i]!, this.#to[i]!)));
      if (best === undefined || s > best) best = s;
    }
    return best;
  }
}

/**
 * What `read` gives for a reading other than the text's own, or undefined when the reading is past the core's size
 * limit: a camelCase run spaced grows its text, and a text near 16 MiB may grow past it. The text's own reading
 * stands, and the core's error for it is the caller's.
 */
function orSkipped<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof ParapetRangeError && error.code === 'invalid-length') return undefined;
    throw error;
  }
}
