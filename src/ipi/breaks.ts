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

// Both rules concern a CR, DEL or a non-ASCII character: most tool output has none, and one scan says so.
const NONE_TO_READ = /^[\x00-\x0c\x0e-\x7e]*$/;

/** `text`, then, where they differ from it, its reading with Unicode's other breaks as `\n` and its reading with invisible runs between letters as spaces. */
export function readingsOf(text: string): string[] {
  if (NONE_TO_READ.test(text)) return [text];
  const out = [text];
  const plain = BREAK_OR_SPACE.test(text) ? text.replace(LINE_BREAKS, '\n').replace(OGHAM_SPACE, ' ') : text;
  if (plain !== text) out.push(plain);
  if (HAS_INVISIBLE.test(plain)) {
    const untagged = plain.replace(TAGS, (t) => String.fromCharCode(t.codePointAt(0)! - 0xe0000));
    const spaced = untagged.replace(INVISIBLE_BETWEEN_LETTERS, ' ');
    if (spaced !== untagged) out.push(spaced);
  }
  return out;
}
