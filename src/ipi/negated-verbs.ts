// Trusted text with the verbs it forbids blanked ("never delete anything", "send no
// emails"), so that a forbidden verb is not read as the user's word for the call.

import { ASKING_VERBS, NOUN_VERBS } from './request-words.js';

/**
 * Trusted text with the verbs it forbids blanked: "draft replies (don't post them)", "never delete anything", "do
 * not reply or forward". A verb after "don't", "do not" or "never" (past "ever" or "even", the verbs "or" or "nor"
 * join to it, and a noun-verb after them: "do not send email") asks for nothing, and read as the user's word it
 * cleared the very call the user ruled out. After "don't forget to" the blanked verb is "forget", and after "don't
 * just" it is "just": the user still asks for the one after it ("Don't just delete it, report it"). A clause that
 * scopes the action ("don't reply to all", "don't pay more than 300", "don't email anyone except Bob") forbids only
 * part of it, and nothing is blanked.
 */
export function withoutNegatedVerbs(text: string): string {
  const negated = !NEGATION.test(text)
    ? text
    : text.replace(NEGATED_VERBS, (match: string, negation: string, verbs: string, at: number) => {
        // "Don't reply to all", "don't pay more than 300": the rest of the clause scopes the action, it does not forbid it.
        if (scoped(text, at + match.length)) return match;
        return `${negation} ${verbs.replace(WORD, (w) => (JOINS_NEGATED.has(w.toLowerCase()) ? w : BLANKED))}`;
      });
  if (!NO_OBJECT.test(negated)) return negated;
  // "Delete nothing", "share it with no one", "send no emails": the verb's object is none, so it asks for nothing.
  return negated.replace(VERB_OF_NO_OBJECT, (match: string, verb: string, at: number) => {
    const lower = verb.toLowerCase();
    if (!ASKING_VERBS.has(lower) && !NOUN_VERBS.has(lower)) return match;
    // "Delete nothing but the drafts", "email no one except Bob": what follows is what the turn asks for.
    if (BUT.test(negated.slice(at + match.length, at + match.length + BUT_REACH)) || scoped(negated, at + match.length)) return match;
    return BLANKED + match.slice(verb.length);
  });
}

/**
 * Whether the clause from `from` on scopes the action it follows (TO_ALL, RANGE). Read only LIMIT_REACH characters:
 * many negations in a long line without a clause's end must not each read the rest of it.
 */
function scoped(text: string, from: number): boolean {
  const rest = text.slice(from, from + LIMIT_REACH).split(CLAUSE_END, 1)[0]!;
  return TO_ALL.test(rest) || RANGE.test(rest);
}
/** A word that says an action has no object: "nothing", "nobody", "no one", "none", "no" before a noun. */
const NO_OBJECT = /\b(?:nothing|nobody|none|no)\b/i;
/**
 * A verb whose object (after "it", "them", "to" or "with") is nothing, nobody, none or no one, or right after it "no"
 * before a word: not one that makes a bound ("no more than 3", "no later than Friday"), a number's abbreviation
 * ("invoice no. 4471"), nor "no" after "it" or "with", which says how ("deploy it with no downtime"). Not after
 * "that": "confirm that nobody objected, then book it" forbids nothing.
 */
const VERB_OF_NO_OBJECT = /\b(\p{L}+)\s+(?:(?:(?:it|them)\s+)?(?:(?:to|with)\s+)?(?:nothing|nobody|none|no\s+one)|no(?=\s+(?!(?:more|less|fewer|later|sooner|earlier|longer|further|matter|doubt)\b)\p{L}))\b/giu;
/** After "nothing", "no one": the words that make it "only" ("nothing but the drafts", "no one other than Bob"). */
const BUT = /^\s*(?:\p{L}+\s+)?(?:but|besides|other\s+than|apart\s+from|save\s+for)\b/iu;
/** How far past "nothing" BUT is looked for: one word may come between ("no files but", "no one else but"). */
const BUT_REACH = 40;
/** Where a forbidden verb's clause ends. */
const CLAUSE_END = /[.;,:!?()\n]/;
/** How far past a forbidden verb its clause is read for a scope. */
const LIMIT_REACH = 200;
/**
 * The scopes by which a clause forbids part of an action: to all its recipients right after it ("reply to all",
 * "forward it to everyone"), an amount past a bound ("more than 300", "over $50"), an exception. Not "until",
 * "without my approval" or "any more": the user has not released the action in this turn, and "never … again",
 * "under any circumstances" and "but flag the spam" forbid it outright.
 */
const TO_ALL = /^\s*(?:(?:it|this|that|them)\s+)?(?:to\s+)?(?:all|everyone|everybody)\b/i;
const RANGE = /\b(?:(?:more|less|fewer)\s+than|(?:over|above|under|below)\s+[$€£]?\d)|\bexcept\b/i;
/** What a forbidden verb becomes: no letter, so that it is no word of the turn and parts the words around it. */
const BLANKED = '\u2014';
const NEGATION = /\b(?:don['’ʼ]?t|do\s+not|never)\b/i;
const NEGATED_VERBS = new RegExp(
  `\\b(don['’ʼ]?t|do\\s+not|never)\\s+((?:(?:ever|even)\\s+)?\\p{L}+(?:\\s+(?:or|nor)\\s+\\p{L}+)*(?:\\s+(?:${[...NOUN_VERBS].join('|')})\\b)?)`,
  'giu',
);
const WORD = /\p{L}+/gu;
const JOINS_NEGATED = new Set(['or', 'nor']);
