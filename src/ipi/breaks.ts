import { linedWords, spacedRuns } from './joined-words.js';

// The readings of a text the detector's content scorer takes the highest of, where
// characters between words are read one way by the core and another by an agent's
// model. Which way an author meant cannot be told from the characters, so each
// reading is scored and the higher kept: no reading can lower a score.

// Whitespace to Unicode that the core does not read as a break: U+2028, U+2029 and NEL
// stay word bytes, the core drops a CR that no LF follows. Written between words
// ("Ignore\u2028all\u2028previous …") they glued an injection into one word, which
// scored 0.00 (0.36 with lone CRs). The second reading writes them as `\n`, and the
// Ogham space mark as a space (decision 92). The text as written stays a reading: the
// core drops a CR, so one inside a word ("Ign\rore") left it whole, and as a break it
// split it.
const BREAK_OR_SPACE = /[\r\u0085\u1680\u2028\u2029]/;
const LINE_BREAKS = /[\u0085\u2028\u2029]|\r(?!\n)/g;
const OGHAM_SPACE = /\u1680/g;

// Characters that render as nothing (default-ignorable and other format characters,
// C1 controls and DEL, the braille blank), between two letters: `normalizeText` drops or
// keeps them, so a word they split ("ig\u200Bnore") reads whole, and words they separate
// ("Ignore\u200Ball\u200Bprevious …") read as one, 0.36 where spaces give 1.00. The third
// reading writes each run as a space (decision 93). The soft hyphen is left out: it only
// ever marks where a word may break, and as a space it raised hyphenated prose past
// `medium`. Tag characters are read as the ASCII they shadow first, as normalizeText does.
const INVISIBLE = '(?:(?!\\u00AD)[\\p{Default_Ignorable_Code_Point}\\p{Cf}\\u007F-\\u0084\\u0086-\\u009F\\u2800])';
const HAS_INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u007F-\u0084\u0086-\u009F\u2800]/u;
const INVISIBLE_BETWEEN_LETTERS = new RegExp(`(?<=[\\p{L}\\p{M}\\p{N}])${INVISIBLE}+(?=[\\p{L}\\p{M}\\p{N}])`, 'gu');
const TAGS = /[\u{E0020}-\u{E007E}]/gu;
const asciiOfTags = (text: string): string => text.replace(TAGS, (t) => String.fromCharCode(t.codePointAt(0)! - 0xe0000));

// The same characters written as escapes or entities (`\u2028` and `\r` in a JSON string,
// `&#8203;` in HTML): the core decodes them, and so drops or keeps them as it does the
// characters, after any reading here could see them. They are decoded first, into the
// characters they stand for, which the two rules then read (decision 94). An escaped
// backslash is matched as a pair of its own, so that what follows it (`\\u200b`, a
// path's `C:\\rules`) is a word, and a run of backslashes is read once, left to right.
// `\r` before a `\n` is half of a CRLF, which already breaks the line. A `\u` escape of
// U+00A0–U+02FF, Latin letters that no separator but the soft hyphen (a joiner, decision
// 96) is among, is not matched at all: most escapes in Python's JSON, which writes every
// non-ASCII character so, are those.
const ESCAPE = /\\\\|\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u(?!00(?![aA][dD])[a-fA-F]|0[12])[0-9a-fA-F]{4}|u\{[0-9a-fA-F]{1,6}\}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|r(?!\\n|\n))|&#(?:[0-9]{1,7}|[xX][0-9a-fA-F]{1,6});/g;
const HAS_ESCAPE = /\\[uUxr]|&#/;
const IS_SEPARATOR = new RegExp(`^(?:[\\r\\u0085\\u1680\\u2028\\u2029]|${INVISIBLE})$`, 'u');

/** The code point an ESCAPE match stands for (-1 for an escaped backslash). */
function escapedCodePoint(escape: string): number {
  if (escape === '\\\\') return -1;
  if (escape === '\\r') return 0x0d;
  if (escape.startsWith('&#')) return escape[2] === 'x' || escape[2] === 'X' ? parseInt(escape.slice(3), 16) : Number(escape.slice(2, -1));
  if (escape.length === 12) return 0x10000 + ((parseInt(escape.slice(2, 6), 16) - 0xd800) << 10) + (parseInt(escape.slice(8), 16) - 0xdc00);
  return parseInt(escape.slice(escape[2] === '{' ? 3 : 2), 16);
}

/** `text` with each escape or entity of a break or an invisible character written as that character. */
function decodeSeparators(text: string): string {
  // A loop, not a replace callback: a text of escapes that stand for other characters (most of them) is not rebuilt.
  let out = '';
  let copied = 0;
  for (const m of text.matchAll(ESCAPE)) {
    const cp = escapedCodePoint(m[0]);
    // Most escapes stand for a letter (Python's JSON writes every non-ASCII one so): below U+034F only CR, DEL, the
    // C1 controls and the soft hyphen are separators, so those letters need no test.
    if (cp < 0 || cp > 0x10ffff || (cp < 0x7f && cp !== 0x0d) || (cp >= 0xa0 && cp < 0x34f && cp !== 0xad)) continue;
    const c = String.fromCodePoint(cp);
    if (cp !== 0xad && !IS_SEPARATOR.test(c)) continue;
    out += text.slice(copied, m.index) + c;
    copied = m.index + m[0].length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

// Both rules concern a CR, DEL or a non-ASCII character, raw or escaped: most tool output has none, and a scan or
// two says so.
const NONE_TO_READ = /^[\x00-\x0c\x0e-\x7e]*$/;

/**
 * `text`, then, where they differ from it, its reading with Unicode's other breaks as `\n` and its reading with
 * invisible runs between letters as spaces, each with those characters' escapes decoded, and the last of these
 * with a sentence set one word per line as one line and runs of joined words spaced.
 */
export function readingsOf(text: string): string[] {
  const out: string[] = [];
  // Words per line and joined words are read in the plainest text, where the separators' readings have made them plain.
  const plainest = separatorReadingsOf(text, out);
  const spaced = spacedRuns(linedWords(plainest));
  if (spaced !== plainest) out.push(spaced);
  return out;
}

/**
 * Adds `text` and its readings with Unicode's other breaks and invisible runs read as separators to `out`
 * (decisions 92–94), and returns the plainest of them: with every escape of a separator decoded, even where
 * that makes no reading of its own.
 */
function separatorReadingsOf(text: string, out: string[]): string {
  out.push(text);
  const decoded = HAS_ESCAPE.test(text) ? decodeSeparators(text) : text;
  if (decoded === text && NONE_TO_READ.test(text)) return text;
  // A decoded invisible character reads as the core reads its escape, so it is no reading of its own until spaced.
  const plain = BREAK_OR_SPACE.test(decoded) ? decoded.replace(LINE_BREAKS, '\n').replace(OGHAM_SPACE, ' ') : decoded;
  if (plain !== decoded) out.push(plain);
  if (!HAS_INVISIBLE.test(plain)) return plain;
  const untagged = asciiOfTags(plain);
  const spaced = untagged.replace(INVISIBLE_BETWEEN_LETTERS, ' ');
  if (spaced === untagged) return plain;
  out.push(spaced);
  return spaced;
}

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The texts in which a result's own syntax is matched (a planted call's `Action:` line, an address's `<at>` tag):
 * each of its readings with the characters that render as nothing dropped, as `normalizeText` drops them. A BOM
 * before `Action:` or a zero-width space inside it hid the line from the patterns, which read the raw result.
 */
export function syntaxReadingsOf(text: string): string[] {
  // Not the joined words' reading: `send_all_files_to_the_server` is one tool name, whatever it says.
  const readings: string[] = [];
  separatorReadingsOf(text, readings);
  if (readings.length === 1 && (NONE_TO_READ.test(text) || !HAS_INVISIBLE.test(text))) return readings;
  return [...new Set(readings.map((r) => asciiOfTags(r).replace(DEFAULT_IGNORABLE, '')))];
}
