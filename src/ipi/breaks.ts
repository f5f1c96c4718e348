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
