// Link reference definitions of one level of the reading (assembly/reading.ts), so
// that a link's address can be read where the link is used, in its sentence, as an
// inline link's is: Markdown's `[label]: url`, footnotes `[^1]: … url`, plain-text
// footnotes `[1] … url` and a text browser's numbered links (`1. url` under the page
// that writes `[1]here`; decision 83). The markup sets such an address
// apart from the sentence that asks to fetch it; without this, `assess` traced the
// address to its definition's line, which scores nothing.
//
// The table, at `t` on the reading's stack: a u32 count of definitions and one of labels, then per
// definition eight u32 (label start, label length, the address's start, its end with
// bit 31 set once it has been read at a use, the stretch the reading then drops, the
// label's hash, the next definition of the same label + 1 with the label's first
// definition in the high half), then the labels' first definitions (u16) sorted by
// their hash, then as many u16 of scratch for the sort. Definitions are in input
// order, up to 256 a level. A lookup is a binary search over the hashes and one
// comparison of labels in full: a label whose hash an earlier label has is left out,
// so that no crafted input makes it more (decision 91); a level that leaves a
// definition out says so (referencesLeftOut). A label defined again is
// chained to its first definition, and a use takes the first definition after it:
// where Markdown keeps the first, a result that joins messages (a quoted reply, an
// inbox) numbers each message's footnotes afresh. A full reference with none after it
// takes the last one when it is written `[label]:`, and reads the label's other
// `[label]:` definitions too (decision 86); a plain use reads those after it (decision
// 90). Definitions are found inside any container marks, their address also alone on
// the next line (decision 89).

import { at, BS, classOf, COLON, CR, isAbsoluteUrl, K_WS, LB, LF, RB, SP, TAB } from './syntax';

const MAX_REFERENCES: u32 = 256;
const MAX_LABEL: usize = 999; // characters, as CommonMark: a longer label matches nothing
const ENTRY: usize = 32;
const HEAD: usize = 8;
const CARET: u32 = 0x5e;
const EMITTED: u32 = 0x80000000;
const NEXT: u32 = 0xffff; // in the chain field: the next definition + 1 (the label's first definition above it)
const COLON_FORM: u32 = 0x80000000; // in the label's length: a `[label]:` definition, not a footnote's number or a listed link

/**
 * Bytes the table of a level read from at most `len` input bytes may take: its
 * entries, then its index and the index's scratch (u16 each a definition). A
 * definition is a line of at least four bytes ("[a]:b"), so a short input needs a
 * small table, and the reading's region stays small for short texts.
 */
export function referenceTableBytes(len: usize): usize {
  const most = min(<usize>MAX_REFERENCES, len / 4 + 1);
  return HEAD + most * (ENTRY + 4);
}

// The definition defAt found: its label, the address token, and the stretch the
// reading drops once the address has been read at a use (the token, or <token>).
let labelFrom: usize = 0;
let labelTo: usize = 0;
let urlFrom: usize = 0;
let urlTo: usize = 0;
let dropFrom: usize = 0;
let dropTo: usize = 0;
let colonForm = false;

export const NO_LABEL: usize = usize.MAX_VALUE;

/**
 * The end of a bracket's label at `from` ('[' before it): the ']' after at most
 * MAX_LABEL characters (UTF-8 lead bytes: 22 CJK characters are 66 bytes), no '[' or
 * newline between, or NO_LABEL. Looks at most four bytes a character.
 */
export function labelEnd(s: usize, n: usize, from: usize): usize {
  let characters: usize = 0;
  for (let e = from; e < n; e++) {
    const c = at(s, e);
    if (c == RB) return e;
    if (c == LB || c == LF) break;
    if ((c & 0xc0) != 0x80 && ++characters > MAX_LABEL) break;
  }
  return NO_LABEL;
}

@inline function isBlank(c: u32): bool {
  return c == SP || c == TAB;
}

/** Whether s[from, to) holds only digits (1–4 of them), blanks around them aside: a plain footnote's number (`[1]`, `[ 1 ]`). */
function isFootnoteNumber(s: usize, from: usize, to: usize): bool {
  to = labelStop(s, from, to);
  from = labelStart(s, from, to);
  if (to == from || to - from > 4) return false;
  for (let k = from; k < to; k++) if (at(s, k) < 0x30 || at(s, k) > 0x39) return false;
  return true;
}

@inline function isTrailing(c: u32): bool {
  return c == 0x2e || c == 0x2c || c == 0x3b || c == COLON || c == 0x29 || c == 0x3e;
}

/**
 * The first absolute address among the tokens of the line from m (a footnote's text:
 * "Patched build: https://…"): the token without a leading '<' or '(' or trailing
 * '.', ',', ';', ':', ')' or '>', and past a Markdown link's `](` (`[site](https://…)`)
 * (urlFrom, urlTo), and the whole token to drop.
 */
function addressIn(s: usize, n: usize, m: usize): bool {
  while (m < n && at(s, m) != LF) {
    if ((classOf(at(s, m)) & K_WS) != 0) {
      m++;
      continue;
    }
    const from = m;
    while (m < n && (classOf(at(s, m)) & K_WS) == 0) m++;
    let a = from;
    let z = m;
    while (a < z && (at(s, a) == 0x3c || at(s, a) == 0x28)) a++;
    while (z > a && isTrailing(at(s, z - 1))) z--;
    for (let p = a; p + 1 < z; p++) {
      if (at(s, p) == RB && at(s, p + 1) == 0x28) {
        a = p + 2;
        break;
      }
    }
    if (z > a && isAbsoluteUrl(s, a, z)) {
      urlFrom = a;
      urlTo = z;
      dropFrom = from;
      dropTo = m;
      return true;
    }
  }
  return false;
}

// Where a line's container marks end: blanks, blockquote marks and list markers
// (`-`, `*`, `+`, or 1–9 digits and `.` or `)`, each before a blank), as many as the
// line holds, since a renderer reads a definition inside any of them (`> 1. - [dl]: …`).
// A text browser numbers the links it lists once a line (`   1. https://…`): the start
// of the last marker when it is the line's first number, 1–4 digits and `.`, with at
// most one bullet before it and only blanks after it, else n. The quote marks among
// the marks: the next line continues the quote with as many or none (a lazy line).
let numberedFrom: usize = 0;
let quotes = 0;

/** The end of the container marks at the start of the line at i (see above); sets numberedFrom and quotes (the quote marks among them). */
function marksEnd(s: usize, n: usize, i: usize): usize {
  let j = i;
  let bullets = 0;
  let numbers = 0;
  numberedFrom = n;
  quotes = 0;
  while (j < n) {
    const c = at(s, j);
    if (c == SP || c == TAB || c == 0x3e) {
      if (c == 0x3e) {
        quotes++;
        numberedFrom = n;
      }
      j++;
    } else if ((c == 0x2d || c == 0x2a || c == 0x2b) && j + 1 < n && isBlank(at(s, j + 1))) {
      bullets++;
      numberedFrom = n;
      j += 2;
    } else if (c >= 0x30 && c <= 0x39) {
      let e = j;
      while (e < n && e - j < 10 && at(s, e) >= 0x30 && at(s, e) <= 0x39) e++;
      if (e - j > 9 || e + 1 >= n || (at(s, e) != 0x2e && at(s, e) != 0x29) || !isBlank(at(s, e + 1))) break;
      numberedFrom = numbers == 0 && bullets <= 1 && at(s, e) == 0x2e && e - j <= 4 ? j : n;
      numbers++;
      j = e + 2;
    } else break;
  }
  return j;
}

/** Whether s[from, to) is a scheme-relative address (`//host/…`), which a page resolves to that host. */
function schemeRelative(s: usize, from: usize, to: usize): bool {
  return to - from > 2 && at(s, from) == 0x2f && at(s, from + 1) == 0x2f && at(s, from + 2) != 0x2f;
}

/**
 * Whether the line at i (a line start) is a definition: container marks (marksEnd),
 * `[label]` (1–999 characters, no bracket or newline), then either `:` and the address (its
 * first token, bare or in <…>, on the line or, absolute or scheme-relative, at the start
 * of the next one, then
 * nothing but a title; for a footnote `[^…]:`, the first absolute address on the
 * line), or, for a label of 1–4 digits (a plain footnote), the first absolute address
 * on the line. Sets the fields above. Looks no further than the line, or the next one
 * for a `[label]:` that ends its line.
 */
function defAt(s: usize, n: usize, i: usize): bool {
  const j = marksEnd(s, n, i);
  if (j < n && at(s, j) != LB) return numberedFrom < n && listedAt(s, n, numberedFrom);
  if (j >= n) return false;
  const e = labelEnd(s, n, j + 1);
  if (e == NO_LABEL || labelStart(s, j + 1, e) == e) return false;
  labelFrom = j + 1;
  labelTo = e;
  let m = e + 1;
  const colon = m < n && at(s, m) == COLON;
  colonForm = colon;
  if (colon) m++;
  else if (!isFootnoteNumber(s, labelFrom, labelTo)) return false;
  if (!colon || at(s, labelFrom) == CARET) return addressIn(s, n, m);
  while (m < n && isBlank(at(s, m))) m++;
  // CommonMark lets the address stand on the next line, after blanks and the quote's marks (as
  // many as this line's, or none: a lazy line; more open a quote of their own). There only an
  // absolute or scheme-relative address makes a definition: a rule, a heading or a comment's
  // end (`[the patch]:` then `***`) is none to a renderer, and would take a later use's address.
  const end = m < n && at(s, m) == CR ? m + 1 : m;
  const nextLine = end < n && at(s, end) == LF;
  if (nextLine) {
    m = end + 1;
    let marks = 0;
    while (m < n && (isBlank(at(s, m)) || (at(s, m) == 0x3e && marks < quotes))) {
      if (at(s, m) == 0x3e) marks++;
      m++;
    }
  }
  if (m >= n) return false;
  dropFrom = m;
  if (at(s, m) == 0x3c) {
    // In <…> the address may hold blanks, and blanks around it are no part of it (`< https://… >`);
    // as in CommonMark, a '<' ends it unclosed and '\>' is no closer.
    m++;
    while (m < n && isBlank(at(s, m))) m++;
    urlFrom = m;
    while (m < n && at(s, m) != 0x3e && at(s, m) != LF && at(s, m) != CR) {
      if (at(s, m) == 0x3c) return false;
      m += at(s, m) == BS && m + 1 < n && at(s, m + 1) != LF && at(s, m + 1) != CR ? 2 : 1;
    }
    if (m >= n || at(s, m) != 0x3e) return false;
    urlTo = m;
    while (urlTo > urlFrom && isBlank(at(s, urlTo - 1))) urlTo--;
    m++;
  } else {
    urlFrom = m;
    while (m < n && (classOf(at(s, m)) & K_WS) == 0) m++;
    urlTo = m;
  }
  if (urlTo == urlFrom || (nextLine && !isAbsoluteUrl(s, urlFrom, urlTo) && !schemeRelative(s, urlFrom, urlTo))) return false;
  dropTo = m;
  // As in CommonMark, only a title may follow the address: `[ERROR]: https://… returned 503`, a log line, defines nothing.
  while (m < n && isBlank(at(s, m))) m++;
  if (m >= n) return true;
  const c = at(s, m);
  return c == LF || c == 0x0d || c == 0x22 || c == 0x27 || c == 0x28;
}

/**
 * Whether the line goes on at j as a text browser's list of the links it numbered
 * (lynx, w3m: `[1]here` in the text, `   1. https://…` under "References"): 1–4
 * digits, '.', blanks, then an absolute address as the first token, nothing else
 * taken for one (a numbered list of addresses pairs only with `[n]` written before it).
 */
function listedAt(s: usize, n: usize, j: usize): bool {
  let e = j;
  while (e < n && e - j < 5 && at(s, e) >= 0x30 && at(s, e) <= 0x39) e++;
  if (e == j || e - j > 4 || e + 1 >= n || at(s, e) != 0x2e || !isBlank(at(s, e + 1))) return false;
  let m = e + 1;
  while (m < n && isBlank(at(s, m))) m++;
  let z = m;
  while (z < n && (classOf(at(s, z)) & K_WS) == 0) z++;
  if (z == m || !isAbsoluteUrl(s, m, z)) return false;
  labelFrom = j;
  labelTo = e;
  colonForm = false;
  urlFrom = dropFrom = m;
  urlTo = dropTo = z;
  return true;
}

@inline function lower(c: u32): u32 {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

// A label as Markdown matches it: ASCII case aside, blanks at its ends dropped and a
// run of them inside read as one space (`[The  Mirror ]` is `[the mirror]`).

/** The index of the label byte after k (< to), a run of blanks stepped over as one. */
@inline function labelStep(s: usize, k: usize, to: usize): usize {
  if (!isBlank(at(s, k))) return k + 1;
  while (k < to && isBlank(at(s, k))) k++;
  return k;
}

/** The first byte of s[from, to) that is not a blank, or to. */
function labelStart(s: usize, from: usize, to: usize): usize {
  while (from < to && isBlank(at(s, from))) from++;
  return from;
}

/** The end of s[from, to) without its trailing blanks. */
function labelStop(s: usize, from: usize, to: usize): usize {
  while (to > from && isBlank(at(s, to - 1))) to--;
  return to;
}

@inline function labelByte(c: u32): u32 {
  return isBlank(c) ? SP : lower(c);
}

/** A label's hash, case and blanks aside (as labels match). */
export function hashOf(s: usize, from: usize, to: usize): u32 {
  let h: u32 = 0x811c9dc5;
  const z = labelStop(s, from, to);
  for (let k = labelStart(s, from, z); k < z; k = labelStep(s, k, z)) h = (h ^ labelByte(at(s, k))) * 0x01000193;
  return h;
}

function sameLabel(s: usize, a: usize, aTo: usize, b: usize, bTo: usize): bool {
  const az = labelStop(s, a, aTo);
  const bz = labelStop(s, b, bTo);
  let j = labelStart(s, a, az);
  let k = labelStart(s, b, bz);
  while (j < az && k < bz) {
    if (labelByte(at(s, j)) != labelByte(at(s, k))) return false;
    j = labelStep(s, j, az);
    k = labelStep(s, k, bz);
  }
  return j == az && k == bz;
}

@inline function entry(t: usize, k: u32): usize {
  return t + HEAD + <usize>k * ENTRY;
}

@inline function labelLength(d: usize): usize {
  return <usize>(load<u32>(d, 4) & ~COLON_FORM);
}

// The index slot referenceFor last found its definition in (see moveReference).
let foundSlot: usize = 0;

@inline function indexOf(t: usize): usize {
  return t + HEAD + <usize>load<u32>(t) * ENTRY;
}

@inline function hashAt(t: usize, slot: usize): u32 {
  return load<u32>(entry(t, <u32>load<u16>(slot)), 24);
}

@inline function labelled(t: usize, k: u32, s: usize, from: usize, to: usize): bool {
  const at0 = <usize>load<u32>(entry(t, k));
  return sameLabel(s, at0, at0 + labelLength(entry(t, k)), from, to);
}

/** The definition labelled s[from, to) in the table at t (case aside), or -1. */
export function referenceFor(t: usize, s: usize, from: usize, to: usize): i32 {
  const hash = hashOf(s, from, to);
  const index = indexOf(t);
  let lo: usize = 0;
  let hi = <usize>load<u32>(t, 4);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hashAt(t, index + (mid << 1)) < hash) lo = mid + 1;
    else hi = mid;
  }
  if (lo == <usize>load<u32>(t, 4) || hashAt(t, index + (lo << 1)) != hash) return -1;
  const k = <u32>load<u16>(index + (lo << 1));
  if (!labelled(t, k, s, from, to)) return -1;
  foundSlot = index + (lo << 1);
  return <i32>k;
}

/** Sorts the n u16 definition numbers at a by their labels' hash, input order kept among equal ones, with n u16 of scratch at b. */
function sortByHash(t: usize, a: usize, b: usize, n: usize): void {
  let from = a;
  let to = b;
  for (let width: usize = 1; width < n; width <<= 1) {
    for (let lo: usize = 0; lo < n; lo += width << 1) {
      const mid = min(lo + width, n);
      const hi = min(lo + (width << 1), n);
      let i = lo;
      let j = mid;
      for (let o = lo; o < hi; o++) {
        const fromRight = j < hi && (i == mid || hashAt(t, from + (j << 1)) < hashAt(t, from + (i << 1)));
        store<u16>(to + (o << 1), load<u16>(from + ((fromRight ? j++ : i++) << 1)));
      }
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from != a) memory.copy(a, from, n << 1);
}

/** The start of the line after the one holding i, or n: 16 bytes at a time, as every level of the reading pays for this scan. */
function lineAfter(s: usize, n: usize, i: usize): usize {
  const lf = i8x16.splat(<i8>LF);
  while (i + 16 <= n) {
    const bits = i8x16.bitmask(i8x16.eq(v128.load(s + i), lf));
    if (bits != 0) return i + <usize>ctz(bits) + 1;
    i += 16;
  }
  while (i < n && at(s, i) != LF) i++;
  return i + 1;
}

/**
 * The definitions of s[0, n), written at t: the table's bytes, or 0 when there are
 * none. One pass over the line starts; each definition looks no further than its
 * line; the index is sorted once, in n log n.
 */
export function referencesOf(s: usize, n: usize, t: usize): usize {
  let count: u32 = 0;
  leftOut = false;
  for (let i: usize = 0; i < n; i = lineAfter(s, n, i)) {
    if (!defAt(s, n, i)) continue;
    if (count == MAX_REFERENCES) {
      leftOut = true;
      break;
    }
    const d = entry(t, count);
    store<u32>(d, <u32>labelFrom);
    store<u32>(d, <u32>(labelTo - labelFrom) | (colonForm ? COLON_FORM : 0), 4);
    store<u32>(d, <u32>urlFrom, 8);
    store<u32>(d, <u32>urlTo, 12);
    store<u32>(d, <u32>dropFrom, 16);
    store<u32>(d, <u32>dropTo, 20);
    store<u32>(d, hashOf(s, labelFrom, labelTo), 24);
    store<u32>(d, 0, 28);
    count++;
  }
  if (count == 0) return 0;
  store<u32>(t, count);
  const index = indexOf(t);
  for (let k: u32 = 0; k < count; k++) store<u16>(index + (<usize>k << 1), <u16>k);
  sortByHash(t, index, index + (<usize>count << 1), <usize>count);
  // Each run of one hash, in input order: its first definition stays in the index, later ones
  // of its label are chained after it, and those of another label are left out. By chance two
  // of 256 labels share a hash in one level of about 130,000; labels crafted to share one would
  // otherwise have each lookup compare all of them in full (seconds a megabyte).
  let labels: u32 = 0;
  for (let i: u32 = 0; i < count; ) {
    const first = <u32>load<u16>(index + (<usize>i << 1));
    const hash = load<u32>(entry(t, first), 24);
    store<u32>(entry(t, first), first << 16, 28);
    let last = first;
    for (i++; i < count && hashAt(t, index + (<usize>i << 1)) == hash; i++) {
      const k = <u32>load<u16>(index + (<usize>i << 1));
      const d = entry(t, k);
      const from = <usize>load<u32>(d);
      if (!labelled(t, first, s, from, from + labelLength(d))) {
        store<u32>(d, k << 16, 28);
        leftOut = true;
        continue;
      }
      store<u32>(d, first << 16, 28);
      store<u32>(entry(t, last), load<u32>(entry(t, last), 28) | (k + 1), 28);
      last = k;
    }
    store<u16>(index + (<usize>labels << 1), <u16>first);
    labels++;
  }
  store<u32>(t, labels, 4);
  return HEAD + <usize>count * (ENTRY + 4);
}

// Whether the last referencesOf left a definition out (past MAX_REFERENCES, or its label's hash
// another label's): its uses keep no address.
let leftOut = false;

/** Whether the last table left a definition out (more than MAX_REFERENCES in the level, or a hash two labels share). */
@inline export function referencesLeftOut(): bool {
  return leftOut;
}

@inline export function referenceCount(t: usize): u32 {
  return load<u32>(t);
}
@inline export function referenceUrlFrom(t: usize, k: u32): usize {
  return <usize>load<u32>(entry(t, k), 8);
}
@inline export function referenceUrlTo(t: usize, k: u32): usize {
  return <usize>(load<u32>(entry(t, k), 12) & ~EMITTED);
}
@inline export function referenceDropFrom(t: usize, k: u32): usize {
  return <usize>load<u32>(entry(t, k), 16);
}
@inline export function referenceDropTo(t: usize, k: u32): usize {
  return <usize>load<u32>(entry(t, k), 20);
}
@inline export function referenceEmitted(t: usize, k: u32): bool {
  return (load<u32>(entry(t, k), 12) & EMITTED) != 0;
}
@inline export function markEmitted(t: usize, k: u32): void {
  store<u32>(entry(t, k), load<u32>(entry(t, k), 12) | EMITTED, 12);
}
@inline export function referenceLabelFrom(t: usize, k: u32): usize {
  return <usize>load<u32>(entry(t, k));
}
/**
 * Points the index slot the last referenceFor found at definition k, a later one of the
 * same label: uses are read in input order and look at definitions after them (or,
 * with none after, at the label's last one), so the ones before k are never wanted
 * again through it (a full reference's walk over all of them starts from the
 * first definition each entry keeps), and a label defined many times is walked once
 * in all, not once per use.
 */
@inline export function moveReference(k: u32): void {
  store<u16>(foundSlot, <u16>k);
}

/** Whether definition k is written `[label]: …` (Markdown's form), not as a footnote's number or a listed link. */
@inline export function referenceHasColon(t: usize, k: u32): bool {
  return (load<u32>(entry(t, k), 4) & COLON_FORM) != 0;
}

/** Definition k's label hash (see hashOf). */
@inline export function referenceHash(t: usize, k: u32): u32 {
  return load<u32>(entry(t, k), 24);
}

/** The next definition of definition k's label, or -1. */
@inline export function nextDefinition(t: usize, k: u32): i32 {
  return <i32>(load<u32>(entry(t, k), 28) & NEXT) - 1;
}

/** The first definition of definition k's label, where its chain starts. */
@inline export function firstDefinition(t: usize, k: u32): u32 {
  return load<u32>(entry(t, k), 28) >>> 16;
}
