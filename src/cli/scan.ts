import { parseArgs } from './args.js';
import { printJson, readAll } from './io.js';

export const SCAN_USAGE = 'parapet scan [FILE|-] [--json]   score text, or a tool call {"name", "arguments"}, for injection';

/**
 * Score a text (a tool result, a document) or a tool-call JSON. Exit 0 when
 * nothing is flagged, 1 when the level is medium or high.
 */
export async function scanCommand(argv: readonly string[]): Promise<number> {
  const { positionals, flags } = parseArgs(argv, 'scan', { boolean: ['json'], maxPositionals: 1 });
  const text = new TextDecoder().decode(await readAll(positionals[0] ?? '-'));
  // Loaded here, not at startup: its embedded model is 1.4 MB of JavaScript every other command would parse.
  const { IpiDetector } = await import('../ipi/index.js');
  const detector = new IpiDetector({ mode: 'warn', env: {} });
  let call: { name: string; arguments: unknown } | undefined;
  try {
    const parsed = JSON.parse(text) as { name?: unknown; arguments?: unknown };
    if (parsed && typeof parsed.name === 'string' && 'arguments' in parsed) call = { name: parsed.name, arguments: parsed.arguments };
  } catch {
    // not JSON: plain text
  }
  const result = call ? detector.session('scan').evaluate(call) : detector.inspect(text);
  const flagged = result.level === 'medium' || result.level === 'high';
  if (flags.has('json')) printJson({ kind: call ? 'tool-call' : 'text', ...result });
  else {
    process.stdout.write(`${result.level} (score ${result.score.toFixed(3)})${call ? ` for call ${call.name}` : ''}\n`);
    for (const r of result.reasons) process.stdout.write(`  ${r.code}: ${r.message}\n`);
  }
  return flagged ? 1 : 0;
}
