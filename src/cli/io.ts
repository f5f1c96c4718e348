import { createReadStream, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** A file the user named could not be read: exit 1, the message naming it as typed. */
export class InputFileError extends Error {
  override name = 'InputFileError';
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
};

/** `label` is how the user named the file: `--key k.key`, `NOTE cp.txt`, or just the path. */
export function fileError(label: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== 'string' || !code.startsWith('E')) return error as Error;
  return new InputFileError(`${label}: cannot read: ${REASONS[code] ?? (error as Error).message}`);
}

/** Stream a file (or stdin for '-') chunk by chunk. */
export async function* readChunks(path: string, label = path): AsyncGenerator<Uint8Array> {
  const stream: Readable = path === '-' ? process.stdin : createReadStream(path);
  try {
    for await (const chunk of stream) yield chunk as Uint8Array;
  } catch (e) {
    throw fileError(label, e);
  }
}

export async function readAll(path: string, label = path): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of readChunks(path, label)) parts.push(c);
  return new Uint8Array(Buffer.concat(parts));
}

/** A whole file as UTF-8 text ('-' is stdin). */
export function readText(path: string, label = path): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    throw fileError(label, e);
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
