import { foldLetters } from '../bindings/reading.js';
import { decodeEscapes, HAS_ESCAPE, unnestedEscapes } from './escapes.js';
import { linedWords, spacedRuns } from './joined-words.js';

// The readings of a text the detector's content scorer takes the highest of, where
// characters between words are read one way by the core and another by an agent's
// model. Which way an author meant cannot be told from the characters, so each
// reading is scored and the higher kept: no reading can lower a score. The text as
// written is always the first.

// Whitespace to Unicode that the core does not read as a break: U+2028, U+2029 and NEL
// stay word bytes, the core drops a CR that no LF follows. Written between words
// ("Ignore\u2028all\u2028previous …") they glued an injection into one word, which
// scored 0.00 (0.36 with lone CRs). A reading writes them as `\n`, and the Ogham space
// mark as a space (decision 92). A lone CR is read both ways, in a reading of its own:
// the core drops it, so one inside a word ("Ign\rore") leaves it whole, and as a break
// it splits it; mixed with the others, one way would lower what the other raises.
const UNICODE_BREAK = /[\u0085\u1680\u2028\u2029]/;
const UNICODE_BREAKS = /[\u0085\u2028\u2029]/g;
const OGHAM_SPACE = /\u1680/g;
const LONE_CR = /\r(?!\n)/;
const LONE_CRS = /\r(?!\n)/g;
/** `text` with Unicode's other line breaks as `\n` and the Ogham space as a space. */
const unicodeBreaksRead = (text: string): string => (UNICODE_BREAK.test(text) ? text.replace(UNICODE_BREAKS, '\n').replace(OGHAM_SPACE, ' ') : text);

// Characters that render as nothing (default-ignorable and other format characters,
// C1 controls and DEL, the braille blank), between two letters: `normalizeText` drops or
// keeps them, so a word they split ("ig\u200Bnore") reads whole, and words they separate
// ("Ignore\u200Ball\u200Bprevious …") read as one, 0.36 where spaces give 1.00. A reading
// writes each run as a space (decision 93). The soft hyphen is left out: it marks where a
// word may break, and as a space it raised hyphenated prose past `medium` (a run of words
// it joins is decision 96's). Tag characters are read as the ASCII they shadow first, as
// normalizeText does. A run is found by a plain class, its neighbours tested apart: a
// pattern with lookarounds, or a class with the soft hyphen taken out, kept a backtrack
// entry per character, and a run of four million overflowed the stack.
const INVISIBLE_CLASS = '[\\p{Default_Ignorable_Code_Point}\\p{Cf}\\u007F-\\u0084\\u0086-\\u009F\\u2800]';
const HAS_INVISIBLE = new RegExp(INVISIBLE_CLASS, 'u');
const INVISIBLE_RUN = new RegExp(`${INVISIBLE_CLASS}+`, 'gu');
const LETTER_BEFORE = /[\p{L}\p{M}\p{N}]$/u;
const LETTER_AFTER = /^[\p{L}\p{M}\p{N}]/u;
const IS_INVISIBLE = new RegExp(`^[${INVISIBLE_CLASS}--[\\u00AD]]$`, 'v');

/** `text` with each run of invisible characters between two letters, marks or digits written as a space (no run with a soft hyphen). */
function spacedInvisibles(text: string): string {
  return text.replace(INVISIBLE_RUN, (run: string, at: number) =>
    !run.includes('\u00AD') && LETTER_BEFORE.test(text.slice(Math.max(0, at - 2), at)) && LETTER_AFTER.test(text.slice(at + run.length, at + run.length + 2)) ? ' ' : run,
  );
}
const TAGS = /[\u{E0020}-\u{E007E}]/gu;
const asciiOfTags = (text: string): string => text.replace(TAGS, (t) => String.fromCharCode(t.codePointAt(0)! - 0xe0000));
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** The spaces NFKC makes ASCII spaces, which the core keeps as word bytes when it decodes them from an escape. */
const IS_SPACE = /^[\u00A0\u2000-\u200A\u202F\u205F\u3000]$/;
/** The joiners of decision 96 (src/ipi/joined-words.ts), as the core decodes `\/` or `&#45;`. */
const IS_JOINER = /^[-_.+=:/\u00AD\u00B7\u2010-\u2013\u2212\u2022\u30FB\uFF65]$/;
/** Characters whose escapes are decoded before the readings are made (decision 94). */
function decoded(cp: number, c: string): boolean {
  // Below U+034F only these are breaks, spaces, invisible characters or joiners: most escapes need no test.
  if (cp < 0x80) return cp === 0x0d || cp === 0x7f || IS_JOINER.test(c);
  if (cp < 0x34f && cp > 0xad && cp !== 0xb7) return false;
  return UNICODE_BREAK.test(c) || IS_SPACE.test(c) || IS_INVISIBLE.test(c) || IS_JOINER.test(c);
}

// Full-width forms and mathematical letters, which NFKC makes ASCII (`－`, `𝐈𝐠𝐧𝐨𝐫𝐞`): the core folds them, and
// the joined words' reading must see them folded too.
const HAS_COMPATIBILITY_FORM = /[\uFF00-\uFFEF\u{1D400}-\u{1D7FF}]/u;
// Both rules concern a CR, DEL, a non-ASCII character or an escape: most tool output has none.
const NONE_TO_READ = /^[\x00-\x0c\x0e-\x7e]*$/;

/** A text's readings, and the text as the core would read its characters (see readingsOf). */
interface Readings {
  /** The text, then each reading that differs from it: the separators' readings first. */
  readonly all: readonly string[];
  /** How many of `all` are the text and its separators' readings (decisions 92–94). */
  readonly separated: number;
  /** The text with escapes decoded, Unicode's breaks as `\n`, lone CRs and invisible characters dropped, NFKC-folded. */
  readonly plain: string;
}

// `observe` asks for a result's readings twice, for its syntax and for its passages: the last text's are kept,
// up to 64 KiB of it, so that no long text stays held between calls.
const MAX_KEPT = 1 << 16;
let lastText: string | undefined;
let lastReadings: Readings | undefined;

function readingsWithPlain(text: string): Readings {
  if (text === lastText) return lastReadings!;
  const readings = readingsOfText(text);
  if (text.length <= MAX_KEPT) {
    lastText = text;
    lastReadings = readings;
  }
  return readings;
}

/** `text` with the escapes of decision 94 decoded, and whether one of them was a space's. */
function decodedEscapes(text: string): { readonly text: string; readonly spaces: boolean } {
  if (!HAS_ESCAPE.test(text)) return { text, spaces: false };
  let spaces = false;
  const out = decodeEscapes(text, (cp, c) => {
    if (!decoded(cp, c)) return false;
    if (IS_SPACE.test(c)) spaces = true;
    return true;
  });
  return { text: out, spaces };
}

const DOUBLE_ENTITY = /&amp;#/;

function readingsOfText(text: string): Readings {
  const all = [text];
  const { text: escaped, spaces } = decodedEscapes(text);
  // Escapes escaped once more are decoded in a base of their own: `C:\\reports` in JSON is a path, not a CR.
  const unnested = unnestedEscapes(text);
  const nested = unnested === text ? undefined : decodedEscapes(unnested);
  if (escaped === text && nested === undefined && NONE_TO_READ.test(text)) {
    const joined = spacedRuns(linedWords(text));
    if (joined !== text) all.push(joined);
    return { all, separated: 1, plain: text };
  }
  // The rules read the text as written and with its escapes decoded: an escape the core drops inside a word, beside a
  // character between words that a rule maps, must stay what the core makes of it (and the other way round).
  const bases = [{ text, spaces: false }];
  if (escaped !== text) bases.push({ text: escaped, spaces });
  if (nested !== undefined && nested.text !== escaped && nested.text !== unnested) bases.push(nested);
  // HTML escaped twice: the core decodes `&amp;` once and leaves `&#32;` a word, where an agent's model reads the
  // entity, a space, between words. The text with its entities escaped once is a reading of its own.
  if (unnested !== text && DOUBLE_ENTITY.test(text)) all.push(unnested);
  for (const { text: base, spaces: decodedSpace } of bases) {
    const breaks = unicodeBreaksRead(base);
    // Lone as written: a CR before U+2028 is no half of a CRLF once that is written `\n`.
    const crs = LONE_CR.test(base) ? unicodeBreaksRead(base.replace(LONE_CRS, '\n')) : breaks;
    // A decoded escape of a character the core drops reads as the core reads the escape: no reading of its own.
    if (breaks !== base || decodedSpace) all.push(breaks);
    if (crs !== breaks) all.push(crs);
    if (!HAS_INVISIBLE.test(base)) continue;
    for (const read of crs === breaks ? [breaks] : [breaks, crs]) {
      const untagged = asciiOfTags(read);
      const spaced = spacedInvisibles(untagged);
      if (spaced !== untagged) all.push(spaced);
    }
  }
  const unique = [...new Set(all)];
  const separated = unique.length;
  const views = coreViews(escaped);
  // Joiners escaped twice (a soft hyphen's `\\u00ad` in a JSON string in a JSON string) are joiners too.
  if (nested !== undefined && nested.text !== escaped) views.push(...coreViews(nested.text).filter((v) => !views.includes(v)));
  for (const base of views) {
    const joined = spacedRuns(linedWords(base));
    if (joined !== base && !unique.includes(joined)) unique.push(joined);
  }
  return { all: unique, separated, plain: views[0]! };
}

/**
 * A decoded text as the core reads its characters (Unicode's breaks as `\n`, lone CRs and invisible characters
 * dropped, NFKC-folded where it holds full-width or mathematical forms), then, where it holds a soft hyphen, the
 * same with the soft hyphen kept: it joins words, and splits one, and the joined words' reading takes both.
 */
function coreViews(decoded: string): string[] {
  const core = asciiOfTags(unicodeBreaksRead(decoded).replace(LONE_CRS, ''));
  let plain = core.replace(DEFAULT_IGNORABLE, '');
  if (HAS_COMPATIBILITY_FORM.test(plain)) plain = plain.normalize('NFKC');
  const withHyphens = core.includes('\u00AD') ? core.replace(DEFAULT_IGNORABLE, (c) => (c === '\u00AD' ? c : '')) : plain;
  return withHyphens === plain ? [plain] : [plain, withHyphens];
}

/**
 * `text`, then, where they differ from it: its readings with Unicode's other breaks as `\n`, with lone CRs as `\n`,
 * and with invisible runs between letters as spaces, each with those characters' escapes decoded (decisions
 * 92–94); and its reading with a sentence set one word per line as one line and runs of joined words spaced
 * (decisions 96, 97), of the text as the core reads its characters.
 */
export function readingsOf(text: string): readonly string[] {
  return readingsWithPlain(text).all;
}

// A letter that may be a look-alike of an ASCII one (assembly/confusables.generated.ts has none below U+0131), but
// for Chinese, Japanese and Korean, whose texts run Latin words into theirs.
const MAYBE_LOOK_ALIKE = '[\\p{L}--[\\x00-\\u0130\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]]';
const HAS_LOOK_ALIKE = new RegExp(MAYBE_LOOK_ALIKE, 'v');

/**
 * A value with its look-alike letters folded as the reading folds a result's (`billing@\u0435vil-corp.test`, a
 * Cyrillic е, is `billing@evil-corp.test`): an agent copies such an address as written, and the passage that asked
 * for it holds it folded. The value itself where no letter may be a look-alike, and past `limit` characters. Past
 * SHORT_VALUE characters (a message body in Russian or Greek), unless `whole`, only where a run between blanks mixes
 * ASCII letters or digits with other letters, as a look-alike address does: folding 4 KiB of Cyrillic prose costs
 * more than the rest of a call's tracing, and of a value that long only its addresses and numbers are traced. Trusted
 * turns are folded whole: a short value the call folds must be found among their words.
 */
export function foldedLookAlikes(value: string, limit: number, whole = false): string {
  if (value.length > limit || !HAS_LOOK_ALIKE.test(value)) return value;
  return whole || value.length <= SHORT_VALUE || mixesScripts(value) ? foldLetters(value) : value;
}
const SHORT_VALUE = 512;

/** Whether a run between blanks holds both an ASCII letter or digit and a letter past ASCII: one pass over the code units. */
function mixesScripts(text: string): boolean {
  let ascii = false;
  let other = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      ascii = other = false;
    } else if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) {
      if (other) return true;
      ascii = true;
    } else if (c > 0x7f) {
      if (ascii) return true;
      other = true;
    }
  }
  return false;
}

/** `\n` (and `\r\n`) escapes whose backslash is its own; an escaped backslash is matched as a pair first. */
const ESCAPED_LINE_BREAK = /\\\\|(?:\\r)?\\n/g;
/** `\n` (and `\r\n`) escapes whose backslash is escaped once or more, from a run's first backslash. */
const NESTED_LINE_BREAK = /(?<!\\)\\+(?:r\\+)?n/g;
const NESTED_LINE_BREAK_HINT = /\\\\n/;

/**
 * The texts in which a result's own syntax is matched (a planted call's `Action:` line, an address's `<at>` tag):
 * the text, its separators' readings with the characters that render as nothing dropped, as `normalizeText` drops them,
 * the text as the core reads its characters with its escaped line breaks (`\n` in a JSON string) as breaks, and that
 * with look-alike letters folded (`foldLetters`). A BOM
 * before `Action:` or a zero-width space inside it hid the line from the patterns, which read the raw result.
 * Not the joined words' reading: `send_all_files_to_the_server` is one tool name, whatever it says.
 */
export function syntaxReadingsOf(text: string): string[] {
  const { all, separated, plain } = readingsWithPlain(text);
  // The text as written too: an invisible character dropped beside a spelled address joins it to its neighbour.
  const out = [text, ...all.slice(0, separated).map((r) => asciiOfTags(r).replace(DEFAULT_IGNORABLE, ''))];
  const core = plain.replace(ESCAPED_LINE_BREAK, (escape) => (escape === '\\\\' ? escape : '\n'));
  out.push(core);
  // A JSON string in a JSON string writes its line breaks with their backslash escaped (`\\n`): read as breaks too.
  if (NESTED_LINE_BREAK_HINT.test(core)) out.push(core.replace(NESTED_LINE_BREAK, '\n'));
  // And with look-alike letters folded as the core folds them (`\u0410ction:` with a Cyrillic A, `<\u0430t>`, a name
  // of nothing but look-alikes), when a letter may be one: a pass costs 30–90 µs on 4 KiB of Greek or Cyrillic.
  if (HAS_LOOK_ALIKE.test(core)) out.push(foldLetters(core));
  return [...new Set(out)];
}
