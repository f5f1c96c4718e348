/**
 * Errors thrown for caller misuse. Each carries a stable `code` to switch on.
 * Wrong types are `TypeError`s and wrong sizes `RangeError`s (as in
 * noble-hashes), and the message names the parameter. Verifiers never throw
 * these for attacker-supplied content: they return a result that says why.
 */

export class ParapetError extends Error {
  readonly code: string;
  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

export type ParapetErrorCode =
  | 'invalid-type'
  | 'invalid-length'
  | 'invalid-value'
  | 'not-initialized'
  | 'init-failed'
  | 'hasher-finished'
  | 'destroyed'
  | 'state-version'
  | 'store-damaged';

export class ParapetTypeError extends TypeError {
  readonly code = 'invalid-type' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ParapetTypeError';
  }
}

export class ParapetRangeError extends RangeError {
  readonly code: 'invalid-length' | 'invalid-value';
  constructor(message: string, code: 'invalid-length' | 'invalid-value' = 'invalid-length') {
    super(message);
    this.name = 'ParapetRangeError';
    this.code = code;
  }
}

/** The API was used out of order: not initialised, hasher reused after digest, stale saved state. */
export class ParapetStateError extends Error {
  readonly code: 'not-initialized' | 'init-failed' | 'hasher-finished' | 'destroyed' | 'state-version' | 'store-damaged';
  constructor(message: string, code: ParapetStateError['code'], options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ParapetStateError';
    this.code = code;
  }
}

/** Throw unless `value` is a Uint8Array (of `length` bytes when given). */
export function assertBytes(value: unknown, name: string, length?: number): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new ParapetTypeError(`"${name}" must be a Uint8Array, got ${describe(value)}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new ParapetRangeError(`"${name}" must be ${length} bytes, got ${value.length}`);
  }
}

/** Throw unless `value` is an array of Uint8Array. */
export function assertBytesArray(value: unknown, name: string): asserts value is readonly Uint8Array[] {
  if (!Array.isArray(value)) throw new ParapetTypeError(`"${name}" must be an array of Uint8Array, got ${describe(value)}`);
  for (let i = 0; i < value.length; i++) assertBytes(value[i], `${name}[${i}]`);
}

/** Throw unless `value` is an integer in [min, max]. */
export function assertInteger(value: unknown, name: string, min: number, max: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new ParapetTypeError(`"${name}" must be an integer, got ${describe(value)}`);
  }
  if (value < min || value > max) {
    throw new ParapetRangeError(`"${name}" must be in [${min}, ${max}], got ${value}`, 'invalid-value');
  }
}

/** Throw unless `value` is a finite number. */
export function assertFinite(value: unknown, name: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ParapetTypeError(`"${name}" must be a finite number, got ${describe(value)}`);
  }
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'an object';
  return typeof value;
}
