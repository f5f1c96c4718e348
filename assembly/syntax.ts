// The scanners of the reading's structure layer (assembly/reading.ts): byte classes,
// escapes, entities, string closers, keys and YAML block scalars, line markers and
// tags. Each looks at a bounded stretch or one that its caller then consumes (the
// bounds are argued at each); results beyond the return value go to module globals.

export const MIN_SEGMENT: usize = 20;
export const MIN_LINE: usize = 20;
export const MAX_DEPTH: u32 = 3;
const TAG_WINDOW: usize = 8192;

export const LF: u32 = 0x0a;
export const CR: u32 = 0x0d;
export const SP: u32 = 0x20;
export const TAB: u32 = 0x09;
export const DQ: u32 = 0x22;
export const SQ: u32 = 0x27;
export const BS: u32 = 0x5c;
export const LT: u32 = 0x3c;
export const GT: u32 = 0x3e;
export const AMP: u32 = 0x26;
export const SLASH: u32 = 0x2f;
export const PLUS: u32 = 0x2b;
export const STAR: u32 = 0x2a;
export const DASH: u32 = 0x2d;
export const COLON: u32 = 0x3a;
export const LB: u32 = 0x5b;
export const RB: u32 = 0x5d;
export const HASH: u32 = 0x23;
const SEMI: u32 = 0x3b;
export const EQ: u32 = 0x3d;
export const PIPE: u32 = 0x7c;
export const COMMA: u32 = 0x2c;
export const QUESTION: u32 = 0x3f;
export const BANG: u32 = 0x21;

// Byte classes.
const CLASS: usize = memory.data(512);
export const K_SPECIAL: u32 = 1; // some rule looks at it
export const K_MARKUP: u32 = 2; // reads as a space when no rule takes it
const K_TERMINATOR: u32 = 4; // may follow a string's closing quote
const K_STRUCTURAL: u32 = 8; // a quote after it opens a string
export const K_NAME: u32 = 16; // [\w:-]: tag and attribute names
const K_KEY: u32 = 32; // [\w .\-/]: key characters
export const K_WS: u32 = 64; // ASCII whitespace
export const K_RUN: u32 = 128; // - = _ * ~ #: three or more read as one space
const K_LETTER: u32 = 256;
const K_DIGIT: u32 = 512;
const K_HEX: u32 = 1024;

function mark(chars: string, k: u32): void {
  for (let j = 0; j < chars.length; j++) {
    const c = <usize>chars.charCodeAt(j);
    store<u16>(CLASS + (c << 1), load<u16>(CLASS + (c << 1)) | <u16>k);
  }
}
mark('\n\r"\'<&\\|,/*-=_~#`^{}[]>', K_SPECIAL);
mark('*`~^{}[]<>\\_#|', K_MARKUP);
mark(',:}]);=>/', K_TERMINATOR);
mark('{[(,:=|>', K_STRUCTURAL);
mark('-=_*~#', K_RUN);
mark(' \t\n\x0b\x0c\r', K_WS);
mark('0123456789', K_DIGIT | K_NAME | K_KEY | K_HEX);
mark('abcdefABCDEF', K_HEX);
mark('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', K_LETTER | K_NAME | K_KEY);
mark('_:-', K_NAME);
mark('_ .-/', K_KEY);

// The K_SPECIAL bytes, 16 at a time: a byte is special when the entry of its low
// nibble shares a bit with that of its high nibble (one bit per high nibble that
// holds special bytes; bytes ≥ 0x80 have none).
const SPECIAL_LO = i8x16(16, 0, 2, 2, 0, 0, 2, 2, 0, 0, 3, 40, 46, 47, 44, 10);
const SPECIAL_HI = i8x16(1, 0, 2, 4, 0, 8, 16, 32, 0, 0, 0, 0, 0, 0, 0, 0);

/** Bit k set: byte k of the 16 at `p` is K_SPECIAL. */
@inline export function specialBits(p: usize): u32 {
  const v = v128.load(p);
  const lo = i8x16.swizzle(SPECIAL_LO, v128.and(v, i8x16.splat(0x0f)));
  const hi = i8x16.swizzle(SPECIAL_HI, i8x16.shr_u(v, 4));
  return <u32>i8x16.bitmask(i8x16.ne(v128.and(lo, hi), i8x16.splat(0)));
}

/**
 * Whether the nibble tables agree with K_SPECIAL on all 256 bytes, checked once at
 * start: a byte they missed would be copied past its rule, so `reading` refuses to
 * run on a core where they disagree.
 */
export let specialTablesAgree = true;
const PROBE: usize = memory.data(16, 16);
for (let base: u32 = 0; base < 256; base += 16) {
  let want: u32 = 0;
  for (let k: u32 = 0; k < 16; k++) {
    store<u8>(PROBE + k, <u8>(base + k));
    if ((<u32>load<u16>(CLASS + (<usize>(base + k) << 1)) & K_SPECIAL) != 0) want |= 1 << k;
  }
  if (specialBits(PROBE) != want) specialTablesAgree = false;
}

@inline export function classOf(c: u32): u32 {
  return <u32>load<u16>(CLASS + (<usize>c << 1));
}
@inline export function at(s: usize, i: usize): u32 {
  return <u32>load<u8>(s + i);
}
@inline export function isLineSpace(c: u32): bool {
  return c == SP || c == TAB || c == CR;
}

/** UTF-8 of `cp` at `p`; returns the bytes written. */
export function encode(p: usize, cp: u32): usize {
  if (cp < 0x80) {
    store<u8>(p, <u8>cp);
    return 1;
  }
  if (cp < 0x800) {
    store<u8>(p, <u8>(0xc0 | (cp >>> 6)));
    store<u8>(p, <u8>(0x80 | (cp & 0x3f)), 1);
    return 2;
  }
  if (cp < 0x10000) {
    store<u8>(p, <u8>(0xe0 | (cp >>> 12)));
    store<u8>(p, <u8>(0x80 | ((cp >>> 6) & 0x3f)), 1);
    store<u8>(p, <u8>(0x80 | (cp & 0x3f)), 2);
    return 3;
  }
  store<u8>(p, <u8>(0xf0 | (cp >>> 18)));
  store<u8>(p, <u8>(0x80 | ((cp >>> 12) & 0x3f)), 1);
  store<u8>(p, <u8>(0x80 | ((cp >>> 6) & 0x3f)), 2);
  store<u8>(p, <u8>(0x80 | (cp & 0x3f)), 3);
  return 4;
}

/**
 * Unicode's Default_Ignorable_Code_Point (the bindings' INVISIBLE set; DerivedCoreProperties,
 * stable since Unicode 5.2 apart from U+180F, added in 14.0): decoded, they yield nothing.
 * The tag block E0000–E007F is ignorable too, but `settle` reads it first.
 */
function isInvisible(cp: u32): bool {
  if (cp < 0xad) return false;
  if (cp < 0x2000) {
    return cp == 0xad || cp == 0x34f || cp == 0x61c || cp == 0x115f || cp == 0x1160 || cp == 0x17b4 || cp == 0x17b5 || (cp >= 0x180b && cp <= 0x180f);
  }
  if (cp < 0x10000) {
    return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp == 0x3164 ||
      (cp >= 0xfe00 && cp <= 0xfe0f) || cp == 0xfeff || cp == 0xffa0 || (cp >= 0xfff0 && cp <= 0xfff8);
  }
  return (cp >= 0x1bca0 && cp <= 0x1bca3) || (cp >= 0x1d173 && cp <= 0x1d17a) || (cp >= 0xe0000 && cp <= 0xe0fff);
}

/**
 * A decoded code point as the reading takes it: -1 for an invisible one, full-width
 * ASCII as ASCII, a tag character as the ASCII it shadows (the bindings' TAGS fold).
 */
@inline export function settle(cp: u32): i32 {
  if (cp >= 0xe0000 && cp <= 0xe007f) return cp >= 0xe0020 && cp <= 0xe007e ? <i32>(cp - 0xe0000) : -1;
  if (isInvisible(cp)) return -1;
  return cp >= 0xff01 && cp <= 0xff5e ? <i32>(cp - 0xfee0) : <i32>cp;
}

/** A decoded character in running text: markup reads as a space, \r as nothing. */

// ---------------------------------------------------------------- escapes and entities

export const ESC_CP: u32 = 1; // \uXXXX (pairs joined), \UXXXXXXXX, \xXX
const ESC_CONTROL: u32 = 2; // \n \t \r \b \f: escValue is the letter
export const ESC_LITERAL: u32 = 3; // \" \' \\ \/
export let escKind: u32 = 0;
export let escValue: u32 = 0;

function hexAt(s: usize, n: usize, from: usize, count: usize): i32 {
  if (from + count > n) return -1;
  let v: i32 = 0;
  for (let k = from; k < from + count; k++) {
    const c = at(s, k);
    if ((classOf(c) & K_HEX) == 0) return -1;
    v = (v << 4) | <i32>(c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
  }
  return v;
}

/** The backslash escape at k: its end (escKind, escValue set), or 0 when it is none. */
export function escapeAt(s: usize, n: usize, k: usize): usize {
  if (k + 1 >= n) return 0;
  const c = at(s, k + 1);
  if (c == 0x75 /* u */) {
    let cp = hexAt(s, n, k + 2, 4);
    if (cp < 0) return 0;
    let end = k + 6;
    if (cp >= 0xd800 && cp <= 0xdbff && end + 1 < n && at(s, end) == BS && at(s, end + 1) == 0x75) {
      const lo = hexAt(s, n, end + 2, 4);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        end += 6;
      }
    }
    escKind = ESC_CP;
    escValue = cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : <u32>cp;
    return end;
  }
  if (c == 0x55 /* U */) {
    // Eight hex digits can exceed i32: read them as two halves.
    const hi = hexAt(s, n, k + 2, 4);
    const lo = hexAt(s, n, k + 6, 4);
    if (hi < 0 || lo < 0 || hi > 0x10) return 0;
    const cp = (<u32>hi << 16) | <u32>lo;
    escKind = ESC_CP;
    escValue = cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp;
    return k + 10;
  }
  if (c == 0x78 /* x */) {
    const cp = hexAt(s, n, k + 2, 2);
    if (cp < 0) return 0;
    escKind = ESC_CP;
    escValue = <u32>cp;
    return k + 4;
  }
  if (c == 0x6e || c == 0x74 || c == 0x72 || c == 0x62 || c == 0x66) {
    escKind = ESC_CONTROL;
    escValue = c;
    return k + 2;
  }
  if (c == DQ || c == SQ || c == BS || c == SLASH) {
    escKind = ESC_LITERAL;
    escValue = c;
    return k + 2;
  }
  return 0;
}

export let entityCp: u32 = 0;
export let entityRepeat: u32 = 1; // &hellip; is three dots

/** The entity at i (an '&'): its end (entityCp, entityRepeat set), or 0 when it is none. */
export function entityAt(s: usize, n: usize, i: usize): usize {
  const j = i + 1;
  entityRepeat = 1;
  if (j < n && at(s, j) == HASH) {
    let k: usize;
    let cp: u64 = 0;
    if (j + 1 < n && (at(s, j + 1) | 0x20) == 0x78) {
      k = j + 2;
      while (k < n && k - (j + 2) < 7 && (classOf(at(s, k)) & K_HEX) != 0) {
        const c = at(s, k);
        cp = (cp << 4) | <u64>(c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
        k++;
      }
      const count = k - (j + 2);
      if (count < 1 || count > 6 || k >= n || at(s, k) != SEMI) return 0;
    } else {
      k = j + 1;
      while (k < n && k - (j + 1) < 8 && (classOf(at(s, k)) & K_DIGIT) != 0) {
        cp = cp * 10 + <u64>(at(s, k) - 0x30);
        k++;
      }
      const count = k - (j + 1);
      if (count < 1 || count > 7 || k >= n || at(s, k) != SEMI) return 0;
    }
    entityCp = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? <u32>cp : 0xfffd;
    return k + 1;
  }
  // A named entity: its lowercase name (2–8 letters) packed little-endian into a u64.
  let k = j;
  let name: u64 = 0;
  while (k < n && k - j < 9 && (classOf(at(s, k)) & K_LETTER) != 0) {
    if (k - j < 8) name |= <u64>(at(s, k) | 0x20) << (<u64>(k - j) << 3);
    k++;
  }
  if (k - j < 2 || k - j > 8 || k >= n || at(s, k) != SEMI) return 0;
  let cp: u32 = 0;
  if (name == 0x706d61) cp = 0x26; // amp
  else if (name == 0x746c) cp = 0x3c; // lt
  else if (name == 0x7467) cp = 0x3e; // gt
  else if (name == 0x746f7571) cp = 0x22; // quot
  else if (name == 0x736f7061) cp = 0x27; // apos
  else if (name == 0x7073626e) cp = 0x20; // nbsp
  else if (name == 0x687361646d || name == 0x687361646e) cp = 0x2d; // mdash, ndash
  else if (name == 0x6f75717372 || name == 0x6f7571736c) cp = 0x27; // rsquo, lsquo
  else if (name == 0x6f75716472 || name == 0x6f7571646c) cp = 0x22; // rdquo, ldquo
  else if (name == 0x70696c6c6568) {
    cp = 0x2e; // hellip
    entityRepeat = 3;
  } else return 0;
  entityCp = cp;
  return k + 1;
}

/** Append the code point to the decode buffer at `p` as content takes it (invisible ones dropped); returns bytes written. */
@inline function putContent(p: usize, cp: u32): usize {
  const s = settle(cp);
  return s < 0 ? 0 : encode(p, <u32>s);
}

/** A string's content as its carrier means it (escapes, doubled quotes), at `dst`; returns its length. */
export function decodeString(s: usize, n: usize, q: u32, dst: usize): usize {
  let d = dst;
  const quote = i8x16.splat(<i8>q);
  const backslash = i8x16.splat(<i8>BS);
  // Only a ' string holds a raw newline (a YAML flow scalar over several lines; see
  // findCloser), and it folds: a " string keeps its newlines (a CSV cell's lines).
  const newline = i8x16.splat(<i8>(q == SQ ? LF : BS));
  for (let k: usize = 0; k < n; ) {
    // Stretches without a quote, backslash or (in a ' string) newline are copied 16 bytes at a time.
    while (k + 16 <= n) {
      const v = v128.load(s + k);
      const stops = <u32>i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.eq(v, newline)));
      const run: usize = stops == 0 ? 16 : <usize>ctz(stops);
      v128.store(d, v);
      d += run;
      k += run;
      if (stops != 0) break;
    }
    if (k >= n) break;
    const c = at(s, k);
    if (c == q && k + 1 < n && at(s, k + 1) == q) {
      store<u8>(d++, <u8>q);
      k += 2;
      continue;
    }
    if (c == LF && q == SQ) {
      k = foldLines(s, n, k);
      if (foldedBreaks == 0) store<u8>(d++, <u8>SP);
      else for (let b: u32 = 0; b < foldedBreaks; b++) store<u8>(d++, <u8>LF);
      continue;
    }
    if (c != BS) {
      store<u8>(d++, <u8>c);
      k++;
      continue;
    }
    const end = escapeAt(s, n, k);
    if (end == 0) {
      store<u8>(d++, <u8>BS);
      k++;
      continue;
    }
    if (escKind == ESC_CP) d += putContent(d, escValue);
    else if (escKind == ESC_CONTROL) {
      const v = escValue;
      store<u8>(d++, <u8>(v == 0x6e ? LF : v == 0x74 ? TAB : v == 0x72 ? CR : v == 0x62 ? 0x08 : 0x0c));
    } else store<u8>(d++, <u8>escValue);
    k = end;
  }
  return d - dst;
}

/** An attribute value's content: its entities decoded, at `dst`; returns its length. */
export function decodeEntities(s: usize, n: usize, dst: usize): usize {
  let d = dst;
  for (let k: usize = 0; k < n; ) {
    const end = at(s, k) == AMP ? entityAt(s, n, k) : 0;
    if (end == 0) {
      store<u8>(d++, load<u8>(s + k));
      k++;
      continue;
    }
    for (let r: u32 = 0; r < entityRepeat; r++) d += putContent(d, entityCp);
    k = end;
  }
  return d - dst;
}

// ---------------------------------------------------------------- strings

/** Whether the quote at i opens a string: see rule 1. The backward scans cover disjoint stretches of spaces. */
export function structuralBefore(s: usize, i: usize): bool {
  const k = lastBefore(s, i);
  if (k < 0) return true;
  const p = at(s, <usize>k);
  if (p == LF || (classOf(p) & K_STRUCTURAL) != 0) return true;
  let m = k - 1;
  if (p == HASH) {
    while (m >= 0 && at(s, <usize>m) == HASH && k - m < 6) m--;
  } else if (p == SLASH && m >= 0 && at(s, <usize>m) == SLASH) m--;
  else if (p != DASH && p != STAR) return false;
  m = lastBefore(s, <usize>(m + 1));
  return m < 0 || at(s, <usize>m) == LF;
}

/** The index of the last byte before i that is no line space (isLineSpace), or -1. */
function lastBefore(s: usize, i: usize): isize {
  let k = <isize>i - 1;
  while (k >= 0 && isLineSpace(at(s, <usize>k))) k--;
  return k;
}

/** Where a failed closer search stopped (a ' string's line end, else the end). */
export let closerStop: usize = 0;
/** Whether the string findCloser closed follows '=' (an attribute's or an argument's value). */
export let closedAfterEquals = false;

/**
 * Whether the line after the newline at k goes on a ' string: it is blank or
 * indented. A YAML flow scalar spans lines that way (`- 'External_` then
 * `  <INFORMATION> …` two spaces in, as agents' YAML tool results write a message);
 * a Python string never holds a raw newline, and prose rarely indents its next line.
 */
@inline function continuesQuote(s: usize, n: usize, k: usize): bool {
  if (k + 1 >= n) return false;
  const next = at(s, k + 1);
  return next == SP || next == TAB || next == LF || next == CR;
}

/** How many blank lines `foldLines` passed. */
let foldedBreaks: u32 = 0;

/**
 * YAML's line folding inside a flow scalar, from the newline at k: the blank lines
 * after it (counted in foldedBreaks) and the next line's indentation are skipped,
 * and the index after them returned. A break before a line of text reads as one
 * space, each blank line as a newline: `'a\n  b'` is "a b", `'a\n\n  b'` "a\nb".
 */
function foldLines(s: usize, n: usize, k: usize): usize {
  foldedBreaks = 0;
  let m = k + 1;
  while (true) {
    while (m < n && (at(s, m) == SP || at(s, m) == TAB || at(s, m) == CR)) m++;
    if (m < n && at(s, m) == LF) {
      foldedBreaks++;
      m++;
      continue;
    }
    return m;
  }
}

/** Whether the quote at i follows '=' (blanks between): an attribute's or an argument's value. */
function afterEquals(s: usize, i: usize): bool {
  const k = lastBefore(s, i);
  return k >= 0 && at(s, <usize>k) == EQ;
}

/**
 * The closing quote of the string opened at i, or -1 (closerStop set). A value after
 * '=' (`title="…"`, `f(a='…')`) ends at its first closing quote, as HTML and Python
 * end it; any other string at the first one followed by a terminator, so that an
 * unescaped quote inside hand-written JSON does not end it. Pairing an attribute's
 * quote by the terminator rule (`<span a="b" <c>` broken before it) would take a later
 * tag's quote as its closer and swallow that tag.
 */
export function findCloser(s: usize, n: usize, i: usize, q: u32): isize {
  const first = afterEquals(s, i);
  closedAfterEquals = first;
  for (let k = i + 1; k < n; k++) {
    const c = at(s, k);
    if (c == LF && q == SQ && !continuesQuote(s, n, k)) {
      closerStop = k;
      return -1;
    }
    if (c == BS) {
      if (q == SQ && k + 1 < n && at(s, k + 1) == LF) {
        closerStop = k + 1;
        return -1;
      }
      k++;
      continue;
    }
    if (c != q) continue;
    if (first) return <isize>k;
    if (k + 1 < n && at(s, k + 1) == q) {
      k++;
      continue;
    }
    let m = k + 1;
    while (m < n && isLineSpace(at(s, m))) m++;
    if (m >= n || at(s, m) == LF || (classOf(at(s, m)) & K_TERMINATOR) != 0) return <isize>k;
  }
  closerStop = n;
  return -1;
}

/** The first index ≥ from where the three bytes a b c start, or -1. */
export function find3(s: usize, n: usize, from: usize, a: u32, b: u32, c: u32): isize {
  for (let k = from; k + 2 < n; k++) if (at(s, k) == a && at(s, k + 1) == b && at(s, k + 2) == c) return <isize>k;
  return -1;
}

// ---------------------------------------------------------------- keys

export let keyMarker = false;
export let blockLen: usize = 0; // a YAML block scalar's content, at blockAt on the stack (0 bytes: none)
export let blockAt: usize = 0;
export let blockResume: usize = 0;
export let hasBlock = false;

/** The colon of a line-initial key at i, or -1 (keyMarker set, and a following block scalar's content copied to `dst`). Scans at most ~60 bytes. */
export function keyAt(s: usize, n: usize, i: usize, dst: usize): isize {
  let j = i;
  keyMarker = false;
  hasBlock = false;
  if ((at(s, j) == DASH || at(s, j) == STAR) && j + 1 < n && (at(s, j + 1) == SP || at(s, j + 1) == TAB)) {
    let k = j + 1;
    while (k < n && (at(s, k) == SP || at(s, k) == TAB) && k - (j + 1) < 17) k++;
    if (k - (j + 1) > 16 || k >= n || (classOf(at(s, k)) & K_LETTER) == 0) return -1;
    j = k;
    keyMarker = true;
  }
  if ((classOf(at(s, j)) & K_LETTER) == 0) return -1;
  let k = j + 1;
  while (k < n && k - (j + 1) < 39 && (classOf(at(s, k)) & K_KEY) != 0) k++;
  if (k - (j + 1) > 38 || k >= n || at(s, k) != COLON) return -1;
  if (k + 1 < n) {
    const after = at(s, k + 1);
    if (after != SP && after != TAB && after != LF && after != CR) return -1;
  }
  if (isScheme(s, j, k)) return -1;
  blockAfter(s, n, k, dst);
  return <isize>k;
}

/** Whether the token s[from, to) starts with http:, https:, ftp: or mailto:, in any case: an absolute URL. */
export function isAbsoluteUrl(s: usize, from: usize, to: usize): bool {
  let colon = from;
  while (colon < to && colon - from < 7 && at(s, colon) != COLON) colon++;
  return colon < to && at(s, colon) == COLON && isScheme(s, from, colon);
}

/** Whether s[from, to) is http, https, ftp or mailto, in any case (a URL, not a key). */
export function isScheme(s: usize, from: usize, to: usize): bool {
  if (to - from > 6) return false;
  let v: u64 = 0;
  for (let k = from; k < to; k++) v |= <u64>(at(s, k) | 0x20) << (<u64>(k - from) << 3);
  return v == 0x70747468 || v == 0x7370747468 || v == 0x707466 || v == 0x6f746c69616d;
}

/**
 * A YAML block scalar after the colon at k (`key: |` or `>`, up to two indicator
 * characters, then the end of the line): the lines indented deeper than the key's
 * line, dedented, are copied to `dst` (blockAt, blockLen) up to the last one that is
 * not blank, and the reading resumes at that line's end (blockResume).
 */
function blockAfter(s: usize, n: usize, k: usize, dst: usize): void {
  let m = k + 1;
  while (m < n && (at(s, m) == SP || at(s, m) == TAB)) m++;
  if (m == k + 1 || m >= n || (at(s, m) != PIPE && at(s, m) != GT)) return;
  m++;
  for (let j = 0; j < 2 && m < n; j++) {
    const c = at(s, m);
    if (c != 0x2b && c != DASH && !(c >= 0x31 && c <= 0x39)) break;
    m++;
  }
  while (m < n && isLineSpace(at(s, m))) m++;
  if (m >= n || at(s, m) != LF) return;
  let lineStartAt = k;
  while (lineStartAt > 0 && at(s, lineStartAt - 1) != LF) lineStartAt--;
  let keyIndent: usize = 0;
  while (at(s, lineStartAt + keyIndent) == SP) keyIndent++;
  const indent = blockIndent(s, n, m, keyIndent);
  if (indent < 0) return;
  let d = dst;
  let kept: usize = 0; // content length up to the last line that is not blank
  let end = m;
  let first = true;
  for (let ls = m + 1; ls <= n; ) {
    let le = ls;
    while (le < n && at(s, le) != LF) le++;
    const isBlank = blankLine(s, ls, le);
    if (!isBlank && lineIndent(s, ls, le) < <usize>indent) break;
    if (!first) store<u8>(d++, <u8>LF);
    first = false;
    const from = ls + <usize>indent < le ? ls + <usize>indent : le;
    memory.copy(d, s + from, le - from);
    d += le - from;
    if (!isBlank) {
      end = le;
      kept = d - dst;
    }
    if (le >= n) break;
    ls = le + 1;
  }
  blockAt = dst;
  blockLen = kept;
  blockResume = end;
  hasBlock = true;
}

/**
 * The indentation of a block scalar's first line that is not blank, found before any
 * line is copied so that the blank lines ahead of it are dedented like the rest;
 * -1 when that line is not indented deeper than the key's (no block).
 */
function blockIndent(s: usize, n: usize, m: usize, keyIndent: usize): isize {
  for (let ls = m + 1; ls <= n; ) {
    let le = ls;
    while (le < n && at(s, le) != LF) le++;
    if (!blankLine(s, ls, le)) {
      const sp = lineIndent(s, ls, le);
      return sp <= keyIndent ? -1 : <isize>sp;
    }
    if (le >= n) break;
    ls = le + 1;
  }
  return -1;
}

/** Spaces that open the line [ls, le). */
function lineIndent(s: usize, ls: usize, le: usize): usize {
  let sp: usize = 0;
  while (ls + sp < le && at(s, ls + sp) == SP) sp++;
  return sp;
}

/** The line [ls, le) holds only blanks. */
function blankLine(s: usize, ls: usize, le: usize): bool {
  for (let p = ls; p < le; p++) if ((classOf(at(s, p)) & K_WS) == 0) return false;
  return true;
}

/**
 * Bytes of a line-opening # … ######, // or list bullet (-, *, +) and the one space
 * or tab after it, or 0. A bullet is markup like a heading's #: a passage in a YAML
 * or Markdown list reads as it does alone.
 */
export function lineMarkerAt(s: usize, n: usize, i: usize): usize {
  let k = i;
  const c = at(s, k);
  if (c == HASH) {
    while (k < n && at(s, k) == HASH && k - i < 7) k++;
  } else if (c == SLASH && k + 1 < n && at(s, k + 1) == SLASH) k += 2;
  else if (c == DASH || c == STAR || c == PLUS) k++;
  if (k == i || k - i > 6 || k >= n || (at(s, k) != SP && at(s, k) != TAB)) return 0;
  return k + 1 - i;
}

/** A comma that separates cells (CSV): followed by neither space nor end of line, and not inside a number. */
export function cellComma(s: usize, n: usize, i: usize): bool {
  if (i + 1 >= n) return false;
  const next = at(s, i + 1);
  if (next == SP || next == TAB || next == LF || next == CR) return false;
  return !(i > 0 && (classOf(at(s, i - 1)) & K_DIGIT) != 0 && (classOf(next) & K_DIGIT) != 0);
}

// ---------------------------------------------------------------- tags

export const TAG_BLOCK: u32 = 0;
const TAG_INLINE: u32 = 1;
export const TAG_BR: u32 = 2;
export let tagKind: u32 = 0;
export let tagAttrFrom: usize = 0;
export let tagAttrTo: usize = 0;
export let tagReach: usize = 0;
export let tagVoid = false; // an element that holds no text: a void one (img, input, …) or one closed with '/>'

/** Whether a lowercase tag name, packed little-endian in a u64, is an inline element (leaves nothing): HTML phrasing elements that hold text (`button`, `label` and `time` among them), `svg`, and wiki text's `<ref>` (a footnote written in its sentence). */
/** Whether a lowercase tag name, packed as isInline's, is a void element (holds no text): img, input, hr, meta, link, source, embed, area, base, col, param, track, wbr. */
function isVoid(name: u64): bool {
  return name == 0x676d69 || name == 0x7475706e69 || name == 0x7268 || name == 0x6174656d || name == 0x6b6e696c || name == 0x656372756f73 ||
    name == 0x6465626d65 || name == 0x61657261 || name == 0x65736162 || name == 0x6c6f63 || name == 0x6d61726170 || name == 0x6b63617274 ||
    name == 0x726277;
}

function isInline(name: u64): bool {
  return name == 0x62 || name == 0x69 || name == 0x6d65 || name == 0x676e6f727473 || name == 0x6e617073 || name == 0x61 ||
    name == 0x75 || name == 0x746e6f66 || name == 0x65646f63 || name == 0x6c6c616d73 || name == 0x676962 || name == 0x707573 ||
    name == 0x627573 || name == 0x6b72616d || name == 0x73 || name == 0x656b69727473 || name == 0x7474 || name == 0x72626261 ||
    name == 0x65746963 || name == 0x71 || name == 0x64626b || name == 0x726176 || name == 0x6c6564 || name == 0x736e69 || name == 0x677673 ||
    name == 0x666572 || name == 0x6e6f74747562 || name == 0x6c6562616c || name == 0x656d6974;
}

/**
 * The tag at i (a '<'): its end (tagKind and the attribute text set), or 0, within
 * TAG_WINDOW bytes. With `quoted`, a value quoted after '=' may hold '<' and '>'
 * (`title="a -> b"`, an HTML tooltip) and a failed scan sets tagReach to the furthest
 * byte it looked at; otherwise the scan stops at the next '<' or '>'. The caller
 * makes quoted scans only from a '<' at or past the last one's reach, so they cover
 * disjoint stretches, as the plain scans of failed tags do: time stays linear.
 */
export function tagAt(s: usize, n: usize, i: usize, quoted: bool): usize {
  const limit = i + TAG_WINDOW < n ? i + TAG_WINDOW : n;
  tagReach = i + 1;
  let j = i + 1;
  if (j < n && (at(s, j) == SLASH || at(s, j) == QUESTION || at(s, j) == BANG)) j++; // </end>, <?xml …?>, <!DOCTYPE …>
  if (j >= limit || (classOf(at(s, j)) & K_LETTER) == 0) return 0;
  let k = j + 1;
  while (k < n && k - j < 32 && (classOf(at(s, k)) & K_NAME) != 0) k++;
  let name: u64 = 0;
  if (k - j <= 8) for (let p = j; p < k; p++) name |= <u64>(at(s, p) | 0x20) << (<u64>(p - j) << 3);
  tagKind = name == 0x7262 ? TAG_BR : isInline(name) ? TAG_INLINE : TAG_BLOCK;
  tagVoid = isVoid(name);
  tagReach = k;
  if (k >= limit) return 0;
  const c = at(s, k);
  tagAttrFrom = tagAttrTo = k;
  if (c == GT) return k + 1;
  // A slash before an attribute's name separates it, as whitespace does (<a/href="…">; not <https://…>).
  if (c == SLASH && k + 1 < limit && at(s, k + 1) == GT) {
    tagVoid = true;
    return k + 2;
  }
  if ((classOf(c) & K_WS) == 0 && !(c == SLASH && k + 1 < limit && (classOf(at(s, k + 1)) & K_LETTER) != 0)) return 0;
  let m = k + 1;
  let afterEq = false;
  while (m < limit) {
    const x = at(s, m);
    if (x == LT || x == GT) break;
    if (quoted && afterEq && (x == DQ || x == SQ)) {
      let q = m + 1;
      while (q < limit && at(s, q) != x) q++;
      if (q >= limit) {
        m = limit;
        break;
      }
      m = q + 1;
      afterEq = false;
      continue;
    }
    if ((classOf(x) & K_WS) == 0) afterEq = x == EQ;
    m++;
  }
  tagReach = m;
  if (m >= limit || at(s, m) != GT) return 0;
  tagAttrTo = m;
  if (at(s, m - 1) == SLASH) tagVoid = true;
  return m + 1;
}
