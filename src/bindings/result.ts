/**
 * The one result shape of every verifier and parser of untrusted input:
 * `{ ok: true, … }` with what was verified, or `{ ok: false, code, message, … }`
 * with a stable code to switch on and a message for people. Verifiers return
 * it instead of throwing, so attacker-supplied input can never turn into an
 * exception the caller forgot to catch.
 *
 * `Fail` types the extra fields a failure carries; without it they are open.
 */
export type VerifyResult<Code extends string, Ok extends object = {}, Fail extends object = { readonly [k: string]: unknown }> =
  | ({ readonly ok: true } & Ok)
  | VerifyFailure<Code, Fail>;

/** The failing half of a `VerifyResult`. */
export type VerifyFailure<Code extends string, Fail extends object = { readonly [k: string]: unknown }> = {
  readonly ok: false;
  readonly code: Code;
  readonly message: string;
} & Fail;
