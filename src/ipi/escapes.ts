// Escapes and entities of the characters the detector's readings turn on (src/ipi/breaks.ts): line breaks,
// spaces, characters that render as nothing, and the joiners of src/ipi/joined-words.ts. The core decodes
// `\u2028` and `\r` in a JSON string, `\x85`, `\/`, `&#8203;` and `&#x2028;` itself, after any reading could
// see them, and then drops or keeps the character as `normalizeText` would: written so between words, they
// glued an injection into one word (decision 94). They are decoded first, into the characters they stand for.
//
// An escaped backslash is matched as a pair of its own, so that what follows it (`\\u200b`, a path's
// `C:\\rules`) is a word, and a run of backslashes is read once, left to right. `\r` before a `\n` is half of
// a CRLF, which already breaks the line. A `\u` escape of U+00A0–U+02FF is not matched, but for the no-break
// space, the soft hyphen and the middle dot: the other Latin letters there are most escapes of Python's JSON,
// which writes every non-ASCII character so.
const ESCAPE = /\\\\|\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u(?!00(?![aA][0dD]|[bB]7)[a-fA-F]|0[12])[0-9a-fA-F]{4}|u\{[0-9a-fA-F]{1,6}\}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|r(?!\\n|\n)|\/)|&#(?:[0-9]{1,7}|[xX][0-9a-fA-F]{1,6});/g;
export const HAS_ESCAPE = /\\[uUxr/]|&#/;

// A JSON string inside a JSON string (a tool's JSON text in an MCP result, Python's `json.dumps`, which writes
// every non-ASCII character as `\uXXXX`, inside a framework's JSON) writes an escape's backslash escaped
// (`\\u200b`, `\\r`), and HTML escaped twice writes an entity's ampersand so (`&amp;#8203;`). The core decodes
// both JSON levels and drops what they stand for, and leaves `& 8203;` glued to the next word, where the pairs
// above read a word: the separator glued the injection again (0.00–0.38, allowed). A run of backslashes or an
// `&amp;` right before such an escape is read as one, from the run's first backslash: tried from each, a long run
// cost its length squared.
const NESTED_ESCAPE = /(?<!\\)\\{2,}(?=u[0-9a-fA-F]{4}|u\{|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|r|\/)|&amp;(?=#(?:[0-9]{1,7}|[xX][0-9a-fA-F]{1,6});)/g;
const HAS_NESTED_ESCAPE = /\\\\[uUxr/]|&amp;#/;

/** `text` with escapes escaped once more (a nested JSON string's, HTML escaped twice) written as escapes; `text` itself when it holds none. */
export function unnestedEscapes(text: string): string {
  return HAS_NESTED_ESCAPE.test(text) ? text.replace(NESTED_ESCAPE, (run) => (run[0] === '&' ? '&' : '\\')) : text;
}

/** The code point an ESCAPE match stands for (-1 for an escaped backslash). */
function escapedCodePoint(escape: string): number {
  if (escape === '\\\\') return -1;
  if (escape === '\\r') return 0x0d;
  if (escape === '\\/') return 0x2f;
  if (escape.startsWith('&#')) return escape[2] === 'x' || escape[2] === 'X' ? parseInt(escape.slice(3), 16) : Number(escape.slice(2, -1));
  if (escape.length === 12) return 0x10000 + ((parseInt(escape.slice(2, 6), 16) - 0xd800) << 10) + (parseInt(escape.slice(8), 16) - 0xdc00);
  return parseInt(escape.slice(escape[2] === '{' ? 3 : 2), 16);
}

/** `text` with each escape or entity of a character that `wanted` accepts written as that character. */
export function decodeEscapes(text: string, wanted: (cp: number, c: string) => boolean): string {
  // A loop, not a replace callback: a text of escapes that stand for other characters (most of them) is not rebuilt.
  let out = '';
  let copied = 0;
  for (const m of text.matchAll(ESCAPE)) {
    const cp = escapedCodePoint(m[0]);
    if (cp < 0 || cp > 0x10ffff) continue;
    const c = String.fromCodePoint(cp);
    if (!wanted(cp, c)) continue;
    out += text.slice(copied, m.index) + c;
    copied = m.index + m[0].length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
