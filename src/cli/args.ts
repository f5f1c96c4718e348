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
