// The carrier-invariant reading: a tool result (JSON, a Python repr, YAML, XML/HTML,
// CSV, Markdown, an email, code) turned into prose, so that an instruction reads the
// same whatever carries it. test/helpers/reading-reference.mjs is the plain-JavaScript
// statement of every rule below; the tests hold this file to it byte for byte.
//
// Structure layer (one scanner over the input, recursive into string contents):
//  1. a quote at a structural position (line start, after { [ ( , : = | >, after a
//     line-opening - * # //) opens a string: its content, decoded, is read again as a
//     segment of its own (a blank line, its reading, a blank line). A string after =
//     ends at its first closing quote (and reads in place when it is one token), any
//     other at the first one a terminator follows;
//     ' strings end with their line, " strings may span lines, """/''' run to the
//     matching triple;
//  2. comments and CDATA are segments; a tag is removed (a block tag reads as a line
//     break, <br> before a newline as nothing), its quoted attribute values (entities
//     decoded) and its other words are segments, but a link's address (an href, or
//     any value that is an absolute URL) reads in the text as a Markdown link's does:
//     where the tag stands, or for a block element's non-href links, where the text
//     it wraps begins;
//  3. entities are decoded; a decoded markup character reads as a space;
//  4. a line-initial key ("Subject: …", YAML) ends its line at the colon; a YAML block
//     scalar after it (key: |) is a segment; a line-opening # … ###### or // is dropped;
//  5. backslash escapes are decoded; 6. markup characters read as spaces, | and CSV
//     commas end lines, <| |> chat-template bars read as spaces; 7. \r is dropped.
// The scanners each rule uses are in assembly/syntax.ts. Then the letter layer
// (assembly/letters.ts) joins letter-spaced words and folds look-alikes, in place.
//
// Besides the reading, three span tables (u32 pairs [from, to) into the reading) tell
// the scorer (assembly/ranges.ts) what was one unit of the input: segments (strings,
// comments, attribute values, ≥ 20 bytes), source lines (an input line or cell whose
// reading spans several lines) and paragraphs (of each level's own text: the blank
// lines around a segment do not split the text that holds it).
//
// Bounds, so that the byte loop stores without checks: every rule emits at most twice
// the bytes it consumes (a string of s ≥ 2 bytes yields 4 + 2(s − 2) at most, `""`
// yields 4; everything else shrinks or keeps its length), but for a link reference's
// address read at its use, which spends from a budget of L (given back when its
// definition drops the address), so the reading of L bytes fits 3L. Recursion stops at depth MAX_DEPTH
// (the content is then copied as it is). Time is linear: each rule's look-ahead is
// bounded (a tag within TAG_WINDOW bytes and no further than the next '<' outside a
// quoted value, its quoted scans disjoint; an entity within 10, a key within 40, a
// reference label within 999 characters and no further than the next bracket or newline),
// or consumes what it scans, or is remembered when it fails (a quote kind with no
// closer is not tried again before the point its search reached).

import { letterLayer } from './letters';
import { crossLevelReference, noteDefinitions, noteUnresolved, resetReferenceLevels } from './reference-levels';
import {
  firstDefinition, hashOf, labelEnd, markEmitted, moveReference, NO_LABEL, nextDefinition, referenceCount, referenceDropFrom, referenceDropTo, referenceEmitted, referenceFor, referenceHasColon, referenceLabelFrom,
  referencesLeftOut, referencesOf, referenceTableBytes, referenceUrlFrom, referenceUrlTo,
} from './references';
import {
  AMP, at, BANG, blockAt, blockLen, blockResume, BS, cellComma, classOf, closedAfterEquals, closerStop, COMMA, CR, DASH, decodeEntities,
  decodeString, DQ, encode, entityAt, entityCp, entityRepeat, EQ, escapeAt, escKind, escValue, ESC_CP, ESC_LITERAL,
  find3, findCloser, GT, hasBlock, HASH, isAbsoluteUrl, isLineSpace, keyAt, keyMarker, K_MARKUP, K_NAME, K_RUN, K_SPECIAL, K_WS, LF,
  LB, lineMarkerAt, LT, MAX_DEPTH, MIN_LINE, MIN_SEGMENT, PIPE, QUESTION, RB, settle, SLASH, SP, SQ, STAR, structuralBefore,
  TAB, tagAt, tagAttrFrom, tagAttrTo, tagKind, tagReach, tagVoid, TAG_BLOCK, TAG_BR,
  specialBits, specialTablesAgree,
} from './syntax';

// ---------------------------------------------------------------- output

/** The reading's write cursor, its start, and the newlines written so far (spans are kept as newline counts). */
let out: usize = 0;
let lfCount: u32 = 0;
/** Whether the reading since its last newline holds only spaces and tabs (a key may start). */
let lineStart = true;
/** Top of the decode stack: decoded string contents, read again from there. */
let stack: usize = 0;

// Span tables: u32 pairs, each end given as the number of newlines before it (see mapSpans).
let segments: usize = 0;
let segmentCount: u32 = 0;
let lines: usize = 0;
let lineCount: u32 = 0;
let paragraphs: usize = 0;
let paragraphCount: u32 = 0;
let spanOverflow = false;

// The level being read: its paragraph and source line so far (saved and restored around recursion).
let paraFrom: usize = 0;
let paraFromLf: u32 = 0;
let lastLfPos: usize = 0;
let lastLfIdx: u32 = 0;
let blank = false; // since the level's last newline, only spaces and tabs
let lineFrom: usize = 0;
let lineFromLf: u32 = 0;
let cellFrom: usize = 0;
let cellFromLf: u32 = 0;
let cellSplit = false; // a <br> or block tag split the current cell into lines

/** Records span [from, to) given as newline counts; the tables are sized so that this never fails (checked anyway). */
function record(table: usize, n: u32, cap: usize, from: u32, to: u32): bool {
  if (<usize>n >= cap) {
    spanOverflow = true;
    return false;
  }
  store<u32>(table + (<usize>n << 3), from);
  store<u32>(table + (<usize>n << 3), to, 4);
  return true;
}

@inline function put(b: u32): void {
  store<u8>(out++, <u8>b);
  if (b != SP && b != TAB) {
    lineStart = false;
    blank = false;
  }
}

/** Where the level's current line began in the reading (its start, or just past its last newline). */
let textLineFrom: usize = 0;

/**
 * A newline of the level's text: it may close a paragraph (a blank line), and so
 * does a line that is one web address and nothing else. A search result's or a
 * feed item's title and address head the snippet below them; read as one paragraph
 * with it, they joined every range that held a short passage of the snippet (a
 * two-line fake transcript scored 0.74 alone and 0.31 under its result's title).
 */
function putLf(): void {
  if (blank) endParagraph(lastLfPos, lastLfIdx, out + 1, lfCount + 1);
  else if (isAddressLine(textLineFrom, out)) endParagraph(out, lfCount, out + 1, lfCount + 1);
  store<u8>(out, <u8>LF);
  lastLfPos = out++;
  lastLfIdx = lfCount++;
  textLineFrom = out;
  lineStart = true;
  blank = true;
}

/**
 * Whether the reading [a, z) is, but for spaces and tabs around it, one http(s)
 * address and nothing else: `http:` or `https:` (lower case, as addresses are
 * written), then `//` or the one space the reading leaves of it (a line-initial
 * `https:` reads as a key, and `//` as a comment), then no blank, 12 bytes at least.
 */
function isAddressLine(a: usize, z: usize): bool {
  while (a < z && (<u32>load<u8>(a) == SP || <u32>load<u8>(a) == TAB)) a++;
  while (z > a && (<u32>load<u8>(z - 1) == SP || <u32>load<u8>(z - 1) == TAB)) z--;
  if (z - a < 12 || load<u32>(a) != 0x70747468) return false; // "http", little-endian
  let p = a + 4;
  if (<u32>load<u8>(p) == 0x73) p++;
  if (<u32>load<u8>(p) != 0x3a) return false;
  p++;
  if (<u32>load<u8>(p) == SP) p++;
  else if (<u32>load<u8>(p) == SLASH && <u32>load<u8>(p + 1) == SLASH) p += 2;
  else return false;
  if (p >= z) return false;
  for (let q = p; q < z; q++) if (<u32>load<u8>(q) <= SP) return false;
  return true;
}

function endParagraph(to: usize, toLf: u32, next: usize, nextLf: u32): void {
  if (to >= paraFrom + MIN_LINE && record(paragraphs, paragraphCount, paragraphCap, paraFromLf, toLf)) paragraphCount++;
  paraFrom = next;
  paraFromLf = nextLf;
}

/** Record the source line that began at `from` when its reading holds a newline and MIN_LINE bytes, trimmed. */
function sourceLine(from: usize, fromLf: u32): void {
  if (lfCount == fromLf) return;
  let a = from;
  let z = out;
  while (a < z && (classOf(<u32>load<u8>(a)) & K_WS) != 0) a++;
  while (z > a && (classOf(<u32>load<u8>(z - 1)) & K_WS) != 0) z--;
  if (z - a >= MIN_LINE && record(lines, lineCount, lineCap, fromLf, lfCount)) lineCount++;
}

/** End the source line (and, for a cell boundary, the cell) with a newline. */
function endLine(cell: bool): void {
  sourceLine(lineFrom, lineFromLf);
  if (cell && cellSplit) sourceLine(cellFrom, cellFromLf);
  putLf();
  lineFrom = out;
  lineFromLf = lfCount;
  if (cell) {
    cellFrom = out;
    cellFromLf = lfCount;
    cellSplit = false;
  } else cellSplit = true;
}

/** A decoded character in running text: invisible ones vanish, markup reads as a space, \r as nothing. */
function putDecoded(cp: u32): void {
  const s = settle(cp);
  if (s < 0 || s == <i32>CR) return;
  if (s == <i32>LF) putLf();
  else if (s < 0x80) put((classOf(<u32>s) & K_MARKUP) != 0 ? SP : <u32>s);
  else {
    out += encode(out, <u32>s);
    lineStart = false;
    blank = false;
  }
}

/** Whether the attribute name s[from, to) is `href`, in any case, or a namespaced one (`xlink:href`, SVG's). */
function isHref(s: usize, from: usize, to: usize): bool {
  if (to - from < 4 || (to - from > 4 && at(s, to - 5) != 0x3a)) return false;
  const f = to - 4;
  return (at(s, f) | 0x20) == 0x68 && (at(s, f + 1) | 0x20) == 0x72 && (at(s, f + 2) | 0x20) == 0x65 && (at(s, f + 3) | 0x20) == 0x66;
}

/**
 * The `len` bytes of a URL at `p` as a browser parses them (WHATWG URL), written to
 * `dst` (which may be `p`): control characters and spaces at either end dropped, tabs
 * and newlines anywhere removed. Returns the new length, or 0 when what is left is
 * empty or still holds whitespace (not one token: "see the docs").
 */
function urlToken(p: usize, len: usize, dst: usize): usize {
  let a = p;
  let z = p + len;
  while (a < z && load<u8>(a) <= 0x20) a++;
  while (z > a && load<u8>(z - 1) <= 0x20) z--;
  let w = dst;
  for (let k = a; k < z; k++) {
    const c = <u32>load<u8>(k);
    if (c == TAB || c == LF || c == CR) continue;
    if ((classOf(c) & K_WS) != 0) return 0;
    store<u8>(w++, <u8>c);
  }
  return w - dst;
}

/** Whether the attribute named s[from, to) declares an XML namespace (`xmlns`, `xmlns:svg`): a name, not a link. */
function isNamespace(s: usize, from: usize, to: usize): bool {
  if (to - from < 5 || (to - from > 5 && at(s, from + 5) != 0x3a)) return false;
  return (at(s, from) | 0x20) == 0x78 && (at(s, from + 1) | 0x20) == 0x6d && (at(s, from + 2) | 0x20) == 0x6c &&
    (at(s, from + 3) | 0x20) == 0x6e && (at(s, from + 4) | 0x20) == 0x73;
}

/**
 * The link the attribute named s[from, to) carries, its decoded value at v (len
 * bytes): the length of its URL token, written at `dst`, or 0. An `href` (or
 * `xlink:href`) carries one whatever its value; any other attribute but a namespace
 * declaration when its value is an absolute URL (`data-url`, `formaction`, `action`,
 * `src`, a second `href`'s kin).
 */
function linkOf(s: usize, from: usize, to: usize, v: usize, len: usize, dst: usize): usize {
  const token = urlToken(v, len, dst);
  return token != 0 && (isHref(s, from, to) || (isAbsoluteUrl(dst, 0, token) && !isNamespace(s, from, to))) ? token : 0;
}

/** Whether the entity at i reads as a blank or nothing (`&nbsp;`, `&#8203;`, `&zwnj;`): no text for a block's waiting links. */
function blankEntityAt(s: usize, n: usize, i: usize): bool {
  if (entityAt(s, n, i) == 0) return false;
  const cp = entityCp;
  return cp == SP || cp == TAB || cp == LF || cp == CR || cp == 0xa0 || (cp >= 0x200b && cp <= 0x200d) || cp == 0x2060 || cp == 0xfeff;
}

/** Whether the len bytes at p hold no whitespace. */
function isOneToken(p: usize, len: usize): bool {
  for (let k = p; k < p + len; k++) if ((classOf(<u32>load<u8>(k)) & K_WS) != 0) return false;
  return true;
}

/** A decoded value in running text, between spaces: its markup characters read as spaces, as in the text around it. */
function putInline(p: usize, len: usize): void {
  put(SP);
  for (let k = p; k < p + len; k++) {
    const c = <u32>load<u8>(k);
    put(c < 0x80 && (classOf(c) & K_MARKUP) != 0 ? SP : c);
  }
  put(SP);
}

// The attribute `attributeAt` found: its name's end, its value s[attrValueFrom,
// attrValueTo) (quoted or not), and where it ends.
let attrNameTo: usize = 0;
let attrValueFrom: usize = 0;
let attrValueTo: usize = 0;
let attrEnd: usize = 0;
let attrQuoted = false;
// No closing quote of that kind after some point of the tag, hence after any later one.
let noDq = false;
let noSq = false;

/**
 * Whether the name at p in s[p, to) has a value: name = "v" or 'v', or, for an href
 * only, name = v (an unquoted value runs to the next whitespace; any other unquoted
 * value stays a word of the tag). Sets the attr* fields; attrNameTo always.
 */
function attributeAt(s: usize, p: usize, to: usize): bool {
  let run = p;
  while (run < to && (classOf(at(s, run)) & K_NAME) != 0) run++;
  attrNameTo = run;
  let m = run;
  while (m < to && (classOf(at(s, m)) & K_WS) != 0) m++;
  if (m >= to || at(s, m) != EQ) return false;
  m++;
  while (m < to && (classOf(at(s, m)) & K_WS) != 0) m++;
  if (m >= to) return false;
  const q = at(s, m);
  if (q == DQ || q == SQ) {
    if (q == DQ ? noDq : noSq) return false;
    for (let k = m + 1; k < to; k++) {
      if (at(s, k) == q) {
        attrValueFrom = m + 1;
        attrValueTo = k;
        attrEnd = k + 1;
        attrQuoted = true;
        return true;
      }
    }
    if (q == DQ) noDq = true;
    else noSq = true;
    return false;
  }
  if (!isHref(s, p, run)) return false;
  let e = m;
  while (e < to && (classOf(at(s, e)) & K_WS) == 0) e++;
  attrValueFrom = m;
  attrValueTo = attrEnd = e;
  attrQuoted = false;
  return true;
}

/**
 * The start of the first attribute with a value in s[p, to) (attributeAt's fields
 * set), or `to`. A name that fails fails alike from each of its bytes, so it is
 * skipped whole: the scan is linear.
 */
function nextAttribute(s: usize, p: usize, to: usize): usize {
  while (p < to) {
    if ((classOf(at(s, p)) & K_NAME) == 0) p++;
    else if (attributeAt(s, p, to)) return p;
    else p = attrNameTo;
  }
  return to;
}

// Which of a tag's links inlineLinks reads: all, the hrefs, the others, or whether there is one of the others.
const LINKS_ALL: u32 = 0;
const LINKS_HREF: u32 = 1;
const LINKS_OTHER: u32 = 2;
const LINKS_OTHER_ANY: u32 = 3;

/**
 * A tag's links (`linkOf`: an href, quoted or not, and any value that is an absolute
 * URL), read in the running text between spaces, as a Markdown link's address is,
 * before the other values' segments, so that they do not part the address from the
 * text before the tag. Where: an inline tag's links and any tag's href where the tag
 * stands (an element with an href is a link inside its sentence, as `<a>` or a custom
 * `<sl-button>` is); a block opener's other links where the text it wraps begins (a
 * `<div data-url>` or `<form action>` holds its sentence; decision 84). Returns
 * whether it read one. A linear pass, as readAttributes', which skips the same attributes.
 */
function inlineLinks(s: usize, from: usize, to: usize, which: u32): bool {
  noDq = noSq = false;
  let found = false;
  for (let p = nextAttribute(s, from, to); p < to; p = nextAttribute(s, attrEnd, to)) {
    if (which != LINKS_ALL && (which == LINKS_HREF) != isHref(s, p, attrNameTo)) continue;
    const value = stack;
    const len = linkOf(s, p, attrNameTo, value, decodeEntities(s + attrValueFrom, attrValueTo - attrValueFrom, value), value);
    if (len == 0) continue;
    if (which == LINKS_OTHER_ANY) return true;
    putInline(value, len);
    found = true;
  }
  return found;
}

/**
 * A tag's attribute text s[from, to): each quoted value (name = "v" or 'v') becomes
 * a segment, entities decoded, and so does the text left once those are taken out
 * when it holds more than spaces, / and ? (words inside a tag are read, not
 * dropped); the links inlineLinks read are skipped. The left text is gathered on the
 * stack below the decoded values. The scan is linear: a failed name fails alike
 * from each of its bytes, so it is skipped whole, and a quote kind with no closing
 * quote is not searched for again.
 */
function readAttributes(s: usize, from: usize, to: usize, depth: u32): void {
  const rest = stack;
  stack += to - from;
  let r = rest;
  let gap = from;
  noDq = noSq = false;
  for (let p = nextAttribute(s, from, to); p < to; ) {
    const end = attrEnd; // the segment below reads its own tags with these fields
    const value = stack;
    const len = decodeEntities(s + attrValueFrom, attrValueTo - attrValueFrom, value);
    const inlined = linkOf(s, p, attrNameTo, value, len, value + len) != 0; // read in place by inlineLinks
    // An unquoted href that is not one token as a URL stays words of the tag.
    if (inlined || attrQuoted) {
      memory.copy(r, s + gap, p - gap);
      r += p - gap;
      gap = end;
    }
    if (!inlined && attrQuoted) {
      stack += len;
      const dq = noDq;
      const sq = noSq;
      segment(value, len, depth);
      noDq = dq;
      noSq = sq;
      stack = value;
    }
    p = nextAttribute(s, end, to);
  }
  memory.copy(r, s + gap, to - gap);
  r += to - gap;
  let words = false;
  for (let p = rest; p < r; p++) {
    const c = <u32>load<u8>(p);
    if ((classOf(c) & K_WS) == 0 && c != SLASH && c != QUESTION) {
      words = true;
      break;
    }
  }
  stack = r;
  if (words) segment(rest, r - rest, depth);
  stack = rest;
}

// ---------------------------------------------------------------- levels

/** Read `len` bytes at `content` as a segment: a blank line, its reading (or the bytes, past MAX_DEPTH), a blank line. */
function segment(content: usize, len: usize, depth: u32): void {
  // The blank lines around a segment are the outer level's, but not its paragraph breaks.
  store<u16>(out, 0x0a0a);
  out += 2;
  lfCount += 2;
  lineStart = true;
  const start = out;
  const startLf = lfCount;
  if (depth < MAX_DEPTH) readLevel(content, len, depth + 1);
  else {
    memory.copy(out, content, len);
    for (let p = content; p < content + len; p++) lfCount += <u32>(load<u8>(p) == 0x0a);
    out += len;
  }
  if (out - start >= MIN_SEGMENT && record(segments, segmentCount, segmentCap, startLf, lfCount)) segmentCount++;
  store<u16>(out, 0x0a0a);
  out += 2;
  lfCount += 2;
  lineStart = true;
  blank = false;
}

const NONE: usize = <usize>-1;
// Bytes the reading may still spend on addresses read at their use (see layout).
let referenceBudget: usize = 0;
// Each level read gets the next number, so that a reference's use and definition in
// different levels can be told apart (assembly/reference-levels.ts).
let levelSerial: u32 = 0;
// Whether a use found the budget spent, or a level held more definitions than its
// table: an address then stays at its definition, and the header says so, so that
// provenance can charge it the riskiest passage (uses or definitions placed before
// an injected one can spend either on purpose).
let unreadReferences = false;

/**
 * A link reference used at the ']' at i (its '[' at `open`, or NONE after link text
 * with brackets of its own, when only a second bracket's label makes a use): `[text][label]`,
 * `[label][]` or `[label]` (a footnote `here [2]` alike), not an inline link `(…)`
 * or a definition `:`. When its label is defined later in this level (the first such
 * definition), the address is read here, as an inline link's is, at every such use
 * while the budget lasts (a harmless first use must not take it from the sentence
 * that asks to fetch it), and its definition drops it. A plain `[label]` does not
 * look back to a definition before it (decision 83: `argv[1]` after a numbered list);
 * a full or collapsed reference, which Markdown resolves wherever its definition
 * stands, takes the last one before it when none follows and that one is written
 * `[label]:` (decision 86: a numbered list or a footnote is no Markdown definition,
 * and `"ab"[0][1]` under one is code); with its label defined more than once, it
 * also reads the label's other `[label]:` definitions, one of which a renderer links
 * to; a plain `[label]` reads the other `[label]:` definitions after it. Returns where
 * the reading resumes, or 0.
 * Looks at most two labels' bytes (labelEnd), each '[' once.
 */
function referenceUse(s: usize, n: usize, open: usize, i: usize, refs: usize, hasTable: bool, level: u32): usize {
  let from = open + 1;
  let to = i;
  let resume = i + 1;
  let explicit = false; // `[text][label]` or `[label][]`
  if (resume < n) {
    const next = at(s, resume);
    if (next == 0x28 || next == 0x3a) return 0;
    if (next == LB) {
      const e = labelEnd(s, n, resume + 1);
      if (e != NO_LABEL) {
        explicit = true;
        if (e > resume + 1) {
          from = resume + 1;
          to = e;
        } else if (open == NONE) return 0;
        resume = e + 1;
      }
    }
  }
  if (open == NONE && !explicit) return 0;
  if (to == from || labelEnd(s, n, from) != to) return 0;
  let k = hasTable ? referenceFor(refs, s, from, to) : -1;
  const first = k;
  let last = k;
  while (k >= 0 && referenceDropFrom(refs, <u32>k) < i) {
    last = k;
    k = nextDefinition(refs, <u32>k); // the first definition after the use
  }
  if (k != first) moveReference(<u32>(k >= 0 ? k : last));
  if (k < 0 && explicit && last >= 0 && referenceHasColon(refs, <u32>last)) k = last; // none after it: the last before
  if (k < 0 && explicit) noteUnresolved(hashOf(s, from, to), level);
  if (k < 0 || referenceLabelFrom(refs, <u32>k) == from) return 0;
  if (!readAddress(s, refs, <u32>k)) return 0;
  // A plain `[label]` reads the other definitions after it only: it never looks back (decision 83).
  readOtherDefinitions(s, refs, <u32>k, !explicit);
  return resume;
}

// The definitions of one label a reference looks at beyond the one it took; a label
// defined more often leaves its use unread (see readOtherDefinitions).
const MAX_ALSO: u32 = 16;

/**
 * A label defined more than once: a renderer links a reference to its first
 * definition, and which line that is depends on rules this reading does not follow
 * to the letter (a definition cannot interrupt a paragraph, a fence or a comment
 * holds none), so every other `[label]:` definition of it is read here too; for a
 * plain `[label]` use, those after it only (decision 90). Its k is the first after
 * it and the chain is in input order, so the walk starts past k: a use after 255
 * definitions of its label does not step over them again.
 */
function readOtherDefinitions(s: usize, refs: usize, k: u32, plain: bool): void {
  let seen: u32 = 0;
  for (let d = plain ? nextDefinition(refs, k) : <i32>firstDefinition(refs, k); d >= 0; d = nextDefinition(refs, <u32>d)) {
    if (<u32>d == k) continue;
    if (++seen > MAX_ALSO) {
      unreadReferences = true;
      return;
    }
    if (referenceHasColon(refs, <u32>d) && !readAddress(s, refs, <u32>d)) return;
  }
}

/** Reads definition k's address here, from the budget, or says it was left unread. */
function readAddress(s: usize, refs: usize, k: u32): bool {
  const url = referenceUrlFrom(refs, k);
  const len = referenceUrlTo(refs, k) - url;
  if (len + 2 > referenceBudget) {
    unreadReferences = true;
    return false;
  }
  referenceBudget -= len + 2;
  markEmitted(refs, k);
  putInline(s + url, len);
  return true;
}

function readLevel(s: usize, n: usize, depth: u32): void {
  // The enclosing level's paragraph and line state, restored on return.
  const outerParaFrom = paraFrom, outerParaFromLf = paraFromLf, outerLastLfPos = lastLfPos, outerLastLfIdx = lastLfIdx;
  const outerBlank = blank, outerLineFrom = lineFrom, outerLineFromLf = lineFromLf, outerCellFrom = cellFrom;
  const outerCellFromLf = cellFromLf, outerCellSplit = cellSplit, outerTextLineFrom = textLineFrom;
  paraFrom = lineFrom = cellFrom = textLineFrom = out;
  paraFromLf = lineFromLf = cellFromLf = lfCount;
  lastLfPos = 0;
  lastLfIdx = 0;
  blank = false;
  cellSplit = false;

  let untilSq: usize = 0; // openers before this index are not tried: a search from an earlier one reached it
  let untilDq: usize = 0;
  let untilTag: usize = 0; // a '<' before this index gets the plain tag scan: a quoted scan from an earlier one reached it
  let noTripleSq = false;
  let noTripleDq = false;
  let colonAt: isize = -1; // a line-initial key's colon, read as a newline
  let block = false; // a YAML block scalar follows that colon (blockAt, blockLen, blockResume)
  let bAt: usize = 0;
  let bLen: usize = 0;
  let bResume: usize = 0;
  // Link reference definitions (assembly/references.ts), on the stack while this level is read.
  const refs = stack;
  const refBytes = referencesOf(s, n, refs);
  if (referencesLeftOut()) unreadReferences = true;
  stack += refBytes;
  const level = levelSerial++;
  if (refBytes != 0) noteDefinitions(refs, level);
  let nextRef: u32 = 0; // the next definition in input order, and where its address starts
  let nextRefAt: usize = refBytes != 0 ? referenceDropFrom(refs, 0) : NONE;
  let openAt: usize = NONE; // the last '[' that no ']' has closed yet
  // A block tag's attribute text whose links wait for the text the element wraps (none: pendingTo 0).
  let pendingFrom: usize = 0;
  let pendingTo: usize = 0;

  let i: usize = 0;
  while (i < n) {
    if (i >= nextRefAt) {
      // A definition's address that was read at its use is not read again.
      const k = nextRef;
      const skip = i == nextRefAt && referenceEmitted(refs, k);
      const resume = skip ? referenceDropTo(refs, k) : i;
      do nextRef++;
      while (nextRef < referenceCount(refs) && referenceDropFrom(refs, nextRef) < resume);
      nextRefAt = nextRef < referenceCount(refs) ? referenceDropFrom(refs, nextRef) : NONE;
      if (skip) {
        // Given back: dropping the address consumes twice the bytes its reading at the use spent beyond 2.
        referenceBudget += referenceUrlTo(refs, k) - referenceUrlFrom(refs, k);
        i = resume;
        continue;
      }
    }
    const c = at(s, i);
    if (pendingTo != 0 && c != SP && c != TAB && c != LF && c != CR && c != LT && !(c == AMP && blankEntityAt(s, n, i))) {
      inlineLinks(s, pendingFrom, pendingTo, LINKS_OTHER);
      pendingTo = 0;
    }
    if (<isize>i == colonAt) {
      if (block) {
        putLf();
        segment(bAt, bLen, depth);
        stack = bAt;
        block = false;
        i = bResume;
        continue;
      }
      // The value goes to a line of its own; a key that ends its line needs no second newline.
      if (i + 1 < n && (at(s, i + 1) == SP || at(s, i + 1) == TAB)) putLf();
      i++;
      continue;
    }
    if (lineStart && c != SP && c != TAB && colonAt < <isize>i) {
      const colon = keyAt(s, n, i, stack);
      if (colon >= 0) {
        colonAt = colon;
        if (hasBlock) {
          // The block's content waits on the stack until the colon is reached.
          block = true;
          bAt = blockAt;
          bLen = blockLen;
          bResume = blockResume;
          stack = blockAt + blockLen;
        }
        if (keyMarker) {
          i++;
          continue;
        }
      } else {
        // A comment or heading marker that opens a line is not part of what the line says.
        const marker = lineMarkerAt(s, n, i);
        if (marker > 0) {
          i += marker;
          continue;
        }
      }
    }
    const k = classOf(c);
    if ((k & K_SPECIAL) == 0) {
      // Bytes no rule looks at, copied in one go (a key's colon ends the stretch).
      if ((lineStart || pendingTo != 0) && (c == SP || c == TAB)) {
        // Indentation: copied, and the line has still not started. Blanks before the text a block
        // opener wraps: copied alone, so that its waiting links are read before that text.
        let e = i + 1;
        while (e < n && (at(s, e) == SP || at(s, e) == TAB)) e++;
        memory.copy(out, s + i, e - i);
        out += e - i;
        i = e;
        continue;
      }
      let limit = colonAt > <isize>i ? <usize>colonAt : n;
      if (nextRefAt < limit) limit = nextRefAt;
      let e = i + 1;
      let found = false;
      while (e + 16 <= limit) {
        const bits = specialBits(s + e);
        if (bits != 0) {
          e += <usize>ctz(bits);
          found = true;
          break;
        }
        e += 16;
      }
      if (!found) while (e < limit && (classOf(at(s, e)) & K_SPECIAL) == 0) e++;
      memory.copy(out, s + i, e - i);
      if (lineStart || blank) {
        for (let p = i; p < e; p++) {
          const x = at(s, p);
          if (x != SP && x != TAB) {
            lineStart = false;
            blank = false;
            break;
          }
        }
      }
      out += e - i;
      i = e;
      continue;
    }
    if (c == LF) {
      endLine(true);
      i++;
      continue;
    }
    if (c == CR) {
      i++;
      continue;
    }
    if ((c == DQ || c == SQ) && structuralBefore(s, i)) {
      if (!(c == DQ ? noTripleDq : noTripleSq) && i + 2 < n && at(s, i + 1) == c && at(s, i + 2) == c) {
        const close = find3(s, n, i + 3, c, c, c);
        if (close >= 0) {
          segment(s + i + 3, <usize>close - i - 3, depth);
          i = <usize>close + 3;
          continue;
        }
        if (c == DQ) noTripleDq = true;
        else noTripleSq = true;
      }
      if (i >= (c == DQ ? untilDq : untilSq)) {
        const close = findCloser(s, n, i, c);
        if (close >= 0) {
          const content = stack;
          const len = decodeString(s + i + 1, <usize>close - i - 1, c, content);
          // One token after '=' (`--index-url="https://…"`, `scoring='accuracy'`) reads in place,
          // as an inline link does: a segment of its own would part an address from its sentence.
          if (closedAfterEquals && isOneToken(content, len)) putInline(content, len);
          else {
            stack += len;
            segment(content, len, depth);
          }
          stack = content;
          i = <usize>close + 1;
          continue;
        }
        if (c == DQ) untilDq = closerStop;
        else untilSq = closerStop;
      }
    }
    if (c == LT) {
      const comment = i + 3 < n && at(s, i + 1) == BANG && at(s, i + 2) == DASH && at(s, i + 3) == DASH;
      const cdata = !comment && i + 8 < n && at(s, i + 1) == BANG && at(s, i + 2) == 0x5b && at(s, i + 3) == 0x43 &&
        at(s, i + 4) == 0x44 && at(s, i + 5) == 0x41 && at(s, i + 6) == 0x54 && at(s, i + 7) == 0x41 && at(s, i + 8) == 0x5b;
      if (comment || cdata) {
        const open: usize = comment ? 4 : 9;
        const close = comment ? find3(s, n, i + open, DASH, DASH, GT) : find3(s, n, i + open, 0x5d, 0x5d, GT);
        const end = close < 0 ? n : <usize>close;
        segment(s + i + open, end - i - open, depth);
        i = close < 0 ? n : <usize>close + 3;
        continue;
      }
      let end: usize = 0;
      if (i >= untilTag) {
        end = tagAt(s, n, i, true);
        if (end == 0) untilTag = tagReach;
      }
      if (end == 0) end = tagAt(s, n, i, false);
      if (end != 0) {
        // A block tag ends the line (and the source line); a <br> just before a newline is that newline.
        // A block opener's links but its hrefs wait for the text it wraps, past tags that hold none
        // (openers, inline elements, void ones); links still waiting are read first at a block's
        // closing tag or at an opener with links of its own.
        const closing = at(s, i + 1) == SLASH;
        const wraps = tagKind == TAG_BLOCK && !closing && !tagVoid;
        const blockLinks = wraps && inlineLinks(s, tagAttrFrom, tagAttrTo, LINKS_OTHER_ANY);
        if (pendingTo != 0 && (blockLinks || (closing && tagKind == TAG_BLOCK))) {
          inlineLinks(s, pendingFrom, pendingTo, LINKS_OTHER);
          pendingTo = 0;
        }
        inlineLinks(s, tagAttrFrom, tagAttrTo, wraps ? LINKS_HREF : LINKS_ALL);
        if (tagKind == TAG_BR) {
          let m = end;
          while (m < n && isLineSpace(at(s, m))) m++;
          if (!(m < n && at(s, m) == LF)) endLine(false);
        } else if (tagKind == TAG_BLOCK) endLine(false);
        if (blockLinks) {
          pendingFrom = tagAttrFrom;
          pendingTo = tagAttrTo;
        }
        readAttributes(s, tagAttrFrom, tagAttrTo, depth);
        i = end;
        continue;
      }
    }
    if (c == LB) openAt = i;
    else if (c == RB && (openAt != NONE || (i + 1 < n && at(s, i + 1) == LB))) {
      // With no '[' open, the ']' of link text that holds brackets of its own (`[get [it]][dl]`).
      const end = referenceUse(s, n, openAt, i, refs, refBytes != 0, level);
      openAt = NONE;
      if (end != 0) {
        i = end;
        continue;
      }
    }
    if (c == AMP) {
      const end = entityAt(s, n, i);
      if (end != 0) {
        for (let r: u32 = 0; r < entityRepeat; r++) putDecoded(entityCp);
        i = end;
        continue;
      }
    }
    if (c == BS) {
      const end = escapeAt(s, n, i);
      if (end != 0) {
        if (escKind == ESC_CP || escKind == ESC_LITERAL) putDecoded(escValue);
        else if (escValue == 0x6e) putLf();
        else if (escValue != 0x72) put(SP);
        i = end;
        continue;
      }
    }
    // <|name|> is a chat-template token, not table cells: its bars read as spaces.
    if ((c == LT && i + 1 < n && at(s, i + 1) == PIPE) || (c == PIPE && i + 1 < n && at(s, i + 1) == GT)) {
      put(SP);
      i += 2;
      continue;
    }
    if (c == PIPE || (c == COMMA && cellComma(s, n, i))) {
      endLine(true);
      i++;
      continue;
    }
    if (i + 1 < n && ((c == SLASH && (at(s, i + 1) == SLASH || at(s, i + 1) == STAR)) || (c == STAR && at(s, i + 1) == SLASH))) {
      put(SP);
      i += 2;
      continue;
    }
    if ((k & K_RUN) != 0) {
      let e = i;
      while (e < n && at(s, e) == c) e++;
      if (e - i >= 3) {
        put(SP);
        i = e;
        continue;
      }
    }
    put((k & K_MARKUP) != 0 ? SP : c);
    i++;
  }
  if (pendingTo != 0) inlineLinks(s, pendingFrom, pendingTo, LINKS_OTHER);
  sourceLine(lineFrom, lineFromLf);
  if (cellSplit) sourceLine(cellFrom, cellFromLf);
  endParagraph(out, lfCount, out, lfCount);

  stack = refs;
  paraFrom = outerParaFrom;
  paraFromLf = outerParaFromLf;
  lastLfPos = outerLastLfPos;
  lastLfIdx = outerLastLfIdx;
  blank = outerBlank;
  lineFrom = outerLineFrom;
  lineFromLf = outerLineFromLf;
  cellFrom = outerCellFrom;
  cellFromLf = outerCellFromLf;
  cellSplit = outerCellSplit;
  textLineFrom = outerTextLineFrom;
}

// ---------------------------------------------------------------- the export

// The region the bindings pass in, for an input of L bytes: a header of u32 fields,
// then (each 16-aligned) the reading, the three span tables, the ranges table and a
// work area the phases share (the decode stack, then the newline table, then the
// ranges' de-duplication index).
export const READING_HEADER_BYTES: u32 = 64;
export const H_READING: u32 = 0; // reading: pointer, length
export const H_SEGMENTS: u32 = 2; // pointer, count
export const H_LINES: u32 = 4;
export const H_PARAGRAPHS: u32 = 6;
export const H_RANGES: u32 = 8; // pointer, count (written by readingRanges)
export const H_RANGE_CAP: u32 = 10;
export const H_WORK: u32 = 11;
export const H_UNREAD_REFERENCES: u32 = 12; // 1 when a link reference's address was not read at a use (budget spent, or table full)

/** Longest input read (the bounds below stay within 32 bits). */
export const MAX_READING_INPUT: u32 = 1 << 24;

@inline function align(n: usize): usize {
  return (n + 15) & ~15;
}

// Sizes for an input of L bytes, set by `layout`.
let readingMax: usize = 0; // R: the reading of L bytes is at most 3L (see the head of this file)
let segmentCap: usize = 0;
let lineCap: usize = 0;
let paragraphCap: usize = 0;
let rangeCap: usize = 0;
let segmentsAt: usize = 0; // offsets from the region's start
let linesAt: usize = 0;
let paragraphsAt: usize = 0;
let rangesAt: usize = 0;
let workAt: usize = 0;
let regionBytes: usize = 0;

/**
 * Spans of one kind are disjoint within a level and at least MIN_LINE bytes, and
 * levels nest at most four deep (depths 0–3): at most 4·R/20 = R/5 of a kind.
 * Source lines and cells share a table (2R/5). Ranges are distinct: the whole, the
 * spans, the windows of each paragraph (two consecutive windows hold more than
 * MAX_WINDOW = 320 bytes, or a cut one exactly that: ≤ 2ℓ/320 + 3 for ℓ bytes, so
 * ≤ R/40 + 3·paragraphs over four levels) and the lines of ≥ 20 bytes (≤ R/20 + 1).
 */
function layout(len: usize): void {
  // Twice the input (see the head of this file), and the input again for addresses read at their use (referenceBudget).
  const r = len * 3 + 16;
  readingMax = r;
  segmentCap = r / 5 + 8;
  lineCap = (r << 1) / 5 + 8;
  paragraphCap = r / 5 + 8;
  // Sentences of ≥ 20 bytes are disjoint within a line: ≤ R/20 + 1 more.
  rangeCap = 1 + segmentCap + lineCap + (paragraphCap << 2) + r / 40 + (r / 20) * 2 + 32;
  segmentsAt = <usize>READING_HEADER_BYTES + align(r + 16);
  linesAt = segmentsAt + align(segmentCap << 3);
  paragraphsAt = linesAt + align(lineCap << 3);
  rangesAt = paragraphsAt + align(paragraphCap << 3);
  workAt = rangesAt + align(rangeCap << 3);
  // The decode stack: at each of four levels, a tag's left text and a decoded value,
  // each at most that level's input (≤ L), and above the last, for a moment, a value's
  // URL token (≤ L, see linkOf); a level's link reference table. The newline table: a u32 per newline and one more.
  // The de-duplication index: a u32 per reading offset and per range.
  const decode = len * 9 + 64 + referenceTableBytes(len) * (<usize>MAX_DEPTH + 1);
  const newlines = (r + 2) << 2;
  const dedup = ((r + 2) << 2) + (rangeCap << 2);
  regionBytes = workAt + align(max(decode, max(newlines, dedup)));
}

/** Bytes of the region `reading` needs for an input of `len` bytes (0xffffffff past MAX_READING_INPUT). */
export function readingCapacity(len: usize): usize {
  if (len > MAX_READING_INPUT) return <usize>0xffffffff;
  layout(len);
  return regionBytes;
}

/**
 * The reading of the `len` bytes at `ptr` (UTF-8 the bindings normalised; any bytes
 * are tolerated) into the region at `region` (16-aligned) of `cap` bytes: the header
 * then points at the reading and its span tables (spans as byte offsets [from, to)
 * into the reading). Returns 0; when `cap` is below readingCapacity(len), writes
 * nothing and returns that capacity (larger than `cap`); returns 1 for a defect the
 * core caught (a span table past its bound, which the bounds above say cannot happen,
 * or byte tables that disagree).
 */
export function reading(ptr: usize, len: usize, region: usize, cap: usize): usize {
  const need = readingCapacity(len);
  if (cap < need) return need;
  if (!specialTablesAgree) return 1;
  const base = region + READING_HEADER_BYTES;
  segments = region + segmentsAt;
  lines = region + linesAt;
  paragraphs = region + paragraphsAt;
  const work = region + workAt;
  segmentCount = lineCount = paragraphCount = 0;
  spanOverflow = false;
  out = base;
  lfCount = 0;
  lineStart = true;
  stack = work;
  referenceBudget = len;
  unreadReferences = false;
  levelSerial = 0;
  resetReferenceLevels();
  readLevel(ptr, len, 0);
  if (crossLevelReference()) unreadReferences = true;
  const newlines = work; // the decode stack is done with
  const readingLen = letterLayer(base, out - base, newlines);
  mapSpans(segments, segmentCount, newlines);
  mapSpans(lines, lineCount, newlines);
  mapSpans(paragraphs, paragraphCount, newlines);
  const h = region;
  store<u32>(h + (H_READING << 2), <u32>base);
  store<u32>(h + ((H_READING + 1) << 2), <u32>readingLen);
  store<u32>(h + (H_SEGMENTS << 2), <u32>segments);
  store<u32>(h + ((H_SEGMENTS + 1) << 2), segmentCount);
  store<u32>(h + (H_LINES << 2), <u32>lines);
  store<u32>(h + ((H_LINES + 1) << 2), lineCount);
  store<u32>(h + (H_PARAGRAPHS << 2), <u32>paragraphs);
  store<u32>(h + ((H_PARAGRAPHS + 1) << 2), paragraphCount);
  store<u32>(h + (H_RANGES << 2), <u32>(region + rangesAt));
  store<u32>(h + ((H_RANGES + 1) << 2), 0);
  store<u32>(h + (H_RANGE_CAP << 2), <u32>rangeCap);
  store<u32>(h + (H_WORK << 2), <u32>work);
  store<u32>(h + (H_UNREAD_REFERENCES << 2), unreadReferences ? 1 : 0);
  return spanOverflow ? 1 : 0;
}

/**
 * Spans were recorded as newline counts: a start after the n-th newline (or at 0), an
 * end at the n-th newline (or at the end). Every span starts just after a newline and
 * ends just before one, and the letter layer keeps newlines, so its table of where
 * each newline went maps them exactly.
 */
function mapSpans(table: usize, count: u32, newlines: usize): void {
  for (let k: u32 = 0; k < count; k++) {
    const p = table + (<usize>k << 3);
    const from = load<u32>(p);
    const to = load<u32>(p, 4);
    store<u32>(p, from == 0 ? 0 : load<u32>(newlines + (<usize>(from - 1) << 2)) + 1);
    store<u32>(p, load<u32>(newlines + (<usize>to << 2)), 4);
  }
}
