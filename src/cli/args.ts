/**
 * The argv parser every command uses: positionals, `--flag`, `--key value`
 * and `--key=value`, against a spec of what the command takes. Anything the
 * spec does not name is a usage error: a flag silently ignored (`--checkpiont`,
 * `--hmac_key=00`) reads as a check that was made.
 */
import { ParapetRangeError, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';

export interface ArgSpec {
  /** Flags that take a value: `--name VALUE` or `--name=VALUE`. */
  readonly valued?: readonly string[];
  /** Flags that take none (`--name=x` is refused). */
  readonly boolean?: readonly string[];
  /** Valued flags that may be given more than once; any other given twice is a usage error. */
  readonly repeatable?: readonly string[];
  /** The most positional arguments the command takes (default 0). */
  readonly maxPositionals?: number;
}

export interface ParsedArgs {
  readonly positionals: string[];
  /** Each flag given: its value, or true for a boolean flag. */
  readonly flags: Map<string, string | true>;
  /** Every value of each valued flag, in order (several only for repeatable ones). */
  readonly values: Map<string, string[]>;
}

/** Wrong command-line use: printed with the usage line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseArgs(argv: readonly string[], command: string, spec: ArgSpec = {}): ParsedArgs {
  const valued = spec.valued ?? [];
  const boolean = spec.boolean ?? [];
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const values = new Map<string, string[]>();
  const set = (name: string, value: string | true) => {
    if (flags.has(name) && !(spec.repeatable ?? []).includes(name)) throw new UsageError(`--${name} is given more than once`);
    flags.set(name, value);
    if (value !== true) values.set(name, [...(values.get(name) ?? []), value]);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq > 0 ? eq : undefined);
      if (valued.includes(name)) {
        if (eq > 0) set(name, arg.slice(eq + 1));
        else {
          const value = argv[++i];
          // `--db --json` would take --json as the file name; a value that looks like a flag goes as --db=VALUE.
          if (value === undefined) throw new UsageError(`--${name} needs a value`);
          if (value.startsWith('-') && value !== '-') throw new UsageError(`--${name} needs a value (got ${value}; write --${name}=${value} for a value that starts with -)`);
          set(name, value);
        }
      } else if (boolean.includes(name)) {
        if (eq > 0) throw new UsageError(`--${name} takes no value`);
        set(name, true);
      } else throw new UsageError(`${eq > 0 ? arg.slice(0, eq) : arg} is not an option of ${command}`);
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`${arg} is not an option of ${command}`);
    else positionals.push(arg);
  }
  const max = spec.maxPositionals ?? 0;
  if (positionals.length > max) throw new UsageError(`unexpected argument '${positionals[max]}' (${command} takes ${max === 0 ? 'none' : `at most ${max}`})`);
  return { positionals, flags, values };
}

/** Flags that only work together: any one given needs all the others. */
export function requireTogether(args: ParsedArgs, names: readonly string[]): void {
  const given = names.filter((n) => args.flags.has(n));
  const missing = names.filter((n) => !args.flags.has(n));
  if (given.length > 0 && missing.length > 0) throw new UsageError(`--${given[0]} needs ${missing.map((n) => `--${n}`).join(' and ')}`);
}

/** A flag's value; undefined when absent, a usage error when given empty. */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  if (value === undefined) return undefined;
  if (value === true || value === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

/**
 * Parse a value the user gave (`parse` must do no I/O). The library's typed
 * misuse or state error names the library's parameter, not what the user typed, so
 * its message is replaced by `expected` (what a good value looks like); a
 * JSON syntax error keeps its own text. Either way the message starts with
 * `where`: the flag or file as the user typed it.
 */
export function parseUserValue<T>(where: string, expected: string | undefined, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof ParapetTypeError || e instanceof ParapetRangeError || e instanceof ParapetStateError) throw new UsageError(`${where}: ${expected ?? e.message}`);
    if (e instanceof SyntaxError) throw new UsageError(`${where}: not JSON (${e.message})`);
    throw e;
  }
}
