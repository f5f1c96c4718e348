import { expect } from 'vitest';
import { ParapetError } from '../../src/bindings/errors.js';

type ErrorClass = abstract new (...args: never[]) => ParapetError;

/**
 * Run `fn` and check that it throws an instance of `cls` carrying `code`:
 * misuse tests assert the class and the code, which are the contract, and
 * never the message, which is for people.
 */
export function expectThrows(fn: () => unknown, cls: ErrorClass, code: string, label?: string): ParapetError {
  let error: unknown;
  let threw = false;
  try {
    fn();
  } catch (e) {
    threw = true;
    error = e;
  }
  expect(threw, label ?? 'expected a throw').toBe(true);
  expect(error, label).toBeInstanceOf(cls);
  expect((error as ParapetError).code, label).toBe(code);
  return error as ParapetError;
}

/** `expectThrows` for a promise that must reject. */
export async function expectRejects(promise: Promise<unknown>, cls: ErrorClass, code: string, label?: string): Promise<ParapetError> {
  let error: unknown;
  let rejected = false;
  try {
    await promise;
  } catch (e) {
    rejected = true;
    error = e;
  }
  expect(rejected, label ?? 'expected a rejection').toBe(true);
  expect(error, label).toBeInstanceOf(cls);
  expect((error as ParapetError).code, label).toBe(code);
  return error as ParapetError;
}
