// The ranges of a reading (assembly/reading.ts) the injection classifier scores, as
// u32 pairs [from, to) of byte offsets: an instruction planted in a long tool result
// is a few lines among many, and in one bag of features over the whole it drowns.
// Each range is trimmed of ASCII whitespace, kept from 3 bytes, and listed once, in
// this order: the whole reading; each segment up to MAX_PARAGRAPH bytes; each source
// line or cell of MIN_LINE to MAX_WINDOW bytes; each paragraph of MIN_LINE to
// MAX_PARAGRAPH bytes, then its windows when it has more than one or is longer (lines
// packed up to MAX_WINDOW bytes, a longer line cut at sentence ends, a window over
// twice that cut every MAX_WINDOW bytes, never inside a UTF-8 sequence: the
// detector's windowRanges in src/ipi/windows.ts, over bytes, less its rule that a
// heading ending a window opens the next: the paragraph is scored whole); each line of MIN_LINE
// to MAX_WINDOW bytes; and each sentence of MIN_LINE to MAX_WINDOW bytes of a line
// that holds more than one. maxLogitRanges (linear.ts) scores them without a copy.

import { H_LINES, H_PARAGRAPHS, H_RANGE_CAP, H_RANGES, H_READING, H_SEGMENTS, H_WORK } from './reading';

const MIN_LINE: usize = 20;
const MAX_WINDOW: usize = 320;
const MAX_PARAGRAPH: usize = 2000;

let text: usize = 0;
let textLen: usize = 0;
let table: usize = 0;
let count: u32 = 0;
let cap: u32 = 0;
let overflow = false;
/** Per trimmed start offset: 1 + the index of the last range starting there (0: none). */
let heads: usize = 0;
/** Per range: 1 + the index of the previous range with the same start. */
let chain: usize = 0;

@inline function isWs(c: u32): bool {
  return c == 0x20 || (c >= 0x09 && c <= 0x0d);
}
@inline function byteAt(p: usize): u32 {
  return <u32>load<u8>(text + p);
}

/**
 * Add [a, z) trimmed, unless shorter than 3 bytes or already listed. Ranges that
 * share a trimmed start are few (one of each kind per nesting level), so the chain
 * walk is short.
 */
function add(a: usize, z: usize): void {
  while (a < z && isWs(byteAt(a))) a++;
  while (z > a && isWs(byteAt(z - 1))) z--;
  if (z - a < 3) return;
  let k = load<u32>(heads + (a << 2));
  while (k != 0) {
    const index = <usize>(k - 1);
    if (<usize>load<u32>(table + (index << 3), 4) == z) return;
    k = load<u32>(chain + (index << 2));
  }
  if (count >= cap) {
    overflow = true;
    return;
  }
  const n = <usize>count;
  store<u32>(table + (n << 3), <u32>a);
  store<u32>(table + (n << 3), <u32>z, 4);
  store<u32>(chain + (n << 2), load<u32>(heads + (a << 2)));
  store<u32>(heads + (a << 2), count + 1);
  count++;
}

/**
 * Whether the source line [a, z) is a key and one string of the carrier and
 * nothing else (`"body": "…",`, `body: '…'`): at most KEY_BYTES non-blank bytes
 * outside the longest segment inside it (the last of equal ones). Such a line is not a range: the string is
 * one already, and the key beside it would make the string score other than it
 * does bare. Segments end in order, so those inside [a, z) are found by a binary
 * search for the last ending at or before z, walking back while they end after a.
 */
function isKeyAndString(a: usize, z: usize, segments: usize, count: usize): bool {
  let lo: usize = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (<usize>load<u32>(segments + (mid << 3), 4) <= z) lo = mid + 1;
    else hi = mid;
  }
  let best: usize = 0;
  let bestFrom: usize = 0;
  for (let k = lo; k > 0; k--) {
    const s = <usize>load<u32>(segments + ((k - 1) << 3));
    const t = <usize>load<u32>(segments + ((k - 1) << 3), 4);
    if (t <= a) break;
    if (s >= a && t - s > best) {
      best = t - s;
      bestFrom = s;
    }
  }
  if (best == 0) return false;
  let outside: usize = 0;
  for (let p = a; p < z; p++) {
    if (p == bestFrom) {
      p += best - 1;
      continue;
    }
    if (!isWs(byteAt(p))) outside++;
  }
  return outside <= KEY_BYTES;
}
const KEY_BYTES: usize = 24;

/** A line (or source line) of MIN_LINE to MAX_WINDOW bytes, trimmed. */
function addLine(from: usize, to: usize): void {
  if (to - from > MAX_WINDOW) return;
  let a = from;
  let z = to;
  while (a < z && isWs(byteAt(a))) a++;
  while (z > a && isWs(byteAt(z - 1))) z--;
  if (z - a >= MIN_LINE) add(from, to);
}

function isBlank(a: usize, z: usize): bool {
  for (let p = a; p < z; p++) if (!isWs(byteAt(p))) return false;
  return true;
}

// windowRanges state: the window being packed and where its windows go (straight to
// the table, or held while it is not known whether there is more than one).
let start: isize = -1;
let end: usize = 0;
let packed: usize = 0;
let direct = false;
const HELD: usize = memory.data(8 * 32);
let held: u32 = 0;

function emit(a: usize, z: usize): void {
  if (direct) add(a, z);
  else if (held < 32) {
    // A paragraph of ≤ MAX_PARAGRAPH bytes has at most 2·2000/320 + 3 < 32 windows.
    store<u32>(HELD + (<usize>held << 3), <u32>a);
    store<u32>(HELD + (<usize>held << 3), <u32>z, 4);
    held++;
  }
}

function piece(a: usize, z: usize): void {
  if (isBlank(a, z)) return;
  const length = z - a;
  if (start >= 0 && packed + length + 1 > MAX_WINDOW) {
    emit(<usize>start, end);
    start = -1;
  }
  if (start < 0) {
    start = <isize>a;
    packed = length;
  } else packed += length + 1;
  end = z;
  let cut = false;
  while (packed > MAX_WINDOW * 2) {
    let at = <usize>start + MAX_WINDOW;
    for (let k = 0; k < 3 && at < end && (byteAt(at) & 0xc0) == 0x80; k++) at++;
    if (!isBlank(<usize>start, at)) emit(<usize>start, at);
    packed -= at - <usize>start;
    start = <isize>at;
    cut = true;
  }
  // Without a cut the window holds this piece, which is not blank.
  if (cut && isBlank(<usize>start, end)) start = -1;
}

@inline function isSentenceEnd(p: usize, to: usize): bool {
  const c = byteAt(p);
  if (c != 0x2e && c != 0x21 && c != 0x3f && c != 0x3b && c != 0x3a) return false;
  const d = byteAt(p + 1);
  return d == 0x20 || d == 0x09 || d == 0x0b || d == 0x0c || d == 0x0d;
}

/**
 * The sentences of the line [from, to) when it holds more than one, each of MIN_LINE
 * to MAX_WINDOW bytes: "Ignore previous instructions." inside a long tool
 * observation is one sentence of a line and of a window packed with benign ones,
 * and diluted there (leave-one-source-out, held-out ASB: recall at 1% FPR of its
 * context-ignoring attacks 0.02 → 1.00 with sentences scored).
 */
function sentences(from: usize, to: usize): void {
  let first: usize = to;
  for (let p = from; p + 1 < to; p++) {
    if (isSentenceEnd(p, to)) {
      first = p;
      break;
    }
  }
  if (first == to || isBlank(first + 1, to)) return; // one sentence: the line is its range
  let a = from;
  for (let p = first; p + 1 < to; p++) {
    if (!isSentenceEnd(p, to)) continue;
    addSentence(a, p + 1);
    a = p + 1;
  }
  addSentence(a, to);
}

function addSentence(from: usize, to: usize): void {
  let a = from;
  let z = to;
  while (a < z && isWs(byteAt(a))) a++;
  while (z > a && isWs(byteAt(z - 1))) z--;
  if (z - a >= MIN_LINE && z - a <= MAX_WINDOW) add(a, z);
}

/** The first newline in [p, to), or `to`: 16 bytes at a time. */
function nextLf(p: usize, to: usize): usize {
  const t = text;
  const lf = i8x16.splat(0x0a);
  while (p + 16 <= to) {
    const bits = <u32>i8x16.bitmask(i8x16.eq(v128.load(t + p), lf));
    if (bits != 0) return p + <usize>ctz(bits);
    p += 16;
  }
  while (p < to && load<u8>(t + p) != 0x0a) p++;
  return p;
}

/** The windows of the paragraph [from, to), emitted in order. */
function windows(from: usize, to: usize): void {
  start = -1;
  end = 0;
  packed = 0;
  // The next sentence end at or after the current position, kept across lines so
  // that no stretch is searched twice.
  let sentenceEnd: isize = -1;
  let lineStart = from;
  while (lineStart <= to) {
    const lineEnd = nextLf(lineStart, to);
    if (lineEnd - lineStart <= MAX_WINDOW) piece(lineStart, lineEnd);
    else {
      let a = lineStart;
      while (true) {
        if (sentenceEnd < <isize>a) {
          let k = a;
          while (k + 1 < to && !isSentenceEnd(k, to)) k++;
          sentenceEnd = k + 1 < to ? <isize>k : <isize>to;
        }
        if (sentenceEnd >= <isize>lineEnd) break;
        let next = <usize>sentenceEnd + 1;
        while (next < lineEnd && isWs(byteAt(next))) next++;
        piece(a, <usize>sentenceEnd + 1);
        a = next;
      }
      piece(a, lineEnd);
    }
    lineStart = lineEnd + 1;
  }
  if (start >= 0) emit(<usize>start, end);
}

/**
 * The ranges of the reading in `region` (after `reading` filled it), into the
 * region's ranges table; returns their count, or 0xffffffff if the table overflowed
 * its bound (a defect: reading.ts's layout says it cannot).
 */
export function readingRanges(region: usize): u32 {
  text = <usize>load<u32>(region + (H_READING << 2));
  textLen = <usize>load<u32>(region + ((H_READING + 1) << 2));
  table = <usize>load<u32>(region + (H_RANGES << 2));
  cap = load<u32>(region + (H_RANGE_CAP << 2));
  heads = <usize>load<u32>(region + (H_WORK << 2));
  chain = heads + ((textLen + 2) << 2);
  memory.fill(heads, 0, (textLen + 2) << 2);
  count = 0;
  overflow = false;

  add(0, textLen);
  const segments = <usize>load<u32>(region + (H_SEGMENTS << 2));
  const segmentCount = <usize>load<u32>(region + ((H_SEGMENTS + 1) << 2));
  for (let k: usize = 0; k < segmentCount; k++) {
    const a = <usize>load<u32>(segments + (k << 3));
    const z = <usize>load<u32>(segments + (k << 3), 4);
    if (z - a <= MAX_PARAGRAPH) add(a, z);
  }
  const lines = <usize>load<u32>(region + (H_LINES << 2));
  const lineCount = <usize>load<u32>(region + ((H_LINES + 1) << 2));
  for (let k: usize = 0; k < lineCount; k++) {
    const a = <usize>load<u32>(lines + (k << 3));
    const z = <usize>load<u32>(lines + (k << 3), 4);
    if (!isKeyAndString(a, z, segments, segmentCount)) addLine(a, z);
  }
  const paragraphs = <usize>load<u32>(region + (H_PARAGRAPHS << 2));
  const paragraphCount = <usize>load<u32>(region + ((H_PARAGRAPHS + 1) << 2));
  for (let k: usize = 0; k < paragraphCount; k++) {
    const a = <usize>load<u32>(paragraphs + (k << 3));
    const z = <usize>load<u32>(paragraphs + (k << 3), 4);
    if (z - a >= MIN_LINE && z - a <= MAX_PARAGRAPH) add(a, z);
    direct = z - a > MAX_PARAGRAPH;
    held = 0;
    windows(a, z);
    if (held > 1) for (let w: usize = 0; w < <usize>held; w++) add(<usize>load<u32>(HELD + (w << 3)), <usize>load<u32>(HELD + (w << 3), 4));
  }
  for (let from: usize = 0; from <= textLen; ) {
    const p = nextLf(from, textLen);
    addLine(from, p);
    sentences(from, p);
    from = p + 1;
  }
  store<u32>(region + ((H_RANGES + 1) << 2), count);
  return overflow ? 0xffffffff : count;
}
