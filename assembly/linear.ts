// A linear model over a bag of hashed features, for the injection
// classifier: x_j = log1p(count_j) for each distinct feature j, L2-normalised,
// logit = bias + Σ w_j x_j. The same arithmetic runs in ONNX (models/), so the
// two can be checked against each other.

import { featurize } from './tokenizer';

// log1p of small counts, filled once: almost every count is below this, and a
// table load is a few cycles where Math.log1p is tens. Same values as calling
// Math.log1p, so the result is bit-identical to computing it each time.
const LOG1P_TABLE_SIZE: u32 = 1024;
const LOG1P: usize = memory.data(LOG1P_TABLE_SIZE * 8, 8);
for (let c: u32 = 0; c < LOG1P_TABLE_SIZE; c++) store<f64>(LOG1P + (<usize>c << 3), Math.log1p(<f64>c));

@inline function log1pCount(count: u32): f64 {
  return count < LOG1P_TABLE_SIZE ? load<f64>(LOG1P + (<usize>count << 3)) : Math.log1p(<f64>count);
}

/**
 * Logit of the `n` feature ids (u32) at `ids` under the f32 weights at
 * `weights`. `counts` is a u16 scratch array with one slot per bucket; it
 * must be all zero on entry and is left all zero on exit (only the touched
 * slots are visited, so a call costs O(n), not O(buckets)). u16, not f32:
 * half the memory and cache lines for the random accesses a large model
 * makes (a count saturates at 65,535).
 *
 * The ids are overwritten: the first pass compacts each id's first
 * occurrence to the front (the write index never passes the read index), so
 * the second pass visits distinct ids only, in first-occurrence order. That
 * halved the time of a version that revisited all n ids and skipped repeats.
 * (A branchless compaction, storing every id and advancing on first
 * occurrences, measured slower again: each store's address then waits on the
 * count just loaded, which stalls the loads behind it.)
 */
export function linearLogit(ids: usize, n: usize, counts: usize, weights: usize, bias: f64): f64 {
  let distinct: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    const id = load<u32>(ids + (i << 2));
    const c = counts + (<usize>id << 1);
    const v = <u32>load<u16>(c);
    store<u16>(c, v + <u32>(v != 0xffff));
    if (v == 0) store<u32>(ids + (distinct++ << 2), id);
  }
  let dot: f64 = 0;
  let norm: f64 = 0;
  for (let i: usize = 0; i < distinct; i++) {
    const id = <usize>load<u32>(ids + (i << 2));
    const c = counts + (id << 1);
    const x = log1pCount(<u32>load<u16>(c));
    dot += <f64>load<f32>(weights + (id << 2)) * x;
    norm += x * x;
    store<u16>(c, 0);
  }
  return norm > 0 ? bias + dot / Math.sqrt(norm) : bias;
}

// Ranges whose bytes repeat an earlier range's (a status in every record, a note
// copied into two fields) score the same, so each distinct byte string is scored
// once. A hash finds candidates and the bytes are compared: a crafted collision
// cannot make a range skip. Per slot: the range's index + 1 (0: empty), its hash.
const SEEN_SLOTS: u32 = 4096;
const SEEN: usize = memory.data(SEEN_SLOTS * 8, 8);
let seenMask: u32 = 15;

/** Whether range `i` ([from, from + len)) has the bytes of an earlier range; records it if not. */
function seenBefore(text: usize, table: usize, i: u32, from: usize, len: usize): bool {
  let h: u32 = 0x811c9dc5 ^ <u32>len;
  for (let k: usize = 0; k < len; k++) h = (h ^ <u32>load<u8>(text + from + k)) * 0x01000193;
  let slot = h & seenMask;
  while (true) {
    const entry = SEEN + (<usize>slot << 3);
    const held = load<u32>(entry);
    if (held == 0) {
      store<u32>(entry, i + 1);
      store<u32>(entry, h, 4);
      return false;
    }
    if (load<u32>(entry, 4) == h) {
      const j = held - 1;
      const jFrom = <usize>load<u32>(table + (<usize>j << 3));
      const jTo = <usize>load<u32>(table + (<usize>j << 3), 4);
      if (jTo - jFrom == len && memory.compare(text + jFrom, text + from, len) == 0) return true;
    }
    slot = (slot + 1) & seenMask;
  }
}

/**
 * The highest logit over `n` byte ranges of the text at `text`, each given as
 * a u32 pair [from, to) in the table at `table`: each range is featurized
 * into `out` (capacity `cap`, which must bound the longest range) and
 * scored. One call for all of a text's windows and lines: per range, two
 * crossings from JavaScript cost more than the work for a short line.
 * Returns NaN if `cap` is below a range's bound (the bindings size it from
 * the whole text, so it never is).
 */
export function maxLogitRanges(
  text: usize, table: usize, n: u32, mode: u32, bucketCount: u32, nMin: u32, nMax: u32, out: usize, cap: usize,
  counts: usize, weights: usize, bias: f64,
): f64 {
  let best = -Infinity;
  const dedup = n <= SEEN_SLOTS >>> 1;
  if (dedup) {
    // A table of at least twice the ranges' count, so only that much is cleared per call.
    let slots: u32 = 16;
    while (slots < n << 1) slots <<= 1;
    seenMask = slots - 1;
    memory.fill(SEEN, 0, <usize>slots << 3);
  }
  for (let i: u32 = 0; i < n; i++) {
    const from = <usize>load<u32>(table + (<usize>i << 3));
    const to = <usize>load<u32>(table + (<usize>i << 3), 4);
    if (dedup && seenBefore(text, table, i, from, to - from)) continue;
    const count = featurize(text + from, to - from, mode, bucketCount, nMin, nMax, out, cap);
    if (count > cap) return NaN;
    const logit = linearLogit(out, count, counts, weights, bias);
    if (logit > best) best = logit;
  }
  return best;
}

/**
 * Widens `n` int8 weights at `src` to f32 at `dst`: w = q · scale. `scale` is an
 * f32, so each product is exact before its one rounding to f32, in f32 lanes as in
 * the f64 arithmetic training used for the ONNX file (training/quantize.mjs): the
 * two stay bit-identical. Here, not in JavaScript, and 16 lanes at a time, because
 * it runs at every cold start, before any JIT has warmed up (a scalar loop over
 * the 262,144 weights took 6 ms of it).
 */
export function widenInt8(src: usize, dst: usize, n: usize, scale: f32): void {
  const s = f32x4.splat(scale);
  let i: usize = 0;
  for (; i + 16 <= n; i += 16) {
    const v = v128.load(src + i);
    const lo = i16x8.extend_low_i8x16_s(v);
    const hi = i16x8.extend_high_i8x16_s(v);
    const out = dst + (i << 2);
    v128.store(out, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(lo)), s));
    v128.store(out, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(lo)), s), 16);
    v128.store(out, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(hi)), s), 32);
    v128.store(out, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(hi)), s), 48);
  }
  for (; i < n; i++) store<f32>(dst + (i << 2), <f32>load<i8>(src + i) * scale);
}
