import { utf8 } from '../bindings/encoding.js';
import { ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';

/**
 * RFC 8785 JSON Canonicalization Scheme. Objects are written with their keys
 * sorted by UTF-16 code units (§3.2.3), strings and numbers exactly as
 * ECMAScript's JSON.stringify writes them (§3.2.2: the RFC adopts ES2015
 * number and string serialisation), no whitespace. Input must be I-JSON:
 * finite numbers, no lone surrogates, plain objects and arrays only.
 *
 * Why not the `canonicalize` package: ~19 µs for a 512 B record here, where
 * this runs in a few; it also passes lone surrogates through.
 */
export function canonicalJson(value: unknown): string {
  try {
    return write(value, new Set());
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    const where = `$${e.path.reverse().join('')}`;
    throw e.kind === 'type' ? new ParapetTypeError(`${where}: ${e.message}`) : new ParapetRangeError(`${where}: ${e.message}`, 'invalid-value');
  }
}

/** Internal: a refusal collecting its path on the way out (paths cost nothing unless something fails). */
class Refusal extends Error {
  readonly path: string[] = [];
  constructor(
    message: string,
    readonly kind: 'type' | 'range',
  ) {
    super(message);
  }
}

// String.prototype.isWellFormed (ES2024; Node 20) is native; the regex is the fallback.
const LONE_SURROGATE = /\p{Cs}/u;
const wellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);

// Strings with nothing to escape (the common case) skip JSON.stringify.
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
const quote = (s: string) => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

function child(value: unknown, seen: Set<object>, segment: string): string {
  try {
    return write(value, seen);
  } catch (e) {
    if (e instanceof Refusal) e.path.push(segment);
    throw e;
  }
}

// One string built by concatenation: measured ~2× faster here than pushing
// parts and joining, and a regex check per string was the other half.
function write(value: unknown, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      if (!wellFormed(value)) throw new Refusal('string holds a lone surrogate (not I-JSON)', 'range');
      return quote(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Refusal(`${value} is not a JSON number`, 'range');
      return String(value); // ECMAScript Number::toString, as §3.2.2.3 requires (-0 becomes "0")
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw new Refusal(`${typeof value} cannot be written as JSON`, 'type');
  }
  if (value === null) return 'null';
  if (seen.has(value)) throw new Refusal('cyclic structure', 'type');
  seen.add(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += child(value[i], seen, `[${i}]`);
    }
    out += ']';
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new Refusal(`only plain objects can be canonicalised, got ${proto?.constructor?.name ?? 'object'}`, 'type');
    }
    // Default sort compares UTF-16 code units, which is exactly §3.2.3's order.
    const keys = Object.keys(value).sort();
    out = '{';
    let first = true;
    for (const key of keys) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue; // as JSON.stringify: absent
      if (!wellFormed(key)) throw new Refusal('key holds a lone surrogate (not I-JSON)', 'range');
      out += (first ? '' : ',') + quote(key) + ':' + child(v, seen, `.${key}`);
      first = false;
    }
    out += '}';
  }
  seen.delete(value);
  return out;
}

/** UTF-8 bytes of the canonical form. */
export function canonicalJsonBytes(value: unknown): Uint8Array {
  return utf8(canonicalJson(value));
}
