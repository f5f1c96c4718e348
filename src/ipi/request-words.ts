// The words both readings of requests share: the verbs of tool names and of
// requests, the nouns that are verbs, the forms a verb is written in, and the words a
// request may use for a tool name's term. English; no model, no state.

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
export const NOUN_VERBS = new Set(['email', 'mail', 'message', 'text', 'ping', 'dm', 'call', 'ring', 'file', 'request']);

/** Words that open the object of a noun-verb ("email their team", "text her"); "calendar and email for anything urgent" has none. */
export const OBJECTS = new Set(['the', 'a', 'an', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those', 'him', 'them', 'me', 'us', 'it', 'everyone', 'back']);

/** Asking verbs that, followed by "me", ask for an answer, not a change: "tell me", "give me", "let me know". */
export const ANSWER_VERBS = new Set(['tell', 'give', 'let']);

/** Participles not made by adding -ed or -d. */
export const IRREGULAR: Readonly<Record<string, string>> = { sent: 'send', paid: 'pay', given: 'give', made: 'make', written: 'write', taken: 'take', told: 'tell', put: 'put', set: 'set', run: 'run', wired: 'wire', sold: 'sell', resent: 'resend', withdrawn: 'withdraw' };

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

/** Whether `lead`'s words stand in `words` from `at` on. */
export function startsWith(words: readonly string[], at: number, lead: readonly string[]): boolean {
  for (let k = 0; k < lead.length; k++) if (words[at + k] !== lead[k]) return false;
  return true;
}

/** The verbs a stem left by "-ed" or "-ing" may be: as is, with its "e", undoubled ("transferr"), or "-i" as "-y". */
export function stemVerbs(stem: string): string[] {
  const doubled = stem.length > 2 && stem[stem.length - 1] === stem[stem.length - 2] ? stem.slice(0, -1) : stem;
  // replied → reply, emptied → empty (not "-ying": the gerund keeps its "y").
  const y = stem.endsWith('i') ? `${stem.slice(0, -1)}y` : stem;
  return [stem, `${stem}e`, doubled, y];
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
