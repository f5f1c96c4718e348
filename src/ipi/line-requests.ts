// What a line of a tool result asks its reader for: a change by a verb after a lead,
// an imperative, a passive, a mandate, a wish, an order to the agent by name, or a
// change named by its noun. English word lists (request-words.ts); no model, no state.

import { ANSWER_VERBS, ASKING_VERBS, IRREGULAR, NOUN_VERBS, OBJECTS, startsWith, stemVerbs } from './request-words.js';

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

/** The index of the first word from `i` on that is not one of OPENERS. */
function pastOpeners(words: readonly string[], i: number): number {
  while (i < words.length && OPENERS.has(words[i]!)) i++;
  return i;
}
