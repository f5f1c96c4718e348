/**
 * parapet/skills/node — load a skill folder from disk into a bundle (Node only).
 * Symlinks are refused: one could point outside the folder, and a signature
 * over a link says nothing about what it points at.
 *
 * @module parapet/skills/node
 */
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { assertInteger, assertOptions, describe, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import type { SkillBundle } from './bundle.js';

const utf8Name = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function loadSkillFolder(dir: string, options: { maxFiles?: number; maxBytes?: number } = {}): SkillBundle {
  if (typeof dir !== 'string' || dir === '') throw new ParapetTypeError(`"dir" must be a folder path, got ${describe(dir)}`);
  assertOptions(options);
  const maxFiles = options.maxFiles ?? 10_000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  assertInteger(maxFiles, 'maxFiles', 1, Number.MAX_SAFE_INTEGER);
  assertInteger(maxBytes, 'maxBytes', 1, Number.MAX_SAFE_INTEGER);
  try {
    if (!statSync(dir).isDirectory()) throw new ParapetRangeError(`"${dir}" is not a folder`, 'invalid-value');
  } catch (cause) {
    if (cause instanceof ParapetRangeError) throw cause;
    throw new ParapetRangeError(`"${dir}" cannot be read as a skill folder (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, 'invalid-value', { cause });
  }
  const files = new Map<string, Uint8Array>();
  let total = 0;
  const walk = (d: string) => {
    // Names as bytes: readdir's strings turn every byte that is not UTF-8 into
    // U+FFFD, so two files could load as one name (the other unhashed beside
    // it) or a name could open another file than the one listed.
    for (const raw of readdirSync(d, { encoding: 'buffer' })) {
      let name: string;
      try {
        name = utf8Name.decode(raw);
      } catch {
        throw new ParapetRangeError(`a file name in "${relative(dir, d).split(sep).join('/') || '.'}" is not UTF-8 (bytes ${raw.toString('hex')})`, 'invalid-value');
      }
      const full = join(d, name);
      const st = lstatSync(full);
      const rel = relative(dir, full).split(sep).join('/');
      if (st.isSymbolicLink()) throw new ParapetRangeError(`"${rel}" is a symbolic link; skill bundles may not contain links`, 'invalid-value');
      if (st.isDirectory()) walk(full);
      else if (st.isFile()) {
        if (files.size >= maxFiles) throw new ParapetRangeError(`more than ${maxFiles} files`, 'invalid-value');
        total += st.size;
        if (total > maxBytes) throw new ParapetRangeError(`more than ${maxBytes} bytes`, 'invalid-value');
        files.set(rel, new Uint8Array(readFileSync(full)));
      } else throw new ParapetRangeError(`"${rel}" is not a regular file`, 'invalid-value');
    }
  };
  try {
    walk(dir);
  } catch (cause) {
    if (cause instanceof ParapetRangeError) throw cause;
    // A file removed or made unreadable while the folder is read: say which folder, keep the cause.
    throw new ParapetRangeError(`"${dir}" could not be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, 'invalid-value', { cause });
  }
  return { files };
}
