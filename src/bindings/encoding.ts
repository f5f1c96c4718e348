import { ParapetRangeError, ParapetTypeError, assertBytes, describe } from './errors.js';

// Hex and base64 helpers live apart from the crypto: the core speaks bytes only.

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  assertBytes(bytes, 'bytes');
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!];
  return s;
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

/** Standard base64 (RFC 4648 §4) with padding. */
export function toBase64(bytes: Uint8Array): string {
  assertBytes(bytes, 'bytes');
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * Strict standard base64 with padding: anything else (whitespace, URL-safe
 * letters, missing padding, non-zero trailing bits) is refused, because
 * signatures and hashes must have exactly one encoding.
 */
export function fromBase64(text: string): Uint8Array {
  if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string, got ${describe(text)}`);
  if (!B64.test(text)) throw new ParapetRangeError(`"text" is not canonical base64`, 'invalid-value');
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  if (toBase64(out) !== text) throw new ParapetRangeError(`"text" is not canonical base64`, 'invalid-value');
  return out;
}
