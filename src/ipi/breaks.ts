// Whitespace to Unicode, and to the model an agent runs, that the core does not read
// as a break between words: written between them ("Ignore\u2028all\u2028previous …"),
// it glued an injection into one word, which scored 0.00 (0.36 with lone CRs, which
// the core drops). The detector reads the line and paragraph separators, NEL and a CR
// that no LF follows as line feeds and the Ogham space mark as a space, before the
// content model sees the text (decision 92). `normalizeText` does not yet: it also
// feeds training, and the models are retrained when it does.

const BREAK_OR_SPACE = /[\r\u0085\u1680\u2028\u2029]/;
const LINE_BREAKS = /[\u0085\u2028\u2029]|\r(?!\n)/g;
const OGHAM_SPACE = /\u1680/g;

/** `text` with Unicode's other line breaks and spaces written as `\n` and ` `: as long, so offsets hold. */
export function plainBreaks(text: string): string {
  if (!BREAK_OR_SPACE.test(text)) return text;
  return text.replace(LINE_BREAKS, '\n').replace(OGHAM_SPACE, ' ');
}

// Characters that render as nothing, between two letters: `normalizeText` drops them,
// so that a word they split ("ig\u200Bnore") reads whole, and the same drop glues words
// they separate ("Ignore\u200Ball\u200Bprevious …" read as one word, 0.36 where it
// scores 1.00 with spaces). Which of the two an author meant cannot be told, so the
// detector scores both readings and keeps the higher (decision 93).
const INVISIBLE_BETWEEN_LETTERS = /(?<=[\p{L}\p{M}\p{N}])\p{Default_Ignorable_Code_Point}+(?=[\p{L}\p{M}\p{N}])/gu;
const HAS_INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;

/** `text` with each run of invisible characters between two letters written as a space, or undefined when it has none. */
export function invisiblesAsSpaces(text: string): string | undefined {
  if (!HAS_INVISIBLE.test(text)) return undefined;
  const spaced = text.replace(INVISIBLE_BETWEEN_LETTERS, ' ');
  return spaced === text ? undefined : spaced;
}
