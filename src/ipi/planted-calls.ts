// Tool calls written into a tool result. An agent's own calls never arrive inside the
// data it reads, so a result that holds one in the syntax agents emit — a
// function-calling object (in JSON, a Python repr or YAML), a ReAct `Action:` line,
// an `<invoke>` or `<tool_call>` tag, a call written as code — is data dressed as an
// order. When the agent's next call is to the tool it names, the result asked for that
// call as plainly as an English request would.

/** Keys that name the tool in a call object: {"name": "send_money", "arguments": …}; OpenAI's parallel calls name it `recipient_name`. */
const NAME_KEYS = 'name|function|function_?name|tool|tool_?name|action|recipient_?name';
/** Keys that carry a call's arguments; one must follow the name for an object to read as a call. */
const ARGUMENT_KEYS = 'arguments|args|parameters|params|input|action_input|tool_input|kwargs';
/**
 * The keys only call formats use (OpenAI's and LangChain's): a `name` beside `params` or `input` is as often an
 * event, a GraphQL field or a container in ordinary data, and so is a `function` or an `action` beside `args` (a
 * spreadsheet's formula, an analytics event), so only these count towards naming every tool.
 */
const CALL_ONLY_KEYS = new Set(['function_name', 'functionname', 'tool', 'tool_name', 'toolname', 'recipient_name', 'recipientname', 'arguments', 'action_input', 'tool_input']);
/** How far from the name its arguments may start, after it or before it (the name and arguments of one object). */
const ARGUMENTS_WITHIN = 400;
/**
 * Names kept per result, and the keys kept for them (up to three each, see toolNameKeys): a session's state stays bounded.
 * `plantedCalls` reads one name more of each kind, so that a result holding more is known to (see `IpiSession`).
 */
export const MAX_NAMES = 8;
export const MAX_PLANTED = 3 * MAX_NAMES;

/** Characters that render as nothing or as a blank inside a word: default-ignorable and format characters (tags too), C0 and C1 controls but the line's, DEL, the braille blank. */
const RENDERS_AS_NOTHING = '\\p{Default_Ignorable_Code_Point}\\p{Cf}\\u0000-\\u0008\\u000E-\\u001F\\u007F-\\u009F\\u2800';
const IN_NAME_UNSEEN = new RegExp(`[\\p{M}${RENDERS_AS_NOTHING}]`, 'gu');

// A quote may be escaped once or more: a call object serialised into a JSON string. Only from a run's first
// backslash: tried from each, a long run cost its length squared. Or written as an HTML entity: a call object
// in a page's text (`&quot;name&quot;: &quot;send_money&quot;`), which no reading of the result decodes.
const Q = `(?:(?<!\\\\)\\\\*["']|&(?:quot|apos|#0{0,4}3[49]|#[xX]0{0,4}2[27]);)`;
// A name may hold letters of any script, marks and characters that render as nothing or blank: `toolNameKeys`
// reads it as an agent's model would (`se\u0301nd` is `send`), and look-alikes are folded in a reading of their own.
const NAME = `([\\p{L}_][\\p{L}\\p{M}\\p{N}_.:/\\-${RENDERS_AS_NOTHING}]{0,79})`;
const CALL_OBJECT = new RegExp(`${Q}(${NAME_KEYS})${Q}\\s*[:=]\\s*${Q}${NAME}${Q}`, 'giu');
const ARGUMENTS_KEY = new RegExp(`${Q}(${ARGUMENT_KEYS})${Q}\\s*[:=]`, 'i');
/** An object typed as a call (Anthropic's `tool_use`, OpenAI's `function_call`): its `name` and `input` are a call's. */
const TYPED_AS_CALL = new RegExp(`${Q}type${Q}\\s*:\\s*${Q}(?:tool_use|tool_call|function_call|function)${Q}`, 'i');
/** A blank within a line: a space of any width, a tab (never a choice between two: a run of them is read one way). */
const BLANK = '[\\p{Zs}\\t]';
/** Where a line starts for an agent's model: a line break, an HTML line or block, an escaped line feed, \v or \f. */
const LINE_START = `(?:^|<(?:br|p|div|li|pre|td|th|tr|h[1-6])\\b[^>\\n]{0,200}>|&#(?:0{0,4}1[03]|[xX]0{0,4}[aAdD]);|&NewLine;|[\\v\\f])`;
/** ReAct (`Action: send_money`, a line of its own) and the tags of tool-calling chat formats. */
const CALL_LINE = new RegExp(
  [
    // `Action: x(…)`, `**Action:** x {…}`, `1. Action: "x"`, `Action 1: x[…]`, to the line's end or a tag; its
    // arguments, if on the line, in brackets of any kind, or as `key=value` (only call-shaped: an audit log writes
    // `Action: login user=ann`).
    `${LINE_START}(?:${BLANK}|[>*#-])*(?:\\d{1,3}[.)]${BLANK}*)?action(?:${BLANK}*\\d{1,3})?\\**${BLANK}*:${BLANK}*(?:\\*+${BLANK}*)?[\`"']?${NAME}[\`"']?${BLANK}*(?:([({[].*)|([;,]?${BLANK}*[\\p{L}_][\\p{L}\\p{N}_]{0,39}${BLANK}*=.*))?(?:$|<)`,
    `<(?:antml:)?invoke\\s+name\\s*=\\s*${Q}?${NAME}`,
    `<tool_call>\\s*(?:\\{\\s*)?${Q}?name${Q}?\\s*:\\s*${Q}${NAME}${Q}`,
    `<function\\s*=\\s*${Q}?${NAME}`,
    // Chat templates' own call syntax: Mistral's `[TOOL_CALLS]x[ARGS]{…}`, Llama's `<|python_tag|>x.call(…)`,
    // Harmony's `to=functions.x`, Gemma's `default_api.x(…)`, DeepSeek's `<｜tool▁sep｜>x`, `<tool_use><name>x`.
    `\\[TOOL_CALLS\\]${BLANK}*${NAME}${BLANK}*\\[ARGS\\]`,
    `<\\|python_tag\\|>${BLANK}*${NAME}\\.call\\(`,
    `\\bto=functions\\.${NAME}`,
    `\\bdefault_api\\.${NAME}\\(`,
    `tool\u2581sep\uFF5C>${NAME}`,
    `<tool_use>\\s*<name>\\s*${NAME}`,
  ].join('|'),
  'gimu',
);

/** An `Action Input:` line after a ReAct line: its arguments. */
const ACTION_INPUT = /action[ _]?input\**\s*:/i;

/** What every CALL_LINE match holds. */
const CALL_LINE_HINT = /action(?:\s*\d{1,3})?\**\s*:|<(?:antml:)?invoke|<tool_call>|<function\s*=|\[TOOL_CALLS\]|<\|python_tag\|>|to=functions\.|default_api\.|tool\u2581sep|<tool_use>/i;

/**
 * Where a string of a record opens (`"note": "`, `, '`, `['`): the first text of a field's value, whose line the
 * reading of escaped line breaks ends where the field's first line does, starts a line for an agent's model too.
 */
const STRING_OPENS = `[:,[(]${BLANK}*["']`;
/**
 * A line's label before its text: a chat line's speaker (`Noah: `) or a plain record's key (`subject: `), whose
 * value an agent's model reads from its first word on.
 */
const LINE_LABEL = `^${BLANK}*(?:-${BLANK}+)?[\\p{L}\\p{N}_][\\p{L}\\p{N}_ .'-]{0,39}:${BLANK}+["']?`;

/**
 * A call written as code, on a line of its own, with keyword arguments: `GithubAddCollaborator(repo="x",
 * username="y")`, the form a note shows a bot what to run in, closed on its line (a comment may follow, or the
 * close of a record's string and the record after it) or its arguments one to a line as a formatter sets them.
 * Only call-shaped: a source file holds such statements too. Only at a line's start: tried after every string's
 * opening quote (`("f(a=` repeated), each try scanned the rest of the line, and after a label it read Python's
 * one-line statements (`else: delete_file(path=tmp)`) as calls.
 */
const KEYWORD_CALL = new RegExp(
  `^${BLANK}*(?:[\`>*-]+${BLANK}*)?([A-Za-z_][A-Za-z0-9_.]{0,79})\\(${BLANK}*(?:\\r?\\n${BLANK}*)?[A-Za-z_][A-Za-z0-9_]{0,39}${BLANK}*=(?!=)` +
    `(?:[^\\n]*\\)[\`;.]*(?:["'](?:${BLANK}*[,}\\]][^\\n]*)?)?${BLANK}*(?:(?:#|//)[^\\n]*)?|[^\\n]*,${BLANK}*)$`,
  'gmu',
);
const KEYWORD_CALL_HINT = /\(\s*[A-Za-z_]\w*\s*=[^=]/;

/**
 * A call written as YAML, unquoted: a key naming the tool (`tool: send_money`) with an arguments key on a line
 * of its own near it. Read only with a key only calls use (`tool:`, `arguments:`): a Kubernetes container has a
 * `name:` and `args:`, a workflow step a `name:` and `params:`.
 */
const YAML_NAME = new RegExp(`(?:^${BLANK}*(?:-${BLANK}+)?|${STRING_OPENS}|${LINE_LABEL})(${NAME_KEYS})${BLANK}*:${BLANK}*["']?${NAME}["']?${BLANK}*(?:#[^\\n]*)?$`, 'gimu');
const YAML_ARGUMENTS = new RegExp(`^${BLANK}*(?:-${BLANK}+)?(${ARGUMENT_KEYS})${BLANK}*:`, 'imu');

/** The tool names a text holds in call syntax, as written: in the syntax only calls use, and in keys data uses too. */
export interface PlantedCalls {
  /** Names in call lines with bracketed arguments, call tags, and objects (JSON or YAML) with a key only calls use (`CALL_ONLY_KEYS`) or typed as calls: the first `MAX_NAMES + 1`. */
  readonly calls: string[];
  /** Names in objects of a `name` and a generic arguments key (`params`, `input`, …), in `Action:` lines without arguments or with `key=value` ones and in code calls with keyword arguments, not among `calls`: the first `MAX_NAMES + 1`. */
  readonly callShaped: string[];
}

/**
 * The tool names a text holds in call syntax. Empty for almost every result: the
 * patterns need a call's shape, not just a tool's name (a list of tools names them
 * without arguments).
 */
export function plantedCalls(text: string): PlantedCalls {
  const calls = new Set<string>();
  const callShaped = new Set<string>();
  const most = MAX_NAMES + 1;
  // Most results hold neither an arguments key nor a call line: one scan each rules them out.
  if (ARGUMENTS_KEY.test(text)) for (const m of text.matchAll(CALL_OBJECT)) {
    const { before, after } = around(text, m);
    const argumentsKey = keyNear(ARGUMENTS_KEY, before, after);
    if (argumentsKey === undefined) continue;
    const callOnly = callOnlyKeys(m[1]!, argumentsKey) || TYPED_AS_CALL.test(before) || TYPED_AS_CALL.test(after);
    if (callOnly && calls.size < most) calls.add(m[2]!);
    else if (!callOnly && callShaped.size < most) callShaped.add(m[2]!);
    if (calls.size >= most && callShaped.size >= most) break;
  }
  if (CALL_LINE_HINT.test(text)) for (const m of text.matchAll(CALL_LINE)) {
    // A ReAct line with no arguments on it or after it is an audit log's `Action: login` as often as a call.
    const [, action, actionArguments, keyValues, ...tags] = m;
    const bare = action !== undefined && actionArguments === undefined && (keyValues !== undefined || !ACTION_INPUT.test(text.slice(m.index + m[0].length, m.index + m[0].length + 200)));
    const name = action ?? tags.find((g) => g !== undefined);
    if (!name) continue;
    if (!bare && calls.size < most) calls.add(name);
    else if (bare && callShaped.size < most) callShaped.add(name);
    if (calls.size >= most && callShaped.size >= most) break;
  }
  if (YAML_ARGUMENTS.test(text)) for (const m of text.matchAll(YAML_NAME)) {
    if (calls.size >= most) break;
    const { before, after } = around(text, m);
    const argumentsKey = keyNear(YAML_ARGUMENTS, before, after);
    if (argumentsKey !== undefined && callOnlyKeys(m[1]!, argumentsKey)) calls.add(m[2]!);
  }
  if (KEYWORD_CALL_HINT.test(text)) for (const m of text.matchAll(KEYWORD_CALL)) {
    if (callShaped.size >= most) break;
    callShaped.add(m[1]!);
  }
  for (const name of calls) callShaped.delete(name);
  return { calls: [...calls], callShaped: [...callShaped] };
}

/** The text within ARGUMENTS_WITHIN before a name's match and after it: where its object's arguments key may stand. */
function around(text: string, m: RegExpExecArray): { before: string; after: string } {
  const end = m.index + m[0].length;
  return { before: text.slice(Math.max(0, m.index - ARGUMENTS_WITHIN), m.index), after: text.slice(end, end + ARGUMENTS_WITHIN) };
}

/** The arguments key `pattern` finds after a name, or else before it, lowercased. */
function keyNear(pattern: RegExp, before: string, after: string): string | undefined {
  return (pattern.exec(after) ?? pattern.exec(before))?.[1]?.toLowerCase();
}

/** Whether the name's key or the arguments key is one only calls use. */
function callOnlyKeys(nameKey: string, argumentsKey: string): boolean {
  return CALL_ONLY_KEYS.has(nameKey.toLowerCase()) || CALL_ONLY_KEYS.has(argumentsKey);
}

/**
 * The forms under which a planted name and a call's name are compared, of the name
 * as it renders: the plain name (`plainToolName`), every letter and digit of the name
 * run together, and those of the plain name, so that `wallet_send` is `wallet.send`,
 * `mcp__bank__send_money` is `send_money` and `mcp__crypto__wallet_send` is `wallet.send`.
 */
export function toolNameKeys(name: string): string[] {
  const seen = seenName(name);
  const plain = plainToolName(seen);
  const joined = seen.toLowerCase().replace(/[^a-z0-9]+/g, '');
  // And the plain name run together: `mcp__crypto__wallet_send` is `wallet.send`.
  const plainJoined = plain.replace(/[^a-z0-9]+/g, '');
  return [...new Set([plain, joined, plainJoined].filter((k) => k.length > 0))];
}

/**
 * A name as it renders: compatibility forms folded, and marks and the characters that render as nothing or blank
 * dropped (`s\u00E9\u200Bnd` is `send`). The names agents call are ASCII: most names never leave the first test.
 */
function seenName(name: string): string {
  return NOT_PRINTABLE_ASCII.test(name) ? name.normalize('NFKD').replace(IN_NAME_UNSEEN, '') : name;
}
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;

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
