// Markdown reference links: "[here][dl]" inside a sentence, "[dl]: https://…" on a
// line of its own (CommonMark's link reference definitions). The markup itself sets
// the address apart from the sentence that asks for it, so no reading of the text
// puts them on one line: a session gives the address to the passage that holds the
// link's words as well.

/** A link reference definition: up to three spaces, `[label]:`, the destination (bare, or in <>). */
const DEFINITION = /^ {0,3}\[([^\[\]\n]{1,100})\]:[ \t]*(?:<([^<>\n]+)>|(\S+))/gm;
/** A full reference `[text][label]`, or a collapsed one `[text][]`. */
const USE = /\[([^\[\]\n]{1,200})\]\[([^\[\]\n]{0,100})\]/g;

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

const labelKey = (label: string): string => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** Letters and digits, lowercased, each run joined by one space: a link's words as found again in a passage's reading, whatever its markup became. */
export function linkWords(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
