// The reading, written plainly: what assembly/reading.ts and assembly/ranges.ts must
// produce byte for byte (test/reading.test.ts checks). Bytes in (UTF-8, any bytes
// tolerated), bytes out; offsets are byte offsets. Tests only: it allocates freely,
// but keeps the core's memos so that hostile inputs finish here too.
//
// read(bytes) -> { bytes, segments, lines, paragraphs }: the structure layer (strings,
// tags, entities, keys, escapes, markup) and then the letter layer (letter-spaced
// words, look-alike folds). ranges(bytes, spans) -> [from, to, ...]: what the
// classifier scores.
import { readFileSync } from 'node:fs';

export const MIN_SEGMENT = 20;
export const MAX_DEPTH = 3;
export const TAG_WINDOW = 8192;
export const MIN_LINE = 20;
export const MAX_WINDOW = 320;
export const MAX_PARAGRAPH = 2000;

const code = (s) => s.charCodeAt(0);
const set = (s) => new Set([...s].map(code));
const LF = 0x0a, CR = 0x0d, SP = 0x20, TAB = 0x09, DQ = 0x22, SQ = 0x27, BS = 0x5c;
const LT = 0x3c, GT = 0x3e, AMP = 0x26, SLASH = 0x2f, STAR = 0x2a, DASH = 0x2d, COLON = 0x3a;
const HASH = 0x23, SEMI = 0x3b, EQ = 0x3d, PIPE = 0x7c;

const MARKUP = set('*`~^{}[]<>\\_#|');
const TERMINATORS = set(',:}]);=>/');
const STRUCTURAL = set('{[(,:=|>');
const RUNS = set('-=_*~#');
const SEPARATORS = set(' .-_*');
const VOID = new Set(['img', 'input', 'hr', 'meta', 'link', 'source', 'embed', 'area', 'base', 'col', 'param', 'track', 'wbr']);
const INLINE = new Set(['b', 'i', 'em', 'strong', 'span', 'a', 'u', 'font', 'code', 'small', 'big', 'sup', 'sub', 'mark', 's', 'strike', 'tt', 'abbr', 'cite', 'q', 'kbd', 'var', 'del', 'ins', 'svg', 'ref', 'button', 'label', 'time']);
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '...', mdash: '-', ndash: '-', rsquo: "'", lsquo: "'", rdquo: '"', ldquo: '"' };
const SCHEMES = new Set(['http', 'https', 'ftp', 'mailto']);

const isLetter = (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c) => c >= 0x30 && c <= 0x39;
const isHex = (c) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isNameChar = (c) => isLetter(c) || isDigit(c) || c === 0x5f || c === COLON || c === DASH; // [\w:-]
const isKeyChar = (c) => isLetter(c) || isDigit(c) || c === 0x5f || c === SP || c === 0x2e || c === DASH || c === SLASH; // [\w .\-/]
const isWs = (c) => c === SP || c === TAB || c === LF || c === 0x0b || c === 0x0c || c === CR; // ASCII whitespace
const isLineSpace = (c) => c === SP || c === TAB || c === CR;

/** Zero-width and bidi controls (the bindings' INVISIBLE set): an escape that decodes to one yields nothing. */
const isInvisible = (cp) =>
  cp === 0xad || cp === 0x61c || cp === 0x180e || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
  (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0xfeff;

function utf8(cp) {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

/** A decoded code point as the reading takes it: invisible ones vanish, full-width ASCII is ASCII, a tag character the ASCII it shadows. */
const settle = (cp) => {
  if (isInvisible(cp)) return -1;
  // A tag character reads as the ASCII it shadows, and the rest of the block as nothing (as normalizeText folds them).
  if (cp >= 0xe0000 && cp <= 0xe007f) return cp >= 0xe0020 && cp <= 0xe007e ? cp - 0xe0000 : -1;
  return cp >= 0xff01 && cp <= 0xff5e ? cp - 0xfee0 : cp;
};

// ---------------------------------------------------------------- structure layer

class Out {
  bytes = [];
  /** Levels read so far; full references unresolved in their level and every level's `[label]:` definitions, as [label hash, level] (up to 256 and 1,024). */
  levelSerial = 0;
  unresolved = [];
  defined = [];
  notesOverflow = false;
  noteUnresolved(label, level) {
    if (this.unresolved.length === 256) this.notesOverflow = true;
    else this.unresolved.push([labelHash(label), level]);
  }
  noteDefined(label, level) {
    if (this.defined.length === 1024) this.notesOverflow = true;
    else this.defined.push([labelHash(label), level]);
  }
  /** Whether a label used unresolved in one level is defined in another (or the notes overflowed with both kinds present). */
  crossLevelReference() {
    if (this.unresolved.length === 0 || this.defined.length === 0) return false;
    return this.notesOverflow || this.unresolved.some(([label, level]) => this.defined.some(([l, v]) => l === label && v !== level));
  }
  /** Whether the output since its last newline holds only spaces and tabs. */
  lineStart = true;
  /** Accepted segments as [start, end], in the order they end. */
  segments = [];
  /** Source lines: an input line or cell whose reading spans more than one line, as [start, end]. */
  lines = [];
  /** Paragraphs of each level's text, as [start, end] in the order they end: split at the text's blank lines, not at the ones around a segment. */
  paragraphs = [];
  /** Per level being read: where its paragraph began, its last newline, and whether a blank line is open. */
  levels = [];
  get level() {
    return this.levels[this.levels.length - 1];
  }
  put(b) {
    this.bytes.push(b);
    const level = this.level;
    if (b === LF) {
      this.lineStart = true;
      if (level.blank) this.endParagraph(level.lastLf, this.bytes.length);
      else if (isAddressLine(this.bytes.slice(level.lineFrom, this.bytes.length - 1))) this.endParagraph(this.bytes.length - 1, this.bytes.length);
      level.lastLf = this.bytes.length - 1;
      level.lineFrom = this.bytes.length;
      level.blank = true;
    } else if (b !== SP && b !== TAB) {
      this.lineStart = false;
      level.blank = false;
    }
  }
  /** Close the level's paragraph at `to` (recorded from MIN_LINE bytes: a shorter one yields no range) and start the next at `next`. */
  endParagraph(to, next) {
    const level = this.level;
    if (to - level.from >= MIN_LINE) this.paragraphs.push([level.from, to]);
    level.from = next;
  }
  /** Record the source line [from, here) if its reading holds a newline and at least MIN_LINE bytes. */
  sourceLine(from) {
    const to = this.bytes.length;
    let a = from, z = to;
    while (a < z && isWs(this.bytes[a])) a++;
    while (z > a && isWs(this.bytes[z - 1])) z--;
    if (z - a < MIN_LINE) return;
    for (let k = from; k < to; k++) if (this.bytes[k] === LF) { this.lines.push([from, to]); return; }
  }
}

/** The quote at i opens a string: only spaces before it on its line, a structural byte, or a line-opening marker (- * # //). */
function structuralBefore(src, i) {
  let k = i - 1;
  while (k >= 0 && isLineSpace(src[k])) k--;
  if (k < 0 || src[k] === LF) return true;
  if (STRUCTURAL.has(src[k])) return true;
  // After a list marker or a comment marker that opens the line, as at the line's start.
  let m = k - 1;
  if (src[k] === HASH) while (m >= 0 && src[m] === HASH && k - m < 6) m--;
  else if (src[k] === SLASH && src[m] === SLASH) m--;
  else if (src[k] !== DASH && src[k] !== STAR) return false;
  while (m >= 0 && isLineSpace(src[m])) m--;
  return m < 0 || src[m] === LF;
}

/** The closer of the string opened at i, or the index where the search stopped (a ' string's line end, else the end). */
function findCloser(src, i, q) {
  const n = src.length;
  // A value after '=' ends at its first closing quote (HTML attributes, Python arguments).
  let e = i - 1;
  while (e >= 0 && isLineSpace(src[e])) e--;
  const first = e >= 0 && src[e] === EQ;
  for (let k = i + 1; k < n; k++) {
    const c = src[k];
    // A ' string goes on over a blank or indented line (a YAML flow scalar), no further.
    if (c === LF && q === SQ && !(k + 1 < n && [SP, TAB, LF, CR].includes(src[k + 1]))) return { close: -1, stop: k };
    if (c === BS) {
      if (q === SQ && src[k + 1] === LF) return { close: -1, stop: k + 1 };
      k++;
      continue;
    }
    if (c !== q) continue;
    if (first) return { close: k, first };
    if (src[k + 1] === q) { k++; continue; }
    let m = k + 1;
    while (m < n && isLineSpace(src[m])) m++;
    if (m >= n || src[m] === LF || TERMINATORS.has(src[m])) return { close: k };
  }
  return { close: -1, stop: n };
}

function hexAt(src, from, count) {
  if (from + count > src.length) return -1;
  let v = 0;
  for (let k = from; k < from + count; k++) {
    if (!isHex(src[k])) return -1;
    v = v * 16 + parseInt(String.fromCharCode(src[k]), 16);
  }
  return v;
}

/** The backslash escape at k: { cp } for \u \U \x, { ctl } for \n \t \r \b \f, { lit } for \" \' \\ \/; null otherwise. */
function escapeAt(src, k) {
  const c = src[k + 1];
  if (c === undefined) return null;
  if (c === code('u')) {
    let cp = hexAt(src, k + 2, 4);
    if (cp < 0) return null;
    let end = k + 6;
    if (cp >= 0xd800 && cp <= 0xdbff && src[end] === BS && src[end + 1] === code('u')) {
      const lo = hexAt(src, end + 2, 4);
      if (lo >= 0xdc00 && lo <= 0xdfff) { cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00); end += 6; }
    }
    return { cp: cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp, end };
  }
  if (c === code('U')) {
    const cp = hexAt(src, k + 2, 8);
    if (cp < 0 || cp > 0x10ffff) return null;
    return { cp: cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp, end: k + 10 };
  }
  if (c === code('x')) {
    const cp = hexAt(src, k + 2, 2);
    return cp < 0 ? null : { cp, end: k + 4 };
  }
  if ('ntrbf'.includes(String.fromCharCode(c))) return { ctl: String.fromCharCode(c), end: k + 2 };
  if (c === DQ || c === SQ || c === BS || c === SLASH) return { lit: c, end: k + 2 };
  return null;
}

/** A string's content as its carrier means it: escapes and doubled quotes decoded. */
function decodeString(body, q) {
  const out = [];
  for (let k = 0; k < body.length; k++) {
    const c = body[k];
    if (c === q && body[k + 1] === q) { out.push(q); k++; continue; }
    if (c === LF && q === SQ) {
      // YAML line folding: a break before text is a space, each blank line a newline.
      let m = k + 1;
      let breaks = 0;
      for (;;) {
        while (m < body.length && (body[m] === SP || body[m] === TAB || body[m] === CR)) m++;
        if (m < body.length && body[m] === LF) { breaks++; m++; continue; }
        break;
      }
      if (breaks === 0) out.push(SP);
      else for (let b = 0; b < breaks; b++) out.push(LF);
      k = m - 1;
      continue;
    }
    if (c !== BS) { out.push(c); continue; }
    const e = escapeAt(body, k);
    if (!e) { out.push(BS); continue; }
    if (e.cp !== undefined) {
      const cp = settle(e.cp);
      if (cp >= 0) out.push(...utf8(cp));
    } else if (e.ctl) out.push({ n: LF, t: TAB, r: CR, b: 0x08, f: 0x0c }[e.ctl]);
    else out.push(e.lit);
    k = e.end - 1;
  }
  return Uint8Array.from(out);
}

/** The entity at i: { cps, end } or null. */
function entityAt(src, i) {
  let j = i + 1;
  if (src[j] === HASH) {
    let cp;
    let k;
    if (src[j + 1] === code('x') || src[j + 1] === code('X')) {
      k = j + 2;
      while (k < src.length && k - (j + 2) < 7 && isHex(src[k])) k++;
      const count = k - (j + 2);
      if (count < 1 || count > 6 || src[k] !== SEMI) return null;
      cp = parseInt(Buffer.from(src.subarray(j + 2, k)).toString('latin1'), 16);
    } else {
      k = j + 1;
      while (k < src.length && k - (j + 1) < 8 && isDigit(src[k])) k++;
      const count = k - (j + 1);
      if (count < 1 || count > 7 || src[k] !== SEMI) return null;
      cp = parseInt(Buffer.from(src.subarray(j + 1, k)).toString('latin1'), 10);
    }
    const valid = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    return { cps: [valid ? cp : 0xfffd], end: k + 1 };
  }
  let k = j;
  while (k < src.length && k - j < 9 && isLetter(src[k])) k++;
  if (k - j < 2 || k - j > 8 || src[k] !== SEMI) return null;
  const value = ENTITIES[Buffer.from(src.subarray(j, k)).toString('latin1').toLowerCase()];
  if (value === undefined) return null;
  return { cps: [...value].map(code), end: k + 1 };
}

/** An attribute value's content: its entities decoded (to be read again, like a string's). */
function decodeEntities(body) {
  const out = [];
  for (let k = 0; k < body.length; ) {
    const e = body[k] === AMP ? entityAt(body, k) : null;
    if (!e) { out.push(body[k++]); continue; }
    for (const cp of e.cps) {
      const s = settle(cp);
      if (s >= 0) out.push(...utf8(s));
    }
    k = e.end;
  }
  return Uint8Array.from(out);
}

/** A line-initial key at i (not a space): { marker, colon } or null. */
function keyAt(src, i) {
  const n = src.length;
  let j = i;
  let marker = false;
  if ((src[j] === DASH || src[j] === STAR) && (src[j + 1] === SP || src[j + 1] === TAB)) {
    let k = j + 1;
    while (k < n && (src[k] === SP || src[k] === TAB) && k - (j + 1) < 17) k++;
    if (k - (j + 1) > 16 || !isLetter(src[k])) return null;
    j = k;
    marker = true;
  }
  if (!isLetter(src[j])) return null;
  let k = j + 1;
  while (k < n && k - (j + 1) < 39 && isKeyChar(src[k])) k++;
  if (k - (j + 1) > 38 || src[k] !== COLON) return null;
  const after = src[k + 1];
  if (!(k + 1 >= n || after === SP || after === TAB || after === LF || after === CR)) return null;
  if (SCHEMES.has(Buffer.from(src.subarray(j, k)).toString('latin1').toLowerCase())) return null;
  return { marker, colon: k, block: blockAfter(src, k) };
}

/**
 * A YAML block scalar after the colon at k (`key: |` or `>`, optional chomping and
 * indentation indicators, then the end of the line): its lines, those indented
 * deeper than the key's line, dedented and joined, and where the reading resumes.
 */
function blockAfter(src, k) {
  const n = src.length;
  let m = k + 1;
  while (m < n && (src[m] === SP || src[m] === TAB)) m++;
  if (m === k + 1 || (src[m] !== PIPE && src[m] !== GT)) return null;
  m++;
  for (let j = 0; j < 2 && m < n && (src[m] === 0x2b || src[m] === DASH || (src[m] >= 0x31 && src[m] <= 0x39)); j++) m++;
  while (m < n && isLineSpace(src[m])) m++;
  if (m >= n || src[m] !== LF) return null;
  let lineStart = k;
  while (lineStart > 0 && src[lineStart - 1] !== LF) lineStart--;
  let keyIndent = 0;
  while (src[lineStart + keyIndent] === SP) keyIndent++;
  const lines = [];
  let indent = -1;
  let end = m; // the newline that ends the last line of the block
  for (let ls = m + 1; ls <= n; ) {
    let le = ls;
    while (le < n && src[le] !== LF) le++;
    let sp = 0;
    while (ls + sp < le && src[ls + sp] === SP) sp++;
    const isBlank = blank(src, ls, le);
    if (!isBlank) {
      if (indent < 0) {
        if (sp <= keyIndent) break;
        indent = sp;
      } else if (sp < indent) break;
    }
    lines.push([ls, le]);
    if (!isBlank) end = le;
    if (le >= n) break;
    ls = le + 1;
  }
  if (indent < 0) return null;
  while (lines.length > 0 && lines[lines.length - 1][0] > end) lines.pop();
  const content = [];
  lines.forEach(([ls, le], index) => {
    if (index > 0) content.push(LF);
    for (let p = Math.min(ls + indent, le); p < le; p++) content.push(src[p]);
  });
  return { content: Uint8Array.from(content), resume: end };
}

/** A comma that separates cells (CSV): followed by neither space nor end of line, and not inside a number (1,000). */
function cellComma(src, i) {
  const next = src[i + 1];
  if (i + 1 >= src.length || next === SP || next === TAB || next === LF || next === CR) return false;
  return !(i > 0 && isDigit(src[i - 1]) && isDigit(next));
}

/** Bytes of a line-opening `#`–`######`, `//` or list bullet (`-`, `*`, `+`) and the one space or tab after it, or 0. */
function lineMarkerAt(src, i) {
  let k = i;
  if (src[k] === HASH) while (k < src.length && src[k] === HASH && k - i < 7) k++;
  else if (src[k] === SLASH && src[k + 1] === SLASH) k += 2;
  else if (src[k] === 0x2d || src[k] === 0x2a || src[k] === 0x2b) k++;
  if (k === i || k - i > 6 || !(src[k] === SP || src[k] === TAB)) return 0;
  return k + 1 - i;
}

/**
 * The tag at i (a '<'): { name, attrFrom, attrTo, end }, or { reach } when there is
 * none: how far the scan looked. With `quoted`, a value quoted after '=' may hold '<'
 * and '>'; otherwise the scan stops at the next '<' or '>'.
 */
function tagAt(src, i, quoted) {
  const n = src.length;
  const limit = Math.min(n, i + TAG_WINDOW);
  let j = i + 1;
  if (src[j] === SLASH || src[j] === 0x3f || src[j] === 0x21) j++; // </end>, <?xml …?>, <!DOCTYPE …>
  if (j >= limit || !isLetter(src[j])) return { reach: i + 1 };
  let k = j + 1;
  while (k < n && k - j < 32 && isNameChar(src[k])) k++;
  const name = Buffer.from(src.subarray(j, k)).toString('latin1').toLowerCase();
  if (k >= limit) return { reach: k };
  if (src[k] === GT) return { name, attrFrom: k, attrTo: k, end: k + 1 };
  if (src[k] === SLASH && k + 1 < limit && src[k + 1] === GT) return { name, attrFrom: k, attrTo: k, end: k + 2 };
  if (!isWs(src[k]) && !(src[k] === SLASH && k + 1 < limit && isLetter(src[k + 1]))) return { reach: k }; // a slash before a name separates it as whitespace does
  let m = k + 1;
  let afterEq = false;
  while (m < limit && src[m] !== LT && src[m] !== GT) {
    if (quoted && afterEq && (src[m] === DQ || src[m] === SQ)) {
      const close = src.indexOf(src[m], m + 1);
      if (close < 0 || close >= limit) return { reach: limit };
      m = close + 1;
      afterEq = false;
      continue;
    }
    if (!isWs(src[m])) afterEq = src[m] === EQ;
    m++;
  }
  if (m >= limit || src[m] !== GT) return { reach: m };
  return { name, attrFrom: k, attrTo: m, end: m + 1 };
}

/**
 * The attribute at a name start p of src[p, to): { nameTo, value: [from, to) | null,
 * end, quoted }. A value is quoted (name = "v" or 'v'), or, for an href only,
 * unquoted up to the next whitespace. `none` remembers the quote kinds with no
 * closing quote from some point on.
 */
function attributeAt(src, p, to, none) {
  let run = p;
  while (run < to && isNameChar(src[run])) run++;
  const fail = { nameTo: run, value: null };
  let m = run;
  while (m < to && isWs(src[m])) m++;
  if (m >= to || src[m] !== EQ) return fail;
  m++;
  while (m < to && isWs(src[m])) m++;
  if (m >= to) return fail;
  const q = src[m];
  if (q === DQ || q === SQ) {
    if (none[q]) return fail;
    for (let k = m + 1; k < to; k++) if (src[k] === q) return { nameTo: run, value: [m + 1, k], end: k + 1, quoted: true };
    none[q] = true;
    return fail;
  }
  if (!isHrefName(src, p, run)) return fail;
  let e = m;
  while (e < to && !isWs(src[e])) e++;
  return { nameTo: run, value: [m, e], end: e, quoted: false };
}

/** `href`, or a namespaced one (`xlink:href`). */
const isHrefName = (src, from, to) => /^([\w:-]*:)?href$/i.test(String.fromCharCode(...src.subarray(from, to)));

/** Whether a token starts with http:, https:, ftp: or mailto:, in any case. */
const isAbsoluteUrl = (text) => SCHEMES.has(/^([a-z]{3,6}):/i.exec(text)?.[1].toLowerCase());

/** A URL's bytes as a browser parses them: controls and spaces trimmed, tabs and newlines removed; null unless one token is left. */
function urlToken(bytes) {
  let a = 0, z = bytes.length;
  while (a < z && bytes[a] <= SP) a++;
  while (z > a && bytes[z - 1] <= SP) z--;
  const kept = [...bytes.subarray(a, z)].filter((b) => b !== TAB && b !== LF && b !== CR);
  return kept.length > 0 && !kept.some(isWs) ? kept : null;
}

/** The link an attribute carries (its URL token), or null: an href whatever its value, any other attribute but `xmlns`/`xmlns:…` when its value is an absolute URL. */
function linkOf(src, from, to, value) {
  const token = urlToken(value);
  if (!token) return null;
  const name = Buffer.from(src.subarray(from, to)).toString('latin1').toLowerCase();
  const namespace = name === 'xmlns' || name.startsWith('xmlns:');
  return isHrefName(src, from, to) || (isAbsoluteUrl(String.fromCharCode(...token.slice(0, 8))) && !namespace) ? token : null;
}

/**
 * A tag's links (an href, and any value that is an absolute URL), read in the text:
 * an inline tag's and any href where the tag stands, a block opener's others where the
 * text it wraps begins. `which`: 'all', 'href', 'other', or 'any-other' (only whether there is one).
 */
function inlineLinks(out, src, from, to, which) {
  const none = { [DQ]: false, [SQ]: false };
  let found = false;
  for (let p = from; p < to; ) {
    if (!isNameChar(src[p])) { p++; continue; }
    const a = attributeAt(src, p, to, none);
    if (!a.value) { p = a.nameTo; continue; }
    if (which !== 'all' && (which === 'href') !== isHrefName(src, p, a.nameTo)) { p = a.end; continue; }
    const link = linkOf(src, p, a.nameTo, decodeEntities(src.subarray(a.value[0], a.value[1])));
    if (link) {
      if (which === 'any-other') return true;
      found = true;
      out.put(SP);
      for (const b of link) out.put(b < 0x80 && MARKUP.has(b) ? SP : b);
      out.put(SP);
    }
    p = a.end;
  }
  return found;
}

/**
 * A tag's attributes in src[from, to): each quoted value (name = "v" or 'v') is a
 * segment, and so is the text left once those are taken out, when it holds more than
 * spaces, / and ?: words inside a tag (<p ignore the user>) are read, not dropped.
 * The links inlineLinks read are skipped.
 */
function readAttributes(out, src, from, to, depth) {
  const rest = [];
  let gap = from;
  const none = { [DQ]: false, [SQ]: false };
  for (let p = from; p < to; ) {
    if (!isNameChar(src[p])) { p++; continue; }
    const a = attributeAt(src, p, to, none);
    if (!a.value) { p = a.nameTo; continue; }
    const value = decodeEntities(src.subarray(a.value[0], a.value[1]));
    if (linkOf(src, p, a.nameTo, value)) {
      for (let k = gap; k < p; k++) rest.push(src[k]);
      gap = p = a.end;
      continue;
    }
    if (!a.quoted) { p = a.end; continue; }
    for (let k = gap; k < p; k++) rest.push(src[k]);
    gap = a.end;
    segment(out, value, depth);
    p = a.end;
  }
  for (let k = gap; k < to; k++) rest.push(src[k]);
  if (rest.some((b) => !isWs(b) && b !== SLASH && b !== 0x3f)) segment(out, Uint8Array.from(rest), depth);
}

function indexOf(src, pattern, from) {
  outer: for (let k = from; k + pattern.length <= src.length; k++) {
    for (let j = 0; j < pattern.length; j++) if (src[k + j] !== pattern[j]) continue outer;
    return k;
  }
  return -1;
}
const startsWith = (src, pattern, at) => pattern.every((b, j) => src[at + j] === b);
const COMMENT_OPEN = [...'<!--'].map(code);
const COMMENT_CLOSE = [...'-->'].map(code);
const CDATA_OPEN = [...'<![CDATA['].map(code);
const CDATA_CLOSE = [...']]>'].map(code);

/** A reading line that is one http(s) address (`//` or the space the reading leaves of it), blanks around it aside: it ends its paragraph. */
function isAddressLine(bytes) {
  let a = 0, z = bytes.length;
  while (a < z && (bytes[a] === SP || bytes[a] === TAB)) a++;
  while (z > a && (bytes[z - 1] === SP || bytes[z - 1] === TAB)) z--;
  if (z - a < 12) return false;
  const head = /^https?:( |\/\/)/.exec(String.fromCharCode(...bytes.slice(a, a + 9)));
  if (!head || a + head[0].length >= z) return false;
  for (let k = a + head[0].length; k < z; k++) if (bytes[k] <= SP) return false;
  return true;
}

function segment(out, content, depth) {
  // The blank lines around a segment are the outer level's, but not its paragraph breaks.
  out.bytes.push(LF, LF);
  out.lineStart = true;
  const start = out.bytes.length;
  if (depth < MAX_DEPTH) readLevel(out, content, depth + 1);
  else for (const b of content) out.bytes.push(b);
  const end = out.bytes.length;
  if (end - start >= MIN_SEGMENT) out.segments.push([start, end]);
  out.bytes.push(LF, LF);
  out.lineStart = true;
  out.level.blank = false;
}

/** A decoded character in running text: invisible ones vanish, markup reads as a space, \r as nothing. */
function putDecoded(out, cp) {
  const s = settle(cp);
  if (s < 0 || s === CR) return;
  if (s < 0x80 && MARKUP.has(s)) out.put(SP);
  else for (const b of utf8(s)) out.put(b);
}

const MAX_LABEL = 999;
/** The characters of a label read as latin1 from UTF-8: its bytes other than continuation bytes. */
const characters = (label) => label.replace(/[\x80-\xbf]/g, '').length;
const asciiLower = (text) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** A label as Markdown matches it: ASCII case aside, blanks at its ends dropped, a run of them inside one space. */
const labelKey = (text) => asciiLower(text).replace(/^[ \t]+|[ \t]+$/g, '').replace(/[ \t]+/g, ' ');
/** A label key's 32-bit FNV-1a hash, as the core compares labels across levels (a collision errs toward the flag); `h` continues another's. */
export const labelHash = (key, h = 0x811c9dc5) => {
  for (let k = 0; k < key.length; k++) h = Math.imul(h ^ key.charCodeAt(k), 0x01000193) >>> 0;
  return h;
};

/** The first absolute address among the tokens of a line's text (a footnote's): { from, to, dropFrom, dropTo } in src, or null. */
function addressIn(src, m) {
  const line = Buffer.from(src.subarray(m, src.indexOf(LF, m) < 0 ? src.length : src.indexOf(LF, m))).toString('latin1');
  for (const t of line.matchAll(/[^ \t\x0b\x0c\r]+/g)) {
    let lead = /^[<(]*/.exec(t[0])[0].length;
    let core = t[0].slice(lead).replace(/[.,;:)>]+$/, '');
    // Past a Markdown link's `](`: `[site](https://…)`.
    const md = core.indexOf('](');
    if (md >= 0) {
      lead += md + 2;
      core = core.slice(md + 2);
    }
    if (isAbsoluteUrl(core)) {
      const dropFrom = m + t.index;
      return { from: dropFrom + lead, to: dropFrom + lead + core.length, dropFrom, dropTo: dropFrom + t[0].length };
    }
  }
  return null;
}

/**
 * A level's link reference definitions, in input order (up to MAX_REFERENCES). A line:
 * container marks (blanks, blockquote marks, list markers `-`, `*`, `+` or 1–9 digits and
 * `.` or `)`, each before a blank, as many as the line holds), `[label]` (1–999 characters, no
 * bracket or newline), then `:` and an address (its first token, bare or in <…>, on the
 * line or, absolute or scheme-relative, alone at the start of the next one after blanks
 * and as many quote marks as the line's, or none; a footnote `[^…]:` its first absolute
 * address on the line), or for a label of 1–4 digits the first absolute address on the
 * line; or marks whose last is the line's first number, 1–4 digits and '.', with at most
 * one bullet before it, then an absolute address (a text browser's numbered links).
 * { label (labelKey), labelFrom, url, drop: [from, to], colon (written `[label]:`) }.
 */
/**
 * The container marks at a line's start: their length; where the last starts when it is
 * the line's first number, 1–4 digits and '.', with at most one bullet before it and
 * only blanks after it (else -1); and how many quote marks were among them.
 */
function marksOf(line) {
  let end = 0;
  let numbered = -1;
  let bullets = 0;
  let numbers = 0;
  let quotes = 0;
  for (let t; (t = /^(?:[ \t]|>|[-*+][ \t]|(\d{1,9})([.)])[ \t])/.exec(line.slice(end))); end += t[0].length) {
    if (t[1] !== undefined) numbered = numbers++ === 0 && bullets <= 1 && t[2] === '.' && t[1].length <= 4 ? end : -1;
    else if (t[0] === '>') quotes++, (numbered = -1);
    else if (t[0] !== ' ' && t[0] !== '\t') bullets++, (numbered = -1);
  }
  return { end, numbered, quotes };
}

/** An address in <…> at the start of `text`: blanks inside it at its ends dropped, '\\' escaping the next character, a '<' or a line end leaving it unclosed. */
function angledAt(text) {
  let m = 1;
  while (m < text.length && (text[m] === ' ' || text[m] === '\t')) m++;
  const from = m;
  while (m < text.length && text[m] !== '>' && text[m] !== '\n' && text[m] !== '\r') {
    if (text[m] === '<') return null;
    m += text[m] === '\\' && m + 1 < text.length && text[m + 1] !== '\n' && text[m + 1] !== '\r' ? 2 : 1;
  }
  if (m >= text.length || text[m] !== '>') return null;
  let to = m;
  while (to > from && (text[to - 1] === ' ' || text[to - 1] === '\t')) to--;
  return { from, to, end: m + 1 };
}

const MAX_REFERENCES = 256;
function referencesOf(src) {
  const defs = [];
  for (let i = 0; i < src.length && defs.length <= MAX_REFERENCES; i++) {
    if (i > 0 && src[i - 1] !== LF) continue;
    const line = Buffer.from(src.subarray(i, src.indexOf(LF, i) < 0 ? src.length : src.indexOf(LF, i))).toString('latin1');
    const marks = marksOf(line);
    const rest = line.slice(marks.end);
    if (rest !== '' && rest[0] !== '[') {
      // A text browser's list of the links it numbered: `   1. https://…` pairs with `[1]`.
      const token = /^[^ \t\n\x0b\x0c\r]+/.exec(rest);
      if (marks.numbered >= 0 && token && isAbsoluteUrl(token[0])) {
        const from = i + marks.end;
        const label = /^\d+/.exec(line.slice(marks.numbered))[0];
        defs.push({ label, labelFrom: i + marks.numbered, url: src.subarray(from, from + token[0].length), drop: [from, from + token[0].length], emitted: false, colon: false });
      }
      continue;
    }
    const prefix = line.slice(0, marks.end);
    const m = /^\[([^[\]]+)\](:?)/.exec(rest);
    if (!m || labelKey(m[1]) === '' || characters(m[1]) > MAX_LABEL) continue;
    const labelFrom = i + prefix.length + 1;
    const label = m[1];
    const colon = m[2] === ':';
    if (!colon && !/^[ \t]*\d{1,4}[ \t]*$/.test(label)) continue;
    let after = labelFrom + label.length + 1 + (colon ? 1 : 0);
    let def;
    if (!colon || label[0] === '^') {
      const a = addressIn(src, after);
      if (a) def = { url: [a.from, a.to], drop: [a.dropFrom, a.dropTo] };
    } else {
      let rest = line.slice(after - i);
      // The address may stand alone at the start of the next line.
      const ends = /^[ \t]*\r?$/.exec(rest);
      if (ends && i + line.length < src.length) {
        const next = i + line.length + 1;
        const nextLine = Buffer.from(src.subarray(next, src.indexOf(LF, next) < 0 ? src.length : src.indexOf(LF, next))).toString('latin1');
        // Blanks and as many quote marks as this line's, or none (a lazy line); more open a quote of their own.
        let skip = 0;
        for (let marksSeen = 0; skip < nextLine.length && (nextLine[skip] === ' ' || nextLine[skip] === '\t' || (nextLine[skip] === '>' && marksSeen < marks.quotes)); skip++) {
          if (nextLine[skip] === '>') marksSeen++;
        }
        rest = nextLine.slice(skip);
        after = next + skip;
      }
      const lead = /^[ \t]*/.exec(rest)[0].length;
      let address = null;
      let urlAt = 0;
      let tokenEnd = 0;
      if (rest[lead] === '<') {
        // In <…> the address may hold blanks, and blanks around it are no part of it (`< https://… >`).
        const a = angledAt(rest.slice(lead));
        if (a && a.to > a.from) [address, urlAt, tokenEnd] = [rest.slice(lead + a.from, lead + a.to), lead + a.from, lead + a.end];
      } else {
        const b = /^[^ \t\n\x0b\x0c\r]+/.exec(rest.slice(lead));
        if (b) [address, urlAt, tokenEnd] = [b[0], lead, lead + b[0].length];
      }
      // Only a title may follow the address, as in CommonMark (a log line's `[ERROR]: https://… returned 503` is no definition);
      // on the next line, only an absolute or scheme-relative address makes a definition (`[the patch]:` then `***` is none).
      const schemeRelative = address !== null && /^\/\/[^/]/.test(address);
      if (address !== null && /^[ \t]*(?:$|[\r"'(])/.test(rest.slice(tokenEnd)) && !(ends && !isAbsoluteUrl(address) && !schemeRelative)) {
        def = { url: [after + urlAt, after + urlAt + address.length], drop: [after + lead, after + tokenEnd] };
      }
    }
    if (def) defs.push({ label: labelKey(label), labelFrom, url: src.subarray(def.url[0], def.url[1]), drop: def.drop, emitted: false, colon });
  }
  // A definition past MAX_REFERENCES is left out, and the reading says so (unreadReferences).
  const overflow = defs.length > MAX_REFERENCES;
  if (overflow) defs.pop();
  // So is one whose label's hash an earlier, different label has (decision 91): no use finds it.
  const labelOfHash = new Map();
  for (const d of defs) {
    const h = labelHash(d.label);
    if (!labelOfHash.has(h)) labelOfHash.set(h, d.label);
    d.collides = labelOfHash.get(h) !== d.label;
  }
  defs.leftOut = overflow || defs.some((d) => d.collides);
  return defs;
}

function readLevel(out, src, depth) {
  const n = src.length;
  out.levels.push({ from: out.bytes.length, lineFrom: out.bytes.length, lastLf: -1, blank: false });
  const until = { [SQ]: -1, [DQ]: -1 }; // openers before this index are not tried (their search failed)
  const noTriple = { [SQ]: false, [DQ]: false };
  let untilTag = 0; // a '<' before this index gets the plain tag scan
  let colonAt = -1; // a line-initial key's colon, read as a newline
  let block = null; // the YAML block scalar that follows that colon
  // Where the reading of the current source line began, and of the current cell (an input
  // line, or a cell between | or CSV commas) when a <br> or block tag split it into lines.
  let lineFrom = out.bytes.length;
  let cellFrom = lineFrom;
  let cellSplit = false;
  const endLine = (cell) => {
    out.sourceLine(lineFrom);
    if (cell && cellSplit) out.sourceLine(cellFrom);
    out.put(LF);
    lineFrom = out.bytes.length;
    if (cell) {
      cellFrom = lineFrom;
      cellSplit = false;
    } else cellSplit = true;
  };
  const defs = referencesOf(src);
  if (defs.leftOut) out.unreadReferences = true;
  // Uses and definitions noted with their level, for references across levels (assembly/reference-levels.ts).
  const level = out.levelSerial++;
  for (const d of defs) if (d.colon) out.noteDefined(d.label, level);
  const byLabel = new Map(); // label → its definitions in input order
  for (const d of defs) if (!d.collides) byLabel.set(d.label, [...(byLabel.get(d.label) ?? []), d]);
  let nextRef = 0;
  let openAt = -1; // the last '[' that no ']' has closed yet
  let pending = null; // a block opener's attribute text [from, to), its links waiting for the text it wraps
  // The ']' of a bracket label that starts at `from`, within MAX_LABEL characters, no '[' or newline before it, or -1.
  const labelEnd = (from) => {
    for (let e = from, count = 0; e < n; e++) {
      if (src[e] === 0x5d) return e;
      if (src[e] === 0x5b || src[e] === LF || ((src[e] & 0xc0) !== 0x80 && ++count > MAX_LABEL)) return -1;
    }
    return -1;
  };
  for (let i = 0; i < n; ) {
    if (nextRef < defs.length && i >= defs[nextRef].drop[0]) {
      // A definition's address that was read at its use is not read again.
      const d = defs[nextRef];
      const skip = i === d.drop[0] && d.emitted;
      const resume = skip ? d.drop[1] : i;
      do nextRef++;
      while (nextRef < defs.length && defs[nextRef].drop[0] < resume);
      if (skip) {
        out.referenceBudget += d.url.length;
        i = resume;
        continue;
      }
    }
    const c = src[i];
    if (pending && ![SP, TAB, LF, CR, LT].includes(c) && !(c === AMP && [SP, TAB, LF, CR, 0xa0, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff].includes(entityAt(src, i)?.cps[0]))) {
      inlineLinks(out, src, pending[0], pending[1], 'other');
      pending = null;
    }
    if (i === colonAt) {
      // The value goes to a line of its own; a key that ends its line needs no second newline.
      if (block) {
        out.put(LF);
        segment(out, block.content, depth);
        i = block.resume;
        block = null;
        continue;
      }
      const after = src[i + 1];
      if (after === SP || after === TAB) out.put(LF);
      i++;
      continue;
    }
    if (out.lineStart && c !== SP && c !== TAB && colonAt < i) {
      const key = keyAt(src, i);
      if (key) {
        colonAt = key.colon;
        block = key.block;
        if (key.marker) { i++; continue; }
      }
      // A comment or heading marker that opens a line is not part of what the line says.
      const marker = lineMarkerAt(src, i);
      if (!key && marker > 0) { i += marker; continue; }
    }
    if (c === LF) { endLine(true); i++; continue; }
    if (c === CR) { i++; continue; }
    if ((c === DQ || c === SQ) && structuralBefore(src, i)) {
      if (!noTriple[c] && src[i + 1] === c && src[i + 2] === c) {
        const close = indexOf(src, [c, c, c], i + 3);
        if (close >= 0) {
          segment(out, src.subarray(i + 3, close), depth);
          i = close + 3;
          continue;
        }
        noTriple[c] = true;
      }
      if (i >= until[c]) {
        const r = findCloser(src, i, c);
        if (r.close >= 0) {
          const content = decodeString(src.subarray(i + 1, r.close), c);
          // One token after '=' reads in place, between spaces, as an inline link does.
          if (r.first && !content.some(isWs)) {
            out.put(SP);
            for (const b of content) out.put(b < 0x80 && MARKUP.has(b) ? SP : b);
            out.put(SP);
          } else segment(out, content, depth);
          i = r.close + 1;
          continue;
        }
        until[c] = r.stop;
      }
    }
    if (c === LT) {
      const wrap = startsWith(src, COMMENT_OPEN, i) ? [COMMENT_OPEN, COMMENT_CLOSE] : startsWith(src, CDATA_OPEN, i) ? [CDATA_OPEN, CDATA_CLOSE] : null;
      if (wrap) {
        const [open, close] = wrap;
        const at = indexOf(src, close, i + open.length);
        segment(out, src.subarray(i + open.length, at < 0 ? n : at), depth);
        i = at < 0 ? n : at + close.length;
        continue;
      }
      // A quoted scan is made only from a '<' at or past the last failed one's reach.
      let tag = null;
      if (i >= untilTag) {
        tag = tagAt(src, i, true);
        if (!tag.end) untilTag = tag.reach;
      }
      if (!tag?.end) tag = tagAt(src, i, false);
      if (tag.end) {
        // A block tag ends the line (and the source line: a <p> or <br> starts a new one);
        // a <br> just before a newline is that newline.
        // A block opener's links wait for the text it wraps; one still waiting is read first, where
        // the old ones were, at an inline tag, a closing tag or another opener with links.
        const isBlock = tag.name !== 'br' && !INLINE.has(tag.name);
        const closing = src[i + 1] === SLASH;
        const wraps = isBlock && !closing && !VOID.has(tag.name) && src[tag.end - 2] !== SLASH;
        const blockLinks = wraps && inlineLinks(out, src, tag.attrFrom, tag.attrTo, 'any-other');
        if (pending && (blockLinks || (closing && isBlock))) {
          inlineLinks(out, src, pending[0], pending[1], 'other');
          pending = null;
        }
        inlineLinks(out, src, tag.attrFrom, tag.attrTo, wraps ? 'href' : 'all');
        if (tag.name === 'br') {
          let m = tag.end;
          while (m < n && isLineSpace(src[m])) m++;
          if (!(m < n && src[m] === LF)) endLine(false);
        } else if (isBlock) endLine(false);
        if (blockLinks) pending = [tag.attrFrom, tag.attrTo];
        readAttributes(out, src, tag.attrFrom, tag.attrTo, depth);
        i = tag.end;
        continue;
      }
    }
    if (c === 0x5b) openAt = i;
    else if (c === 0x5d && (openAt >= 0 || src[i + 1] === 0x5b)) {
      // A link reference used here ([text][label], [label][], [label]): the address of
      // the first definition after it (for a full reference with none, the last
      // `[label]:` one before it, and its label's other `[label]:` ones) is read here, at
      // every such use, from a budget of the input's length (a definition read later
      // drops it and gives its length back).
      const open = openAt;
      openAt = -1;
      let [from, to, resume] = [open + 1, i, i + 1];
      const next = src[i + 1];
      let use = next !== 0x28 && next !== 0x3a;
      let explicit = false; // [text][label] or [label][]
      if (use && next === 0x5b) {
        const e = labelEnd(i + 2);
        if (e >= 0) {
          explicit = true;
          if (e > i + 2) [from, to] = [i + 2, e];
          else if (open < 0) use = false;
          resume = e + 1;
        }
      }
      // With no '[' open (link text with brackets of its own, `[get [it]][dl]`), only a second bracket's label makes a use.
      if (open < 0 && !explicit) use = false;
      const label = use && to > from && labelEnd(from) === to ? labelKey(Buffer.from(src.subarray(from, to)).toString('latin1')) : undefined;
      const same = byLabel.get(label);
      // The first definition after the use; for a full or collapsed reference with none, the last before it if written `[label]:`.
      const before = explicit ? same?.findLast((def) => def.drop[0] < i) : undefined;
      const d = same?.find((def) => def.drop[0] >= i) ?? (before?.colon ? before : undefined);
      if (explicit && label !== undefined && !d) out.noteUnresolved(label, level);
      const readAddress = (def) => {
        if (def.url.length + 2 > out.referenceBudget) {
          out.unreadReferences = true; // the budget is spent: the address stays at its definition
          return false;
        }
        out.referenceBudget -= def.url.length + 2;
        def.emitted = true;
        out.put(SP);
        for (const b of def.url) out.put(b < 0x80 && MARKUP.has(b) ? SP : b);
        out.put(SP);
        return true;
      };
      if (d && d.labelFrom !== from && readAddress(d)) {
        // A label defined more than once: a reference also reads its other `[label]:` definitions (up to 16 others looked at;
        // a label defined more often leaves the use unread).
        // A plain `[label]` reads the other definitions after it only: it never looks back (decision 83).
        const others = same.filter((def) => def !== d && (explicit || def.drop[0] >= i));
        for (const def of others.slice(0, 16)) if (def.colon && !readAddress(def)) break;
        if (others.length > 16) out.unreadReferences = true;
        i = resume;
        continue;
      }
    }
    if (c === AMP) {
      const e = entityAt(src, i);
      if (e) {
        for (const cp of e.cps) putDecoded(out, cp);
        i = e.end;
        continue;
      }
    }
    if (c === BS) {
      const e = escapeAt(src, i);
      if (e) {
        if (e.cp !== undefined) putDecoded(out, e.cp);
        else if (e.ctl === 'n') out.put(LF);
        else if (e.ctl !== 'r') {
          if (e.ctl) out.put(SP);
          else putDecoded(out, e.lit);
        }
        i = e.end;
        continue;
      }
    }
    // <|name|> is a chat-template token, not table cells: its bars read as spaces.
    if ((c === LT && src[i + 1] === PIPE) || (c === PIPE && src[i + 1] === GT)) { out.put(SP); i += 2; continue; }
    if (c === PIPE || (c === 0x2c && cellComma(src, i))) { endLine(true); i++; continue; }
    if ((c === SLASH && (src[i + 1] === SLASH || src[i + 1] === STAR)) || (c === STAR && src[i + 1] === SLASH)) {
      out.put(SP);
      i += 2;
      continue;
    }
    if (RUNS.has(c)) {
      let k = i;
      while (k < n && src[k] === c) k++;
      if (k - i >= 3) { out.put(SP); i = k; continue; }
    }
    out.put(MARKUP.has(c) ? SP : c);
    i++;
  }
  if (pending) inlineLinks(out, src, pending[0], pending[1], 'other');
  out.sourceLine(lineFrom);
  if (cellSplit) out.sourceLine(cellFrom);
  out.endParagraph(out.bytes.length, out.bytes.length);
  out.levels.pop();
}

// ---------------------------------------------------------------- letter layer

/** Strict UTF-8: [code point, length], or [-1, 1] for a byte that starts no valid sequence. */
export function decodeUtf8(b, p) {
  const c = b[p];
  if (c < 0x80) return [c, 1];
  const cont = (k) => p + k < b.length && (b[p + k] & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf && cont(1)) return [((c & 0x1f) << 6) | (b[p + 1] & 0x3f), 2];
  if (c >= 0xe0 && c <= 0xef && cont(1) && cont(2)) {
    const cp = ((c & 0x0f) << 12) | ((b[p + 1] & 0x3f) << 6) | (b[p + 2] & 0x3f);
    if (cp >= 0x800 && !(cp >= 0xd800 && cp <= 0xdfff)) return [cp, 3];
  }
  if (c >= 0xf0 && c <= 0xf4 && cont(1) && cont(2) && cont(3)) {
    const cp = ((c & 0x07) << 18) | ((b[p + 1] & 0x3f) << 12) | ((b[p + 2] & 0x3f) << 6) | (b[p + 3] & 0x3f);
    if (cp >= 0x10000 && cp <= 0x10ffff) return [cp, 4];
  }
  return [-1, 1];
}

/** Non-ASCII code points that are not letters: punctuation, spaces, symbols, specials (but 〇, a look-alike of O). Everything else above U+007F is. */
export const NOT_LETTERS = [
  [0x80, 0xa9], [0xab, 0xb4], [0xb6, 0xb9], [0xbb, 0xbf], [0xd7, 0xd7], [0xf7, 0xf7],
  [0x37e, 0x37e], [0x384, 0x385], [0x387, 0x387], [0x55a, 0x55f], [0x589, 0x58a], [0x5be, 0x5be],
  [0x5c0, 0x5c0], [0x5c3, 0x5c3], [0x5f3, 0x5f4], [0x60c, 0x60d], [0x61b, 0x61f], [0x66a, 0x66d],
  [0x6d4, 0x6d4], [0x964, 0x965], [0x2000, 0x206f], [0x20a0, 0x20cf], [0x2190, 0x2bff], [0x2e00, 0x2e7f],
  [0x3000, 0x3006], [0x3008, 0x303f], [0xfe10, 0xfe1f], [0xfe30, 0xfe6f], [0xff01, 0xff0f], [0xff1a, 0xff20], [0xff3b, 0xff40],
  [0xff5b, 0xff65], [0xfff0, 0xffff], [0x1f000, 0x1faff], [0xe0000, 0xe007f],
];
const isLetterCp = (cp) => (cp < 0x80 ? isLetter(cp) : cp >= 0 && !NOT_LETTERS.some(([a, b]) => cp >= a && cp <= b));
const isWordCp = (cp) => isLetterCp(cp) || (cp >= 0 && isDigit(cp));

/** The look-alike folds, derived from the JSON here on their own (scripts/gen-confusables.mjs writes the core's table). */
const FOLDS = (() => {
  const json = JSON.parse(readFileSync(new URL('../../data/unicode/confusables.json', import.meta.url), 'utf8'));
  const folds = new Map();
  for (const [source, skeleton] of Object.entries(json)) {
    const cp = source.codePointAt(0);
    if (source.length > 2 || String.fromCodePoint(cp) !== source || cp < 0x80) continue;
    if (!/^[A-Za-z0-9]$/.test(skeleton) || !/^[\p{L}\p{Nd}\p{Nl}]$/u.test(source)) continue;
    const nfkc = source.normalize('NFKC');
    const upper = source.toLowerCase() !== source;
    folds.set(cp, code(/^[A-Za-z0-9]$/.test(nfkc) ? nfkc : skeleton === 'l' && upper ? 'I' : skeleton));
  }
  return folds;
})();

/** The ASCII byte a look-alike reads as, or 0. Full-width ASCII and the mathematical letters and digits fold as NFKC folds them. */
export function foldOf(cp) {
  if (cp >= 0xff01 && cp <= 0xff5e) return 0; // settled when decoded; a literal one was normalised away (NFKC)
  if (cp >= 0x1d400 && cp <= 0x1d6a3) {
    const k = (cp - 0x1d400) % 52;
    return k < 26 ? 0x41 + k : 0x61 + k - 26;
  }
  if (cp >= 0x1d7ce && cp <= 0x1d7ff) return 0x30 + ((cp - 0x1d7ce) % 10);
  return FOLDS.get(cp) ?? 0;
}

/**
 * Write a word's code points, folded when it mixes look-alikes with ASCII letters or
 * holds nothing but look-alikes, unless those are all digits of another script (a number).
 */
function putWord(dst, cps, b) {
  let ascii = 0, folds = 0, digits = 0, others = 0;
  for (const [cp] of cps) {
    if (cp < 0x80) ascii += isLetter(cp) ? 1 : 0;
    else if (foldOf(cp)) {
      folds++;
      if (/\p{Nd}/u.test(String.fromCodePoint(cp))) digits++;
    } else others++;
  }
  const fold = folds > 0 && (ascii > 0 || (others === 0 && folds > digits));
  for (const [cp, at, len] of cps) {
    if (fold && cp >= 0x80 && foldOf(cp)) dst.push(foldOf(cp));
    else for (let k = 0; k < len; k++) dst.push(b[at + k]);
  }
}

/** Three or more single letters joined by one repeated separator, at a word start r: the letters and the end, or null. */
function runAt(b, r) {
  const [cp0, len0] = decodeUtf8(b, r);
  const letters = [[cp0, r, len0]];
  let p = r + len0;
  const sep = b[p];
  if (p >= b.length || !SEPARATORS.has(sep)) return null;
  while (p < b.length && b[p] === sep && p + 1 < b.length) {
    const [cp, len] = decodeUtf8(b, p + 1);
    if (!isLetterCp(cp)) break;
    letters.push([cp, p + 1, len]);
    p += 1 + len;
  }
  const k = letters.length - 1;
  if (k < 2) return null;
  const followed = p < b.length && isWordCp(decodeUtf8(b, p)[0]);
  if (!followed) return { letters, end: p };
  if (k - 1 >= 2) return { letters: letters.slice(0, -1), end: letters[k - 1][1] + letters[k - 1][2] };
  return null;
}

/** The letter layer over the structure layer's bytes: the new bytes and where each old element start went. */
function letterLayer(b) {
  const dst = [];
  const map = new Int32Array(b.length + 1).fill(-1);
  for (let r = 0; r < b.length; ) {
    map[r] = dst.length;
    const [cp, len] = decodeUtf8(b, r);
    if (!isWordCp(cp)) {
      for (let k = 0; k < len; k++) dst.push(b[r + k]);
      r += len;
      continue;
    }
    const run = isLetterCp(cp) ? runAt(b, r) : null;
    if (run) {
      putWord(dst, run.letters, b);
      r = run.end;
      continue;
    }
    const cps = [];
    let e = r;
    while (e < b.length) {
      const [c2, l2] = decodeUtf8(b, e);
      if (!isWordCp(c2)) break;
      cps.push([c2, e, l2]);
      e += l2;
    }
    putWord(dst, cps, b);
    r = e;
  }
  map[b.length] = dst.length;
  return { bytes: Uint8Array.from(dst), map };
}

/**
 * The reading of UTF-8 `bytes`: { bytes, segments, lines }, the spans flattened
 * [from, to) byte offsets: segments (strings, comments, attribute values) and source
 * lines (an input line or cell whose reading spans several lines).
 */
export function read(bytes) {
  const out = new Out();
  out.referenceBudget = bytes.length;
  out.unreadReferences = false;
  readLevel(out, bytes, 0);
  if (out.crossLevelReference()) out.unreadReferences = true;
  const { bytes: text, map } = letterLayer(out.bytes);
  const spans = (list) => list.flatMap(([from, to]) => {
    if (map[from] < 0 || map[to] < 0) throw new Error('reference: a span boundary inside a word');
    return [map[from], map[to]];
  });
  return { bytes: text, segments: spans(out.segments), lines: spans(out.lines), paragraphs: spans(out.paragraphs), unreadReferences: out.unreadReferences };
}

// ---------------------------------------------------------------- ranges

const isContinuation = (c) => (c & 0xc0) === 0x80;
const isSentenceSpace = (c) => c === SP || c === TAB || c === 0x0b || c === 0x0c || c === CR; // [^\S\n], ASCII

function blank(b, from, to) {
  for (let k = from; k < to; k++) if (!isWs(b[k])) return false;
  return true;
}

/** src/ipi/windows.ts windowRanges over bytes [from, to) of b, ASCII whitespace, cuts never inside a UTF-8 sequence. */
export function windowRanges(b, from, to, max = MAX_WINDOW) {
  const out = [];
  let start = -1;
  let end = 0;
  let packed = 0;
  const piece = (a, z) => {
    if (blank(b, a, z)) return;
    const length = z - a;
    if (start >= 0 && packed + length + 1 > max) {
      out.push(start, end);
      start = -1;
    }
    if (start < 0) { start = a; packed = length; } else packed += length + 1;
    end = z;
    let cut = false;
    while (packed > max * 2) {
      let at = start + max;
      for (let k = 0; k < 3 && at < end && isContinuation(b[at]); k++) at++;
      if (!blank(b, start, at)) out.push(start, at);
      packed -= at - start;
      start = at;
      cut = true;
    }
    if (cut && blank(b, start, end)) start = -1;
  };
  let sentenceEnd = -1;
  for (let lineStart = from; lineStart <= to; ) {
    let lineEnd = lineStart;
    while (lineEnd < to && b[lineEnd] !== LF) lineEnd++;
    if (lineEnd - lineStart <= max) piece(lineStart, lineEnd);
    else {
      let a = lineStart;
      while (true) {
        if (sentenceEnd < a) {
          let k = a;
          while (k + 1 < to && !('.!?;:'.includes(String.fromCharCode(b[k])) && isSentenceSpace(b[k + 1]))) k++;
          sentenceEnd = k + 1 < to ? k : to;
        }
        if (sentenceEnd >= lineEnd) break;
        let next = sentenceEnd + 1;
        while (next < lineEnd && isWs(b[next])) next++;
        piece(a, sentenceEnd + 1);
        a = next;
      }
      piece(a, lineEnd);
    }
    lineStart = lineEnd + 1;
  }
  if (start >= 0) out.push(start, end);
  return out;
}

/** The ranges the classifier scores, flattened [from, to) byte offsets: whole, segments, paragraphs and their windows, lines, sentences. */
export function ranges(b, { segments, lines, paragraphs }) {
  const seen = new Set();
  const out = [];
  const add = (a, z) => {
    while (a < z && isWs(b[a])) a++;
    while (z > a && isWs(b[z - 1])) z--;
    if (z - a < 3) return;
    const key = `${a},${z}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(a, z);
  };
  /** A line (or source line) of MIN_LINE to MAX_WINDOW bytes, trimmed. */
  const line = (from, to) => {
    let a = from, z = to;
    while (a < z && isWs(b[a])) a++;
    while (z > a && isWs(b[z - 1])) z--;
    if (z - a >= MIN_LINE && to - from <= MAX_WINDOW) add(from, to);
  };
  add(0, b.length);
  for (let i = 0; i < segments.length; i += 2) if (segments[i + 1] - segments[i] <= MAX_PARAGRAPH) add(segments[i], segments[i + 1]);
  // A source line that is a key and one string and nothing else is not a range (ranges.ts: isKeyAndString);
  // the string is its longest, the last of equal ones.
  const keyAndString = (a, z) => {
    let best = null;
    for (let i = 0; i < segments.length; i += 2) {
      const [s, t] = [segments[i], segments[i + 1]];
      if (s >= a && t <= z && (!best || t - s >= best[1] - best[0])) best = [s, t];
    }
    if (!best) return false;
    let outside = 0;
    for (let p = a; p < z; p++) if ((p < best[0] || p >= best[1]) && !isWs(b[p])) outside++;
    return outside <= 24;
  };
  for (let i = 0; i < lines.length; i += 2) if (!keyAndString(lines[i], lines[i + 1])) line(lines[i], lines[i + 1]);
  for (let i = 0; i < paragraphs.length; i += 2) {
    const a = paragraphs[i];
    const z = paragraphs[i + 1];
    if (z - a >= MIN_LINE && z - a <= MAX_PARAGRAPH) add(a, z);
    const w = windowRanges(b, a, z);
    if (w.length > 2 || z - a > MAX_PARAGRAPH) for (let k = 0; k < w.length; k += 2) add(w[k], w[k + 1]);
  }
  const isEnd = (p, to) => '.!?;:'.includes(String.fromCharCode(b[p])) && p + 1 < to && isSentenceSpace(b[p + 1]);
  /** Each sentence of a line that holds more than one, trimmed to MIN_LINE..MAX_WINDOW bytes. */
  const sentence = (from, to) => {
    let a = from, z = to;
    while (a < z && isWs(b[a])) a++;
    while (z > a && isWs(b[z - 1])) z--;
    if (z - a >= MIN_LINE && z - a <= MAX_WINDOW) add(a, z);
  };
  for (let ls = 0, i = 0; i <= b.length; i++) {
    if (i < b.length && b[i] !== LF) continue;
    line(ls, i);
    let first = -1;
    for (let p = ls; p + 1 < i; p++) if (isEnd(p, i)) { first = p; break; }
    if (first >= 0 && !blank(b, first + 1, i)) {
      let a = ls;
      for (let p = first; p + 1 < i; p++) if (isEnd(p, i)) { sentence(a, p + 1); a = p + 1; }
      sentence(a, i);
    }
    ls = i + 1;
  }
  return out;
}
