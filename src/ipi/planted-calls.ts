// Tool calls written into a tool result. An agent's own calls never arrive inside the
// data it reads, so a result that holds one in the syntax agents emit — a
// function-calling object, a ReAct `Action:` line, an `<invoke>` or `<tool_call>`
// tag — is data dressed as an order. When the agent's next call is to the tool it
// names, the result asked for that call as plainly as an English request would.

/** Keys that name the tool in a call object: {"name": "send_money", "arguments": …}. */
const NAME_KEYS = 'name|function|function_name|tool|tool_name|action';
/** Keys that carry a call's arguments; one must follow the name for an object to read as a call. */
const ARGUMENT_KEYS = 'arguments|args|parameters|params|input|action_input|tool_input|kwargs';
/** How far past the name its arguments may start (the name and arguments of one object). */
const ARGUMENTS_WITHIN = 400;
/**
 * Names kept per result, and the keys kept for them (two each, see toolNameKeys): a session's state stays bounded.
 * `plantedCalls` reads one name more, so that a result holding more is known to (see `IpiSession`).
 */
export const MAX_NAMES = 8;
export const MAX_PLANTED = 2 * MAX_NAMES;

/** Characters that render as nothing or as a blank inside a word: default-ignorable and format characters (tags too), C1 controls, the braille blank. */
const RENDERS_AS_NOTHING = '\\p{Default_Ignorable_Code_Point}\\p{Cf}\\u0080-\\u009F\\u2800';
const IN_NAME_UNSEEN = new RegExp(`[\\p{M}${RENDERS_AS_NOTHING}]`, 'gu');

// A quote may be escaped once or more: a call object serialised into a JSON string.
const Q = `\\\\*["']`;
// A name may hold letters of any script, marks and characters that render as nothing or blank: `toolNameKeys`
// reads it as an agent's model would (`se\u0301nd` is `send`), and look-alikes are folded in a reading of their own.
const NAME = `([\\p{L}_][\\p{L}\\p{M}\\p{N}_.\\-${RENDERS_AS_NOTHING}]{0,79})`;
const CALL_OBJECT = new RegExp(`${Q}(?:${NAME_KEYS})${Q}\\s*[:=]\\s*${Q}${NAME}${Q}`, 'giu');
const ARGUMENTS_KEY = new RegExp(`${Q}(?:${ARGUMENT_KEYS})${Q}\\s*[:=]`, 'i');
/** ReAct (`Action: send_money`, a line of its own) and the tags of tool-calling chat formats. */
const CALL_LINE = new RegExp(
  [
    `^[ \\t>*#-]*action\\s*:\\s*\`?${NAME}\`?[ \\t]*(?:\\(.*)?$`,
    `<(?:antml:)?invoke\\s+name\\s*=\\s*${Q}${NAME}${Q}`,
    `<tool_call>\\s*\\{?\\s*${Q}?name${Q}?\\s*:\\s*${Q}${NAME}${Q}`,
    `<function\\s*=\\s*${Q}?${NAME}`,
  ].join('|'),
  'gimu',
);

/** What every CALL_LINE match holds. */
const CALL_LINE_HINT = /action\s*:|<(?:antml:)?invoke|<tool_call>|<function\s*=/i;

/**
 * The tool names a text holds in call syntax, as written, the first `MAX_NAMES + 1` of
 * them. Empty for almost every result: the patterns need a call's shape, not just a
 * tool's name (a list of tools names them without arguments).
 */
export function plantedCalls(text: string): string[] {
  const names = new Set<string>();
  const most = MAX_NAMES + 1;
  // Most results hold neither an arguments key nor a call line: one scan each rules them out.
  if (ARGUMENTS_KEY.test(text)) for (const m of text.matchAll(CALL_OBJECT)) {
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + ARGUMENTS_WITHIN);
    if (ARGUMENTS_KEY.test(after)) names.add(m[1]!);
    if (names.size >= most) return [...names];
  }
  if (CALL_LINE_HINT.test(text)) for (const m of text.matchAll(CALL_LINE)) {
    const name = m.slice(1).find((g) => g !== undefined);
    if (name) names.add(name);
    if (names.size >= most) break;
  }
  return [...names];
}

/**
 * The forms under which a planted name and a call's name are compared: the plain
 * name (`plainToolName`) and every letter and digit of it run together, so that
 * `wallet_send` is `wallet.send` and `mcp__bank__send_money` is `send_money`.
 */
export function toolNameKeys(name: string): string[] {
  const seen = seenName(name);
  const plain = plainToolName(seen);
  const joined = seen.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return joined === plain || joined.length === 0 ? [plain] : [plain, joined];
}

/**
 * A name as it renders: compatibility forms folded, and marks and the characters that render as nothing or blank
 * dropped (`s\u00E9\u200Bnd` is `send`). The names agents call are ASCII: most names never leave the first test.
 */
function seenName(name: string): string {
  return NON_ASCII.test(name) ? name.normalize('NFKD').replace(IN_NAME_UNSEEN, '') : name;
}
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A tool's name without the server or toolkit that namespaces it, lowercased:
 * `mcp__bank__send_money`, `bank.send_money` and `Send_Money` are all `send_money`.
 */
export function plainToolName(name: string): string {
  const parts = name.toLowerCase().split(/__|[./:]/);
  return parts[parts.length - 1]!;
}

/**
 * A tool name's key (see toolNameKeys) as a 32-bit FNV-1a hash: what a session keeps of a planted call,
 * so that its state holds no text it read (see `SessionState`).
 */
export function toolNameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
