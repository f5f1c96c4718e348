import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The official vectors live in test/vectors (its README gives each set's
 * source, commit and licence); PARAPET_VECTORS points at another copy.
 */
export const VECTORS_DIR = process.env.PARAPET_VECTORS || fileURLToPath(new URL('../vectors/', import.meta.url));

export function vectorPath(relative: string): string {
  return `${VECTORS_DIR.replace(/\/?$/, '/')}${relative}`;
}

export function readVectorText(relative: string): string {
  return readFileSync(vectorPath(relative), 'utf8');
}

export function readVectorJson<T = unknown>(relative: string): T {
  return JSON.parse(readVectorText(relative)) as T;
}

export const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));

/** NIST CAVP .rsp records: `Len`/`Msg`/`MD` groups (ShortMsg, LongMsg). */
export function parseRsp(text: string): { len: number; msg: Uint8Array; md: string }[] {
  const records: { len: number; msg: Uint8Array; md: string }[] = [];
  let len = -1;
  let msg = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const m = /^(\w+)\s*=\s*(\S*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'Len') len = Number(m[2]);
    else if (m[1] === 'Msg') msg = m[2]!;
    else if (m[1] === 'MD') {
      // For Len = 0 the file says Msg = 00: only the first Len/8 bytes count.
      records.push({ len, msg: hex(msg).subarray(0, len / 8), md: m[2]! });
    }
  }
  return records;
}

/** NIST CAVP Monte Carlo file: the seed and the 100 checkpoint digests. */
export function parseMonte(text: string): { seed: string; mds: string[] } {
  const seed = /Seed\s*=\s*([0-9a-f]+)/i.exec(text)![1]!;
  const mds = [...text.matchAll(/^MD\s*=\s*([0-9a-f]+)/gim)].map((m) => m[1]!);
  return { seed, mds };
}
