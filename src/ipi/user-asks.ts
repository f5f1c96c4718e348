// What a user's turn asks for: a question, a change, or words the reading cannot
// tell apart; and the words of trusted text used as verbs. English word lists
// (request-words.ts) and the verbs of six more languages (foreign-requests.ts); no
// model, no state.

import { foreignQuestion, foreignRequestVerbs } from './foreign-requests.js';
import { ANSWER_VERBS, ASKING_VERBS, IRREGULAR, NOUN_VERBS, OBJECTS, startsWith, stemVerbs } from './request-words.js';

/** What the user's turns ask for: see `userAsks`. */
export interface UserAsks {
  readonly question: boolean;
  readonly change: boolean;
  /** The turn holds words the reading cannot tell a change from an answer by (see readOtherWords); absent when not. */
  readonly unsure?: boolean;
}

/**
 * What a user's turn asks for: a question (it holds a question mark) and a change (a
 * verb of ASKING_VERBS other than "tell me"-like answers and the auxiliary "do", or
 * a noun of NOUN_VERBS used as a verb).
 * Only user turns count: a system prompt describes tools, it does not ask.
 */
export function userAsks(text: string): UserAsks {
  const words = turnWords(text);
  const first = words[0] === 'please' ? 1 : 0;
  const answer = answerWords(words, first);
  let change = false;
  for (let i = 0; i < words.length && !change; i++) {
    const w = words[i]!;
    if (answer.includes(i)) continue;
    if (NOUN_VERBS.has(w) && (words[i - 1] === 'you' || words[i - 1] === 'please' || (JOINERS.has(words[i - 1] ?? '') && OBJECTS.has(words[i + 1] ?? '')))) change = true;
    if (!ASKING_VERBS.has(w)) continue;
    if (ANSWER_VERBS.has(w) && words[i + 1] === 'me') continue;
    // "do not delete anything" asks for nothing either: the forbidden verb is blanked, "do" is left (withoutNegatedVerbs).
    if (w === 'do' && (SUBJECTS.has(words[i + 1] ?? '') || words[i + 1] === 'not')) continue;
    // "go through the thread", "go over the notes": reading, not an errand.
    if (w === 'go' && (words[i + 1] === 'through' || words[i + 1] === 'over')) continue;
    // "Should I pay it?", "I'll send it myself", "what happens if I merge it?": the user's own act, not an errand.
    // Not "can I", "do I" or "we": "Can I move my appointment to Thursday?", "How do I cancel it? Just get it done",
    // "could we move the meeting to Friday?" ask the agent to.
    if ((words[i - 1] === 'i' && SUBORDINATORS.has(words[i - 2] ?? '')) || (words[i - 2] === 'i' && OWN_MODALS.has(words[i - 1] ?? ''))) continue;
    // "What does the reset script do?": the question's own verb, last in it.
    if (w === 'do' && words[i + 1] === undefined && text.includes('?')) continue;
    // "report back" is an answer ("reply back" is not); "the incident report", "the staging deploy logs", "the
    // questionnaire reply" name things: these verbs are verbs only where the turn opens with them, after "and",
    // "then", "please", "you" or "to", or after a modal ("we should deploy today").
    if (COMPOUND_NOUNS.has(w) && ((w === 'report' && words[i + 1] === 'back') || !(VERB_PLACES.has(words[i - 1] ?? '') || MODALS.has(words[i - 1] ?? '')))) continue;
    // "whether it fixes the issue", "look at issue 311", "the customer's issue": after a determiner, a preposition
    // or a possessive the word is a noun.
    if (nounFollows(words, i)) continue;
    change = true;
  }
  // "Read the memo. Email him the summary.", "…, text him back": a noun-verb opening a clause, its object after it.
  if (!change && NOUN_VERB_OPENS.test(text)) change = true;
  // "Check the build; if green, deploy.": a word of COMPOUND_NOUNS that opens a clause is its verb.
  if (!change && COMPOUND_OPENS.test(text)) change = true;
  // "Leite die Rechnung an Anna weiter": a change asked in another language the generator writes ("öffne die Mail"
  // asks to open it, which a user's English turn does not count as a change either).
  if (!change && foreignRequestVerbs(text).some((verb) => ASKING_VERBS.has(verb))) change = true;
  const other = change ? 'none' : readOtherWords(text);
  if (other === 'change') change = true;
  const opensReading = READING_VERBS.has(words[first] ?? '') || READING_OPENERS.some((o) => o.every((w, k) => words[first + k] === w)) || answer.length > 0;
  return { question: text.includes('?') || opensReading, change, ...(other === 'unsure' ? { unsure: true } : {}) };
}

/** Words after which a noun-verb followed by its object asks for a change: "read the notice and email their team", "then text Bob". */
const JOINERS = new Set(['and', 'then']);

/** "do" before a subject is a question's auxiliary ("how many meetings do I have?"), not "do what she asked". */
const SUBJECTS = new Set(['i', 'you', 'we', 'they', 'he', 'she', 'it', 'my', 'the', 'a', 'an', 'this', 'that', 'these', 'those', 'any', 'anyone', 'everyone']);

/** Words after "I" that keep the user the subject of the verb after them: "I'll send", "I will reply", "should I pay". */
const OWN_MODALS = new Set(['ll', 'will', 'shall', 'should', 'would', 'd', 'must']);
/** Words before "I" that make a clause about the user's own act: "if I merge it", "when I delete it". */
const SUBORDINATORS = new Set(['if', 'when', 'whether', 'before', 'after', 'once', 'until', 'should', 'shall']);
/** Words between a subject and a verb, after which "report", "deploy" and "reply" are verbs: "we should deploy today", "don't reply" ("t"). */
const MODALS = new Set(['can', 'could', 'should', 'shall', 'will', 'would', 'may', 'might', 'must', 'll', 'd', 'do', 'did', 'also', 'just', 'then', 'cannot', 't']);

/** Asking verbs that a user's turn uses as often inside a noun ("incident report", "deploy logs", "the vendor's questionnaire reply", "this blog post", "this GitHub issue"): see VERB_PLACES. */
const COMPOUND_NOUNS = new Set(['report', 'deploy', 'reply', 'post', 'issue']);
/** The words after which a word of COMPOUND_NOUNS is a verb (the empty string: the turn's start), and MODALS. */
const VERB_PLACES = new Set(['', 'and', 'then', 'please', 'you', 'to', 'also']);
const COMPOUND_OPENS = /(?:^|[.,;:!?\n][ \t]*)(?:report\b(?!\s+back\b)|deploy\b|reply\b|post\b|issue\b)/i;

/** Verbs that open a turn asking for an answer, not a change: "Review pull request 42 and summarise it". */
const READING_VERBS = new Set([
  'review', 'look', 'read', 'summarise', 'summarize', 'check', 'find', 'show', 'list', 'search', 'describe', 'explain', 'compare', 'count', 'skim',
  'translate', 'analyse', 'analyze', 'proofread', 'fetch',
]);

/** Phrases that open a turn asking for an answer as a reading verb does: "Go through my inbox and summarise it", "Catch me up on #ops". */
const READING_OPENERS: readonly (readonly string[])[] = [['go', 'through'], ['go', 'over'], ['catch', 'me', 'up'], ['look', 'through']];
/**
 * What "give me a …" asks for when it asks for an answer ("Give me an overview of my Monday", "a quick summary"): not
 * "a hand with my invites", "a clean inbox", "a new branch" or "a copy of the contract", which ask for a change.
 */
const ANSWERS = new Set(['overview', 'summary', 'rundown', 'recap', 'list', 'breakdown', 'digest', 'briefing', 'brief', 'outline', 'update', 'status', 'snapshot', 'explanation', 'estimate', 'count']);

/**
 * Verbs by which a user asks for a change that a tool result's line seldom uses to ask its reader, read in user turns
 * only, where an imperative stands and before its object: "kill the idle VMs", "rotate the leaked key", "snooze it".
 */
const TURN_VERBS = new Set([
  'kill', 'nuke', 'ditch', 'zap', 'prune', 'bump', 'shift', 'rotate', 'revert', 'restore', 'migrate', 'provision', 'snooze', 'silence',
  'pause', 'dismiss', 'pin', 'unpin', 'star', 'label', 'tag', 'retry', 'rerun', 'acknowledge', 'ship', 'swap', 'downgrade', 'reassign',
  'onboard', 'offboard', 'unarchive', 'redeploy', 'rebuild', 'reboot', 'reinstall', 'rollback', 'configure', 'reconfigure', 'skip', 'okay',
  'nudge', 'toggle',
]);
/** Phrasal verbs that ask for a change where neither word alone does: "sort out the deploy", "get rid of the branches". */
const TURN_PHRASES: readonly (readonly [string, string])[] = [
  ['sort', 'out'], ['deal', 'with'], ['get', 'rid'], ['wrap', 'up'], ['shut', 'down'], ['spin', 'up'], ['roll', 'back'], ['push', 'back'],
  ['push', 'live'], ['top', 'up'], ['free', 'up'], ['loop', 'in'], ['hook', 'up'], ['chase', 'up'], ['kick', 'off'], ['back', 'up'],
  ['look', 'after'], ['react', 'with'], ['green', 'light'],
];
/** Phrasal verbs whose object may stand between the verb and its particle: "chase it up", "get the laptop off my account", "get it over to legal". */
const SEPARABLE_PHRASES: ReadonlyMap<string, readonly string[]> = new Map([
  ['chase', ['up']], ['get', ['off', 'rid', 'over', 'back']], ['bring', ['back', 'online']], ['take', ['down', 'off']], ['knock', ['down']], ['sort', ['out']],
  ['flip', ['on', 'off']],
]);
/** Words that open an imperative's object: "kill them", "ship it", "tag the release", "snooze all alerts". */
const OBJECT_OPENS = new Set([...OBJECTS, 'all', 'every', 'each', 'any', 'some', 'both']);
/**
 * Words after "can you", "would you mind" and the like that ask for an answer ("Can you tell me …", "Could you see
 * whether …"), or are no verb of it ("Can you not …", "Could you still …").
 */
const ANSWER_WORDS = new Set([
  ...READING_VERBS, 'tell', 'give', 'let', 'see', 'figure', 'work', 'help', 'think', 'recommend', 'suggest', 'identify', 'determine',
  'verify', 'calculate', 'tally', 'sum', 'estimate', 'guess', 'know', 'understand', 'walk', 'pull', 'get', 'dig', 'investigate', 'diagnose',
  'debug', 'peek', 'glance', 'scan', 'inspect', 'audit', 'query', 'clarify', 'spot', 'remember', 'confirm', 'say', 'name', 'point',
  'spell', 'outline', 'detail', 'elaborate', 'rephrase', 'paraphrase', 'interpret', 'evaluate', 'assess', 'critique', 'rank', 'quote',
  'cite', 'define', 'brief', 'decipher', 'decode', 'recap',
  'not', 'i', 'we', 'me', 'us', 'still', 'really',
]);
const BE_ABLE_TO = ['be', 'able', 'to'];
/** Words between a polite lead and its verb: "Can you please …", "Would you mind …". */
const FILLERS = new Set(['please', 'just', 'quickly', 'also', 'maybe', 'kindly', 'mind', 'go', 'ahead', 'and']);
/** A question's polite lead before the verb it asks for: "Can you …", "Would you mind …", "Is it possible to …". */
const POLITE_LEADS: readonly (readonly string[])[] = [
  ['can', 'you'], ['could', 'you'], ['would', 'you'], ['will', 'you'], ['can', 'we'], ['could', 'we'], ['mind'], ['how', 'about'],
  ['any', 'chance', 'you', 'could'], ['is', 'it', 'possible', 'to'], ['are', 'you', 'able', 'to'], ['is', 'there', 'a', 'way', 'to'],
];
/** Words before an imperative in its clause: "and kill them", "then ship it", "please rotate the key". */
const IMPERATIVE_PLACES = new Set(['and', 'then', 'please', 'also', 'now', 'just']);
/** Participles that ask for a change done with no "-ed": "I want it gone", "get it done". */
const DONE = new Set(['done', 'gone']);

/** What a user's turn asks in words the verb lists lack: a change the reading is sure of, a verb it cannot read, or neither. */
type OtherWords = 'change' | 'unsure' | 'none';

/**
 * A user's turn read for a change asked in words the verb lists do not hold, where the reading is sure: a verb of
 * TURN_VERBS or a phrase of TURN_PHRASES where an imperative stands ("Could you bump the node version?", "if it's
 * fine, ship it", "Can you sort out the failing deploy?"), a polite question's gerund of a change ("Would you mind
 * archiving …?"), a passive request ("Can the 2pm be shifted to 4?"), a participle of a change after an imperative
 * "get" or a wish ("get the backups cleaned up", "I want it gone"), or a modal question in one of six languages
 * with a verb of change. Unsure where a polite lead stands before a verb it does not know ("Could you decipher …",
 * "Can you brief me …"), where a modal question in those languages holds no verb it knows, and in a turn written
 * in a script it has no words for: decision 110's floor does not act on a reading it is unsure of, and `askedRead`
 * keeps what the verb lists read.
 */
function readOtherWords(text: string): OtherWords {
  let unsure = OTHER_SCRIPT.test(text);
  // Clause by clause: a verb that opens one stands where an imperative stands ("What does this issue ask for? Label it").
  for (const clause of text.split(CLAUSE_ENDS)) {
    const read = readClause(turnWords(clause));
    if (read === 'change') return 'change';
    unsure ||= read === 'unsure';
  }
  const foreign = foreignQuestion(text);
  if (foreign === 'change') return 'change';
  return unsure || foreign === 'unsure' ? 'unsure' : 'none';
}
const CLAUSE_ENDS = /[.!?;:,\n]+(?=\s|$)/;
function readClause(words: readonly string[]): OtherWords {
  let unsure = false;
  // Where a polite lead's verb stands: "Can you please bump …" marks "bump".
  const led = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    for (const lead of POLITE_LEADS) {
      if (words[i] !== lead[0] || !startsWith(words, i, lead)) continue;
      let k = i + lead.length;
      while (FILLERS.has(words[k] ?? '')) k++;
      // "Would you be able to get …": the verb after "be able to" is the one asked for.
      if (startsWith(words, k, BE_ABLE_TO)) k += BE_ABLE_TO.length;
      if (k < words.length) led.add(k);
    }
  }
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const imperative = i === 0 || IMPERATIVE_PLACES.has(words[i - 1]!) || led.has(i);
    if (imperative && TURN_PHRASES.some(([a, b]) => w === a && words[i + 1] === b)) return 'change';
    if (imperative && TURN_VERBS.has(w) && (OBJECT_OPENS.has(words[i + 1] ?? '') || led.has(i))) return 'change';
    if (imperative && SEPARABLE_PHRASES.get(w)?.some((particle) => words.slice(i + 2, i + 6).includes(particle))) return 'change';
    // "Could you get the VPN profile removed", "I want the stale branches gone", "I'd like it cancelled".
    const wish = (w === 'want' || w === 'need' || w === 'like') && (words[i - 1] === 'i' || words[i - 1] === 'd' || words[i - 1] === 'we');
    if (((imperative && (w === 'get' || w === 'getting')) || wish) && words.slice(i + 1, i + 7).some(changeDone)) return 'change';
    // "Can the Friday retro be cancelled?": a request when the clause opens with the modal.
    if (w === 'be' && REQUEST_MODALS.has(words[0]!) && changeDone(words[i + 1])) return 'change';
    if (!led.has(i) || NOUN_BEFORE.has(w) || ANSWER_WORDS.has(w) || ANSWER_WORDS.has(baseOf(w))) continue;
    // A polite lead's gerund of a change ("How about archiving …?", "Would you mind deleting …?"); any other word the
    // reading does not know leaves it unsure.
    if (changeVerbBase(w) !== undefined) return 'change';
    unsure = true;
  }
  return unsure ? 'unsure' : 'none';
}
const REQUEST_MODALS = new Set(['can', 'could', 'would', 'will']);
/** A participle or a gerund of a change verb: "cancelled", "shifted", "archiving", "deleted"; DONE. */
function changeDone(word: string | undefined): boolean {
  return word !== undefined && (DONE.has(word) || ((word.endsWith('ed') || Object.hasOwn(IRREGULAR, word)) && changeVerbBase(word) !== undefined));
}
/** The change verb a participle or gerund is a form of, if any: "cancelled" cancel, "archiving" archive, "sent" send. */
function changeVerbBase(word: string): string | undefined {
  const irregular = IRREGULAR[word];
  if (irregular !== undefined) return ASKING_VERBS.has(irregular) ? irregular : undefined;
  const stem = suffixStem(word);
  return stem === undefined ? undefined : stemVerbs(stem).find((v) => ASKING_VERBS.has(v) || TURN_VERBS.has(v));
}
/** A gerund's or a participle's verb, near enough for ANSWER_WORDS: "checking" check, "reviewed" review, "summarising" summarise. */
function baseOf(word: string): string {
  const stem = suffixStem(word);
  return stem === undefined ? word : (stemVerbs(stem).find((v) => ANSWER_WORDS.has(v)) ?? stem);
}
/** A word without its "-ing" or "-ed", if it has one. */
function suffixStem(word: string): string | undefined {
  return word.endsWith('ing') ? word.slice(0, -3) : word.endsWith('ed') ? word.slice(0, -2) : undefined;
}

/** Letters of a script the reading has no words for. */
const OTHER_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thai}\p{Script=Devanagari}\p{Script=Greek}]/u;

/** Words after which an asking verb is a noun in a user's turn: determiners and prepositions. */
const NOUN_BEFORE = new Set([
  'the', 'a', 'an', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those', 'any', 'every', 'each', 'last', 'latest',
  'at', 'about', 'of', 'on', 'in', 'for', 'with', 'from', 'by',
]);

/**
 * Whether `words[i]` follows a word after which it is a noun: a determiner or a preposition (NOUN_BEFORE), or a
 * possessive ("the customer's issue", "Anna's email": the words read "customer s issue"). "Let's" is no possessive:
 * "let's book a table" asks for a booking.
 */
function nounFollows(words: readonly string[], i: number): boolean {
  const before = words[i - 1] ?? '';
  return NOUN_BEFORE.has(before) || (before === 's' && i >= 2 && words[i - 2] !== 'let');
}

/**
 * Words that name a thing as often as an action: "the email from Anna" asks for no
 * send, "email Anna" does. Trusted text holds them as verbs only where no
 * determiner or preposition comes before them (see `verbUses`).
 */
export const NOUN_OR_VERB: ReadonlySet<string> = new Set([
  ...NOUN_VERBS, 'post', 'transfer', 'wire', 'note', 'order', 'book', 'share', 'comment', 'reply', 'update', 'change', 'request', 'schedule', 'cc', 'bcc',
]);
/** Verbs that make an action of the noun after "a": "place an order", "draft a reply", "make a transfer". */
const LIGHT_VERBS = new Set(['make', 'place', 'draft', 'write', 'leave', 'add', 'do', 'send', 'set', 'put', 'submit', 'create', 'post', 'file', 'prepare', 'compose']);

/**
 * The words of NOUN_OR_VERB that `text` uses as verbs: not after a determiner or a
 * preposition ("email Anna", not "the email from Anna"), unless a light verb makes
 * the action of them ("draft a reply").
 */
export function verbUses(text: string): string[] {
  const words = turnWords(text);
  const uses: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!NOUN_OR_VERB.has(w)) continue;
    const before = words[i - 1] ?? '';
    const made = (before === 'a' || before === 'an') && LIGHT_VERBS.has(words[i - 2] ?? '');
    if (made || !nounFollows(words, i)) uses.push(w);
  }
  return uses;
}

/**
 * A noun of NOUN_VERBS used as a verb at a clause's start (the turn's, after a sentence's end, a comma, a colon or a
 * semicolon, or after "and" or "then"), its object after it: a pronoun or a determiner, or an address ("Email it to
 * Bob", "…, text him back", "and email bob@example.com the file"). Not a capitalised word: a pasted header's
 * "Message ID 8812" or "Email Address of the sender" reads as a name would ("Email Bob"), so a name does not count.
 */
const NOUN_VERB_OPENS = new RegExp(
  `(?:^|[.,;:!?\\n][ \\t]*|\\b(?:and|then)\\s+)(?:${[...NOUN_VERBS].join('|')})\\s+(?:(?:${[...OBJECTS].join('|')})\\b|[\\w.+-]+@)`,
  'i',
);

/** Nouns that a number follows: "order #4471", "issue #5", "ticket #88". */
const NUMBERED = /\b(order|issue|ticket|request|invoice|case|item|message|transaction|transfer|post|comment|booking|reservation|pr|mr)\s*#\s*(?=\d)/gi;

/**
 * The words of a user or system turn, lower case, with "the" put before a noun
 * that a number follows ("When will order #4471 arrive?" reads "when will the order
 * 4471 arrive"), so that the word reads as the noun it is.
 */
function turnWords(text: string): string[] {
  return withoutNames(text).replace(NUMBERED, 'the $1 ').replace(POSSESSIVE_AT_END, '$1').replace(PLURAL_POSSESSIVE, "$1s's ").toLowerCase().match(/[a-z]+/g) ?? [];
}

/**
 * Paths, addresses, file names and inline code: "Review deploy/k8s/api.yaml", "run scripts/update.sh", "check the
 * fix/send-mail branch", "Why does `make test` fail?". Their words name places and commands, not actions: "deploy"
 * in a path asks for no deploy. A token is one when it holds two slashes or starts with one ("https://…",
 * "/etc/hosts", "~/notes"), holds one slash and a digit, a dot, a hyphen or an underscore ("k8s/api",
 * "fix/send-mail"; not "add/remove"), or a dot between a word and a lower-case letter ("deploy.yml",
 * "bob@example.com"; not "Done.Send", a missing space, nor a sentence's full stop).
 */
function withoutNames(text: string): string {
  return text.replace(CODE_SPAN, ' ').replace(TOKEN, (token) => (isName(token) ? ' ' : token));
}
/** Inline code, up to a line's length: it names a command, its words are no verbs of the turn. */
const CODE_SPAN = /`[^`\n]{1,200}`/g;
function isName(token: string): boolean {
  const slashes = token.match(SLASHES)?.length ?? 0;
  if (slashes >= 2 || LEADING_SLASH.test(token)) return true;
  if (slashes === 1) return NAME_MARK.test(token);
  return DOTTED.test(token);
}
const TOKEN = /\S+/g;
const SLASHES = /[/\\]/g;
const LEADING_SLASH = /^[("'`<]*[~.]?[/\\]/;
const NAME_MARK = /[\d._-]/;
const DOTTED = /\w\.[a-z]/;
/** A possessive that ends its clause ("It's Anna's. Schedule a call"): the word after it is none of its nouns. */
const POSSESSIVE_AT_END = /(\p{L})['’]s(?=\s*(?:[.,;:!?)\]]|$))/gu;
/** A possessive written with the apostrophe alone ("the customers' issue", "James' email"): read as "'s" is. */
const PLURAL_POSSESSIVE = /(\p{L})s['’](?=\s+\p{L})/gu;

/**
 * Where "give me a …" at `i` names one of ANSWERS, right after the article or one word on ("a quick summary", "a status
 * update"): those words ask for the answer, not for a change ("update"). Empty when it asks for something else.
 */
function answerWords(words: readonly string[], i: number): number[] {
  if (words[i] !== 'give' || words[i + 1] !== 'me' || (words[i + 2] !== 'a' && words[i + 2] !== 'an')) return [];
  return [i + 3, i + 4].filter((k) => ANSWERS.has(words[k] ?? ''));
}
