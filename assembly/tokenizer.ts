// One pass over UTF-8 text — plain, or serialized tool input (JSON) — that
// emits hashed features for the injection classifier and rolling word-shingle
// hashes for verbatim-overlap probes.
//
// Normalisation done here: ASCII is lowercased; JSON escapes are decoded
// (including \uXXXX and surrogate pairs, so "\u0069gnore" reads as "ignore");
// whitespace and escaped control characters collapse to one space; non-ASCII
// bytes are kept as they are. Unicode normalisation (NFKC, zero-width and bidi
// controls) is the caller's job and happens before the bytes reach us.
//
// Words are runs of [a-z0-9] and non-ASCII bytes; everything else separates
// them. Character n-grams run over the normalised bytes of string values.
//
// Feature ids (u32 in [0, buckets)) are written to a caller's buffer:
//   value word unigrams, value word bigrams (within one string value),
//   key word unigrams (a namespace of their own: keys are schema, not content),
//   value character n-grams for n in [charMin, charMax] (n ≤ 8).

export const MODE_TEXT: u32 = 0;
export const MODE_JSON: u32 = 1;

// Namespace seeds keep the same string in different roles apart.
const SEED_UNIGRAM: u32 = 0x1b873593;
const SEED_BIGRAM: u32 = 0x85ebca6b;
const SEED_KEY: u32 = 0xc2b2ae35;
const SEED_CHAR: u32 = 0x27d4eb2f;

const FNV_OFFSET: u32 = 0x811c9dc5;
const FNV_PRIME: u32 = 0x01000193;
const SHINGLE_BASE: u32 = 0x9e3779b1;

/** Ring of the last k word hashes for shingles (k ≤ 32). */
const RING: usize = memory.data(32 * 4, 16);
export const MAX_SHINGLE_K: u32 = 32;

// Pass state, in globals so the helpers stay allocation-free.
let emitShingles = false;
let out: usize = 0;
let cap: usize = 0;
let emitted: usize = 0;
let buckets: u64 = 1;
let charMin: u32 = 0;
let charMax: u32 = 0;
let inKey = false;
let wordHash: u32 = FNV_OFFSET;
let wordLen: u32 = 0;
let prevWord: u32 = 0;
let hasPrevWord = false;
let window: u64 = 0;
let windowFill: u32 = 0;
let lastWasSpace = true;
let shingleK: u32 = 0;
let shingleCount: u32 = 0;
let shingleHash: u32 = 0;
let shingleDrop: u32 = 0;

/** murmur3's 32-bit finaliser: spreads FNV's weak low bits before bucketing. */
@inline function mix32(h: u32): u32 {
  h ^= h >>> 16; h *= 0x85ebca6b;
  h ^= h >>> 13; h *= 0xc2b2ae35;
  h ^= h >>> 16;
  return h;
}

/** Map a hash to [0, buckets) by multiply-shift (Lemire), avoiding a division. */
@inline function emit(h: u32): void {
  if (emitted < cap) store<u32>(out + (emitted << 2), <u32>((<u64>h * buckets) >>> 32));
  emitted++;
}

@inline function emitRaw(h: u32): void {
  if (emitted < cap) store<u32>(out + (emitted << 2), h);
  emitted++;
}

function endWord(): void {
  if (wordLen == 0) return;
  const w = wordHash;
  wordHash = FNV_OFFSET;
  wordLen = 0;
  if (emitShingles) {
    if (inKey) return;
    pushShingleWord(w);
    return;
  }
  if (inKey) {
    emit(mix32(w ^ SEED_KEY));
    return;
  }
  emit(mix32(w ^ SEED_UNIGRAM));
  if (hasPrevWord) emit(mix32((prevWord * 0x2c1b3c6d + w) ^ SEED_BIGRAM));
  prevWord = w;
  hasPrevWord = true;
}

function pushShingleWord(w: u32): void {
  const k = shingleK;
  const slot = RING + ((shingleCount % k) << 2);
  if (shingleCount >= k) {
    // Roll the oldest word out: H = (H − w_old·B^(k−1))·B + w_new.
    shingleHash = (shingleHash - load<u32>(slot) * shingleDrop) * SHINGLE_BASE + w;
  } else {
    shingleHash = shingleHash * SHINGLE_BASE + w;
  }
  store<u32>(slot, w);
  shingleCount++;
  if (shingleCount >= k) emitRaw(mix32(shingleHash ^ k));
}

/** A sequence shorter than k still yields one shingle over all its words. */
function endShingleSequence(): void {
  if (emitShingles && shingleCount > 0 && shingleCount < shingleK) emitRaw(mix32(shingleHash ^ shingleCount));
  shingleCount = 0;
  shingleHash = 0;
}

/** Hash of the last n bytes held in the window (n ≤ 8), in the char namespace. */
@inline function charGram(n: u32): u32 {
  const gram = n == 8 ? window : window & ((<u64>1 << (<u64>n << 3)) - 1);
  let h = (gram ^ (<u64>n << 59)) * 0x9e3779b97f4a7c15;
  return mix32(<u32>(h >>> 32) ^ SEED_CHAR);
}

/** Feed one normalised byte of string content (or of bare JSON literals when `grams` is false). */
function feed(c: u32, grams: bool): void {
  const isSpace = c == 0x20;
  if (grams && !inKey && !emitShingles && charMax > 0 && !(isSpace && lastWasSpace)) {
    window = (window << 8) | <u64>c;
    windowFill++;
    const top = min<u32>(windowFill, charMax);
    for (let n = charMin; n <= top; n++) emit(charGram(n));
  }
  lastWasSpace = isSpace;
  const isWord = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c >= 0x80;
  if (isWord) {
    wordHash = (wordHash ^ c) * FNV_PRIME;
    wordLen++;
  } else {
    endWord();
  }
}

@inline function lower(c: u32): u32 {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

@inline function isWhitespace(c: u32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d || c == 0x0c || c == 0x0b;
}

function beginString(key: bool): void {
  if (!key) endShingleSequence();
  inKey = key;
  hasPrevWord = false;
  // A leading space makes word-initial n-grams distinct from word-internal ones.
  window = 0x20;
  windowFill = 1;
  lastWasSpace = true;
}

function endString(grams: bool): void {
  feed(0x20, grams);
  endWord();
  if (!inKey) endShingleSequence();
  inKey = false;
}

/** Feed a code point as lowercased UTF-8 (used for decoded \u escapes). */
function feedCodePoint(cp: u32): void {
  if (cp < 0x80) {
    feed(isWhitespace(cp) || cp < 0x20 ? 0x20 : lower(cp), true);
  } else if (cp < 0x800) {
    feed(0xc0 | (cp >>> 6), true); feed(0x80 | (cp & 0x3f), true);
  } else if (cp < 0x10000) {
    feed(0xe0 | (cp >>> 12), true); feed(0x80 | ((cp >>> 6) & 0x3f), true); feed(0x80 | (cp & 0x3f), true);
  } else {
    feed(0xf0 | (cp >>> 18), true); feed(0x80 | ((cp >>> 12) & 0x3f), true);
    feed(0x80 | ((cp >>> 6) & 0x3f), true); feed(0x80 | (cp & 0x3f), true);
  }
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

/**
 * Decode the escape whose backslash is at `p` (string content ends at `end`),
 * feed it, and return the index just past it.
 */
function feedEscape(p: usize, end: usize): usize {
  if (p + 1 >= end) return end;
  const c = <u32>load<u8>(p + 1);
  if (c == 0x75 /* u */ && p + 6 <= end) {
    let cp = hex4(p + 2);
    if (cp < 0) { feed(0x20, true); return p + 2; }
    let next = p + 6;
    if (cp >= 0xd800 && cp <= 0xdbff) {
      // A high surrogate pairs with a following \uDC00–\uDFFF; alone it is U+FFFD.
      const low = next + 6 <= end && load<u8>(next) == 0x5c && load<u8>(next + 1) == 0x75 ? hex4(next + 2) : -1;
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        next += 6;
      } else cp = 0xfffd;
    } else if (cp >= 0xdc00 && cp <= 0xdfff) cp = 0xfffd;
    feedCodePoint(<u32>cp);
    return next;
  }
  if (c == 0x6e || c == 0x74 || c == 0x72 || c == 0x62 || c == 0x66) feed(0x20, true); // \n \t \r \b \f
  else feed(lower(c), true); // \" \\ \/ and anything unknown: the character itself
  return p + 2;
}

function resetPass(o: usize, capacity: usize): void {
  out = o; cap = capacity; emitted = 0;
  inKey = false; wordHash = FNV_OFFSET; wordLen = 0; hasPrevWord = false;
  window = 0; windowFill = 0; lastWasSpace = true;
  shingleCount = 0; shingleHash = 0;
}

function passText(ptr: usize, len: usize): void {
  beginString(false);
  for (let i: usize = 0; i < len; i++) {
    const c = <u32>load<u8>(ptr + i);
    feed(isWhitespace(c) || c < 0x20 ? 0x20 : lower(c), true);
  }
  endString(true);
}

/**
 * JSON pass. Keys are told from values by tracking, per nesting level, whether
 * we are in an object and whether a key is expected (after `{` or `,`). Depth
 * past 64 is treated as an object level for key tracking; malformed input is
 * scanned best-effort rather than rejected, since attackers control it.
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
      beginString(expectKey && depth > 0);
      p++;
      while (p < end) {
        const s = <u32>load<u8>(p);
        if (s == 0x22) { p++; break; }
        if (s == 0x5c) { p = feedEscape(p, end); continue; }
        feed(isWhitespace(s) || s < 0x20 ? 0x20 : lower(s), true);
        p++;
      }
      endString(true);
      continue;
    }
    if (c == 0x7b /* { */) {
      if (depth < 64) objectBits |= <u64>1 << depth;
      depth++; expectKey = true;
    } else if (c == 0x5b /* [ */) {
      if (depth < 64) objectBits &= ~(<u64>1 << depth);
      depth++; expectKey = false;
    } else if (c == 0x7d || c == 0x5d) {
      endWord();
      if (depth > 0) depth--;
      expectKey = false;
    } else if (c == 0x2c /* , */) {
      endWord();
      expectKey = depth > 0 && (depth > 64 || ((objectBits >>> (depth - 1)) & 1) != 0);
    } else if (c == 0x3a /* : */) {
      endWord();
      expectKey = false;
    } else if (isWhitespace(c)) {
      endWord();
    } else {
      // Bare literals (numbers, true/false/null) count as value words.
      inKey = false;
      feed(lower(c), false);
    }
    p++;
  }
  endWord();
  endShingleSequence();
}

function pass(ptr: usize, len: usize, mode: u32): void {
  if (mode == MODE_JSON) passJson(ptr, len);
  else passText(ptr, len);
}

/**
 * Hashed features of `len` bytes at `ptr` into the u32 buffer `o` of
 * `capacity` entries. Returns how many features the input has; if that is
 * more than `capacity`, only the first `capacity` were written.
 */
export function featurize(
  ptr: usize, len: usize, mode: u32, bucketCount: u32, nMin: u32, nMax: u32, o: usize, capacity: usize,
): usize {
  resetPass(o, capacity);
  emitShingles = false;
  buckets = <u64>(bucketCount == 0 ? 1 : bucketCount);
  charMax = nMax > 8 ? 8 : nMax;
  charMin = nMin == 0 ? 1 : nMin;
  if (charMin > charMax) charMax = 0;
  pass(ptr, len, mode);
  return emitted;
}

/**
 * Rolling k-word shingle hashes (32-bit) of the words of string values (all
 * words in text mode), one sequence per string value. A value with fewer than
 * k words yields one hash over the words it has. Returns the count as
 * `featurize` does.
 */
export function shingles(ptr: usize, len: usize, mode: u32, k: u32, o: usize, capacity: usize): usize {
  resetPass(o, capacity);
  emitShingles = true;
  charMax = 0;
  shingleK = k == 0 ? 1 : (k > MAX_SHINGLE_K ? MAX_SHINGLE_K : k);
  let drop: u32 = 1;
  for (let j: u32 = 1; j < shingleK; j++) drop *= SHINGLE_BASE;
  shingleDrop = drop;
  pass(ptr, len, mode);
  return emitted;
}
