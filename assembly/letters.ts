// The reading's letter layer: after the structure layer (assembly/reading.ts) has
// turned a tool result into prose, two rules undo letter-level disguises, in place
// (the layer only ever shortens the text, so it writes behind where it reads):
//
// - letter-spaced words are joined: three or more single letters, each separated from
//   the next by the same one separator (space . - _ *), with no letter or digit right
//   before or after the run: "i g n o r e" reads "ignore";
// - look-alikes are folded (Unicode TR39 confusables, assembly/confusables.generated.ts)
//   per word, when the word mixes them with ASCII letters ("іgnоrе" with Cyrillic і о е)
//   or holds nothing but look-alikes (a whole-script confusable, "раураl"). A word with
//   a letter that has no Latin look-alike (real Greek or Cyrillic) is left as it is,
//   and so is a number in another script's digits (Arabic-Indic ١٥ would read "lo").
//
// A letter is an ASCII letter or any code point above U+007F outside NOT_LETTERS
// (punctuation, spaces, symbols, specials): scripts the table does not name still
// make words, so a Hebrew or Arabic word is never cut into pieces that fold.
//
// The structure layer's spans all begin just after a newline or end just before one,
// and newlines are never removed, so the layer records where each newline lands
// (`lfs`) and the spans are mapped through that table afterwards.

import {
  CONFUSABLE_ASTRAL, CONFUSABLE_ASTRAL_COUNT, CONFUSABLE_ASTRAL_TO, CONFUSABLE_BMP, CONFUSABLE_BMP_COUNT, CONFUSABLE_BMP_TO,
} from './confusables.generated';

/** Code point ranges above U+007F that are not letters (〇 U+3007, a look-alike of O, is one), as sorted [first, last] u32 pairs. */
const NOT_LETTERS: usize = memory.data<u32>([
  0x80, 0xa9, 0xab, 0xb4, 0xb6, 0xb9, 0xbb, 0xbf, 0xd7, 0xd7, 0xf7, 0xf7,
  0x37e, 0x37e, 0x384, 0x385, 0x387, 0x387, 0x55a, 0x55f, 0x589, 0x58a, 0x5be, 0x5be,
  0x5c0, 0x5c0, 0x5c3, 0x5c3, 0x5f3, 0x5f4, 0x60c, 0x60d, 0x61b, 0x61f, 0x66a, 0x66d,
  0x6d4, 0x6d4, 0x964, 0x965, 0x2000, 0x206f, 0x20a0, 0x20cf, 0x2190, 0x2bff, 0x2e00, 0x2e7f,
  0x3000, 0x3006, 0x3008, 0x303f, 0xfe10, 0xfe1f, 0xfe30, 0xfe6f, 0xff01, 0xff0f, 0xff1a, 0xff20,
  0xff3b, 0xff40, 0xff5b, 0xff65, 0xfff0, 0xffff, 0x1f000, 0x1faff, 0xe0000, 0xe007f,
]);
const NOT_LETTERS_COUNT: i32 = 35;

// ASCII classes: bit 1 letter, bit 2 digit, bit 4 separator of letter-spaced words.
const ASCII: usize = memory.data(128);
const A_LETTER: u8 = 1;
const A_DIGIT: u8 = 2;
const A_SEPARATOR: u8 = 4;
for (let c: u32 = 0; c < 128; c++) {
  let k: u8 = 0;
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) k |= A_LETTER;
  if (c >= 0x30 && c <= 0x39) k |= A_DIGIT;
  if (c == 0x20 || c == 0x2e || c == 0x2d || c == 0x5f || c == 0x2a) k |= A_SEPARATOR;
  store<u8>(ASCII + c, k);
}

/** The byte length of the code point the last `decodeAt` read. */
let cpLen: usize = 1;

@inline function isContinuation(p: usize): bool {
  return (<u32>load<u8>(p) & 0xc0) == 0x80;
}

/**
 * The code point of the strict UTF-8 sequence at `p` (< `end`), its length in
 * `cpLen`; -1 (length 1) for a byte that starts no valid sequence (stray
 * continuation, overlong form, surrogate, above U+10FFFF, cut short).
 */
export function decodeAt(p: usize, end: usize): i32 {
  const c = <i32>load<u8>(p);
  cpLen = 1;
  if (c < 0x80) return c;
  if (c >= 0xc2 && c <= 0xdf) {
    if (p + 1 < end && isContinuation(p + 1)) {
      cpLen = 2;
      return ((c & 0x1f) << 6) | (<i32>load<u8>(p, 1) & 0x3f);
    }
    return -1;
  }
  if (c >= 0xe0 && c <= 0xef) {
    if (p + 2 < end && isContinuation(p + 1) && isContinuation(p + 2)) {
      const cp = ((c & 0x0f) << 12) | ((<i32>load<u8>(p, 1) & 0x3f) << 6) | (<i32>load<u8>(p, 2) & 0x3f);
      if (cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) {
        cpLen = 3;
        return cp;
      }
    }
    return -1;
  }
  if (c >= 0xf0 && c <= 0xf4 && p + 3 < end && isContinuation(p + 1) && isContinuation(p + 2) && isContinuation(p + 3)) {
    const cp = ((c & 0x07) << 18) | ((<i32>load<u8>(p, 1) & 0x3f) << 12) | ((<i32>load<u8>(p, 2) & 0x3f) << 6) | (<i32>load<u8>(p, 3) & 0x3f);
    if (cp >= 0x10000 && cp <= 0x10ffff) {
      cpLen = 4;
      return cp;
    }
  }
  return -1;
}

/** Whether a code point is a letter: an ASCII letter, or above U+007F and in no NOT_LETTERS range. */
export function isLetterCp(cp: i32): bool {
  if (cp < 0x80) return cp >= 0 && (load<u8>(ASCII + <usize>cp) & A_LETTER) != 0;
  // Binary search for the last range starting at or below cp.
  let lo: i32 = 0;
  let hi: i32 = NOT_LETTERS_COUNT - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (<i32>load<u32>(NOT_LETTERS + (<usize>mid << 3)) <= cp) lo = mid;
    else hi = mid - 1;
  }
  const first = <i32>load<u32>(NOT_LETTERS + (<usize>lo << 3));
  const last = <i32>load<u32>(NOT_LETTERS + (<usize>lo << 3), 4);
  return !(cp >= first && cp <= last);
}

@inline function isAsciiAlnum(c: u32): bool {
  return c < 0x80 && (load<u8>(ASCII + c) & (A_LETTER | A_DIGIT)) != 0;
}

@inline function isWordCp(cp: i32): bool {
  return cp >= 0 && (cp < 0x80 ? (load<u8>(ASCII + <usize>cp) & (A_LETTER | A_DIGIT)) != 0 : isLetterCp(cp));
}

/**
 * The ASCII byte a look-alike reads as, or 0; | 0x80 when it is a digit of another
 * script (see `foldsWord`). The mathematical Latin letters and digits fold as NFKC
 * folds them (arithmetic, so not in the table); full-width ASCII is folded when an
 * escape decodes it (a literal one was normalised away by NFKC).
 */
function foldEntry(cp: i32): u32 {
  if (cp < 0x131) return 0; // below the table's first entry
  if (cp >= 0x1d400 && cp <= 0x1d6a3) {
    const k = <u32>(cp - 0x1d400) % 52;
    return k < 26 ? 0x41 + k : 0x61 + k - 26;
  }
  if (cp >= 0x1d7ce && cp <= 0x1d7ff) return 0x30 + <u32>(cp - 0x1d7ce) % 10;
  if (cp < 0x10000) {
    const at = search16(CONFUSABLE_BMP, CONFUSABLE_BMP_COUNT, <u32>cp);
    return at < 0 ? 0 : <u32>load<u8>(CONFUSABLE_BMP_TO + <usize>at);
  }
  const at = search32(CONFUSABLE_ASTRAL, CONFUSABLE_ASTRAL_COUNT, <u32>cp);
  return at < 0 ? 0 : <u32>load<u8>(CONFUSABLE_ASTRAL_TO + <usize>at);
}

function search16(table: usize, count: u32, key: u32): i32 {
  let lo: i32 = 0;
  let hi: i32 = <i32>count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = <u32>load<u16>(table + (<usize>mid << 1));
    if (v == key) return mid;
    if (v < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function search32(table: usize, count: u32, key: u32): i32 {
  let lo: i32 = 0;
  let hi: i32 = <i32>count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = load<u32>(table + (<usize>mid << 2));
    if (v == key) return mid;
    if (v < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The ASCII byte a look-alike reads as, or 0. */
@inline function foldOf(cp: i32): u32 {
  return foldEntry(cp) & 0x7f;
}

// Counts of one word's code points, by `count`.
let asciiLetters: u32 = 0;
let folds: u32 = 0;
let digitFolds: u32 = 0; // of the folds, digits of another script
let others: u32 = 0;

@inline function count(cp: i32): void {
  if (cp < 0x80) asciiLetters += <u32>((load<u8>(ASCII + <usize>cp) & A_LETTER) != 0);
  else {
    const f = foldEntry(cp);
    if (f != 0) {
      folds++;
      digitFolds += f >> 7;
    } else others++;
  }
}

/**
 * Whether the counted word is folded: it holds look-alikes, and ASCII letters or
 * nothing else. A word with no ASCII letter whose look-alikes are all digits of
 * another script is a number (Arabic-Indic ١٥ is 15, not "lo"), and keeps them.
 */
@inline function foldsWord(): bool {
  return folds > 0 && (asciiLetters > 0 || (others == 0 && folds > digitFolds));
}

/** Write the code point of `len` bytes at `r` to `w`, folded when `fold`; returns the new `w`. */
@inline function putCp(w: usize, r: usize, len: usize, fold: bool): usize {
  if (fold && len > 1) {
    const to = foldOf(decodeAt(r, r + len));
    if (to != 0) {
      store<u8>(w, <u8>to);
      return w + 1;
    }
  }
  // memory.copy is memmove: w ≤ r, the ranges may overlap.
  if (w != r) memory.copy(w, r, len);
  return w + len;
}

/**
 * The end of a letter-spaced run whose first letter (of `len0` bytes) starts at `r`,
 * or 0 when there is none. The run L0 s L1 s … Lk takes every letter that follows
 * the separator s; when Lk is followed by a letter or digit (it starts a word), the
 * run ends at L(k−1) instead, as a regular expression backtracking would. A failed
 * attempt reads at most three letters and two separators (k ≤ 2), so re-trying at
 * the next word start keeps the pass linear.
 */
function runEnd(r: usize, end: usize, len0: usize): usize {
  let p = r + len0;
  if (p >= end) return 0;
  const sep = <u32>load<u8>(p);
  if (sep >= 0x80 || (load<u8>(ASCII + <usize>sep) & A_SEPARATOR) == 0) return 0;
  let letters: u32 = 1;
  let before: usize = 0; // end of the letter before the last
  while (p + 1 < end && <u32>load<u8>(p) == sep) {
    const cp = decodeAt(p + 1, end);
    if (!isLetterCp(cp)) break;
    before = p;
    p += 1 + cpLen;
    letters++;
  }
  if (letters < 3) return 0;
  if (p >= end || !isWordCp(decodeAt(p, end))) return p;
  return letters >= 4 ? before : 0;
}

/**
 * The letter layer over the `len` bytes at `base`, in place. Writes the new offset of
 * every newline, in order, to the u32 table `lfs`, and then the new length after
 * them; returns the new length.
 */
export function letterLayer(base: usize, len: usize, lfs: usize): usize {
  const end = base + len;
  let r = base;
  let w = base;
  let lf: usize = 0;
  while (r < end) {
    if (w == r) {
      // Nothing has shrunk yet, and ASCII text without a single letter (the start of
      // any letter-spaced run) reads as it is: skip 16 bytes at a time up to the last
      // word boundary in them, noting the newlines.
      while (r + 17 <= end) {
        const v = v128.load(r);
        if (i8x16.bitmask(v) != 0) break; // a byte ≥ 0x80
        const lower = v128.or(v, i8x16.splat(0x20));
        const alnum = v128.or(
          v128.and(i8x16.ge_u(lower, i8x16.splat(0x61)), i8x16.le_u(lower, i8x16.splat(0x7a))),
          v128.and(i8x16.ge_u(v, i8x16.splat(0x30)), i8x16.le_u(v, i8x16.splat(0x39))),
        );
        const a = <u32>i8x16.bitmask(alnum);
        const before = <u32>(r > base && isAsciiAlnum(<u32>load<u8>(r - 1)));
        const after = <u32>isAsciiAlnum(<u32>load<u8>(r + 16));
        const single = a & ~((a << 1) | before) & ~((a >>> 1) | (after << 15));
        const boundaries = ~a & 0xffff;
        if (single != 0 || boundaries == 0) break;
        const last = <usize>(31 - clz(boundaries)); // the last byte that is not a letter or digit
        let newlines = <u32>i8x16.bitmask(i8x16.eq(v, i8x16.splat(0x0a))) & ((<u32>2 << <u32>last) - 1);
        while (newlines != 0) {
          store<u32>(lfs + (lf++ << 2), <u32>(r + <usize>ctz(newlines) - base));
          newlines &= newlines - 1;
        }
        r += last + 1;
      }
      w = r;
      if (r >= end) break;
    }
    const c = <u32>load<u8>(r);
    if (c < 0x80) {
      const k = load<u8>(ASCII + c);
      if ((k & (A_LETTER | A_DIGIT)) == 0) {
        if (c == 0x0a) store<u32>(lfs + (lf++ << 2), <u32>(w - base));
        if (w != r) store<u8>(w, <u8>c);
        w++;
        r++;
        continue;
      }
      // Most words are ASCII and not a spaced letter: a word of two or more ASCII bytes
      // (or one that starts with a digit), not followed by a non-ASCII byte, is copied.
      let e = r + 1;
      while (e < end) {
        const x = <u32>load<u8>(e);
        if (x >= 0x80 || (load<u8>(ASCII + x) & (A_LETTER | A_DIGIT)) == 0) break;
        e++;
      }
      if ((e - r >= 2 || (k & A_DIGIT) != 0) && (e >= end || load<u8>(e) < 0x80)) {
        if (w != r) memory.copy(w, r, e - r);
        w += e - r;
        r = e;
        continue;
      }
    }
    const cp = decodeAt(r, end);
    const len0 = cpLen;
    if (!isWordCp(cp)) {
      w = putCp(w, r, len0, false);
      r += len0;
      continue;
    }
    // A word starts at r: whole words are taken, so r is never inside one.
    const run = isLetterCp(cp) ? runEnd(r, end, len0) : 0;
    asciiLetters = folds = digitFolds = others = 0;
    if (run != 0) {
      // Two passes over the run's letters (each followed by one separator byte): count, then write.
      for (let p = r; p < run; p += cpLen + 1) count(decodeAt(p, run));
      const fold = foldsWord();
      for (let p = r; p < run; ) {
        decodeAt(p, run);
        const l = cpLen;
        w = putCp(w, p, l, fold);
        p += l + 1;
      }
      r = run;
      continue;
    }
    let e = r;
    let ascii = true;
    while (e < end) {
      const x = decodeAt(e, end);
      if (!isWordCp(x)) break;
      ascii = ascii && x < 0x80;
      count(x);
      e += cpLen;
    }
    if (ascii || !foldsWord()) {
      // Nothing to fold (the common case): the bytes move only if something before them shrank.
      if (w != r) memory.copy(w, r, e - r);
      w += e - r;
    } else {
      for (let p = r; p < e; ) {
        decodeAt(p, e);
        const l = cpLen;
        w = putCp(w, p, l, true);
        p += l;
      }
    }
    r = e;
  }
  store<u32>(lfs + (lf << 2), <u32>(w - base));
  return w - base;
}
