/**
 * Values inside argument strings that an attacker plants for an agent to
 * copy: emails, URLs and domains, IBANs and account numbers, phone numbers,
 * file paths. Each is checked on its own, so a long body that merely quotes
 * an attacker's address is still traced to it.
 */
const URL = /\b(?:https?:\/\/|www\.)[^\s'"<>)]+/gi;
const PATTERNS: RegExp[] = [
  /\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b/g, // IBAN
  /\b\d{8,20}\b/g, // account / card numbers
  /\+?\d[\d ()-]{7,}\d/g, // phone numbers
];
const PATH = /(?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]+)+/g;

export function entities(text: string): string[] {
  const found = new Set<string>();
  emails(text, found);
  const urls: [number, number][] = [];
  for (const m of text.matchAll(URL)) {
    found.add(trimEnd(m[0]));
    urls.push([m.index, m.index + m[0].length]);
  }
  for (const re of PATTERNS) for (const m of text.matchAll(re)) found.add(trimEnd(m[0]));
  // A URL's path is part of the URL, not a value of its own: `/forum.example/t/42` of
  // `https://forum.example/t/42#c2` would tie the address to every passage holding
  // another link under that path (`…/t/42#c1`).
  for (const m of text.matchAll(PATH)) if (!urls.some(([from, to]) => m.index >= from && m.index < to)) found.add(trimEnd(m[0]));
  return [...found];
}

/** The value without the punctuation a sentence puts after it ("write to a@b.example."). */
function trimEnd(value: string): string {
  return value.replace(/[.,;:]+$/, '');
}

/**
 * Account, card and phone numbers written in groups (`FR14 2004 1010 0505 0001
 * 3M02 606`, `+44 7911 123456`, `4111-1111-1111-1111`, `+1 (415) 555-0199`,
 * `GB33/BUKB/2020…`): three or more groups of up to eight letters or digits, each
 * holding a digit or a bank code in capitals, between them one to three of the
 * separators people and extracted tables use (blanks and tabs, dots, dashes,
 * slashes, colons, middle dots, brackets), eight digits or more in all. Bounded,
 * so linear in a long run.
 */
const GROUP = '(?=[A-Za-z]{0,7}\\d)[A-Za-z0-9]{1,8}';
// A bank code in capitals between number groups (`GB33 BUKB 2020 …`); a word in prose is not one.
const GROUP_OR_CODE = `(?:${GROUP}|[A-Z]{2,8})`;
const SEPARATOR = '[ \\t.\\-/:()\\u00b7\\u2010-\\u2015\\u2212]{1,3}';
const GROUPED = new RegExp(`(?<![\\w+])\\+?\\(?${GROUP}(?:${SEPARATOR}${GROUP_OR_CODE}){2,10}(?!\\w)`, 'g');
const SEPARATORS = /[+ \t.\-/:()\u00b7\u2010-\u2015\u2212]/g;

/**
 * The numbers in `text` written in groups, each without its separators: a bank
 * prints an IBAN in groups of four and an agent copies it as one run (or the other
 * way round), and either must be traced to the other.
 */
export function compactNumbers(text: string): string[] {
  const found: string[] = [];
  // Most lines hold fewer than eight digits: counting them is cheaper than the pattern.
  if (!hasDigits(text, 8)) return found;
  for (const m of text.matchAll(GROUPED)) {
    const compact = m[0].replace(SEPARATORS, '');
    if (compact.replace(/\D/g, '').length >= 8) found.push(compact);
  }
  return found;
}

/**
 * The text as an agent writes the values in it: digits of other scripts as ASCII
 * digits (`+१ ४१५ ५५५ ०१९९` → `+1 415 555 0199`), an ideographic full stop as a dot
 * (`evil。example`), a hyphen, dash or minus inside a word as '-' (`get‐update`), and
 * percent-encoded letters, digits and `-._~` decoded (`get%2Dupdate` → `get-update`;
 * RFC 3986 makes them the same address). The text itself where none of these
 * occurs, which is almost always. A session applies it to the reading, whose
 * look-alike fold leaves a number's digits as they are (Arabic-Indic `١٥` stays, and
 * is 15 here); a digit inside a word with Latin letters has been read as the letter it
 * looks like.
 */
export function plainValueSpelling(text: string): string {
  if (!mayFold(text)) return text;
  return text.replace(OTHER_DIGITS, asciiDigit).replace(IDEOGRAPHIC_FULL_STOPS, '.').replace(INNER_DASHES, '-').replace(PERCENT_ENCODED, decodeUnreserved);
}

/** A '%', an ideographic full stop, a dash or a digit of another script (all at U+0660 or above): one pass over the code units, as most lines are ASCII. */
function mayFold(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 || c === 0x3002 || c === 0xff61 || (c >= 0x2010 && c <= 0x2015) || c === 0x2212) return true;
    // No script writes digits among the CJK ideographs and kana (U+3000–U+9FFF) or Hangul syllables (U+AC00–U+D7FF).
    if (c >= 0x660 && (c < 0x3000 || (c >= 0xa000 && c < 0xac00) || c >= 0xd800) && DIGIT.test(String.fromCodePoint(text.codePointAt(i)!))) return true;
  }
  return false;
}

const OTHER_DIGITS = /(?![0-9])\p{Nd}/gu;
const DIGIT = /^\p{Nd}$/u;
const IDEOGRAPHIC_FULL_STOPS = /[\u3002\uff61]/g;
/** Hyphens, dashes and the minus sign inside a word or number (`get‐update`, `555–0199`): an agent writes '-'. */
const INNER_DASHES = /(?<=[\p{L}\p{N}])[\u2010-\u2015\u2212](?=[\p{L}\p{N}])/gu;
const PERCENT_ENCODED = /%([0-9A-Fa-f]{2})/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** A decimal digit's value: Unicode encodes every script's digits as runs of ten in order, from zero. */
function asciiDigit(digit: string): string {
  const cp = digit.codePointAt(0)!;
  let zero = ZEROS.get(cp);
  if (zero === undefined) {
    zero = cp;
    while (DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
    ZEROS.set(cp, zero);
  }
  return String((cp - zero) % 10);
}

/** Each digit's zero once found: at most the 700-odd decimal digits of Unicode. */
const ZEROS = new Map<number, number>();

function decodeUnreserved(encoded: string, hex: string): string {
  const c = String.fromCharCode(parseInt(hex, 16));
  return UNRESERVED.test(c) ? c : encoded;
}

function hasDigits(text: string, count: number): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39 && --count === 0) return true;
  }
  return false;
}

// An address spelled out so that no email pattern finds it: "at", "at sign", "at
// symbol", "arroba" or '@' set in brackets or marks ("[at]", "(at)", "/at/", "-at-",
// '"at"', ":at:"), "%40", or a bare "at", "at-sign" or "arroba" between blanks, for the
// '@'; "dot", "period" or "punto" set the same way, or a plain dot, between the
// domain's labels. The reading turns brackets into spaces ("[ at ]" reaches a passage
// as "   at   "), so up to four blanks count; bounded, because a pattern that opens
// on an unbounded run of them is tried again at each space of the run, quadratic in
// a long one.
const OPEN = String.raw`[[({</\-"'*:~]`;
const CLOSE = String.raw`[\])}>/\-"'*:~]`;
const AT_WORD = String.raw`(?:at[ -]sign|at[ -]symbol|arroba|at|@)`;
const SPELLED_AT = new RegExp(String.raw`${OPEN} {0,4}${AT_WORD} {0,4}${CLOSE}|%40|(?<=\s)(?:at[ -]sign|arroba|at)(?=\s)`, 'gi');
const MAY_SPELL_AT = /at|@|%40|arroba/i;
const DOT_WORD = '(?:dot|period|punto)';
const SPELLED_DOT = String.raw`(?: {0,4}${OPEN} {0,4}(?:${DOT_WORD}|\.) {0,4}${CLOSE} {0,4}|[ \t]{1,4}${DOT_WORD}[ \t]{1,4}|\.)`;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const SPELLED_DOMAIN = new RegExp(String.raw`${LABEL}(?:${SPELLED_DOT}${LABEL}){1,8}(?![\w-])`, 'iy');
const SPELLED_DOTS = new RegExp(SPELLED_DOT, 'gi');
/** A space or a tab: the blanks `spelledEmails` skips, four at most, on each side of a spelled "at". */
const isBlank = (c: number): boolean => c === 0x20 || c === 0x09;

/**
 * Email addresses spelled out in `text` ("archive [at] evil-mail [dot] example",
 * "archive (at) evil-mail (dot) example", "archive at evil-mail dot example"), in
 * their plain form. An injection spells an address so that no pattern finds it; the
 * agent it fools writes the plain address, which must still be traced to the text.
 * A domain must end in two or more letters; prose that reads like one ("we met at
 * noon.Then") yields a harmless extra form. Found from each spelled "at", as
 * `emails` works from each '@': a pattern tried at every word cost five times more.
 */
export function spelledEmails(text: string): string[] {
  const found: string[] = [];
  // Most lines hold no "at" nor '@' (a plain address is left to `emails`): one scan rules them out.
  if (!MAY_SPELL_AT.test(text)) return found;
  for (const at of text.matchAll(SPELLED_AT)) {
    let end = at.index;
    for (let k = 0; k < 4 && end > 0 && isBlank(text.charCodeAt(end - 1)); k++) end--;
    // The local part: the run of up to 64 address characters right before the "at".
    let start = end;
    while (start > 0 && end - start < 64 && isLocalPartChar(text.charCodeAt(start - 1))) start--;
    if (start === end || (start > 0 && isLocalPartChar(text.charCodeAt(start - 1)))) continue;
    let from = at.index + at[0].length;
    for (let k = 0; k < 4 && from < text.length && isBlank(text.charCodeAt(from)); k++) from++;
    SPELLED_DOMAIN.lastIndex = from;
    const domain = SPELLED_DOMAIN.exec(text);
    if (!domain) continue;
    const plain = domain[0].replace(SPELLED_DOTS, '.');
    if (/\.[a-z]{2,}$/i.test(plain)) found.push(`${text.slice(start, end)}@${plain}`);
  }
  return found;
}

// An email, matched only where it can start: the local part that ends at an '@'.
const EMAIL_AT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/y;

/**
 * The matches of /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, found
 * from each '@' instead of trying the pattern at every position: in a 4 KiB
 * body that pattern backtracks through every word and cost more than the
 * rest of provenance. A match must begin where the run of local-part
 * characters before an '@' begins (or where the last match ended), so the
 * sticky pattern tried there finds the same matches in the same order.
 */
function emails(text: string, found: Set<string>): void {
  let lastEnd = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    if (at < lastEnd) continue;
    let start = at;
    while (start > lastEnd && isLocalPartChar(text.charCodeAt(start - 1))) start--;
    if (start === at) continue;
    EMAIL_AT.lastIndex = start;
    const m = EMAIL_AT.exec(text);
    if (!m) continue;
    found.add(m[0].replace(/[.,;:]+$/, ''));
    lastEnd = start + m[0].length;
  }
}

function isLocalPartChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x5f || c === 0x25 || c === 0x2b || c === 0x2d;
}

/**
 * Every string (and number, as text) inside a JSON value, with its path; a key
 * that holds an entity (an address used as a key) counts as a string too. Below
 * 32 levels the rest is one string, its JSON: nesting must not hide a value.
 */
export function stringLeaves(value: unknown, path = '$', out: { path: string; value: string }[] = [], depth = 0): { path: string; value: string }[] {
  if (depth > 32) {
    if (value !== null && typeof value === 'object') out.push({ path, value: JSON.stringify(value) ?? '' });
    else if (typeof value === 'string') out.push({ path, value });
    return out;
  }
  if (typeof value === 'string') out.push({ path, value });
  else if (typeof value === 'number' && Number.isFinite(value)) out.push({ path, value: String(value) });
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, `${path}[${i}]`, out, depth + 1));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (entities(k).length > 0) out.push({ path: `${path}{${k}}`, value: k });
      stringLeaves(v, `${path}.${k}`, out, depth + 1);
    }
  }
  return out;
}
