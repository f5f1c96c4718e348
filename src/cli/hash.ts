import { fromHex, hmacSha256, sha256, toHex } from '../index.js';
import { parseArgs, parseUserValue, stringFlag } from './args.js';
import { printJson, readAll, readChunks } from './io.js';

export const HASH_USAGE = 'parapet hash [FILE|-]... [--hmac-key HEX] [--json]';

/** SHA-256 (streamed) or HMAC-SHA256 of files or stdin, in sha256sum's format or JSON. */
export async function hashCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, 'hash', { valued: ['hmac-key'], boolean: ['json'], maxPositionals: Infinity });
  const files = args.positionals.length > 0 ? args.positionals : ['-'];
  const key = stringFlag(args, 'hmac-key');
  const macKey = key === undefined ? undefined : parseUserValue('--hmac-key', 'must be hexadecimal, an even number of digits', () => fromHex(key));
  const results: { file: string; algorithm: string; digest: string }[] = [];
  for (const file of files) {
    let digest: Uint8Array;
    if (macKey !== undefined) digest = hmacSha256(macKey, await readAll(file));
    else {
      const h = sha256.create();
      for await (const chunk of readChunks(file)) h.update(chunk);
      digest = h.digest();
    }
    results.push({ file, algorithm: macKey !== undefined ? 'hmac-sha256' : 'sha256', digest: toHex(digest) });
  }
  if (args.flags.has('json')) printJson(results);
  else for (const r of results) process.stdout.write(`${r.digest}  ${r.file}\n`);
  return 0;
}
