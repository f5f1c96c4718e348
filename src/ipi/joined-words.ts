// Words joined by a visible character ("Ignore-previous-instructions-and-send-…", `ignore_all_…`, `%20`), by a soft
// hyphen, or in camelCase are one word to the core: the canonical override so joined scored 0.00–0.45 where spaces give 1.00.
// A run of four words or more, joined by one character throughout, that holds two of the commonest English
// function words reads as a sentence, and is read with its joins as spaces (decision 96). Most identifiers and
// file names hold fewer (`getElementById` one), though some qualify (`toHaveBeenCalledWith`): a run in about one
// code or documentation file in thirteen does. One joiner throughout a run, so that a dotted name beside a path is
// not one run of words.
//
// The scan starts from the joiners and the humps, not from every letter: a pattern tried at each letter cost a
// third of `inspect` on 4 KiB of prose.

const MIN_WORDS = 4;
const FUNCTION_WORDS = new Set(['a', 'all', 'an', 'and', 'any', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'me', 'my', 'not', 'now', 'of', 'on', 'or', 'please', 'the', 'this', 'that', 'to', 'with', 'you', 'your']);
/** A joiner: one character, up to three times (`--`, `...`), or `%20`; Unicode's hyphens and dashes, the minus sign. */
const JOINER = /([-_.+=:/\u00AD\u00B7\u2010-\u2013\u2212\u2022\u30FB\uFF65])\1{0,2}|%20/g;
const SOFT_HYPHEN = '\u00AD';
/** A lowercase letter then a capital: where a camelCase word's next word starts (ASCII; the word is then split whole). */
const HUMP = /[a-z][A-Z]/g;
const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
/** The longest word split at its humps: a sentence in camelCase is shorter, and a longer one costs a pass for nothing. */
const MAX_CAMEL = 512;

/** Per UTF-16 code unit: 0 not yet asked, 1 a letter, 2 not one; filled as texts bring them. */
const letterUnits = new Uint8Array(0x10000);
for (let c = 0; c < 0x80; c++) letterUnits[c] = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a ? 1 : 2;
/** Per UTF-16 code unit: 0 not yet asked, 1 a capital, 2 a lowercase letter, 3 neither. */
const caseUnits = new Uint8Array(0x10000);
/** The case of the code unit at i (see caseUnits). */
function caseAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  let known = caseUnits[c]!;
  if (known === 0) {
    const unit = String.fromCharCode(c);
    known = caseUnits[c] = UPPER.test(unit) ? 1 : LOWER.test(unit) ? 2 : 3;
  }
  return known;
}

/** A camelCase word's parts: split before a capital after a lowercase letter, and before the last capital of a run that a lowercase letter follows (`sendAFile`: send, A, File; `HTTPServer`: HTTP, Server). */
function camelParts(word: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 1; i < word.length; i++) {
    const before = caseAt(word, i - 1);
    if (caseAt(word, i) !== 1) continue;
    if (before === 2 || (before === 1 && i + 1 < word.length && caseAt(word, i + 1) === 2)) {
      parts.push(word.slice(from, i));
      from = i;
    }
  }
  parts.push(word.slice(from));
  return parts;
}

/** Whether the code unit at i is a letter (a surrogate pair's letters are left out; false outside the text). */
function isLetterAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  let known = letterUnits[c]!;
  if (known === 0) known = letterUnits[c] = LETTER.test(String.fromCharCode(c)) ? 1 : 2;
  return known === 1;
}

/** Whether a run may end at i (or start after it): no digit or `_` there, which would make it part of a longer token. */
function clean(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return !(c === 0x5f || (c >= 0x30 && c <= 0x39));
}

/**
 * Whether `words` hold enough function words to read as a sentence: two, or three when a soft hyphen joins them,
 * which joins syllables as well (`in\u00ADfor\u00ADma\u00ADtion` holds two; 32 of 7,663 of the data's benign texts,
 * hyphenated as a page would be, read differently with two, and two of them crossed `medium`, none with three).
 */
function readsAsSentence(words: readonly string[], needed = 2): boolean {
  let found = 0;
  for (const word of words) if (FUNCTION_WORDS.has(word.toLowerCase()) && ++found === needed) return true;
  return false;
}

/** A stretch of text read with other words: [from, to) and what is read there. */
interface Respelling {
  readonly from: number;
  readonly to: number;
  readonly words: string;
}

/** Runs of four or more words joined by one joiner that read as sentences. */
function joinedRuns(text: string, found: Respelling[]): void {
  let joiner = '';
  let start = -1; // the run's first word
  let end = -1; // where its last join ends
  let words = 0;
  const finish = (): void => {
    if (words < MIN_WORDS) return void (words = 0);
    let to = end;
    while (isLetterAt(text, to)) to++;
    let parts = text.slice(start, to).split(joiner);
    // A digit or `_` against either end makes that word part of a longer token: it is left out, as its joiner is.
    let from = start;
    if (start > 0 && !clean(text, start - 1)) {
      from += parts[0]!.length + joiner.length;
      parts = parts.slice(1);
    }
    if (to < text.length && !clean(text, to)) {
      to -= parts[parts.length - 1]!.length + joiner.length;
      parts = parts.slice(0, -1);
    }
    if (parts.length >= MIN_WORDS && readsAsSentence(parts, joiner === SOFT_HYPHEN ? 3 : 2)) found.push({ from, to, words: parts.join(' ') });
    words = 0;
  };
  for (const m of text.matchAll(JOINER)) {
    const at = m.index;
    const after = at + m[0].length;
    if (!isLetterAt(text, at - 1) || !isLetterAt(text, after)) continue;
    let wordStart = at;
    while (wordStart > end && isLetterAt(text, wordStart - 1)) wordStart--;
    if (words > 0 && m[0] === joiner && wordStart === end) words++;
    else {
      finish();
      joiner = m[0];
      start = wordStart;
      words = 2;
    }
    end = after;
  }
  finish();
}

/** camelCase words that read as sentences. */
function camelWords(text: string, found: Respelling[]): void {
  let done = 0;
  for (const m of text.matchAll(HUMP)) {
    if (m.index < done) continue;
    let from = m.index;
    while (isLetterAt(text, from - 1)) from--;
    let to = m.index + 2;
    while (isLetterAt(text, to)) to++;
    done = to;
    if (to - from > MAX_CAMEL || (from > 0 && !clean(text, from - 1)) || (to < text.length && !clean(text, to))) continue;
    const parts = camelParts(text.slice(from, to));
    if (parts.length >= MIN_WORDS && readsAsSentence(parts)) found.push({ from, to, words: parts.join(' ') });
  }
}

/**
 * `text` with the joins of each run of joined words that reads as a sentence written as spaces, and each camelCase
 * word that does split at its humps; `text` itself when it has none.
 */
export function spacedRuns(text: string): string {
  const found: Respelling[] = [];
  joinedRuns(text, found);
  camelWords(text, found);
  if (found.length === 0) return text;
  found.sort((a, b) => a.from - b.from);
  let out = '';
  let copied = 0;
  for (const { from, to, words } of found) {
    if (from < copied) continue; // a camelCase word inside a joined run: the run is read
    out += text.slice(copied, from) + words;
    copied = to;
  }
  return out + text.slice(copied);
}

/** The longest line read as one word of a sentence set one word per line. */
const MAX_LINE_WORD = 64;
const BLANK = /\s/;
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;

/**
 * `text` with each run of four or more lines of one word each (blank lines between them allowed) that reads as a
 * sentence written as one line; `text` itself when it has none. An injection set one word per line scores as prose
 * in `inspect`, whose windows span lines, but a session reads its tool results line by line, and a line of one
 * word asks nothing (decision 97).
 */
export function linedWords(text: string): string {
  if (text.indexOf('\n') < 0) return text;
  const lines = text.split('\n');
  let out: string[] | undefined;
  let run: number[] = []; // indexes of the run's one-word lines
  const finish = (): void => {
    if (run.length >= MIN_WORDS) {
      const words = run.map((i) => lines[i]!.trim());
      if (readsAsSentence(words.map((w) => w.replace(TRAILING_PUNCTUATION, '')))) {
        out ??= lines.slice();
        out[run[0]!] = words.join(' ');
        for (let r = run[0]! + 1; r <= run[run.length - 1]!; r++) out[r] = '';
      }
    }
    run = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const word = lines[i]!.trim();
    if (word.length === 0) continue;
    if (word.length <= MAX_LINE_WORD && !BLANK.test(word)) run.push(i);
    else finish();
  }
  finish();
  // The run's other lines are left empty, not removed: the reading keeps the text's line count.
  return out === undefined ? text : out.join('\n');
}
