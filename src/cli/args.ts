import { ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';

/** A small argv parser: positionals, `--flag`, `--key value` and `--key=value`. */
export interface ParsedArgs {
  readonly positionals: string[];
  readonly flags: Map<string, string | true>;
}

export function parseArgs(argv: readonly string[], valued: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      else if (valued.includes(arg.slice(2))) {
        const value = argv[++i];
        if (value === undefined) throw new UsageError(`${arg} needs a value`);
        flags.set(arg.slice(2), value);
      } else flags.set(arg.slice(2), true);
    } else positionals.push(arg);
  }
  return { positionals, flags };
}

/** Wrong command-line use: printed with the usage line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Refuse flags `command` does not take: a flag silently ignored reads as a check that was made. */
export function allowFlags(args: ParsedArgs, command: string, allowed: readonly string[]): void {
  for (const name of args.flags.keys()) if (!allowed.includes(name)) throw new UsageError(`--${name} is not an option of ${command}`);
}

/** Flags that only work together: any one given needs all the others. */
export function requireTogether(args: ParsedArgs, names: readonly string[]): void {
  const given = names.filter((n) => args.flags.has(n));
  const missing = names.filter((n) => !args.flags.has(n));
  if (given.length > 0 && missing.length > 0) throw new UsageError(`--${given[0]} needs ${missing.map((n) => `--${n}`).join(' and ')}`);
}

/** A flag's value; undefined when absent, a usage error when given without a value. */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  if (value === undefined) return undefined;
  if (value === true || value === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

/**
 * Parse a value the user gave (`parse` must do no I/O): the library's typed
 * error for a bad value, or a JSON syntax error, becomes a usage error naming
 * where the value came from.
 */
export function parseUserValue<T>(where: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    // A ParapetStateError is not the value's fault; JSON.parse throws SyntaxError;
    // the platform's TypeError/RangeError still reach here from values the
    // library does not check itself yet.
    const valueError = e instanceof ParapetTypeError || e instanceof ParapetRangeError || e instanceof SyntaxError || e instanceof TypeError || e instanceof RangeError;
    if (valueError) throw new UsageError(`${where}: ${(e as Error).message}`);
    throw e;
  }
}
