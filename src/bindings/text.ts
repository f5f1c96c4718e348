import { assertBytes, assertInteger, describe, ParapetRangeError, ParapetTypeError } from './errors.js';
import { getCore, heapU32, heapU8, scratch } from './instance.js';

// Characters that render as nothing or reorder text: attackers use them to
// split trigger words ("ig\u200Bnore") or hide instructions (Trojan Source,
// CVE-2021-42574). U+200B–U+200F zero-width and marks, U+202A–U+202E bidi
// embeddings, U+2060–U+2064 word joiner and invisible operators, U+2066–U+2069
// bidi isolates, U+FEFF BOM / ZWNBSP, U+00AD soft hyphen, U+061C Arabic letter mark,
// U+180E Mongolian vowel separator.
const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * The normalisation applied before tokenising: Unicode NFKC (folds
 * full-width letters, ligatures and compatibility forms such as 𝐢𝐠𝐧𝐨𝐫𝐞 onto
 * plain letters), then removal of zero-width and bidi control characters.
 * Lowercasing of ASCII happens in the core; other scripts keep their case.
 */
export function normalizeText(text: string): string {
  if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string, got ${describe(text)}`);
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

export type TokenizeMode = 'text' | 'json' | 'auto';

export interface FeaturizeOptions {
  /** How to read the input: JSON (keys told from values), plain text, or decided by the first character. Default 'auto'. */
  readonly mode?: TokenizeMode;
  /** Number of hash buckets (feature ids are in [0, buckets)). Default 4096. */
  readonly buckets?: number;
  /** Character n-gram lengths [min, max], each in 1..8; [0, 0] turns them off. Default [3, 5]. */
  readonly charNgrams?: readonly [number, number];
  /** Apply `normalizeText` first. Default true; byte input is never normalised. */
  readonly normalize?: boolean;
}

const MODE_TEXT = 0;
const MODE_JSON = 1;

function resolveMode(mode: TokenizeMode, text: string | Uint8Array): number {
  if (mode === 'text') return MODE_TEXT;
  if (mode === 'json') return MODE_JSON;
  if (mode !== 'auto') throw new ParapetRangeError(`"mode" must be 'text', 'json' or 'auto', got ${String(mode)}`, 'invalid-value');
  // Only the first non-space character decides: a full JSON.parse would cost
  // more than the tokenisation itself, and the JSON pass tolerates bad input.
  for (let i = 0; i < text.length; i++) {
    const c = typeof text === 'string' ? text.charCodeAt(i) : text[i]!;
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x7b || c === 0x5b ? MODE_JSON : MODE_TEXT;
  }
  return MODE_TEXT;
}

/** Put the UTF-8 of `input` into scratch memory with `tail` spare bytes after it; returns [ptr, len]. */
function stage(input: string | Uint8Array, normalize: boolean, tail: (len: number) => number): [number, number] {
  if (typeof input === 'string') {
    const text = normalize ? normalizeText(input) : input;
    const max = text.length * 3;
    const ptr = scratch(max + tail(max));
    const { written } = encoder.encodeInto(text, heapU8().subarray(ptr, ptr + max));
    return [ptr, written];
  }
  assertBytes(input, 'text');
  const ptr = scratch(input.length + tail(input.length));
  heapU8().set(input, ptr);
  return [ptr, input.length];
}

const encoder = new TextEncoder();

/**
 * Hashed features of serialized tool input or text, for the injection
 * classifier: value word unigrams and bigrams, key word unigrams and value
 * character n-grams, each hashed into [0, buckets). Ids come in input order
 * with repeats (a bag of features); the same input always gives the same ids.
 */
export function featurize(text: string | Uint8Array, options: FeaturizeOptions = {}): Uint32Array {
  const { out, count } = featurizeInPlace(text, options);
  return heapU32().slice(out >>> 2, (out >>> 2) + count);
}

/**
 * Featurize into scratch wasm memory and leave the ids there (for a model
 * that scores them in the core without a copy). Valid until the next call
 * that uses scratch memory.
 */
export function featurizeInPlace(text: string | Uint8Array, options: FeaturizeOptions = {}): { out: number; count: number; buckets: number } {
  const buckets = options.buckets ?? 4096;
  const [nMin, nMax] = options.charNgrams ?? [3, 5];
  assertInteger(buckets, 'buckets', 1, 2 ** 31);
  assertInteger(nMin, 'charNgrams[0]', 0, 8);
  assertInteger(nMax, 'charNgrams[1]', 0, 8);
  if (nMin > nMax) throw new ParapetRangeError(`"charNgrams" must have min ≤ max, got [${nMin}, ${nMax}]`, 'invalid-value');
  const mode = resolveMode(options.mode ?? 'auto', text);
  const perByte = (nMax === 0 ? 0 : nMax - Math.max(1, nMin) + 1) + 2;
  // At least the core's bound (assembly/tokenizer.ts `needed`): ids plus room for one run's bytes.
  const capacityFor = (len: number) => (2 * len + 8) * perByte + (len >>> 2) + 4;
  const [ptr, len] = stage(text, options.normalize ?? true, (len) => 4 * capacityFor(len) + 16);
  const out = (ptr + len + 15) & ~15;
  const cap = capacityFor(len);
  const count = getCore().featurize(ptr, len, mode, buckets >>> 0, nMin, nMax, out, cap) >>> 0;
  if (count > cap) throw new Error(`parapet: featurize bound ${cap} below the core's ${count}; bindings and core.wasm disagree`);
  return { out, count, buckets };
}

/**
 * Rolling k-word shingle hashes (32-bit) of the string values of `text` (all
 * words in text mode), for finding where a value was copied from. Each string
 * value is its own word sequence; one with fewer than k words yields a single
 * hash over the words it has. k is in 1..32.
 */
export function shingles(text: string | Uint8Array, k: number, options: { mode?: TokenizeMode; normalize?: boolean } = {}): Uint32Array {
  assertInteger(k, 'k', 1, 32);
  const mode = resolveMode(options.mode ?? 'auto', text);
  const capacityFor = (len: number) => 2 * len + 8 + (len >>> 2) + 4;
  const [ptr, len] = stage(text, options.normalize ?? true, (len) => 4 * capacityFor(len) + 16);
  const out = (ptr + len + 15) & ~15;
  const cap = capacityFor(len);
  const count = getCore().shingles(ptr, len, mode, k, out, cap) >>> 0;
  if (count > cap) throw new Error(`parapet: shingles bound ${cap} below the core's ${count}; bindings and core.wasm disagree`);
  return heapU32().slice(out >>> 2, (out >>> 2) + count);
}
