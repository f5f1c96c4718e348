import { ParapetRangeError, ParapetTypeError, assertBytes, describe } from './errors.js';

// Hex and base64 helpers live apart from the crypto: the core speaks bytes only.

/**
 * Byte equality that looks at every byte whatever it finds (no early exit on
 * the first difference), for hashes, roots and key ids.
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  assertBytes(a, 'a');
  assertBytes(b, 'b');
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

// Lowercase hex digits' ASCII codes, high nibble then low, per byte value.
const HEX_HIGH = new Uint8Array(256).map((_, i) => '0123456789abcdef'.charCodeAt(i >>> 4));
const HEX_LOW = new Uint8Array(256).map((_, i) => '0123456789abcdef'.charCodeAt(i & 15));
const hexText = new TextDecoder();
const hexScratch = new Uint8Array(4096);

/**
 * Lowercase hex. The digits are written as ASCII bytes and decoded once:
 * building the string two characters at a time made a string per byte, and
 * this runs on every memory put (write hash, previous leaf).
 */
export function toHex(bytes: Uint8Array): string {
  assertBytes(bytes, 'bytes');
  const n = bytes.length;
  // Digests and keys use the shared scratch; a large input gets a buffer of its own rather than growing it for good.
  const out = 2 * n <= hexScratch.length ? hexScratch : new Uint8Array(2 * n);
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    out[2 * i] = HEX_HIGH[b]!;
    out[2 * i + 1] = HEX_LOW[b]!;
  }
  return hexText.decode(out.subarray(0, 2 * n));
}

/** `hex` is the lowercase hex of `bytes`, compared without building a string (verify() compares two per entry). */
export function hexEquals(hex: string, bytes: Uint8Array): boolean {
  if (hex.length !== bytes.length * 2) return false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (hex.charCodeAt(2 * i) !== HEX_HIGH[b] || hex.charCodeAt(2 * i + 1) !== HEX_LOW[b]) return false;
  }
  return true;
}

export function fromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string') throw new ParapetTypeError(`"hex" must be a string, got ${describe(hex)}`);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new ParapetRangeError(`"hex" must be an even-length hexadecimal string`, 'invalid-value');
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Uint8Array(128).fill(255);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

// Our own codec rather than atob/btoa: Node 20's atob takes ~18 ms for the
// 50 KB embedded core.wasm (it dominated cold start); this loop takes ~0.2 ms.

/** Standard base64 (RFC 4648 §4) with padding. */
export function toBase64(bytes: Uint8Array): string {
  assertBytes(bytes, 'bytes');
  let s = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    s += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    s += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + (i + 1 < bytes.length ? ALPHABET[(n >>> 6) & 63]! : '=') + '=';
  }
  return s;
}

/** Node's and Bun's Buffer, where there is one: a runtime feature check, not an import. */
const nativeBuffer = (globalThis as { Buffer?: { from(s: string, enc: 'base64' | 'utf8'): Uint8Array } }).Buffer;
const encoder = new TextEncoder();

/**
 * UTF-8 bytes of `text`; Buffer encodes short strings ~3× faster than
 * TextEncoder where it exists. Under Node the result may be a view into
 * Buffer's shared pool: only for bytes hashed or copied at once, never for
 * bytes kept or handed to callers (its .buffer holds other data).
 */
export function utf8(text: string): Uint8Array {
  if (!nativeBuffer) return encoder.encode(text);
  const b = nativeBuffer.from(text, 'utf8');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Decode base64 known to be well formed (checked by the caller, or our own embedded data). */
export function decodeBase64Unchecked(text: string): Uint8Array {
  // Node and Bun have a native decoder: ~20× the loop below on a cold start.
  if (nativeBuffer) {
    const b = nativeBuffer.from(text, 'base64');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const n =
      (DECODE[text.charCodeAt(i)]! << 18) | (DECODE[text.charCodeAt(i + 1)]! << 12) |
      ((DECODE[text.charCodeAt(i + 2)]! & 63) << 6) | (DECODE[text.charCodeAt(i + 3)]! & 63);
    out[o++] = n >>> 16;
    if (o < out.length) out[o++] = (n >>> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

/**
 * Strict standard base64 with padding: anything else (whitespace, URL-safe
 * letters, missing padding, non-zero trailing bits) is refused, because
 * signatures and hashes must have exactly one encoding.
 */
export function fromBase64(text: string): Uint8Array {
  if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string, got ${describe(text)}`);
  if (!B64.test(text)) throw new ParapetRangeError(`"text" is not canonical base64`, 'invalid-value');
  const out = decodeBase64Unchecked(text);
  // Non-zero bits in the last character's unused low bits would give a second spelling.
  if (toBase64(out) !== text) throw new ParapetRangeError(`"text" is not canonical base64`, 'invalid-value');
  return out;
}
