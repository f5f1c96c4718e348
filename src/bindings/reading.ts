import { describe, ParapetRangeError, ParapetStateError, ParapetTypeError } from './errors.js';
import { getArena, getCore, heapU32, heapU8, scratch } from './instance.js';
import { NON_ASCII, normalizeText } from './text.js';

/**
 * A tool result read as prose (assembly/reading.ts): strings, markup, escapes,
 * entities, keys and look-alike letters undone, so that an instruction reads the
 * same in a JSON field, a Python repr, YAML, an HTML attribute, a CSV cell or an
 * email.
 */
export interface Reading {
  /** The reading (of the text after `normalizeText`). */
  readonly text: string;
  /**
   * The spans of `text` that were one string, comment or attribute value of the
   * input (20 bytes or more), as flattened [from, to) UTF-16 offsets into `text`,
   * inner ones before the ones that hold them.
   */
  readonly segments: number[];
  /**
   * Whether a link reference's address was not read at one of its uses: the
   * reading spends at most the input's length on such addresses and keeps 256
   * definitions a level, one label a hash (assembly/reading.ts, references.ts);
   * past either, or for a label whose hash another has, an address stays only at
   * its definition.
   */
  readonly unreadReferences: boolean;
}

/** A reading and the ranges of it the injection classifier scores. */
export interface ReadingRanges {
  readonly text: string;
  /**
   * Flattened [from, to) UTF-16 offsets into `text`, each trimmed and listed once:
   * the whole, each segment, each source line or cell that reads as several lines,
   * each paragraph and its windows, each line of 20 to 320 bytes.
   */
  readonly ranges: number[];
}

// The region header the core fills (assembly/reading.ts, u32 fields).
const H_READING = 0;
const H_SEGMENTS = 2;
const H_RANGES = 8;
const H_UNREAD_REFERENCES = 12;

/** Longest normalised input, in UTF-8 bytes, the core reads (MAX_READING_INPUT). */
export const MAX_READING_BYTES = 1 << 24;

/**
 * Grow-only blocks for the core's reading region and for the ids of the ranges it
 * scores, apart from the text's scratch so that sizing one after the text is staged
 * keeps the text: growing wasm memory moves nothing, only a freed block would.
 */
class Block {
  private ptr = 0;
  private size = 0;
  at(bytes: number): number {
    if (bytes > this.size) {
      const arena = getArena();
      if (this.size > 0) arena.free(this.ptr);
      this.size = 2 ** Math.max(16, Math.ceil(Math.log2(bytes)));
      this.ptr = arena.alloc(this.size);
    }
    return this.ptr;
  }
}
const regionBlock = new Block();
const idsBlock = new Block();

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Where `stageReading` left the reading in wasm memory; valid until the next call that uses scratch memory. */
export interface StagedReading {
  /** The reading's UTF-8. */
  readonly text: number;
  readonly length: number;
  /** u32 pairs [from, to) of byte offsets into it: the segments. */
  readonly segments: number;
  readonly segmentCount: number;
  /** The ranges (when asked for), as u32 pairs. */
  readonly ranges: number;
  readonly rangeCount: number;
  /** See Reading.unreadReferences. */
  readonly unreadReferences: boolean;
}

/**
 * Normalise `text`, stage its UTF-8 once and run the core's reading, and with
 * `withRanges` its ranges, leaving everything in wasm memory (for a scorer that
 * reads it in place).
 */
export function stageReading(text: string, withRanges: boolean): StagedReading {
  if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string, got ${describe(text)}`);
  const normal = normalizeText(text);
  // UTF-8 takes at least a byte per UTF-16 unit: a longer string cannot fit.
  if (normal.length > MAX_READING_BYTES) throw tooLong(`${normal.length} or more`);
  const max = normal.length * 3;
  const ptr = scratch(max + 16);
  const { written } = encoder.encodeInto(normal, heapU8().subarray(ptr, ptr + max));
  if (written > MAX_READING_BYTES) throw tooLong(String(written));
  const core = getCore();
  const cap = core.readingCapacity(written) >>> 0;
  const region = regionBlock.at(cap);
  const status = core.reading(ptr, written, region, cap) >>> 0;
  if (status !== 0) throw new ParapetStateError(`parapet: reading failed (${status}, capacity ${cap}); bindings and core.wasm disagree`, 'core-mismatch');
  let rangeCount = 0;
  if (withRanges) {
    rangeCount = core.readingRanges(region) >>> 0;
    if (rangeCount === 0xffffffff) throw new ParapetStateError('parapet: reading ranges overflowed their bound; bindings and core.wasm disagree', 'core-mismatch');
  }
  const h = heapU32().subarray(region >>> 2, (region >>> 2) + 16);
  return {
    text: h[H_READING]!, length: h[H_READING + 1]!,
    segments: h[H_SEGMENTS]!, segmentCount: h[H_SEGMENTS + 1]!,
    ranges: h[H_RANGES]!, rangeCount,
    unreadReferences: h[H_UNREAD_REFERENCES] === 1,
  };
}

function tooLong(bytes: string): ParapetRangeError {
  return new ParapetRangeError(`"text" must be at most ${MAX_READING_BYTES} bytes of UTF-8 once normalised, got ${bytes}`, 'invalid-length');
}

/** A block of at least `bytes` bytes for the ids of the staged reading's ranges (kept apart from the reading). */
export function readingIds(bytes: number): number {
  return idsBlock.at(bytes);
}

/**
 * The reading of `text`: normalised (`normalizeText`), then read by the core.
 * For callers that need the text: explanations, provenance, training scripts; the
 * scorer reads it in place (`LinearModel.maxLogitOfReading`).
 */
export function readText(text: string): Reading {
  const s = stageReading(text, false);
  const { string, offsets } = decodeWithOffsets(s.text, s.length, s.segments, s.segmentCount);
  return { text: string, segments: offsets, unreadReferences: s.unreadReferences };
}

/**
 * `text` through the reading's letter layer alone (assembly/letters.ts): look-alike
 * letters folded in the words that mix them with ASCII letters or hold nothing else
 * ("Аction" with a Cyrillic А is "Action"), and letter-spaced words joined. Nothing
 * else of the reading: markup, keys, quotes and escapes stay as written, so a text's
 * own syntax can be matched in it. `text` itself when it is ASCII.
 */
export function foldLetters(text: string): string {
  if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string, got ${describe(text)}`);
  if (!NON_ASCII.test(text)) return text;
  if (text.length > MAX_READING_BYTES) throw tooLong(`${text.length} or more`);
  let newlines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines++;
  // The text's UTF-8, then the layer's table of where each newline lands (a u32 each, and one more).
  const max = text.length * 3;
  const table = (max + 7) & ~3;
  const ptr = scratch(table + (newlines + 1) * 4);
  const { written } = encoder.encodeInto(text, heapU8().subarray(ptr, ptr + max));
  const length = getCore().letterLayer(ptr, written, ptr + table) >>> 0;
  return decoder.decode(heapU8().subarray(ptr, ptr + length));
}

/** The reading of `text` and the ranges of it the classifier scores. */
export function readingRanges(text: string): ReadingRanges {
  const s = stageReading(text, true);
  const { string, offsets } = decodeWithOffsets(s.text, s.length, s.ranges, s.rangeCount);
  return { text: string, ranges: offsets };
}

/** The reading's string and `pairs` byte-offset pairs at `table` as UTF-16 offsets into it. */
function decodeWithOffsets(ptr: number, length: number, table: number, pairs: number): { string: string; offsets: number[] } {
  const bytes = heapU8().subarray(ptr, ptr + length);
  const string = decoder.decode(bytes);
  const raw = Array.from(heapU32().subarray(table >>> 2, (table >>> 2) + 2 * pairs));
  return { string, offsets: string.length === length ? raw : utf16Offsets(bytes, raw) };
}

/**
 * UTF-16 offsets of byte offsets into valid UTF-8 (the reading of a string always
 * is): a lead byte of four bytes is two UTF-16 units, any other lead byte one. One
 * pass over the bytes for the offsets in ascending order, whatever order they come in.
 */
function utf16Offsets(bytes: Uint8Array, offsets: readonly number[]): number[] {
  const order = offsets.map((_, i) => i).sort((a, b) => offsets[a]! - offsets[b]!);
  const out = new Array<number>(offsets.length);
  let units = 0;
  let at = 0;
  for (const index of order) {
    const target = offsets[index]!;
    for (; at < target; at++) {
      const b = bytes[at]!;
      if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
    }
    out[index] = units;
  }
  return out;
}
