import { DiagonalGaussian, logprobEntropy, RunningStats, shingles } from '../bindings/index.js';
import { ParapetTypeError } from '../bindings/errors.js';
import { entities, stringLeaves } from './entities.js';
import { windows } from './windows.js';
import type { IpiClassifier } from './classifier.js';
import type { IpiLevel, IpiRisk, Observation, SignalName, SignalReport, ToolCall } from './types.js';

/** What a session needs from its detector. */
export interface SessionContext {
  readonly classifier: IpiClassifier;
  readonly thresholds: { readonly low: number; readonly medium: number; readonly high: number };
  readonly threshold: number;
  readonly warmup: number;
  readonly hiddenReference?: DiagonalGaussian;
  readonly probe?: { readonly weights: ArrayLike<number>; readonly bias: number };
}

const SIGNALS: SignalName[] = ['content', 'provenance', 'surprise', 'entropy', 'hiddenState'];
const MAX_K = 3;
/** Argument text shorter than this is not scored for content (it is a name, an id, a channel). */
const MIN_CONTENT = 40;
/** Longest argument value traced as a whole. */
const MAX_TRACED = 300;

/** One window of an untrusted tool result: its injection risk and word shingles. */
interface Source {
  readonly toolName?: string;
  /** P(injection) of this window. */
  readonly risk: number;
  readonly sets: Set<number>[]; // word shingles for k = 1..3
}

/**
 * One agent session: what it has seen (trusted system/user text, untrusted
 * tool results) and a running baseline per signal. Synchronous and
 * allocation-light: `evaluate` is the pre-tool-call hot path.
 */
export class IpiSession {
  readonly id: string;
  readonly #ctx: SessionContext;
  readonly #sources: Source[] = [];
  readonly #trusted: Set<number>[] = [new Set(), new Set(), new Set()];
  readonly #baseline = new RunningStats(SIGNALS.length);
  /** Streaming word counts of trusted context and earlier calls, for surprise. */
  readonly #counts = new Map<number, number>();
  #total = 0;
  #calls = 0;
  #ended = false;

  constructor(id: string, ctx: SessionContext) {
    this.id = id;
    this.#ctx = ctx;
  }

  get calls(): number {
    return this.#calls;
  }

  /** Record content the agent saw. Tool results are untrusted and scored as they arrive. */
  observe(observation: Observation): void {
    if (this.#ended) return;
    const { role, content } = observation ?? ({} as Observation);
    if (role !== 'system' && role !== 'user' && role !== 'tool') throw new ParapetTypeError(`"role" must be system, user or tool`);
    if (typeof content !== 'string') throw new ParapetTypeError(`"content" must be a string`);
    if (role === 'tool') {
      // Window by window: a value copied from the injected paragraph of an email
      // is suspect, a value from its harmless header is not.
      for (const w of windows(content)) {
        this.#sources.push({ ...(observation.toolName ? { toolName: observation.toolName } : {}), risk: this.#ctx.classifier.probability(w), sets: shingleSets(w) });
      }
    } else {
      const sets = shingleSets(content);
      sets.forEach((s, i) => s.forEach((h) => this.#trusted[i]!.add(h)));
      this.#count(sets[0]!);
    }
  }

  /** Assess a pending call (no approval step: see IpiDetector for modes). */
  evaluate(call: ToolCall, mode: 'warn' | 'block' | 'hil'): IpiRisk {
    const started = performance.now();
    if (typeof call?.name !== 'string') throw new ParapetTypeError(`"call.name" must be a string`);
    const serialized = JSON.stringify({ name: call.name, arguments: call.arguments ?? null });
    const values: Partial<Record<SignalName, number>> = {};
    const details: Partial<Record<SignalName, string>> = {};

    // Content: the call's argument text, not its JSON: a short structured call
    // is not prose, and the classifier was trained on prose.
    const leaves = stringLeaves(call.arguments);
    const argText = leaves.map((l) => l.value).filter((v) => v.length >= 3).join('\n');
    values.content = argText.length >= MIN_CONTENT ? this.#ctx.classifier.probability(argText) : 0;
    const prov = this.#provenance(leaves);
    const affinity = this.#affinity(call.name);
    if (affinity.value > prov.value) Object.assign(prov, affinity);
    values.provenance = prov.value;
    if (prov.detail) details.provenance = prov.detail;
    const words = distinct(shingles(serialized, 1, { mode: 'json' }));
    values.surprise = this.#surprise(words);
    if (call.logprobs && call.logprobs.length > 0) {
      values.entropy = call.logprobs.reduce((a, row) => a + logprobEntropy(row as number[]), 0) / call.logprobs.length;
    }
    if (call.hiddenState) values.hiddenState = this.#hidden(call.hiddenState);

    const warm = this.#calls >= this.#ctx.warmup;
    const signals: Partial<Record<SignalName, SignalReport>> = {};
    const zScores: Partial<Record<SignalName, number>> = {};
    const reasons: string[] = [];
    let score = 0;
    SIGNALS.forEach((name, slot) => {
      const value = values[name];
      if (value === undefined) return;
      const z = warm && this.#baseline.count(slot) >= 2 ? this.#baseline.zScore(value, slot) : undefined;
      if (z !== undefined) zScores[name] = z;
      const severity = this.#severity(name, value);
      const absolute = severity >= 0.6;
      // Relative flags need a value that matters too: a z of 40 on a near-zero signal is noise.
      const relative = z !== undefined && z > this.#ctx.threshold && severity >= 0.35;
      const flagged = absolute || relative;
      signals[name] = { value, ...(z !== undefined ? { zScore: z } : {}), flagged, ...(details[name] ? { detail: details[name] } : {}) };
      score = Math.max(score, relative ? Math.max(severity, 0.6) : severity);
      if (flagged) reasons.push(reasonFor(name, value, z, details[name]));
    });
    // The baseline learns from every call, flagged or not, as the design says;
    // a flagged call's value then raises the bar for the next, which is what z-scores are for.
    this.#baseline.pushVector(SIGNALS.map((n, slot) => values[n] ?? this.#baseline.mean(slot)));
    this.#count(words);
    this.#calls++;
    const level = levelOf(score);
    const flagged = level === 'medium' || level === 'high' || reasons.length > 0;
    return {
      score, level, flagged, zScores, signals, reasons,
      action: flagged && mode !== 'warn' ? 'block' : 'allow',
      latencyMs: performance.now() - started,
    };
  }

  /** Forget everything; later calls are ignored. */
  end(): void {
    this.#ended = true;
    this.#sources.length = 0;
    this.#counts.clear();
    this.#baseline.destroy();
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Map a raw signal to [0, 1] severity. */
  #severity(name: SignalName, value: number): number {
    const t = this.#ctx.thresholds;
    switch (name) {
      case 'content':
      case 'provenance': {
        // Piecewise: the calibrated thresholds land on the level boundaries.
        if (value >= t.high) return 0.85 + 0.15 * ((value - t.high) / Math.max(1e-9, 1 - t.high));
        if (value >= t.medium) return 0.6 + 0.25 * ((value - t.medium) / Math.max(1e-9, t.high - t.medium));
        if (value >= t.low) return 0.35 + 0.25 * ((value - t.low) / Math.max(1e-9, t.medium - t.low));
        return 0.35 * (value / Math.max(1e-9, t.low));
      }
      case 'surprise':
        return Math.min(1, Math.max(0, (value - 0.5) / 1.5) * 0.5); // only ever "low" on its own
      case 'entropy':
        return Math.min(1, value / 4) * 0.7;
      case 'hiddenState':
        return this.#ctx.probe ? value : Math.min(1, Math.max(0, (value - 1) / 4));
    }
  }

  /**
   * Provenance: the strongest argument value (or entity inside one) that
   * appears verbatim in an untrusted tool result and never in trusted text,
   * weighted by how injection-like that result scored. Benign calls copy from
   * tool results all the time (paying the IBAN on a bill); what marks an
   * attack is copying from a result that reads like an injection.
   */
  #provenance(leaves: readonly { path: string; value: string }[]): { value: number; detail?: string } {
    if (this.#sources.length === 0) return { value: 0 };
    let best = 0;
    let detail: string | undefined;
    for (const { path, value } of leaves) {
      // Whole values are traced up to a few lines long; inside longer ones (a
      // message body) only the entities are: a body is composed, not copied.
      for (const candidate of value.length <= MAX_TRACED ? [value, ...entities(value)] : entities(value)) {
        // Only the shingle length that is used: unigrams give the word count.
        const unigrams = shingles(candidate, 1, { mode: 'text' });
        const wordCount = unigrams.length;
        if (wordCount === 0) continue;
        const k = Math.min(MAX_K, wordCount);
        const mine = k === 1 ? unigrams : shingles(candidate, k, { mode: 'text' });
        // Single common words prove little: require an entity-like token or several words.
        const strength = wordCount >= 3 || /[@./:\d]/.test(candidate) ? 1 : wordCount === 2 ? 0.6 : 0.25;
        if (allIn(mine, this.#trusted[k - 1]!)) continue;
        for (const src of this.#sources) {
          if (!allIn(mine, src.sets[k - 1]!)) continue;
          const v = src.risk * strength;
          if (v > best) {
            best = v;
            detail = `${path} = ${JSON.stringify(candidate.slice(0, 80))} comes from ${src.toolName ?? 'a tool result'} (that passage: injection p=${src.risk.toFixed(2)})`;
          }
        }
      }
    }
    return detail ? { value: best, detail } : { value: best };
  }

  /**
   * What the call does, traced like a value: an injected passage that names
   * the tool's object ("collect the messages from all channels" before
   * get_channels) while the user never did. Attacks often begin with a call
   * that copies nothing, which value provenance cannot see.
   */
  #affinity(toolName: string): { value: number; detail?: string } {
    const terms = nameTerms(toolName);
    if (terms.length === 0) return { value: 0 };
    const variants = terms.map((t) => [t, `${t}s`].map(wordHash));
    const trusted = this.#trusted[0]!;
    if (variants.some((vs) => vs.some((h) => trusted.has(h)))) return { value: 0 };
    let best = 0;
    for (const src of this.#sources) {
      if (src.risk < this.#ctx.thresholds.low) continue;
      if (!everyTermIn(variants, src.sets[0]!)) continue;
      best = Math.max(best, src.risk * AFFINITY_WEIGHT);
    }
    return best > 0 ? { value: best, detail: `the tool ${toolName} is what an injected passage asks for, not what the user asked (passage p=${(best / AFFINITY_WEIGHT).toFixed(2)})` } : { value: 0 };
  }

  /** Mean surprise in bits per word under add-one smoothed counts of what the session has seen. */
  #surprise(words: Uint32Array): number {
    if (words.length === 0) return 0;
    const vocab = this.#counts.size + 1;
    let bits = 0;
    for (const w of words) bits += -Math.log2(((this.#counts.get(w) ?? 0) + 1) / (this.#total + vocab));
    return bits / words.length / Math.max(1, Math.log2(this.#total + vocab));
  }

  #count(words: Iterable<number>): void {
    for (const w of words) {
      this.#counts.set(w, (this.#counts.get(w) ?? 0) + 1);
      this.#total++;
    }
  }

  #hidden(state: ArrayLike<number>): number {
    if (this.#ctx.probe) {
      const { weights, bias } = this.#ctx.probe;
      if (weights.length !== state.length) throw new ParapetTypeError(`"hiddenState" must have ${weights.length} entries`);
      let z = bias;
      for (let i = 0; i < state.length; i++) z += weights[i]! * state[i]!;
      return 1 / (1 + Math.exp(-z));
    }
    if (!this.#ctx.hiddenReference) return 0;
    return this.#ctx.hiddenReference.score(state);
  }
}

/** Whether each term has a variant (singular or plural hash) in `set`. */
function everyTermIn(variants: readonly number[][], set: Set<number>): boolean {
  for (const vs of variants) if (!vs.some((h) => set.has(h))) return false;
  return true;
}

/** Whether every hash is in `set` (a loop, not every(): no closure per source on the assess path). */
function allIn(hashes: Uint32Array, set: Set<number>): boolean {
  for (let i = 0; i < hashes.length; i++) if (!set.has(hashes[i]!)) return false;
  return true;
}

/**
 * The distinct values of `hashes`, sorted, in place. Not a Set: on the
 * assess path a Set of a 4 KiB call's words was most of what it allocated,
 * and the collections it set off showed up in the p99.
 */
function distinct(hashes: Uint32Array): Uint32Array {
  hashes.sort();
  let n = 0;
  for (let i = 0; i < hashes.length; i++) if (n === 0 || hashes[i] !== hashes[n - 1]) hashes[n++] = hashes[i]!;
  return hashes.subarray(0, n);
}

/** Word shingle sets for k = 1..MAX_K, as sources and trusted text keep them. */
function shingleSets(text: string): Set<number>[] {
  const sets: Set<number>[] = [];
  for (let k = 1; k <= MAX_K; k++) sets.push(new Set(shingles(text, k, { mode: 'text' })));
  return sets;
}

/** A single word's hash as `shingles(…, 1)` gives it, memoised: tool names repeat call after call. */
const wordHashes = new Map<string, number>();
function wordHash(word: string): number {
  let h = wordHashes.get(word);
  if (h === undefined) {
    h = shingles(word, 1, { mode: 'text' })[0]!;
    if (wordHashes.size < 4096) wordHashes.set(word, h);
  }
  return h;
}

/** Words of a tool name that say what it touches: get_channels → channel; post_webpage → post, webpage. */
function nameTerms(name: string): string[] {
  return name
    .split(/[_\-\s.]+|(?<=[a-z])(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 4 && !GENERIC_VERBS.has(w))
    .map((w) => (w.endsWith('s') && w.length > 4 ? w.slice(0, -1) : w));
}

const GENERIC_VERBS = new Set(['list', 'read', 'fetch', 'search', 'find', 'query', 'info', 'data', 'with', 'from', 'into', 'show', 'view']);
const AFFINITY_WEIGHT = 0.75;

function levelOf(score: number): IpiLevel {
  return score >= 0.85 ? 'high' : score >= 0.6 ? 'medium' : score >= 0.35 ? 'low' : 'none';
}

function reasonFor(name: SignalName, value: number, z: number | undefined, detail: string | undefined): string {
  const zText = z !== undefined ? `, ${z.toFixed(1)}σ above this session's baseline` : '';
  switch (name) {
    case 'content':
      return `the call's input reads like an injection (p=${value.toFixed(2)}${zText})`;
    case 'provenance':
      return `an argument was copied from untrusted content: ${detail ?? ''}`;
    case 'surprise':
      return `the call is unusual for this session (${value.toFixed(2)}${zText})`;
    case 'entropy':
      return `the model was unsure of this call (${value.toFixed(2)} bits${zText})`;
    case 'hiddenState':
      return `the hidden state is anomalous (${value.toFixed(2)}${zText})`;
  }
}
