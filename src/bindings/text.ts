import { assertBytes, assertInteger, assertOptions, describe, ParapetRangeError, ParapetStateError, ParapetTypeError } from './errors.js';
import { coreConstants, getCore, heapU32, heapU8, scratch, STAGE_LIMIT } from './instance.js';

// Characters that render as nothing or reorder text: attackers use them to
// split trigger words ("ig\u200Bnore") or values ("arch\u034Five@…"), or hide
// instructions (Trojan Source, CVE-2021-42574). Every Default_Ignorable_Code_Point
// of Unicode (zero-width spaces and joiners, bidi controls, the soft hyphen, the
// combining grapheme joiner, variation selectors, Hangul fillers, …): a list of
// our own missed half of them. The tag block is ignorable too; TAGS reads it first.
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const TAGS = /[\u{E0000}-\u{E007F}]/gu;
const untag = (tag: string): string => {
  const cp = tag.codePointAt(0)! - 0xe0000;
  return cp >= 0x20 && cp <= 0x7e ? String.fromCharCode(cp) : '';
};

/**
 * The normalisation applied before tokenising: Unicode NFKC (folds
 * full-width letters, ligatures and compatibility forms such as 𝐢𝐠𝐧𝐨𝐫𝐞 onto
 * plain letters), then tag characters read as the ASCII they shadow, then
 * removal of every default-ignorable character (zero-width, bidi controls,
 * variation selectors).
 * Lowercasing of ASCII happens in the core; other scripts keep their case.
 */
export function normalizeText(text: string): string {
  if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string, got ${describe(text)}`);
  // ASCII is its own NFKC form and holds none of the invisible characters;
  // most tool input is ASCII, and one native scan is cheaper than ICU's pass.
  if (!NON_ASCII.test(text)) return text;
  return text.normalize('NFKC').replace(TAGS, untag).replace(INVISIBLE, '');
}

/** A character outside ASCII: the test both `normalizeText` and `foldLetters` skip ASCII text by. */
export const NON_ASCII = /[^\x00-\x7f]/;

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

/** The core's number for a mode (read from its exports: assembly/tokenizer.ts). 'auto' is decided here, by the first byte that is not whitespace. */
function resolveMode(mode: TokenizeMode, text: string | Uint8Array): number {
  const { modeText: MODE_TEXT, modeJson: MODE_JSON } = coreConstants();
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
 * `featurize` into the caller's array: the ids go to target[0, count) and
 * the count is returned; nothing is allocated (for hot loops: a fresh array
 * of 13k ids is about a quarter of featurizing 4 KiB). When `target` is too
 * small, throws ParapetRangeError naming it and the length needed, and
 * leaves it unchanged.
 */
export function featurizeInto(text: string | Uint8Array, target: Uint32Array, options: FeaturizeOptions = {}): number {
  if (!(target instanceof Uint32Array)) throw new ParapetTypeError(`"target" must be a Uint32Array, got ${describe(target)}`);
  const { out, count } = featurizeInPlace(text, options);
  if (count > target.length) throw new ParapetRangeError(`"target" holds ${target.length} ids; this input has ${count}`, 'invalid-length');
  target.set(heapU32().subarray(out >>> 2, (out >>> 2) + count));
  return count;
}

/**
 * Featurize into scratch wasm memory and leave the ids there (for a model
 * that scores them in the core without a copy). Valid until the next call
 * that uses scratch memory.
 */
export function featurizeInPlace(text: string | Uint8Array, options: FeaturizeOptions = {}): { out: number; count: number; buckets: number } {
  if (typeof text !== 'string') assertBytes(text, 'text');
  const { buckets, nMin, nMax, capacityFor } = featureSettings(options);
  const mode = resolveMode(options.mode ?? 'auto', text);
  const [ptr, len] = stage(text, options.normalize ?? true, (len) => 4 * capacityFor(len) + 16);
  const out = (ptr + len + 15) & ~15;
  const count = runFeaturize(ptr, len, mode, buckets, nMin, nMax, out, capacityFor(len));
  return { out, count, buckets };
}

/**
 * Featurize `text` whole and then each range [ranges[2i], ranges[2i+1]) of
 * it (UTF-16 offsets; ranges may overlap and come in any order), with its
 * UTF-8 crossing into the core once. `visit(out, count)` sees each set of ids
 * in scratch memory, valid during that call only: the whole text first, then
 * the ranges in order. `text` is taken as normalised (`options.normalize` is
 * ignored: normalising would move the offsets); 'auto' mode is decided per
 * range, as featurizing the range's own string would.
 */
export function featurizeRangesInPlace(
  text: string,
  ranges: readonly number[],
  options: FeaturizeOptions,
  visit: (out: number, count: number) => void,
): void {
  const s = stageRanges(text, ranges, options);
  const table = heapU32();
  for (let i = 0; i < s.pairs; i++) {
    const from = table[(s.table >>> 2) + 2 * i]!;
    const to = table[(s.table >>> 2) + 2 * i + 1]!;
    visit(s.out, runFeaturize(s.text + from, to - from, s.mode, s.buckets, s.nMin, s.nMax, s.out, s.cap));
  }
}

/** Where `stageRanges` put things in scratch memory, and the settings to featurize with. */
export interface StagedRanges {
  /** The UTF-8 of the text. */
  readonly text: number;
  /** u32 pairs [from, to) of byte offsets into it: the whole text first, then each range. */
  readonly table: number;
  readonly pairs: number;
  /** Room for `cap` ids (the whole text's bound, which covers every range). */
  readonly out: number;
  readonly cap: number;
  readonly mode: number;
  readonly buckets: number;
  readonly nMin: number;
  readonly nMax: number;
}

/**
 * Stage `text` (taken as normalised) and its ranges (UTF-16 [start, end)
 * pairs, any order, checked) in scratch memory as byte offsets, with room for
 * the ids of the longest. Valid until the next call that uses scratch memory.
 */
export function stageRanges(text: string, ranges: readonly number[], options: FeaturizeOptions): StagedRanges {
  if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string, got ${describe(text)}`);
  if (!Array.isArray(ranges)) throw new ParapetTypeError(`"ranges" must be an array of offsets, got ${describe(ranges)}`);
  if (ranges.length % 2 !== 0) throw new ParapetRangeError(`"ranges" must hold [start, end) pairs, got ${ranges.length} numbers`, 'invalid-length');
  for (let i = 0; i < ranges.length; i++) {
    const at = ranges[i]!;
    const low = i % 2 === 1 ? ranges[i - 1]! : 0;
    if (!Number.isInteger(at) || at < low || at > text.length) {
      throw new ParapetRangeError(`"ranges[${i}]" must be an integer offset within the text, and an end no less than its start; got ${String(at)}`, 'invalid-value');
    }
  }
  const { buckets, nMin, nMax, capacityFor } = featureSettings(options);
  const mode = options.mode ?? 'auto';
  const pairs = ranges.length / 2 + 1;
  // Layout: text, then the table of pairs, then the ids (the core keeps a run's bytes at the ids' far end).
  const tableBytes = pairs * 8 + 16;
  const [ptr, len] = stage(text, false, (len) => tableBytes + 4 * capacityFor(len) + 32);
  const table = (ptr + len + 15) & ~15;
  const out = (table + tableBytes + 15) & ~15;
  const u32 = heapU32();
  u32[table >>> 2] = 0;
  u32[(table >>> 2) + 1] = len;
  const bytes = len === text.length ? ranges : utf8Offsets(text, ranges);
  for (let i = 0; i < ranges.length; i++) u32[(table >>> 2) + 2 + i] = bytes[i]!;
  return {
    text: ptr, table, pairs, out, cap: capacityFor(len),
    mode: mode === 'auto' ? coreConstants().modeAuto : resolveMode(mode, text),
    buckets, nMin, nMax,
  };
}

/** Checked feature options and the id capacity a given input length needs. */
export function featureSettings(options: FeaturizeOptions): { buckets: number; nMin: number; nMax: number; capacityFor: (len: number) => number } {
  assertOptions(options);
  const buckets = options.buckets ?? 4096;
  const [nMin, nMax] = options.charNgrams ?? [3, 5];
  assertInteger(buckets, 'buckets', 1, 2 ** 31);
  assertInteger(nMin, 'charNgrams[0]', 0, 8);
  assertInteger(nMax, 'charNgrams[1]', 0, 8);
  if (nMin > nMax) throw new ParapetRangeError(`"charNgrams" must have min ≤ max, got [${nMin}, ${nMax}]`, 'invalid-value');
  // The core's own bound (ids plus room for one run's bytes), read from it rather than copied.
  return { buckets, nMin, nMax, capacityFor: (len) => getCore().featurizeCapacity(len, nMin, nMax) >>> 0 };
}

function runFeaturize(ptr: number, len: number, mode: number, buckets: number, nMin: number, nMax: number, out: number, cap: number): number {
  const count = getCore().featurize(ptr, len, mode, buckets >>> 0, nMin, nMax, out, cap) >>> 0;
  if (count > cap) throw new ParapetStateError(`parapet: featurize bound ${cap} below the core's ${count}; bindings and core.wasm disagree`, 'core-mismatch');
  return count;
}

/**
 * UTF-8 offsets of UTF-16 `offsets` into `text`, as TextEncoder encodes it: a
 * surrogate pair is 4 bytes, a lone surrogate becomes U+FFFD (3 bytes). An
 * offset between the two halves of a pair maps past the pair. One pass over
 * the text for the offsets in ascending order, whatever order they come in.
 */
function utf8Offsets(text: string, offsets: readonly number[]): number[] {
  const order = offsets.map((_, i) => i).sort((a, b) => offsets[a]! - offsets[b]!);
  const out = new Array<number>(offsets.length);
  let j = 0;
  let bytes = 0;
  for (let i = 0; j < order.length; ) {
    while (j < order.length && offsets[order[j]!]! <= i) out[order[j++]!] = bytes;
    if (i >= text.length) break;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
    i++;
  }
  return out;
}

/**
 * Rolling k-word shingle hashes (32-bit) of the string values of `text` (all
 * words in text mode), for finding where a value was copied from. Each string
 * value is its own word sequence; one with fewer than k words yields a single
 * hash over the words it has. k is in 1..32.
 */
export function shingles(text: string | Uint8Array, k: number, options: { mode?: TokenizeMode; normalize?: boolean } = {}): Uint32Array {
  assertInteger(k, 'k', 1, coreConstants().maxShingleK);
  return shingleRuns(text, k, k, options)[0]!;
}

/**
 * `shingles(text, k)` for every k in 1..kMax, from one pass over the text (over
 * 256 Ki characters or bytes, one pass per length): element k − 1 holds what
 * `shingles(text, k, options)` returns. kMax is in 1..32.
 */
export function shinglesUpTo(text: string | Uint8Array, kMax: number, options: { mode?: TokenizeMode; normalize?: boolean } = {}): Uint32Array[] {
  assertInteger(kMax, 'kMax', 1, coreConstants().maxShingleK);
  if (text.length <= STAGE_LIMIT) return shingleRuns(text, 1, kMax, options);
  // One pass holds every length's hashes at once: a long text is hashed a length at a time, in the core memory
  // one length needs (a 32 MB text would need more than wasm32 has).
  const runs: Uint32Array[] = [];
  for (let k = 1; k <= kMax; k++) runs.push(shingleRuns(text, k, k, options)[0]!);
  return runs;
}

/** The core's shingles for kFirst..kLast (checked by the callers): a region's size, one count per length, then the regions. */
function shingleRuns(text: string | Uint8Array, kFirst: number, kLast: number, options: { mode?: TokenizeMode; normalize?: boolean }): Uint32Array[] {
  const mode = resolveMode(options.mode ?? 'auto', text);
  const lengths = kLast - kFirst + 1;
  const capacityFor = (len: number) => getCore().shinglesCapacity(len, lengths) >>> 0;
  const [ptr, len] = stage(text, options.normalize ?? true, (len) => 4 * capacityFor(len) + 16);
  const out = (ptr + len + 15) & ~15;
  const cap = capacityFor(len);
  const total = getCore().shingles(ptr, len, mode, kFirst, kLast, out, cap) >>> 0;
  if (total > cap) throw new ParapetStateError(`parapet: shingles bound ${cap} below the core's ${total}; bindings and core.wasm disagree`, 'core-mismatch');
  const heap = heapU32();
  const at = out >>> 2;
  const region = heap[at]!;
  const runs: Uint32Array[] = [];
  for (let i = 0, from = at + 1 + lengths; i < lengths; i++, from += region) runs.push(heap.slice(from, from + heap[at + 1 + i]!));
  return runs;
}
