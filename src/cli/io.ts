import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

/** Stream a file (or stdin for '-') chunk by chunk. */
export async function* readChunks(path: string): AsyncGenerator<Uint8Array> {
  const stream: Readable = path === '-' ? process.stdin : createReadStream(path);
  for await (const chunk of stream) yield chunk as Uint8Array;
}

export async function readAll(path: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of readChunks(path)) parts.push(c);
  return new Uint8Array(Buffer.concat(parts));
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
