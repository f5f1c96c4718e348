/**
 * The passages a session keeps of a tool result (for provenance: which passage a
 * copied value came from, and that passage's score): the reading's lines packed
 * into windows of about `max` characters, a longer line split at sentence ends.
 * The content model's own ranges are cut in the core (assembly/ranges.ts), with
 * the same packing over bytes but for the heading rule below: the core also scores
 * each paragraph of up to 2,000 bytes whole, so a heading is read with its text there.
 */
export const MAX_WINDOW = 320;

export function windows(text: string, max = MAX_WINDOW): string[] {
  const ranges = windowRanges(text, max);
  const out: string[] = [];
  for (let i = 0; i < ranges.length; i += 2) out.push(text.slice(ranges[i], ranges[i + 1]));
  return out;
}

/**
 * The windows of `text` as [start, end) UTF-16 offsets, flattened
 * (start₀, end₀, start₁, end₁, …). Pieces are the non-blank lines, and the
 * sentences of lines longer than `max` (a sentence ends at . ! ? ; or : and
 * the whitespace after it). Consecutive pieces share a window while their
 * lengths plus one separator each stay within `max`; a window longer than
 * twice `max` (one long sentence) is cut every `max` characters, never
 * inside a surrogate pair. The text between two pieces of one window
 * (newlines, the whitespace after a sentence) stays in the window; it reads
 * as a space to the featurizer, like the newline the pieces were once
 * joined with.
 *
 * A window never ends with a heading when more follows: a last piece of at
 * most HEADING_MAX characters that ends in no . ! ? or ; (a title, a key the
 * reading set on its own line, "Note for AI reviewers:") opens the next window
 * instead, with the text it introduces. Cut by length alone, a note's address
 * and its order fell into two windows that each read as harmless.
 */
export function windowRanges(text: string, max = MAX_WINDOW): number[] {
  const out: number[] = [];
  let start = -1; // of the window being packed; -1: none
  let end = 0;
  let packed = 0; // its length counted as pieces plus one separator each
  let lastFrom = 0; // the window's last piece (past `start` when it is not the first), and the end of the one before it
  let beforeLast = 0;
  const piece = (from: number, to: number): void => {
    if (isBlank(text, from, to)) return;
    const length = to - from;
    if (start >= 0 && packed + length + 1 > max) {
      if (lastFrom > start && end - lastFrom <= HEADING_MAX && isHeading(text, lastFrom, end)) {
        out.push(start, beforeLast);
        start = lastFrom;
        packed = end - lastFrom;
      } else {
        out.push(start, end);
        start = -1;
      }
    }
    if (start < 0) {
      start = from;
      packed = length;
    } else packed += length + 1;
    beforeLast = end;
    lastFrom = from;
    end = to;
    while (packed > max * 2) {
      let cut = start + max;
      if (isHighSurrogate(text.charCodeAt(cut - 1))) cut++; // keep the pair whole
      if (!isBlank(text, start, cut)) out.push(start, cut);
      packed -= cut - start;
      start = cut;
      lastFrom = start; // what is left of the cut piece: nothing to move
    }
    if (isBlank(text, start, end)) start = -1; // the cuts left only whitespace
  };
  // The next sentence end at or after the current line's start (its
  // punctuation's index), kept across lines so no stretch is searched twice.
  let sentenceEnd = -1;
  for (let lineStart = 0; lineStart <= text.length; ) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    if (lineEnd - lineStart <= max) piece(lineStart, lineEnd);
    else {
      let from = lineStart;
      while (true) {
        if (sentenceEnd < from) {
          SENTENCE_END.lastIndex = from;
          sentenceEnd = SENTENCE_END.test(text) ? SENTENCE_END.lastIndex - 1 : text.length;
        }
        if (sentenceEnd >= lineEnd) break;
        let next = sentenceEnd + 1;
        while (next < lineEnd && isWhitespace(text.charCodeAt(next))) next++;
        piece(from, sentenceEnd + 1);
        from = next;
      }
      piece(from, lineEnd);
    }
    lineStart = lineEnd + 1;
  }
  if (start >= 0) out.push(start, end);
  return out;
}

// Punctuation followed by whitespace other than a newline (which ends the
// line instead). Searched with test() from a position, not split(/(?<=[.!?;:])\s+/):
// no match objects or substrings per sentence, and no lookbehind, which
// defeats V8's fast scan; the two cut alike (test/ipi.test.ts). The regex
// engine finds the next one far faster than a charCodeAt loop in JavaScript.
const SENTENCE_END = /[.!?;:](?=[^\S\n])/g;

/** A heading is at most this long (UTF-16 units). */
const HEADING_MAX = 80;

/** Whether text[from, to) (a piece, not blank) ends in no sentence end: a title, a key, an address ending in a colon. */
function isHeading(text: string, from: number, to: number): boolean {
  let z = to;
  while (z > from && isWhitespace(text.charCodeAt(z - 1))) z--;
  const c = text.charCodeAt(z - 1);
  return c !== 0x2e && c !== 0x21 && c !== 0x3f && c !== 0x3b;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isWhitespace(text.charCodeAt(i))) return false;
  return true;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** What String.prototype.trim removes and /\s/ matches: WhiteSpace and LineTerminator. */
export function isWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f ||
    c === 0x3000 || c === 0xfeff
  );
}
