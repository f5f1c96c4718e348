// One pass over UTF-8 text — plain, or serialized tool input (JSON) — that
// emits hashed features for the injection classifier and rolling word-shingle
// hashes for verbatim-overlap probes.
//
// Normalisation done here: ASCII is lowercased; JSON escapes are decoded
// (including \uXXXX and surrogate pairs, so "\u0069gnore" reads as "ignore");
// ASCII whitespace and control characters, escaped or not, read as a space;
// non-ASCII bytes are kept as they are. Unicode normalisation (NFKC,
// zero-width and bidi controls) is the caller's job, done before the bytes
// reach us.
//
// Words are runs of [a-z0-9] and non-ASCII bytes; everything else separates
// them. Character n-grams run over the normalised bytes of string values,
// with runs of spaces folded to one and a space added at both ends.
//
// Feature ids (u32 in [0, buckets)) are written to a caller's buffer:
//   value word unigrams, value word bigrams (within one string value),
//   key word unigrams (a namespace of their own: keys are schema, not content),
//   bare JSON literals (numbers, true/false/null) as value unigrams,
//   value character n-grams for n in [charMin, charMax] (n ≤ 8).
//
// Speed: each run is copied aside normalised (`normaliseRun`, 16 bytes per
// SIMD step in the common case), then its words are found from 16-byte bit
// masks and hashed whole (`emitWords`), then its n-grams hashed four per
// i32x4 step (`emitGrams`). History: one loop doing everything with state in
// module globals took ~70 µs for 4 KiB of JSON (wasm globals are memory
// traffic in V8, and too many live values spilled on every byte); a per-byte
// loop with FNV-1a word hashes took ~15 µs with n-grams, ~9.5 µs without.

export const MODE_TEXT: u32 = 0;
export const MODE_JSON: u32 = 1;
/** JSON when the first byte that is not ASCII whitespace is '{' or '[', else text (as the bindings' 'auto'). */
export const MODE_AUTO: u32 = 2;

function autoMode(ptr: usize, len: usize): u32 {
  for (let p = ptr, end = ptr + len; p < end; p++) {
    const c = <u32>load<u8>(p);
    if (c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d) continue;
    return c == 0x7b || c == 0x5b ? MODE_JSON : MODE_TEXT;
  }
  return MODE_TEXT;
}

// Namespace seeds keep the same word in different roles apart.
const SEED_UNIGRAM: u32 = 0x1b873593;
const SEED_BIGRAM: u32 = 0x85ebca6b;
const SEED_KEY: u32 = 0xc2b2ae35;

const BIGRAM_MUL: u32 = 0x2c1b3c6d;
const SHINGLE_BASE: u32 = 0x9e3779b1;

// What a run of bytes is, for `scan`.
const RUN_TEXT: u32 = 0; // the whole input, plain text
const RUN_VALUE: u32 = 1; // a JSON string value, up to its closing quote
const RUN_KEY: u32 = 2; // a JSON object key
const RUN_LITERAL: u32 = 3; // a bare JSON literal, up to a delimiter

/** Ring of the last 32 word hashes for shingles (k ≤ 32), slot = word index mod 32. */
const RING: usize = memory.data(32 * 4, 16);
export const MAX_SHINGLE_K: u32 = 32;
/** Per shingle length of a pass (k = shingleFirst + i): the rolling hash and SHINGLE_BASE^(k−1). */
const ROLLING: usize = memory.data(32 * 4, 16);
const DROPS: usize = memory.data(32 * 4, 16);

// Per-pass settings and the output cursor; `scan` copies what it needs into locals.
let out: usize = 0;
let emitted: usize = 0;
let buckets: u64 = 1;
let charMin: u32 = 0;
let charMax: u32 = 0;
let shingleFirst: u32 = 0; // 0: emit features; k > 0: emit shingles of k = shingleFirst..shingleLast
let shingleLast: u32 = 0;
let shingleRegion: usize = 0; // u32s per shingle length in the output
let shingleHeader: usize = 0; // u32s before the first region: the region size, then one count per length

/** murmur3's 32-bit finaliser: spreads a combined hash's bits before bucketing. */
@inline function mix32(h: u32): u32 {
  h ^= h >>> 16; h *= 0x85ebca6b;
  h ^= h >>> 13; h *= 0xc2b2ae35;
  h ^= h >>> 16;
  return h;
}

/** Map a 32-bit hash to [0, buckets) by multiply-shift (Lemire), avoiding a division. */
@inline function toBucket(h: u32, n: u64): u32 {
  return <u32>((<u64>h * n) >>> 32);
}

/**
 * The 64-bit hash of one word: its normalised bytes (1 or more, at `p`)
 * read eight at a time as little-endian u64s, each folded in with a
 * multiply, then finalised (splitmix64's mix). Whole-word, not per byte
 * (FNV-1a was): a per-byte multiply chain cost ~4 cycles a byte. Reads up to
 * 7 bytes past the word, which the run buffer's slack covers. The word's
 * features take bits of this one hash rather than re-mixing it: multiplies
 * per word were most of what words cost.
 */
@inline function wordHash(p: usize, len: usize): u64 {
  let h: u64 = (<u64>len << 56) ^ WORD_K0;
  let rem = len;
  while (rem > 8) {
    h = (h ^ load<u64>(p)) * WORD_K1;
    h ^= h >>> 32;
    p += 8;
    rem -= 8;
  }
  const last = load<u64>(p) & (rem == 8 ? <u64>-1 : (<u64>1 << (<u64>rem << 3)) - 1);
  return finish64((h ^ last) * WORD_K1);
}

/** splitmix64's finaliser after the first multiply. */
@inline function finish64(h: u64): u64 {
  h ^= h >>> 29;
  h *= WORD_K2;
  return h ^ (h >>> 32);
}

/** A 32-bit feature hash from a word hash: its high half, in a namespace. */
@inline function high32(h: u64, seed: u32): u32 {
  return <u32>(h >>> 32) ^ seed;
}

const WORD_K0: u64 = 0x9e3779b97f4a7c15;
const WORD_K1: u64 = 0xbf58476d1ce4e5b9;
const WORD_K2: u64 = 0x94d049bb133111eb;

let shingleCount: u32 = 0;

/**
 * Feed one word to every shingle length of the pass. Each length keeps a
 * polynomial rolling hash, H = (H − w_old·B^(k−1))·B + w_new once its window is
 * full, and writes into its own region: one tokenizing pass serves all lengths.
 */
function pushShingle(w: u32): void {
  const count = shingleCount;
  for (let k = shingleFirst; k <= shingleLast; k++) {
    const i = <usize>(k - shingleFirst);
    let h = load<u32>(ROLLING + (i << 2));
    if (count >= k) h -= load<u32>(RING + (<usize>((count - k) & 31) << 2)) * load<u32>(DROPS + (i << 2));
    h = h * SHINGLE_BASE + w;
    store<u32>(ROLLING + (i << 2), h);
    if (count + 1 >= k) putShingle(i, mix32(h ^ k));
  }
  store<u32>(RING + (<usize>(count & 31) << 2), w);
  shingleCount = count + 1;
}

/** Append a hash to length i's region and count it in the output's header. */
@inline function putShingle(i: usize, h: u32): void {
  const slot = out + ((1 + i) << 2);
  const n = load<u32>(slot);
  store<u32>(out + ((shingleHeader + i * shingleRegion + <usize>n) << 2), h);
  store<u32>(slot, n + 1);
}

/** End a shingle sequence: one shorter than k still yields one hash over all its words. */
function endSequence(): void {
  if (shingleFirst == 0) return;
  const count = shingleCount;
  for (let k = shingleFirst; k <= shingleLast; k++) {
    const i = <usize>(k - shingleFirst);
    if (count > 0 && count < k) putShingle(i, mix32(load<u32>(ROLLING + (i << 2)) ^ count));
    store<u32>(ROLLING + (i << 2), 0);
  }
  shingleCount = 0;
}

/** Value of 4 hex digits at p, or -1 when they are not all hex. */
function hex4(p: usize): i32 {
  let v: i32 = 0;
  for (let i: usize = 0; i < 4; i++) {
    const c = <i32>load<u8>(p + i);
    let d: i32;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else return -1;
    v = (v << 4) | d;
  }
  return v;
}

// Byte tables, filled once when the module starts. NORM maps a raw byte to its
// normalised form; CLASS flags what the byte is to the scanner.
const NORM: usize = memory.data(256, 16);
const CLASS: usize = memory.data(256, 16);
const WORD: u32 = 1; // [A-Za-z0-9] or non-ASCII: part of a word
const SPACE: u32 = 2; // ASCII whitespace or control: reads as a space
const STRING_STOP: u32 = 4; // '"' or '\\': ends or interrupts a string run
const LITERAL_STOP: u32 = 8; // a JSON delimiter: ends a bare literal

function initTables(): void {
  for (let c: u32 = 0; c < 256; c++) {
    const isUpper = c >= 0x41 && c <= 0x5a;
    store<u8>(NORM + c, <u8>(c <= 0x20 ? 0x20 : (isUpper ? c | 0x20 : c)));
    let cls: u32 = 0;
    if (isUpper || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c >= 0x80) cls |= WORD;
    if (c <= 0x20) cls |= SPACE | LITERAL_STOP;
    if (c == 0x22 || c == 0x5c) cls |= STRING_STOP;
    if (c == 0x22 || c == 0x2c || c == 0x3a || c == 0x7b || c == 0x7d || c == 0x5b || c == 0x5d) cls |= LITERAL_STOP;
    store<u8>(CLASS + c, <u8>cls);
  }
}
initTables();

/**
 * Decoded bytes of one escape, or the closing space of a run: the scanner
 * detours through this buffer so that one loop body handles every byte.
 */
const DETOUR: usize = memory.data(8, 8);
let detourLen: usize = 0;

function detourCodePoint(cp: u32): void {
  if (cp < 0x80) { store<u8>(DETOUR, <u8>cp); detourLen = 1; }
  else if (cp < 0x800) {
    store<u8>(DETOUR, <u8>(0xc0 | (cp >>> 6))); store<u8>(DETOUR, <u8>(0x80 | (cp & 0x3f)), 1);
    detourLen = 2;
  } else if (cp < 0x10000) {
    store<u8>(DETOUR, <u8>(0xe0 | (cp >>> 12))); store<u8>(DETOUR, <u8>(0x80 | ((cp >>> 6) & 0x3f)), 1);
    store<u8>(DETOUR, <u8>(0x80 | (cp & 0x3f)), 2);
    detourLen = 3;
  } else {
    store<u8>(DETOUR, <u8>(0xf0 | (cp >>> 18))); store<u8>(DETOUR, <u8>(0x80 | ((cp >>> 12) & 0x3f)), 1);
    store<u8>(DETOUR, <u8>(0x80 | ((cp >>> 6) & 0x3f)), 2); store<u8>(DETOUR, <u8>(0x80 | (cp & 0x3f)), 3);
    detourLen = 4;
  }
}

/** Decode the escape whose backslash is at `p` into the detour; returns the index past it. */
function decodeEscape(p: usize, end: usize): usize {
  if (p + 1 >= end) { detourCodePoint(0x20); return end; }
  const c = <u32>load<u8>(p + 1);
  if (c == 0x75 /* u */) {
    let cp = p + 6 <= end ? hex4(p + 2) : -1;
    if (cp < 0) { detourCodePoint(0x20); return p + 2; }
    let next = p + 6;
    if (cp >= 0xd800 && cp <= 0xdbff) {
      // A high surrogate pairs with a following \uDC00–\uDFFF; alone it is U+FFFD.
      const low = next + 6 <= end && load<u8>(next) == 0x5c && load<u8>(next + 1) == 0x75 ? hex4(next + 2) : -1;
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        next += 6;
      } else cp = 0xfffd;
    } else if (cp >= 0xdc00 && cp <= 0xdfff) cp = 0xfffd;
    detourCodePoint(<u32>cp);
    return next;
  }
  // \n \t \r \b \f are whitespace; \" \\ \/ and unknown escapes are the character itself.
  detourCodePoint(c == 0x6e || c == 0x74 || c == 0x72 || c == 0x62 || c == 0x66 ? 0x20 : c);
  return p + 2;
}

/**
 * Emit the character n-grams of one run, whose normalised bytes (spaces
 * folded, a space at each end) are at `bytes`. A gram of length g ends at
 * every byte after the leading space that has at least g bytes up to it.
 * One tight loop per length: with few live values V8 keeps them all in
 * registers (one loop handling every length ran 3× slower from spills).
 */
function emitGrams(bytes: usize, len: usize): void {
  const n = buckets;
  let at = emitted;
  // Power-of-two bucket counts (the default and the shipped model) take the
  // 4-lane path: Lemire's reduction of a 32-bit hash is then its top bits.
  const lanes = (n & (n - 1)) == 0 && n >= 2;
  const shift = <i32>(32 - ctz<u64>(n));
  for (let g = charMin; g <= charMax; g++) {
    // The first gram ends at index max(1, g − 1): index 0 is the leading space.
    let i: usize = g > 2 ? <usize>g - 1 : 1;
    if (lanes) {
      // Eight grams a step from one 16-byte load (lane k of the two vectors:
      // grams ending at i+k and i+4+k). Grams of ≤ 4 bytes have no high word,
      // so they skip its multiply.
      const loMask = i32x4.splat(g >= 4 ? -1 : (1 << (g << 3)) - 1);
      const hiMask = i32x4.splat(g >= 8 ? -1 : g > 4 ? (1 << ((g - 4) << 3)) - 1 : 0);
      const tag = i32x4.splat(<i32>(g * GRAM_TAG));
      const mul = i32x4.splat(GRAM_MUL);
      if (g <= 4) {
        for (; i + 7 < len; i += 8) {
          const v = v128.load(bytes + i - g + 1);
          const a = v128.xor(v128.and(i8x16.swizzle(v, LO_LANES), loMask), tag);
          const b = v128.xor(v128.and(i8x16.swizzle(v, HI_LANES), loMask), tag);
          v128.store(out + (at << 2), i32x4.shr_u(i32x4.mul(a, mul), shift));
          v128.store(out + (at << 2), i32x4.shr_u(i32x4.mul(b, mul), shift), 16);
          at += 8;
        }
      } else {
        const mix = i32x4.splat(GRAM_MIX);
        for (; i + 7 < len; i += 8) {
          const v = v128.load(bytes + i - g + 1);
          const hiA = v128.and(i8x16.swizzle(v, HI_LANES), hiMask);
          const hiB = v128.and(i8x16.swizzle(v, HI2_LANES), hiMask);
          const a = v128.xor(v128.xor(i8x16.swizzle(v, LO_LANES), i32x4.mul(hiA, mix)), tag);
          const b = v128.xor(v128.xor(i8x16.swizzle(v, HI_LANES), i32x4.mul(hiB, mix)), tag);
          v128.store(out + (at << 2), i32x4.shr_u(i32x4.mul(a, mul), shift));
          v128.store(out + (at << 2), i32x4.shr_u(i32x4.mul(b, mul), shift), 16);
          at += 8;
        }
      }
    }
    for (; i < len; i++) {
      store<u32>(out + (at << 2), toBucket(gramHash(bytes + i - g + 1, g), n));
      at++;
    }
  }
  emitted = at;
}

// The gram hash: the g bytes (≤ 8) as little-endian words lo (first four) and
// hi (the rest), x = lo ^ hi·MIX ^ g·TAG, h = x·MUL (mod 2^32), Fibonacci
// hashing. 32-bit so that four grams go through one i32x4 multiply.
const GRAM_MIX: i32 = 0x85ebca6b;
const GRAM_TAG: i32 = 0x27d4eb2f;
const GRAM_MUL: i32 = 0x9e3779b1;
const LO_LANES = i8x16(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6);
const HI_LANES = i8x16(4, 5, 6, 7, 5, 6, 7, 8, 6, 7, 8, 9, 7, 8, 9, 10);
const HI2_LANES = i8x16(8, 9, 10, 11, 9, 10, 11, 12, 10, 11, 12, 13, 11, 12, 13, 14);

@inline function gramHash(p: usize, g: u32): u32 {
  const lo = load<u32>(p) & (g >= 4 ? 0xffffffff : (<u32>1 << (g << 3)) - 1);
  const hi = g <= 4 ? 0 : load<u32>(p, 4) & (g >= 8 ? 0xffffffff : (<u32>1 << ((g - 4) << 3)) - 1);
  return (lo ^ (hi * <u32>GRAM_MIX) ^ (g * <u32>GRAM_TAG)) * <u32>GRAM_MUL;
}

/** Where `scan` collects a run's normalised bytes for the word and n-gram passes (set per pass). */
let runBytes: usize = 0;
/** How many bytes `scan` left there. */
let runLen: usize = 0;

/**
 * Scan one run starting at `p` (just past the opening quote for strings),
 * emit its features, and return the index where the caller resumes. Three
 * passes over the run: `normaliseRun` copies its normalised bytes aside,
 * `emitWords` finds the words in them, `emitGrams` hashes the n-grams.
 */
function scan(p: usize, end: usize, kind: u32): usize {
  const resume = normaliseRun(p, end, kind);
  emitWords(runBytes, runLen, kind);
  if (shingleFirst == 0 && charMax > 0 && (kind == RUN_VALUE || kind == RUN_TEXT)) emitGrams(runBytes, runLen);
  return resume;
}

/**
 * Copy one run's normalised bytes to `runBytes` (a space first and last,
 * runs of spaces folded to one, escapes decoded) and return the index after
 * the run. String values and text take 16 bytes per step while a block
 * holds no quote, backslash or second space in a row (the common case);
 * the rest goes byte by byte.
 */
function normaliseRun(p: usize, end: usize, kind: u32): usize {
  const stop: u32 = kind == RUN_TEXT ? 0 : (kind == RUN_LITERAL ? LITERAL_STOP : STRING_STOP);
  const wide = kind == RUN_VALUE || kind == RUN_TEXT;
  const side = runBytes;
  // A leading space makes word-initial n-grams distinct from word-internal ones.
  store<u8>(side, 0x20);
  let n: usize = 1;
  let lastSpace: u32 = 1;
  while (true) {
    if (wide) {
      while (p + 16 <= end) {
        const v = v128.load(p);
        // Bytes ≤ 0x20 (controls, whitespace) read as a space; A–Z as a–z.
        const space = i8x16.le_u(v, i8x16.splat(0x20));
        const spaces = <u32>i8x16.bitmask(space);
        let blocked = spaces & ((spaces << 1) | lastSpace);
        if (kind == RUN_VALUE) blocked |= <u32>i8x16.bitmask(v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x5c))));
        if (blocked) break;
        const upper = v128.and(i8x16.ge_u(v, i8x16.splat(0x41)), i8x16.le_u(v, i8x16.splat(0x5a)));
        const lower = v128.or(v, v128.and(upper, i8x16.splat(0x20)));
        v128.store(side + n, v128.bitselect(i8x16.splat(0x20), lower, space));
        n += 16;
        p += 16;
        lastSpace = spaces >>> 15;
      }
    }
    // Byte by byte: up to the next block boundary, a stop, or the end.
    const limit = wide && p + 16 <= end ? p + 16 : end;
    while (p < limit) {
      const raw = <u32>load<u8>(p);
      const cls = <u32>load<u8>(CLASS + raw);
      if (cls & stop) break;
      p++;
      const space = (cls & SPACE) >>> 1;
      store<u8>(side + n, load<u8>(NORM + raw));
      n += 1 - (space & lastSpace); // a space after a space is not kept
      lastSpace = space;
    }
    if (p < limit) {
      // Stopped at a stop byte: an escape to decode, or the end of the run.
      if (stop == STRING_STOP && load<u8>(p) == 0x5c) {
        p = decodeEscape(p, end);
        for (let i: usize = 0; i < detourLen; i++) {
          const raw = <u32>load<u8>(DETOUR + i);
          const space = (<u32>load<u8>(CLASS + raw) & SPACE) >>> 1;
          store<u8>(side + n, load<u8>(NORM + raw));
          n += 1 - (space & lastSpace);
          lastSpace = space;
        }
        continue;
      }
      if (stop == STRING_STOP) p++; // the closing quote
      break;
    }
    if (p >= end) break;
  }
  // The closing space ends the last word and n-gram.
  store<u8>(side + n, 0x20);
  n += 1 - lastSpace;
  runLen = n;
  return p;
}

/** Bits of the 16 bytes at `at` that are word bytes ([a-z0-9] or non-ASCII), below `len`. */
@inline function wordBits(side: usize, at: usize, len: usize): u32 {
  const v = v128.load(side + at);
  const letter = v128.and(i8x16.ge_u(v, i8x16.splat(0x61)), i8x16.le_u(v, i8x16.splat(0x7a)));
  const digit = v128.and(i8x16.ge_u(v, i8x16.splat(0x30)), i8x16.le_u(v, i8x16.splat(0x39)));
  const word = v128.or(v128.or(letter, digit), i8x16.lt_s(v, i8x16.splat(0)));
  const valid: u32 = len - at >= 16 ? 0xffff : (<u32>1 << <u32>(len - at)) - 1;
  return <u32>i8x16.bitmask(word) & valid;
}

/**
 * Emit the word features (or shingles) of one run's normalised bytes. Word
 * starts and ends come from 16-byte bit masks, so the per-byte work is a few
 * vector compares and the per-word work one hash.
 */
function emitWords(side: usize, len: usize, kind: u32): void {
  const shingling = shingleFirst > 0;
  if (shingling && kind == RUN_KEY) return;
  const n = buckets;
  const o = out;
  // A power-of-two bucket count takes the top bits, which is what Lemire's
  // reduction gives then, without its 64-bit multiply.
  const pow2 = (n & (n - 1)) == 0 && n >= 2;
  const shift = <u32>(32 - ctz<u64>(n));
  let at = emitted;
  let prev: u64 = 0;
  let hasPrev = false;
  let wordStart: usize = 0;
  let carry: u32 = 0; // whether the byte before this block is a word byte
  let cur = wordBits(side, 0, len);
  for (let base: usize = 0; base < len; base += 16) {
    const next = base + 16 < len ? wordBits(side, base + 16, len) : 0;
    const starts = cur & ~((cur << 1) | carry);
    const ends = cur & ~((cur | (next << 16)) >>> 1);
    // One step per word end; its start is the last start at or before it in
    // this block, or the one carried from an earlier block.
    let e = ends & 0xffff;
    while (e) {
      const j = <u32>ctz(e);
      e &= e - 1;
      const below = starts & ((<u32>2 << j) - 1);
      const from = below ? base + <usize>(31 - clz(below)) : wordStart;
      const h = wordHash(side + from, base + <usize>j + 1 - from);
      if (shingling) {
        pushShingle(<u32>(h >>> 32));
      } else if (kind == RUN_KEY) {
        store<u32>(o + (at++ << 2), pow2 ? high32(h, SEED_KEY) >>> shift : toBucket(high32(h, SEED_KEY), n));
      } else {
        const uni = high32(h, SEED_UNIGRAM);
        store<u32>(o + (at++ << 2), pow2 ? uni >>> shift : toBucket(uni, n));
        if (kind != RUN_LITERAL) {
          if (hasPrev) {
            const bi = high32(finish64((prev ^ (h >>> 1)) * WORD_K1), SEED_BIGRAM);
            store<u32>(o + (at++ << 2), pow2 ? bi >>> shift : toBucket(bi, n));
          }
          prev = h;
          hasPrev = true;
        }
      }
    }
    if (starts) wordStart = base + <usize>(31 - clz(starts));
    carry = cur >>> 15;
    cur = next;
  }
  emitted = at;
}

function resetPass(o: usize): void {
  out = o; emitted = 0;
  shingleCount = 0;
}

/**
 * JSON pass. Keys are told from values by tracking, per nesting level, whether
 * we are in an object and whether a key is expected (after `{` or `,`). Levels
 * past 64 count as objects; malformed input is scanned best-effort rather than
 * rejected, since attackers control it.
 */
function passJson(ptr: usize, len: usize): void {
  let objectBits: u64 = 0; // bit d set: level d is an object
  let depth: u32 = 0;
  let expectKey = false;
  const end = ptr + len;
  let p = ptr;
  while (p < end) {
    const c = <u32>load<u8>(p);
    if (c == 0x22) {
      const key = expectKey && depth > 0;
      if (!key) endSequence();
      p = scan(p + 1, end, key ? RUN_KEY : RUN_VALUE);
      continue;
    }
    if (c == 0x7b /* { */) {
      if (depth < 64) objectBits |= <u64>1 << depth;
      depth++; expectKey = true;
    } else if (c == 0x5b /* [ */) {
      if (depth < 64) objectBits &= ~(<u64>1 << depth);
      depth++; expectKey = false;
    } else if (c == 0x7d || c == 0x5d) {
      if (depth > 0) depth--;
      expectKey = false;
    } else if (c == 0x2c /* , */) {
      expectKey = depth > 0 && (depth > 64 || ((objectBits >>> (depth - 1)) & 1) != 0);
    } else if (c == 0x3a /* : */) {
      expectKey = false;
    } else if (c > 0x20) {
      endSequence();
      p = scan(p, end, RUN_LITERAL);
      continue;
    }
    p++;
  }
  endSequence();
}

function pass(ptr: usize, len: usize, mode: u32): void {
  if (mode == MODE_JSON) passJson(ptr, len);
  else { scan(ptr, ptr + len, RUN_TEXT); endSequence(); }
}

/**
 * Most ids a pass over `len` bytes can emit. Each run (string, literal or the
 * whole text) takes at least one input byte and adds one closing space, and an
 * escape never yields more bytes than it spans, so at most 2·len bytes are fed;
 * each fed byte emits at most `perByte` ids (its n-grams plus a word's unigram
 * and bigram). Checking this once lets the hot loops store without bounds checks.
 */
function maxIds(len: usize, perByte: usize): usize {
  return (2 * len + 2) * perByte;
}

/**
 * Capacity (in u32s) a pass needs: the ids, then room for one run's
 * normalised bytes (at most len + 2) at the end of the buffer, which the ids
 * can never reach.
 */
function needed(len: usize, perByte: usize): usize {
  // + 5 words: the 4-lane gram loop reads up to 16 bytes past a run's end.
  return maxIds(len, perByte) + ((len + 2 + 3) >>> 2) + 6;
}

/** The capacity (u32s) `featurize` needs for `len` bytes with these n-gram bounds: the bindings size buffers by it. */
export function featurizeCapacity(len: usize, nMin: u32, nMax: u32): usize {
  const max = nMax > 8 ? 8 : nMax;
  const min = nMin == 0 ? 1 : nMin;
  return needed(len, (min > max || max == 0 ? 0 : <usize>(max - min + 1)) + 2);
}

/** The capacity (u32s) `shingles` needs for `len` bytes and `lengths` shingle lengths (clamped to 1..MAX_SHINGLE_K). */
export function shinglesCapacity(len: usize, lengths: u32): usize {
  const n = <usize>(lengths == 0 ? 1 : (lengths > MAX_SHINGLE_K ? MAX_SHINGLE_K : lengths));
  return 1 + n + needed(len, n);
}

function placeRunBytes(o: usize, capacity: usize, len: usize): void {
  runBytes = o + (capacity << 2) - (len + 2) - 24;
}

/**
 * Hashed features of `len` bytes at `ptr` into the u32 buffer `o` of
 * `capacity` entries. Returns how many features were written; if `capacity`
 * is below the bound for this input, nothing is written and the bound, which
 * is larger than `capacity`, is returned so the caller can retry.
 */
export function featurize(
  ptr: usize, len: usize, mode: u32, bucketCount: u32, nMin: u32, nMax: u32, o: usize, capacity: usize,
): usize {
  charMax = nMax > 8 ? 8 : nMax;
  charMin = nMin == 0 ? 1 : nMin;
  if (charMin > charMax) charMax = 0;
  const bound = needed(len, (charMax == 0 ? 0 : <usize>(charMax - charMin + 1)) + 2);
  if (capacity < bound) return bound;
  resetPass(o);
  placeRunBytes(o, capacity, len);
  shingleFirst = 0;
  buckets = <u64>(bucketCount == 0 ? 1 : bucketCount);
  pass(ptr, len, mode == MODE_AUTO ? autoMode(ptr, len) : mode);
  return emitted;
}

/**
 * Rolling k-word shingle hashes (32-bit) of the words of string values and
 * literals (all words in text mode), one sequence per value, for every k in
 * kFirst..kLast (clamped to 1..MAX_SHINGLE_K) in one pass. A value with fewer
 * than k words yields one hash over the words it has. The output opens with the
 * size of a region and one count per length, then one region per length.
 * Returns the total count, or the bound when `capacity` is too small, as
 * `featurize` does.
 */
export function shingles(ptr: usize, len: usize, mode: u32, kFirst: u32, kLast: u32, o: usize, capacity: usize): usize {
  const first: u32 = kFirst == 0 ? 1 : (kFirst > MAX_SHINGLE_K ? MAX_SHINGLE_K : kFirst);
  const last: u32 = kLast < first ? first : (kLast > MAX_SHINGLE_K ? MAX_SHINGLE_K : kLast);
  const lengths = last - first + 1;
  const bound = shinglesCapacity(len, lengths);
  if (capacity < bound) return bound;
  resetPass(o);
  placeRunBytes(o, capacity, len);
  shingleFirst = first;
  shingleLast = last;
  shingleRegion = maxIds(len, 1);
  shingleHeader = 1 + <usize>lengths;
  store<u32>(o, <u32>shingleRegion);
  // Each sequence's end zeroes the rolling hashes it used; featurize passes never touch them.
  memory.fill(ROLLING, 0, <usize>lengths << 2);
  for (let k = first; k <= last; k++) {
    let drop: u32 = 1;
    for (let j: u32 = 1; j < k; j++) drop *= SHINGLE_BASE;
    store<u32>(DROPS + (<usize>(k - first) << 2), drop);
    store<u32>(o + ((1 + <usize>(k - first)) << 2), 0);
  }
  pass(ptr, len, mode);
  let total: usize = 0;
  for (let i: usize = 0; i < <usize>lengths; i++) total += <usize>load<u32>(o + ((1 + i) << 2));
  return total;
}
