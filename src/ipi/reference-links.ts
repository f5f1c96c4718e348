// Links whose markup sets the address apart from the sentence that asks for it:
// Markdown reference links ("[here][dl]" inside a sentence, "[dl]: https://…" on a
// line of its own: CommonMark's link reference definitions) and the numbered
// footnotes of plain-text mail ("here [2]", "[2] https://…"). No reading of the text
// puts address and sentence on one line: a session gives the address to the passage
// that holds the link's words as well.

/** A link reference definition: up to three spaces, `[label]:`, the destination (bare, or in <>). */
const DEFINITION = /^ {0,3}\[([^\[\]\n]{1,100})\]:[ \t]*(?:<([^<>\n]+)>|(\S+))/gm;
/** A full reference `[text][label]`, or a collapsed one `[text][]`. */
const USE = /\[([^\[\]\n]{1,200})\]\[([^\[\]\n]{0,100})\]/g;
/** A numbered footnote that is a web address, as plain-text mail writes its links: `[2] https://…` (or `[2]: …`) on a line of its own. */
const FOOTNOTE = /^ {0,3}\[(\d{1,3})\]:?[ \t]+<?((?:https?:\/\/|www\.)[^\s<>]+)/gm;
/** A footnote mark in running text: `…download it here [2] today`. Not a link's own text (`[2](…)`, `[2][…]`) nor a definition (`[2]:`). */
const FOOTNOTE_MARK = /\[(\d{1,3})\](?![(\[:])/g;
/** A letter or digit of any script. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A reference link of a text: its words (see `linkWords`) and the address its label's definition gives. */
export interface ReferenceLink {
  readonly words: string;
  readonly address: string;
}

/**
 * The full and collapsed reference links of `text` whose label it defines. The first
 * definition of a label wins, and labels match case-insensitively with their blanks
 * collapsed, as CommonMark has it. Shortcut references (`[dl]` alone) are left out:
 * bracketed words ("[1]", "[sic]") are too common to tell from them.
 */
export function referenceLinks(text: string): ReferenceLink[] {
  // Most results define no reference: one scan rules them out.
  if (!text.includes(']:')) return [];
  const defined = new Map<string, string>();
  for (const d of text.matchAll(DEFINITION)) {
    const label = labelKey(d[1]!);
    if (!defined.has(label)) defined.set(label, (d[2] ?? d[3])!);
  }
  const links: ReferenceLink[] = [];
  if (defined.size === 0) return links;
  for (const u of text.matchAll(USE)) {
    const [, shown, label] = u as unknown as [string, string, string];
    const address = defined.get(labelKey(label === '' ? shown : label));
    const words = linkWords(label === '' ? shown : `${shown} ${label}`);
    if (address !== undefined && words !== '') links.push({ words, address });
  }
  return links;
}

/**
 * The numbered footnote links of `text` whose number it defines with a web address:
 * the word before each mark, with the number, and the address. Plain-text mail
 * sets a link apart from its sentence this way ("Download the update here [2]",
 * "[2] https://…" at the end). The first definition of a number wins.
 */
export function footnoteLinks(text: string): ReferenceLink[] {
  // Most results hold no footnote mark: one scan rules them out.
  if (!text.includes('] ') && !text.includes(']\t') && !text.includes(']:')) return [];
  const defined = new Map<string, string>();
  for (const d of text.matchAll(FOOTNOTE)) if (!defined.has(d[1]!)) defined.set(d[1]!, d[2]!);
  const links: ReferenceLink[] = [];
  if (defined.size === 0) return links;
  for (const mark of text.matchAll(FOOTNOTE_MARK)) {
    const address = defined.get(mark[1]!);
    const word = wordBefore(text, mark.index);
    if (address !== undefined && word !== '') links.push({ words: linkWords(`${word} ${mark[1]!}`), address });
  }
  return links;
}

/** The word right before `at`, past up to four blanks; at most 64 code units of it, so that the scan stays linear. */
function wordBefore(text: string, at: number): string {
  let end = at;
  for (let k = 0; k < 4 && end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t'); k++) end--;
  let start = end;
  while (start > 0 && end - start < 64 && WORD_CHAR.test(text[start - 1]!)) start--;
  return text.slice(start, end);
}

const labelKey = (label: string): string => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** Letters and digits, lowercased, each run joined by one space: a link's words as found again in a passage's reading, whatever its markup became. */
export function linkWords(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
