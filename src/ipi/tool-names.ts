// How a tool's name reads: the verb it performs, the terms a request must name to ask
// for it, and whether it changes anything. Names come as snake_case (send_money),
// camelCase or PascalCase with a toolkit in front (GmailSendEmail,
// AugustSmartLockGrantGuestAccess) and namespaced by a server (github__create_issue,
// slack.post_message).
import { ASKING_VERBS, WRITE_VERBS } from './request-words.js';

/** What a session reads from a tool's name. */
export interface ToolName {
  /** The verb the tool performs, if its name holds one: `send` for GmailSendEmail. */
  readonly verb: string | undefined;
  /** The words that say what it does and touches, from its verb on: GmailSendEmail → send, email. */
  readonly terms: readonly string[];
  /** Whether it changes something (a write verb), rather than reads; also when its name holds no verb at all, as nothing says it only reads. */
  readonly writes: boolean;
  /**
   * The parts of the name written as one word with capitals inside (GmailSendEmail), and that word from its verb
   * on (sendemail): one word to the tokenizer, the tool's name in its words to an agent, so a text that writes one
   * names every term ("use GmailSendEmail", "call SendEmail").
   */
  readonly joined: readonly string[];
}

/** First words of tools that read, whatever nouns follow: `list_issues` does not write through "issue". */
const READING_TOOL_VERBS = new Set(['get', 'list', 'read', 'fetch', 'search', 'find', 'query', 'show', 'view', 'check', 'lookup', 'describe', 'count', 'track']);
/** Words too common in tool names to say what one does. */
const GENERIC_WORDS = new Set(['list', 'read', 'fetch', 'search', 'find', 'query', 'info', 'data', 'with', 'from', 'into', 'show', 'view']);

/** Verbs of tools that change something beyond the write verbs of requests: leave_channel, block_domain, archive_email. */
const CHANGE_TOOL_VERBS = new Set([
  'settle', 'clear', 'register', 'subscribe', 'unsubscribe', 'renew', 'upgrade', 'install', 'uninstall', 'deploy', 'restart', 'start', 'stop',
  'claim', 'escalate', 'block', 'unblock', 'join', 'leave', 'reschedule', 'postpone', 'mute', 'ban', 'kick', 'revoke', 'rebook', 'switch', 'turn',
  'submit', 'accept', 'decline', 'confirm', 'notify', 'remind', 'close', 'assign', 'archive', 'mark', 'save', 'wire', 'apply', 'sign', 'fill',
  'copy', 'resend', 'request', 'contact', 'withdraw', 'deposit', 'trade', 'sell', 'ship', 'make', 'push',
  // Devices and bins: empty_trash, purge_spam, disarm_alarm, deactivate_sensor.
  'empty', 'trash', 'purge', 'wipe', 'erase', 'arm', 'disarm', 'activate', 'deactivate', 'dismiss',
]);
/**
 * What `open` may open and only read: open_file, open_web_page. Anything else it
 * opens is a change (open_garage_door, open_valve, open_position).
 */
const OPENED_TO_READ = new Set(['file', 'files', 'page', 'webpage', 'web', 'link', 'url', 'tab', 'folder', 'document', 'doc', 'pdf', 'website', 'site', 'browser', 'app', 'email', 'message', 'attachment', 'image', 'editor', 'notebook']);
/** Verbs of tool names that neither read nor change: they only mark where a name's verb is. */
const OTHER_TOOL_VERBS = new Set([
  'reopen', 'retry', 'manage', 'generate', 'verify', 'validate', 'convert', 'translate', 'calculate', 'download', 'open', 'play', 'call',
  'scan', 'analyze', 'analyse', 'monitor', 'browse', 'navigate',
]);
/**
 * Names of a shell or an interpreter: a tool called `Bash`, `terminal`, `exec` or
 * `python_repl` runs whatever it is given, so it reads as `run_command` does.
 */
const COMMAND_WORDS = new Set(['bash', 'shell', 'terminal', 'exec', 'powershell', 'cmd', 'sh', 'zsh', 'repl', 'console', 'interpreter']);
const RUN_COMMAND: ToolName = Object.freeze({ verb: 'run', terms: Object.freeze(['run', 'command']), writes: true, joined: Object.freeze([]) });
const isVerb = (w: string): boolean => CHANGE_TOOL_VERBS.has(w) || ASKING_VERBS.has(w) || READING_TOOL_VERBS.has(w) || OTHER_TOOL_VERBS.has(w);

const cache = new Map<string, ToolName>();

/** Read a tool's name (memoised: a session sees the same few names call after call). */
export function readToolName(name: string): ToolName {
  let read = cache.get(name);
  if (read === undefined) {
    read = readUncached(name);
    if (cache.size < 4096) cache.set(name, read);
  }
  return read;
}

function readUncached(name: string): ToolName {
  const words = name.split(/[_\-\s.:/]+|(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase()).filter((w) => w.length > 0);
  const at = verbIndex(words);
  const joined = name.split(/[^A-Za-z0-9]+/).filter((part) => /[a-z0-9][A-Z]/.test(part));
  // Written from its verb on, past the toolkit, as a request may write it ("call UnlockDoor"): two words or more.
  const fromVerb = at > 0 && words.length - at >= 2 ? words.slice(at).join('') : '';
  if (joined.length > 0 && fromVerb !== '' && !joined.some((part) => part.toLowerCase() === fromVerb)) joined.push(fromVerb);
  // A shell with no verb of its own (Bash, python_exec, exec_command) runs commands.
  if (at < 0 && words.some((w) => COMMAND_WORDS.has(w))) return joined.length === 0 ? RUN_COMMAND : { ...RUN_COMMAND, joined };
  // A toolkit or server before the verb (Gmail, AugustSmartLock, github) is not what the tool does:
  // neither the user nor an injected request says "August smart lock" to ask for a grant.
  const own = at > 0 ? words.slice(at) : words;
  const verb = at >= 0 ? words[at] : undefined;
  const terms = own
    .filter((w) => (w.length >= 4 || WRITE_VERBS.has(w)) && !GENERIC_WORDS.has(w))
    .map((w) => (w.endsWith('s') && w.length > 4 ? w.slice(0, -1) : w));
  const v = verb ?? '';
  const opens = v === 'open' && !own.slice(1).some((w) => OPENED_TO_READ.has(w));
  // A name with no verb at all (xfr_funds, payments) says nothing of what the tool does: it may change anything, so it is
  // read as one that does, as a shell is. The verbs that neither read nor change (calculate, translate) say what it does.
  const writes = verb === undefined || opens || CHANGE_TOOL_VERBS.has(v) || (!READING_TOOL_VERBS.has(v) && (terms.some((t) => WRITE_VERBS.has(t)) || own.some((w) => WRITE_VERBS.has(w))));
  return { verb, terms, writes, joined };
}

/**
 * Where the tool's verb is: the first word when it is one (send_money), else the
 * first verb that a noun follows, past a toolkit's name that may hold one
 * ("lock" of AugustSmartLockGrantGuestAccess is followed by the verb "grant"),
 * else the first verb at all (ShopifyUpdateOrder: "order" ends the name). −1 for
 * a name with no verb (weather, python_repl).
 */
function verbIndex(words: readonly string[]): number {
  if (words.length === 0) return -1;
  if (isVerb(words[0]!)) return 0;
  let first = -1;
  for (let i = 1; i < words.length; i++) {
    if (!isVerb(words[i]!)) continue;
    if (first < 0) first = i;
    if (i + 1 < words.length && !isVerb(words[i + 1]!)) return i;
  }
  return first;
}
