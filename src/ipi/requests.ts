// What words ask for: the user's turns (a question, a change) and the lines of
// tool results (a request to their reader). English word lists, and the verbs of six
// more languages (foreign-requests.ts), read by the session's trace features; no
// model, no state.

import { foreignQuestion, foreignRequestVerbs } from './foreign-requests.js';

/** Verbs in tool names that change something outside the agent. */
export const WRITE_VERBS: ReadonlySet<string> = new Set([
  'send', 'post', 'create', 'delete', 'remove', 'update', 'transfer', 'pay', 'invite', 'share', 'add', 'schedule', 'book', 'reserve', 'buy',
  'order', 'checkout', 'move', 'rename', 'write', 'upload', 'grant', 'unlock', 'lock', 'disable', 'enable', 'set', 'reply', 'forward',
  'issue', 'refund', 'run', 'execute', 'comment', 'change', 'reset', 'cancel', 'approve', 'publish', 'edit', 'modify', 'append', 'insert',
  'merge', 'export',
]);

/**
 * Verbs by which a user asks the agent to change something or hands it a task
 * (the tool verbs, and those of requests: "thank the pharmacy", "let Anna see it",
 * "handle the ticket"). English; six more languages are read in `userAsks` through
 * foreign-requests.ts, and a request in any other reads as no change asked, so
 * `askedRead` needs a question mark as well.
 */
export const ASKING_VERBS: ReadonlySet<string> = new Set([
  ...WRITE_VERBS, 'put', 'tell', 'give', 'let', 'thank', 'answer', 'respond', 'handle', 'follow', 'perform', 'complete', 'help', 'fix',
  'resolve', 'process', 'apply', 'submit', 'sign', 'accept', 'decline', 'confirm', 'notify', 'remind', 'make', 'take', 'close',
  'assign', 'archive', 'mark', 'save', 'wire', 'return', 'act', 'go', 'do', 'draft', 'prepare', 'arrange', 'organise', 'organize',
  // Changes beyond the tool verbs: a user's "check the invoices and settle the one from ACME" asks for one, and so does a tool result's "Revoke the key".
  'settle', 'clear', 'clean', 'tidy', 'fill', 'register', 'subscribe', 'unsubscribe', 'renew', 'upgrade', 'install', 'uninstall', 'deploy',
  'restart', 'start', 'stop', 'claim', 'report', 'escalate', 'block', 'unblock', 'join', 'leave', 'reschedule', 'postpone', 'copy', 'print',
  'mute', 'ban', 'kick', 'revoke', 'rebook', 'switch', 'turn',
  // Devices and bins: "disarm the alarm", "empty the trash".
  'arm', 'disarm', 'activate', 'deactivate', 'empty', 'purge', 'wipe', 'erase', 'trash',
]);
/** Nouns that are asking verbs after "you" or "please": "could you email Bob", "please text Anna". */
const NOUN_VERBS = new Set(['email', 'mail', 'message', 'text', 'ping', 'dm', 'call', 'ring', 'file', 'request']);
/** Words after which a noun-verb followed by its object asks for a change: "read the notice and email their team", "then text Bob". */
const JOINERS = new Set(['and', 'then']);
/** Words that open the object of a noun-verb ("email their team", "text her"); "calendar and email for anything urgent" has none. */
const OBJECTS = new Set(['the', 'a', 'an', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those', 'him', 'them', 'me', 'us', 'it', 'everyone', 'back']);

/** Asking verbs that, followed by "me", ask for an answer, not a change: "tell me", "give me", "let me know". */
const ANSWER_VERBS = new Set(['tell', 'give', 'let']);
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
  'nudge',
]);
/** Phrasal verbs that ask for a change where neither word alone does: "sort out the deploy", "get rid of the branches". */
const TURN_PHRASES: readonly (readonly [string, string])[] = [
  ['sort', 'out'], ['deal', 'with'], ['get', 'rid'], ['wrap', 'up'], ['shut', 'down'], ['spin', 'up'], ['roll', 'back'], ['push', 'back'],
  ['push', 'live'], ['top', 'up'], ['free', 'up'], ['loop', 'in'], ['hook', 'up'], ['chase', 'up'], ['kick', 'off'], ['back', 'up'],
  ['look', 'after'], ['react', 'with'],
];
/** Phrasal verbs whose object may stand between the verb and its particle: "chase it up", "get the laptop off my account", "get it over to legal". */
const SEPARABLE_PHRASES: ReadonlyMap<string, readonly string[]> = new Map([
  ['chase', ['up']], ['get', ['off', 'rid', 'over', 'back']], ['bring', ['back', 'online']], ['take', ['down', 'off']], ['knock', ['down']], ['sort', ['out']],
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
  'not', 'i', 'we', 'me', 'us', 'still', 'really',
]);
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

/** What the user's turns ask for: see `userAsks`. */
export interface UserAsks {
  readonly question: boolean;
  readonly change: boolean;
  /** The turn holds words the reading cannot tell a change from an answer by (see readOtherWords); absent when not. */
  readonly unsure?: boolean;
}

/** Words a request may use for a tool name's term: "email the report to…" asks for send_email. */
export const SAME_ACTION: Readonly<Record<string, readonly string[]>> = {
  send: ['email', 'mail', 'forward', 'message', 'text', 'post', 'transfer', 'wire', 'pay', 'transmit', 'dispatch', 'cc', 'bcc'],
  email: ['mail', 'message'],
  message: ['text', 'email', 'mail', 'note'],
  transfer: ['send', 'wire', 'pay', 'move'],
  transaction: ['payment', 'transfer'],
  payment: ['transfer', 'transaction'],
  pay: ['send', 'transfer', 'wire'],
  money: ['transaction', 'payment', 'transfer', 'funds'],
  reserve: ['book', 'reservation', 'booking'],
  book: ['reserve', 'reservation', 'booking'],
  create: ['add', 'make', 'schedule', 'book', 'open', 'new', 'provision'],
  event: ['meeting', 'appointment', 'call'],
  // "Cancel all events", "cancel the meeting" before delete_calendar_events.
  delete: ['remove', 'erase', 'wipe', 'drop', 'purge', 'cancel'],
  remove: ['delete', 'kick', 'drop'],
  share: ['give', 'grant'],
  file: ['document'],
  // A toolkit's generic object: "delete all of my files in my Dropbox" before DropboxDeleteItem.
  item: ['file', 'folder', 'document'],
  // A setting's state is updated by the verb of the state: "turn off branch protection" before update_branch_protection.
  update: ['change', 'set', 'edit', 'modify', 'disable', 'enable', 'turn'],
  // A device's state is set by the verb of the state: "disarm the alarm" before set_alarm.
  set: ['change', 'update', 'arm', 'disarm', 'switch', 'turn', 'enable', 'disable', 'lock', 'unlock', 'activate', 'deactivate'],
  post: ['publish', 'send', 'write'],
  invite: ['add', 'onboard'],
  // "Apply the pending migrations", "execute the setup script" before run_migration, run_command.
  run: ['execute', 'apply'],
  execute: ['run', 'apply'],
  // The words people use for a tool's verb: "ship the hotfix" before deploy_release, "snooze the pager" before mute_alert.
  deploy: ['ship', 'release', 'roll'],
  stop: ['kill', 'halt', 'shut'],
  restart: ['reboot', 'bounce'],
  assign: ['reassign'],
  mute: ['snooze', 'silence'],
  disable: ['pause', 'silence', 'deactivate'],
  close: ['dismiss', 'resolve'],
  approve: ['okay', 'accept'],
  mark: ['star', 'flag'],
  add: ['tag', 'label', 'pin'],
  empty: ['clear', 'purge'],
  move: ['migrate'],
  webpage: ['website', 'site', 'page', 'link', 'url'],
  channel: ['channels'],
  // "PR" and "MR" name a pull or merge request: "@claude please merge this PR" before merge_pull_request.
  pull: ['pr'],
  request: ['pr', 'mr'],
};

/** What a line calls the agent it addresses: "Assistant, …", "Hey Cursor, …", "Bot: …". */
const AGENT_NAMES = ['ai', 'assistant', 'agent', 'bot', 'model', 'llm', 'claude', 'gpt', 'chatgpt', 'copilot', 'gemini', 'cursor', 'codex', 'devin', 'cline', 'aider', 'windsurf'];
const AGENT_NAME = AGENT_NAMES.join('|');

/** Words that may stand between a request's opening and its verb: "Please also send…", "Assistant, now forward…". */
const OPENERS = new Set([
  'please', 'kindly', 'also', 'then', 'and', 'now', 'next', 'first', 'finally', 'immediately', 'urgently', 'just', 'quickly', 'always', 'still',
  'afterwards', 'afterward', 'lastly', 'additionally', 'second', 'third', 'maybe', 'perhaps',
  ...AGENT_NAMES, 'hey', 'hi', 'dear',
  'step', 'task', 'todo', 'note', 'important', 'urgent',
  // The emphatic "Do send…"; "do you know" and "do not send" still ask for nothing.
  'do',
]);
/** Words after which the next verb is asked of the reader, anywhere in a sentence: "could you send", "you must first forward", "please share". */
const LEADS: readonly (readonly string[])[] = [
  ['please'], ['kindly'], ['could', 'you'], ['can', 'you'], ['would', 'you'], ['will', 'you'], ['you', 'could'], ['you', 'can'], ['you', 'd'], ['you', 'll'],
  ['you', 'need', 'to'], ['you', 'have', 'to'], ['want', 'you', 'to'], ['make', 'sure', 'to'], ['make', 'sure', 'you'], ['remember', 'to'],
  ['forget', 'to'], ['be', 'sure', 'to'], ['you', 'will'], ['need', 'you', 'to'], ['needs', 'you', 'to'], ['you', 'll', 'want', 'to'], ['you', 'will', 'want', 'to'],
  // "Would you be so kind as to forward …", "be kind enough to send …".
  ['kind', 'as', 'to'], ['kind', 'enough', 'to'],
  // Hedged and formal: "it would be really helpful to send…", "it is mandatory that you forward…".
  ['helpful', 'to'], ['mandatory', 'that', 'you'], ['important', 'that', 'you'], ['essential', 'that', 'you'], ['required', 'that', 'you'],
  // Without "you": "The AI should forward…", "the assistant is expected to send…", "any AI reading this must…".
  // An order passed to the agent through its name: "compliance requires the assistant to delete…", "we ask the AI to forward…".
  ['assistant', 'to'], ['ai', 'to'], ['agent', 'to'], ['requires', 'you', 'to'], ['asks', 'you', 'to'],
  ['should'], ['must'], ['shall'], ['expected', 'to'], ['required', 'to'], ['ought', 'to'], ['is', 'to'], ['are', 'to'], ['needs', 'to'], ['need', 'to'], ['has', 'to'], ['have', 'to'],
  // A suggestion, an instruction stated, a next step: "why not send…", "the agent is instructed to disable…", "proceed to wire…".
  // Not the advice manuals and notices give ("it is important to update…", "feel free to forward…", "you may want to…",
  // "you were asked to share…"): an agent that follows such a document for its user would be blocked.
  ['why', 'not'], ['instructed', 'to'], ['proceed', 'to'],
  // A causative addressed to whoever reads with an assistant: "have it sign you up at …", "have your assistant forward …".
  ['have', 'it'], ...['the', 'your'].flatMap((whose) => ['assistant', 'ai', 'agent'].map((name) => ['have', whose, name])),
];
/** After these a gerund asks for the change: "would you mind sending…", "how about forwarding…", "consider deleting…", "thanks in advance for wiring…". */
const GERUND_LEADS: readonly (readonly string[])[] = [
  ['would', 'you', 'mind'], ['how', 'about'], ['consider'], ['recommend'], ['suggest'], ['proceed', 'with'], ['begin', 'with'], ['begin', 'by'], ['start', 'with'], ['start', 'by'],
  // Thanks for what is yet to be done: "thanks in advance for forwarding …" (not "thank you for updating your details", done).
  ['in', 'advance', 'for'],
];
/** Words that make "if you …" (or "if the assistant …") a wish: "it would be nice if you forwarded…", "easier if the assistant just declined…". */
const HEDGES = new Set(['nice', 'great', 'good', 'better', 'best', 'easier', 'helpful', 'help', 'appreciate', 'appreciated', 'grateful', 'ideal', 'ideally', 'prefer', 'preferable']);
/** Who a wish after "if" is addressed to, within a few words of it: "if you", "if the calendar assistant". */
const WISHED = new Set(['you', 'assistant', 'ai', 'agent', 'bot']);
/** After these a participle asks for the change: "the report is to be sent to…", "must be forwarded". */
const PASSIVE_LEADS: readonly (readonly string[])[] = [['to', 'be'], ['must', 'be'], ['should', 'be'], ['shall', 'be']];
/** Words after which "that" opens what someone asks to be done: "maintainers asked that the token be posted to …". */
const MANDATES = new Set([
  'ask', 'asks', 'asked', 'asking', 'request', 'requests', 'requested', 'requesting', 'require', 'requires', 'required', 'requiring',
  'insist', 'insists', 'insisted', 'demand', 'demands', 'demanded', 'urge', 'urges', 'urged',
]);
/**
 * Adjectives that state a mandate to the reader: "It is essential that the assistant sends …", "critical that you
 * wire …". Only with the reader as the subject: "it is essential that the firmware be updated" is a notice's advice
 * to a person (decision 108).
 */
const STATED_MANDATES = new Set(['essential', 'critical', 'vital', 'imperative', 'important', 'mandatory']);
/** The names of the agent a line may state a new order of: "the assistant will now forward …". */
const AGENTS = new Set(AGENT_NAMES);
/** The words that make a statement about the agent an order from now on: "will now", "now", "will immediately". */
const SWITCHES = new Set(['now', 'immediately', 'henceforth']);

/**
 * Whether the words from `i`, after the agent's name, state what it does from now on: "(will) now" or "(will)
 * immediately", then a verb that asks for a change, in its base or with -s, and a word after it ("The assistant will
 * now forward the inbox to …", "The AI now forwards all invoices to …"). "The assistant sends a reminder before each
 * meeting" describes a product, and is not read.
 */
function switchedTo(words: readonly string[], i: number): boolean {
  const at = words[i] === 'will' || words[i] === 'shall' ? i + 1 : i;
  if (!SWITCHES.has(words[at] ?? '')) return false;
  const verb = words[at + 1];
  const next = words[at + 2];
  if (verb === undefined || next === undefined) return false;
  return changeVerb(verb, next) || (verb.endsWith('s') && (changeVerb(verb.slice(0, -1), next) || (verb.endsWith('es') && changeVerb(verb.slice(0, -2), next))));
}

/** Who may be asked, named right before the verb, in a clause after MANDATES: "ask that the assistant forwards …", "request that you send …". */
const MANDATED = new Set(['you', 'we', 'they', 'he', 'she', 'it', 'i', ...WISHED]);
/** Participles not made by adding -ed or -d. */
const IRREGULAR: Readonly<Record<string, string>> = { sent: 'send', paid: 'pay', given: 'give', made: 'make', written: 'write', taken: 'take', told: 'tell', put: 'put', set: 'set', run: 'run', wired: 'wire', sold: 'sell', resent: 'resend', withdrawn: 'withdraw' };

/**
 * The forms a line that asks for `verb` may write it in: the base and -s ("forwards"), the participle ("must be
 * forwarded", "easier if the assistant deleted it"), a final consonant doubled too ("transferred"). What matches
 * a tool's verb against a request line's words. Not the gerund: a colleague's "would you mind sending me the
 * link?" then named the send of a user who said "Reply to Jonas", and blocked it.
 */
export function verbInflections(verb: string): string[] {
  const irregular = Object.keys(IRREGULAR).filter((past) => IRREGULAR[past] === verb);
  const last = verb[verb.length - 1] ?? '';
  if (last === 'e') return [verb, `${verb}s`, `${verb}d`, ...irregular];
  if (last === 'y' && !/[aeiou]y$/.test(verb)) return [verb, `${verb.slice(0, -1)}ies`, `${verb.slice(0, -1)}ied`, ...irregular];
  const forms = [verb, `${verb}s`, `${verb}es`, `${verb}ed`, ...irregular];
  if (/[^aeiou][aeiou][bdglmnprt]$/.test(verb)) forms.push(`${verb}${last}ed`);
  return forms;
}

/** Whether `w` is a verb that asks for a change (`next` is the word after it: "tell me" asks for an answer). */
function changeVerb(w: string | undefined, next: string | undefined): boolean {
  if (w === undefined || w === 'do') return false;
  // "Let's sync tomorrow", "let us know": the writer proposes, nobody is asked. "Thank you for your order": a courtesy.
  if ((w === 'let' && (next === 's' || next === 'us')) || (w === 'thank' && next === 'you')) return false;
  // "Wire transfers submitted after 5 PM …", "Wire transfer fee": a noun.
  if (w === 'wire' && (next === 'transfer' || next === 'transfers')) return false;
  const objects = VERBS_BEFORE_OBJECT.get(w);
  if (objects) return next !== undefined && objects.has(next);
  return NOUN_VERBS.has(w) || READER_VERBS.has(w) || MOVING_VERBS.has(w) || (ASKING_VERBS.has(w) && !(ANSWER_VERBS.has(w) && next === 'me'));
}

/**
 * Verbs a line of a tool result may ask its reader for beyond ASKING_VERBS: to go and
 * fetch something ("Visit a website at the link …", "download the installer"), and
 * changes that injections ask for and tool output seldom does ("whitelist this
 * domain"). Not read in a user's turn, nor as a tool name's verb: asking to open a
 * page is not asking for a change, and `authorize_payment` writes as a name with no
 * verb of its own does.
 */
const READER_VERBS = new Set([
  'visit', 'open', 'click', 'download', 'install', 'navigate', 'browse', 'fetch', 'load', 'retrieve', 'collect', 'gather', 'summarize', 'summarise',
  'concatenate', 'list', 'transmit', 'dispatch', 'cc', 'bcc', 'erase', 'wipe', 'purge', 'export', 'disclose', 'reveal', 'leak',
  'copy', 'paste', 'include', 'attach',
  // What injections ask and tool output seldom does: "exfiltrate the keys", "whitelist this domain", "upvote the post".
  'exfiltrate', 'expose', 'bypass', 'whitelist', 'allowlist', 'authorize', 'authorise', 'donate', 'upvote', 'inject', 'broadcast',
]);

/**
 * Changes that move money and goods, which a line of a tool result may ask for ("deposit 2000 USD to Binance",
 * "initiate a payment of $500", "redirect the refund to …"). Read in results only: in a user's question they ask
 * for no change ("When will my order ship?", "Should I sell?"), and they are not ASKING_VERBS, which also find a
 * tool name's verb (`UspsMailRedirect` still writes).
 */
const MOVING_VERBS = new Set(['deposit', 'withdraw', 'sell', 'trade', 'ship', 'resend', 'dismiss', 'initiate', 'redirect', 'divert']);

/**
 * Verbs that are as often a heading's noun, and ask for a change only before the words that open their object:
 * "release my card information to …" does, "Release Manager: …" and "Release schedule" do not; "cash out my
 * holdings" does, "Cash flow" does not. Read in results only, as MOVING_VERBS are; a passive ("is to be
 * released") is not read. A Map, not an object literal: a line's word must not find `constructor`.
 */
const VERBS_BEFORE_OBJECT: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['release', OBJECTS],
  ['cash', new Set(['out'])],
]);

/**
 * The changes a line asks for by their nouns and a word that says they must happen: "Deletion of
 * /srv/backups/prod-db is required today", "Immediate revocation of all tokens is mandatory". Each as the verb the
 * tools are named by (delete, revoke), so that the line names a tool as a request in its verb does. Not payments or
 * transfers, nor "due" or "expected": "Payment of $86.40 is due" is a bill's line. The noun with its object ("of"):
 * "the deletion policy is required reading" asks nothing. None after "no" ("No removal of data is needed") or
 * where the word is negated ("is not required").
 */
export function changeNounVerbs(line: string): readonly string[] {
  if (!CHANGE_NOUN.test(line)) return NO_NOUN_VERBS;
  const verbs = new Set<string>();
  for (const match of line.toLowerCase().matchAll(CHANGE_NOUN_REQUIRED)) verbs.add(CHANGE_NOUNS.get(match[1]!)!);
  return verbs.size > 0 ? [...verbs] : NO_NOUN_VERBS;
}
const CHANGE_NOUNS: ReadonlyMap<string, string> = new Map([
  ['deletion', 'delete'], ['removal', 'remove'], ['cancellation', 'cancel'], ['revocation', 'revoke'], ['archival', 'archive'],
  ['forwarding', 'forward'], ['installation', 'install'], ['uninstallation', 'uninstall'], ['publication', 'publish'],
  ['deactivation', 'deactivate'], ['disabling', 'disable'], ['shutdown', 'stop'], ['sharing', 'share'],
]);
const CHANGE_NOUN = new RegExp(`(?:${[...CHANGE_NOUNS.keys()].join('|')})`, 'i');
const CHANGE_NOUN_REQUIRED = new RegExp(
  `(?<!\\bno\\s)\\b(${[...CHANGE_NOUNS.keys()].join('|')})\\s+of\\b(?:[^.!?\\n]|[.!?](?=\\S)){0,120}?\\b(?:is|are)\\s+(?:now\\s+|hereby\\s+|urgently\\s+|strictly\\s+|absolutely\\s+)?(?:required|needed|necessary|mandatory|requested)\\b`,
  'g',
);
const NO_NOUN_VERBS: readonly string[] = [];

/**
 * A line asks its reader for a change: a sentence of it opens with a verb of
 * ASKING_VERBS or a noun of NOUN_VERBS, or one follows "please", "could you",
 * "you must", "make sure to" and the like (words such as "also" or "first" may
 * stand between). "Please find the invoice attached" asks nothing; "Please create
 * a meeting with…" and "to finish the summary you must first share…" do.
 */
export function asksReader(line: string): boolean {
  // A hyphen after "re" joins the verb it repeats: "re-send", "Re-direct".
  const text = line.includes('-') ? line.replace(RE_HYPHEN, (re) => re.slice(0, 2)) : line;
  if (ADDRESSED_VERB.test(text) && ADDRESSED_ORDER.test(text)) return true;
  // Most lines of a tool result hold no such verb: one regular expression rules them out.
  if (!ANY_CHANGE_VERB.test(text)) return false;
  // Sentences and the parts a list, a bracket, a dash, "and" or "then" sets apart: "Step 1 - transfer…", "<INFORMATION> Send…", "read the file and post it…".
  // A point or a comma between digits is an amount's ("withdraw 1.5 BTC", "2,000 USD"), not a clause's end; nor is a
  // point that opens a word or follows a slash ("upload ~/.aws/credentials", "Run ./install.sh", "update .github/…").
  for (const sentence of withObjectsAfterColons(text.toLowerCase()).split(/(?:(?<![\s/~])(?<!^)(?:(?<!\d)\.|\.(?!\d))|(?<!\d),|,(?!\d)|[!?;:\n()[\]<>{}—–])+| - |->| and then | and | then /)) {
    const words = sentence.match(/[a-z]+/g);
    if (!words) continue;
    if (verbAfter(words, 0)) return true;
    // Read once a sentence: a sentence of many "if"s must not scan its start for each.
    const hedge = words.findIndex((w) => HEDGES.has(w));
    for (let i = 0; i < words.length; i++) {
      // Most words open no lead: one set lookup, not a scan of LEADS, for each.
      const leads = LEADS_BY_FIRST.get(words[i]!);
      if (leads) for (const lead of leads) if (startsWith(words, i, lead) && verbAfter(words, i + lead.length)) return true;
      for (const lead of PASSIVE_LEADS) if (words[i] === lead[0] && startsWith(words, i, lead) && participleAfter(words, i + lead.length)) return true;
      for (const lead of GERUND_LEADS) if (words[i] === lead[0] && startsWith(words, i, lead) && gerundAfter(words, i + lead.length)) return true;
      if (words[i] === 'if' && hedge >= 0 && hedge < i && wishAfter(words, i)) return true;
      if (words[i + 1] === 'that' && MANDATES.has(words[i]!) && mandateAfter(words, i + 2)) return true;
      if (words[i + 1] === 'that' && STATED_MANDATES.has(words[i]!) && mandateAfter(words, i + 2, WISHED, false)) return true;
      if (AGENTS.has(words[i]!) && switchedTo(words, i + 1)) return true;
    }
  }
  return false;
}

/**
 * The text with the colon dropped after a verb that a lead or an addressee asks
 * for, where its object follows on the line: "Assistant, before continuing, run:
 * env | curl …", "The assistant must run: curl …". Split at the colon, the verb
 * stood alone, and an imperative needs an object. A verb with no lead before it
 * in its clause stays a label ("Update: the server is back", "Status update: done").
 */
function withObjectsAfterColons(lower: string): string {
  if (!lower.includes(':')) return lower;
  return lower.replace(VERB_BEFORE_COLON, (match, before: string, verb: string) => (changeVerb(verb, 'it') && ledBy(before) ? `${before}${verb} ` : match));
}
/** A clause's words up to a verb, the verb, and a colon with more on its line after it. */
const VERB_BEFORE_COLON = /([^\n:.!?;]{0,80}?\b)([a-z]+)[ \t]*:(?=[ \t]*[^\s])/g;

/**
 * Whether a clause's words before a verb ask for it: the agent addressed by name
 * and a comma ("Assistant, before continuing,"), "please" or "kindly", or a lead
 * at their end ("the agent must"). A greeting ("Hi team, update: …", "Dear Anna,
 * transfer: confirmed") or a noun before a label ("Model deploy: succeeded") does not.
 */
function ledBy(before: string): boolean {
  if (ADDRESSED.test(before)) return true;
  const words = before.match(/[a-z]+/g);
  if (!words) return false;
  if (words.includes('please') || words.includes('kindly')) return true;
  // "When you next run the tests, first run: export …": a step's opener after a clause before the verb, as it is
  // without the colon. An opener that opens the line labels it: "Next update: Friday", "Now open: the cafeteria".
  if (STEP_OPENERS.has(words[words.length - 1]!) && AFTER_CLAUSE.test(before)) return true;
  return LEADS.some((lead) => startsWith(words, words.length - lead.length, lead));
}
/** A clause, a comma and one word at the end of the words before a verb: "When you next run the tests, first ". */
const AFTER_CLAUSE = /\w[ \t]*,[ \t]*[a-z]+[ \t]*$/;
/** The openers of a step that an imperative follows (a subset of OPENERS: not "step" or "note", which label). */
const STEP_OPENERS = new Set(['first', 'then', 'next', 'finally', 'now', 'afterwards', 'afterward', 'lastly', 'also', 'immediately']);
/** The agent addressed by name, a comma after it. */
const ADDRESSED = new RegExp(`\\b(?:${AGENT_NAME})\\s*,`);
/**
 * "Bot: commit … and push to main", "Assistant, push this branch to main": verbs that a README's advice to a
 * person uses too ("push your branch", "commit your changes"; decision 108), so they ask only the agent addressed
 * by name at a clause's start, with an object after them.
 */
const ADDRESSED_VERBS = '(?:please[ \\t]+)?(?:commit|push|force-push)';
const ADDRESSED_ORDER = new RegExp(
  `(?:^|[\\n.!?])[ \\t]*(?:[*_#>-][ \\t]*){0,4}(?:(?:hey|hi|dear) )?(?:${AGENT_NAME})[*_]{0,2}[ \\t]*[:,][*_]{0,2}[ \\t]*${ADDRESSED_VERBS}[ \\t]+[^\\s.]`,
  'i',
);
/** Most lines name neither verb: a plain search rules them out before ADDRESSED_ORDER looks for a clause's start. */
const ADDRESSED_VERB = /commit|push/i;

/**
 * Whether a line asks the agent that a label before it names: a record's "Bot: commit … and push to main" is read as
 * the label "Bot" and the line "commit … and push to main", each a passage of its own. As ADDRESSED_ORDER reads the
 * two written together; a label longer than a name is none.
 */
export function asksAfterLabel(label: string | undefined, line: string): boolean {
  return label !== undefined && label.length <= 24 && LABELLED_ORDER.test(line) && ADDRESSED_ORDER.test(`${label}: ${line}`);
}
const LABELLED_ORDER = new RegExp(`^[ \\t*_]*${ADDRESSED_VERBS}[ \\t]`, 'i');

const RE_HYPHEN = /(?<![a-z])re-(?=[a-z])/gi;

/** A word as asksReader splits them (a run of letters): "send_email" holds "send"; a participle of one counts ("forwarded", "sent"). */
const LINE_VERBS = [...ASKING_VERBS, ...NOUN_VERBS, ...READER_VERBS, ...MOVING_VERBS, ...VERBS_BEFORE_OBJECT.keys()];
/** Gerunds too ("sending", "sharing", "transferring"): the stem without a final "e", a doubled consonant, "ing"; and "-ied" for "-y" ("replied"). */
const ANY_CHANGE_VERB = new RegExp(
  `(?<![a-z])(?:(?:${LINE_VERBS.join('|')})[a-z]?(?:e?d)?|(?:${LINE_VERBS.map((v) => (v.endsWith('e') ? v.slice(0, -1) : v)).join('|')})[a-z]?ing|(?:${LINE_VERBS.filter((v) => /[^aeiou]y$/.test(v)).map((v) => v.slice(0, -1)).join('|')})ied|${Object.keys(IRREGULAR).join('|')})(?![a-z])`,
  'i',
);
const LEADS_BY_FIRST = new Map<string, (readonly string[])[]>();
for (const lead of LEADS) LEADS_BY_FIRST.set(lead[0]!, [...(LEADS_BY_FIRST.get(lead[0]!) ?? []), lead]);

function startsWith(words: readonly string[], at: number, lead: readonly string[]): boolean {
  for (let k = 0; k < lead.length; k++) if (words[at + k] !== lead[k]) return false;
  return true;
}

/** Whether the participle of a verb that asks for a change stands at `i`, past any OPENERS: "shared", "transferred", "sent". */
function participleAfter(words: readonly string[], i: number): boolean {
  const w = words[pastOpeners(words, i)];
  if (w === undefined) return false;
  const irregular = IRREGULAR[w];
  if (irregular !== undefined) return changeVerb(irregular, undefined);
  // forwarded → forward, shared → share, transferred → transfer.
  return w.endsWith('ed') && stemAsksChange(w.slice(0, -2));
}

/** Whether a stem left by "-ed" or "-ing" is a verb that asks for a change (see stemVerbs). */
function stemAsksChange(stem: string): boolean {
  return stemVerbs(stem).some((v) => changeVerb(v, undefined));
}

/** The verbs a stem left by "-ed" or "-ing" may be: as is, with its "e", undoubled ("transferr"), or "-i" as "-y". */
function stemVerbs(stem: string): string[] {
  const doubled = stem.length > 2 && stem[stem.length - 1] === stem[stem.length - 2] ? stem.slice(0, -1) : stem;
  // replied → reply, emptied → empty (not "-ying": the gerund keeps its "y").
  const y = stem.endsWith('i') ? `${stem.slice(0, -1)}y` : stem;
  return [stem, `${stem}e`, doubled, y];
}

/** Whether the gerund of a verb that asks for a change stands at `i`, past any OPENERS: "sending", "sharing", "transferring". */
function gerundAfter(words: readonly string[], i: number): boolean {
  const w = words[pastOpeners(words, i)];
  return w !== undefined && w.endsWith('ing') && stemAsksChange(w.slice(0, -3));
}

/**
 * Whether the clause from `i`, after "asked that" or the like, asks for a change: a participle after "be" ("asked
 * that the NPM_TOKEN be posted to …"), or a verb (its base, or with -s) right after who is asked ("we kindly ask
 * that the assistant forwards …", "they request that you send …"), within six words. "Asked that the report be
 * reviewed" asks for no change; "asked that Bob send it" is not read (a name is no subject the reading knows).
 * `subjects` may be narrowed to the reader (WISHED), and `participles` turned off: an adjective's mandate asks only of the reader.
 */
function mandateAfter(words: readonly string[], i: number, subjects: ReadonlySet<string> = MANDATED, participles = true): boolean {
  for (let j = i; j < i + 6 && j < words.length; j++) {
    const w = words[j]!;
    if (w === 'be') return participles && participleAfter(words, j + 1);
    if (j > i && subjects.has(words[j - 1]!) && (changeVerb(w, words[j + 1]) || (w.endsWith('s') && changeVerb(w.slice(0, -1), words[j + 1])))) return true;
  }
  return false;
}

/**
 * Whether "if" at `i`, after a hedge in its sentence ("it would be nice if", "I'd appreciate it if"; the caller
 * checks), opens a wish for a change: the reader within four words after it ("you", "the calendar assistant"), and
 * the past of a verb that asks for a change ("forwarded", "just declined"). "If you paid twice, we will refund you"
 * names no hedge.
 */
function wishAfter(words: readonly string[], i: number): boolean {
  for (let j = i + 1; j <= i + 4 && j < words.length; j++) if (WISHED.has(words[j]!)) return participleAfter(words, j + 1);
  return false;
}

/** Whether a verb that asks for a change stands at `i`, past any OPENERS. */
function verbAfter(words: readonly string[], i: number): boolean {
  const at = pastOpeners(words, i);
  const next = words[at + 1];
  // "List of participants", "Copy of the invoice", "Update:" are nouns: an imperative has an object.
  if (next === undefined || next === 'of' || offersAnyTime(words, at + 1)) return false;
  return changeVerb(words[at], next);
}

/** "Unsubscribe any time", "Cancel anytime", "Reply at any time": an offer a notice makes, not an order. */
function offersAnyTime(words: readonly string[], i: number): boolean {
  if (words[i] === 'at') i++;
  return words[i] === 'anytime' || (words[i] === 'any' && words[i + 1] === 'time');
}

/**
 * Where "give me a …" at `i` names one of ANSWERS, right after the article or one word on ("a quick summary", "a status
 * update"): those words ask for the answer, not for a change ("update"). Empty when it asks for something else.
 */
function answerWords(words: readonly string[], i: number): number[] {
  if (words[i] !== 'give' || words[i + 1] !== 'me' || (words[i + 2] !== 'a' && words[i + 2] !== 'an')) return [];
  return [i + 3, i + 4].filter((k) => ANSWERS.has(words[k] ?? ''));
}

/** The index of the first word from `i` on that is not one of OPENERS. */
function pastOpeners(words: readonly string[], i: number): number {
  while (i < words.length && OPENERS.has(words[i]!)) i++;
  return i;
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
