/**
 * The `parapet` command. Node-only: it reads files and stdin. Library code
 * never imports it.
 */
import { readFileSync } from 'node:fs';
import { init } from '../init.js';
import { UsageError } from './args.js';
import { InputFileError } from './io.js';
import { MissingDependencyError } from './sqlite.js';
import { BENCH_USAGE, benchCommand } from './bench.js';
import { DEMO_USAGE, demoCommand } from './demo.js';
import { HASH_USAGE, hashCommand } from './hash.js';
import { LOG_USAGE, logCommand } from './log.js';
import { MEMORY_USAGE, memoryCommand } from './memory.js';
import { SKILL_USAGE, skillCommand } from './skill.js';
import { SCAN_USAGE, scanCommand } from './scan.js';

const COMMANDS: Record<string, { usage: string; summary: string; run: (argv: readonly string[]) => Promise<number> }> = {
  demo: { usage: DEMO_USAGE, summary: 'run the scripted agent session (what `npm start` runs)', run: demoCommand },
  hash: { usage: HASH_USAGE, summary: 'SHA-256 or HMAC-SHA256 of files or stdin', run: hashCommand },
  memory: { usage: MEMORY_USAGE, summary: 'memory store on a SQLite file: history, get, verify, checkpoint', run: memoryCommand },
  scan: { usage: SCAN_USAGE, summary: 'score text or a tool call for prompt injection', run: scanCommand },
  skill: { usage: SKILL_USAGE, summary: 'sign and verify skill bundles against a trust root', run: skillCommand },
  log: { usage: LOG_USAGE, summary: 'transparency log: tree heads, proofs, signed checkpoints', run: logCommand },
  bench: { usage: BENCH_USAGE, summary: "quick timing of the core on this machine ('npm run bench' compares peers)", run: benchCommand },
};

function help(): string {
  const lines = ['parapet — tamper-evident memory, injection detection and skill signatures for AI agents', '', 'Usage:'];
  for (const c of Object.values(COMMANDS)) lines.push(`  ${c.usage.split('\n')[0]!.padEnd(48)} ${c.summary}`);
  lines.push('  parapet <command> --help'.padEnd(50) + ' the command\'s usage');
  lines.push('  parapet --version'.padEnd(50) + ' the package version');
  lines.push('  parapet --help'.padEnd(50) + ' this text', '', 'Exit codes: 0 ok, 1 failure or verification refused, 2 usage error.');
  return lines.join('\n');
}

/** The installed package's version, from the package.json beside dist/. */
function version(): string {
  return (JSON.parse(readFileSync(new URL(/* @vite-ignore */ '../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (rest.length > 0 && name !== undefined) return usageError(`unexpected argument '${rest[0]}'`, help());
    process.stdout.write(`${help()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    if (rest.length > 0) return usageError(`unexpected argument '${rest[0]}'`, help());
    process.stdout.write(`parapet ${version()}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) return usageError(`unknown command '${name}'`, help());
  // Only before `--`: after it, "--help" is a file name.
  const end = rest.indexOf('--');
  const flags = end < 0 ? rest : rest.slice(0, end);
  if (flags.includes('--help') || flags.includes('-h')) {
    process.stdout.write(`Usage: ${command.usage}\n`);
    return 0;
  }
  try {
    await init();
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) return usageError(`${name}: ${error.message}`, `Usage: ${command.usage}`);
    // Errors that name a file or what to install say all there is to say.
    if (error instanceof InputFileError || error instanceof MissingDependencyError) {
      process.stderr.write(`parapet ${name}: ${error.message}\n`);
      return 1;
    }
    const code = (error as { code?: string }).code;
    process.stderr.write(`parapet ${name}: ${(error as Error).message}${code ? ` [${code}]` : ''}\n`);
    return 1;
  }
}

function usageError(message: string, usage: string): number {
  process.stderr.write(`parapet ${message}\n${usage}\n`);
  return 2;
}
