/**
 * Every error the package throws is a `ParapetError`: one class to catch, and
 * a stable `code` to switch on (messages are for people and may change).
 * Misuse by the caller throws; verifiers never throw on attacker-supplied
 * content, they return a result that says why (see `VerifyResult`).
 *
 * The subclasses extend `ParapetError`, not the platform's `TypeError` and
 * `RangeError`: one base for the whole taxonomy (decision 40).
 */
export class ParapetError extends Error {
  readonly code: string;
  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A value of the wrong type: the message names the parameter. */
export type ParapetTypeErrorCode = 'invalid-type';
/** A value of the right type but the wrong size, or out of its allowed set or range. */
export type ParapetRangeErrorCode = 'invalid-length' | 'invalid-value';
/**
 * Used out of order or on damaged state: not initialised, a core that failed
 * to load, a hasher reused after digest, an object used after destroy, saved
 * state of another version, a node store whose hashes are missing or malformed.
 */
/**
 * `core-mismatch`: the bindings and core.wasm disagree on a bound — a build defect,
 * never the caller's input. `result-withheld`: a guarded tool ran, so its effect has
 * happened, but its session ended meanwhile and no session saw the result: the
 * caller must not retry the call as if it never ran.
 */
export type ParapetStateErrorCode = 'not-initialized' | 'init-failed' | 'hasher-finished' | 'destroyed' | 'session-dropped' | 'stale-state' | 'state-version' | 'store-damaged' | 'core-mismatch' | 'result-withheld';
export type ParapetErrorCode = ParapetTypeErrorCode | ParapetRangeErrorCode | ParapetStateErrorCode;

export class ParapetTypeError extends ParapetError {
  declare readonly code: ParapetTypeErrorCode;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'invalid-type', options);
  }
}

export class ParapetRangeError extends ParapetError {
  declare readonly code: ParapetRangeErrorCode;
  constructor(message: string, code: ParapetRangeErrorCode = 'invalid-length', options?: { cause?: unknown }) {
    super(message, code, options);
  }
}

/** The API was used out of order, or state it relies on is not what it should be. */
export class ParapetStateError extends ParapetError {
  declare readonly code: ParapetStateErrorCode;
  constructor(message: string, code: ParapetStateErrorCode, options?: { cause?: unknown }) {
    super(message, code, options);
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

/** Throw unless `value` is an options object (undefined is taken care of by a default parameter, null is not). */
export function assertOptions(value: unknown, name = 'options'): asserts value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ParapetTypeError(`"${name}" must be an object, got ${describe(value)}`);
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
