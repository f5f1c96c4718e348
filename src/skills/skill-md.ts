import { fromBase64, toBase64 } from '../bindings/encoding.js';
import { assertBytes } from '../bindings/errors.js';

// SKILL.md at the byte level: where its frontmatter is, and the one line an
// inline signature may leave out of the digest. Bytes, not decoded text: a
// decode and re-encode would itself drop bytes (a BOM, invalid UTF-8) from
// what is hashed.

const LF = 0x0a;
const CR = 0x0d;
const DASH = 0x2d;

/**
 * Byte offsets of the frontmatter body: after an opening `---` line, up to the
 * first line that is exactly `---` (LF, CRLF or end of file after it). The
 * file must start with the opening line: a BOM or blank line before it is no
 * frontmatter, as many readers see it.
 */
export function frontmatterRange(bytes: Uint8Array): { start: number; end: number } | undefined {
  if (bytes[0] !== DASH || bytes[1] !== DASH || bytes[2] !== DASH) return undefined;
  const start = bytes[3] === LF ? 4 : bytes[3] === CR && bytes[4] === LF ? 5 : -1;
  if (start < 0) return undefined;
  for (let line = start; line < bytes.length;) {
    const nl = bytes.indexOf(LF, line);
    let end = nl < 0 ? bytes.length : nl;
    if (end > line && bytes[end - 1] === CR) end--;
    if (end - line === 3 && bytes[line] === DASH && bytes[line + 1] === DASH && bytes[line + 2] === DASH) return { start, end: line };
    if (nl < 0) return undefined;
    line = nl + 1;
  }
  return undefined;
}

/** Where the inline carrier sits: the bytes [start, end) of its line and the base64 value on it. */
export interface InlineSignatureLine {
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

const KEY = 'x-signature';
const LINE = /^x-signature: ([A-Za-z0-9+/]+={0,2})$/;

/**
 * Find the inline signature line: undefined when the frontmatter never
 * mentions x-signature, a problem when it does other than as the one line
 * `x-signature: <canonical base64>` + LF that ends the frontmatter.
 *
 * Only bytes whose meaning no reader can dispute may be left out of a digest.
 * A comment, trailing spaces, a CR (a line break to YAML 1.2, so readers
 * such as js-yaml see an `allowed-tools:` after it as a key), a NUL, a quoted
 * or folded value, or a second mention (a duplicate key to a lenient reader)
 * would all be unsigned text that some loader reads.
 */
export function locateInlineSignature(bytes: Uint8Array): InlineSignatureLine | { problem: string } | undefined {
  const fm = frontmatterRange(bytes);
  if (!fm) return undefined;
  const hits: number[] = [];
  for (let i = fm.start; i + KEY.length <= fm.end; i++) if (mentionAt(bytes, i)) hits.push(i);
  if (hits.length === 0) return undefined;
  if (hits.length > 1) return { problem: 'x-signature appears more than once in the frontmatter' };
  const start = hits[0]!;
  const nl = bytes.indexOf(LF, start);
  const malformed = { problem: 'the x-signature line must be exactly "x-signature: <base64>" at the start of a line, ending in LF' };
  // The frontmatter ends where a line starts, so a line inside it always has its LF before fm.end.
  if ((start !== fm.start && bytes[start - 1] !== LF) || nl < 0 || nl >= fm.end) return malformed;
  let text = '';
  for (let i = start; i < nl; i++) {
    if (bytes[i]! > 0x7e || bytes[i]! < 0x20) return malformed;
    text += String.fromCharCode(bytes[i]!);
  }
  const m = LINE.exec(text);
  if (!m || !canonicalBase64(m[1]!)) return malformed;
  // Where signSkill writes it, and nowhere else: the digest cannot see where the line stood.
  if (nl + 1 !== fm.end) return { problem: 'the x-signature line must be the last line of the frontmatter' };
  return { start, end: nl + 1, value: m[1]! };
}

/** Case-insensitive "x-signature" at byte i: `X-Signature` is another key to YAML, the same one to a lenient loader. */
function mentionAt(bytes: Uint8Array, i: number): boolean {
  for (let k = 0; k < KEY.length; k++) {
    const b = bytes[i + k]!;
    const c = KEY.charCodeAt(k);
    if ((b >= 0x41 && b <= 0x5a ? b | 0x20 : b) !== c) return false;
  }
  return true;
}

function canonicalBase64(value: string): boolean {
  try {
    return toBase64(fromBase64(value)) === value;
  } catch {
    return false;
  }
}

/**
 * The digest rule for an inline signature: SKILL.md's bytes with the one
 * inline signature line (see `locateInlineSignature`) cut out, every other
 * byte as it is. When there is no such line, or the x-signature is not
 * exactly that line, nothing is left out.
 */
export function skillMdForDigest(bytes: Uint8Array): Uint8Array {
  assertBytes(bytes, 'bytes');
  const line = locateInlineSignature(bytes);
  if (!line || 'problem' in line) return bytes;
  const out = new Uint8Array(bytes.length - (line.end - line.start));
  out.set(bytes.subarray(0, line.start));
  out.set(bytes.subarray(line.end), line.start);
  return out;
}
