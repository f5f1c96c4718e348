import { ParapetRangeError, ParapetTypeError, describe } from '../bindings/errors.js';

/**
 * SemVer 2.0.0 (https://semver.org/spec/v2.0.0.html) as the version ratchet
 * and revocations read it. Strict: `2.0`, `v1.2.3` and `01.2.3` are not
 * versions. Accepting `2.0` as `2.0.0` would give one release several
 * spellings, and every spelling is a chance for a revocation or a ratchet to
 * compare two strings that mean the same release and miss (decision 21).
 */

// §2 numbers without leading zeros; §9 dot-separated [0-9A-Za-z-] identifiers,
// numeric ones without leading zeros; §10 build metadata, any [0-9A-Za-z-].
const NUMBER = '0|[1-9][0-9]*';
const PRE_ID = `(?:${NUMBER}|[0-9]*[A-Za-z-][0-9A-Za-z-]*)`;
const SEMVER = new RegExp(`^(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})(?:-(${PRE_ID}(?:\\.${PRE_ID})*))?(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$`);

/** Is `version` a SemVer 2.0.0 version? (Never throws.) */
export function isSemVer(version: unknown): version is string {
  return typeof version === 'string' && SEMVER.test(version);
}

function parse(version: unknown, name: string): { core: [string, string, string]; pre: string[] } {
  if (typeof version !== 'string') throw new ParapetTypeError(`"${name}" must be a string, got ${describe(version)}`);
  const m = SEMVER.exec(version);
  if (!m) throw new ParapetRangeError(`"${name}" is not a SemVer 2.0.0 version: ${JSON.stringify(version)}`, 'invalid-value');
  return { core: [m[1]!, m[2]!, m[3]!], pre: m[4] === undefined ? [] : m[4].split('.') };
}

/** Digit strings without leading zeros compare by length, then digit by digit: exact at any size, unlike Number(). */
function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const NUMERIC = /^[0-9]+$/;

/**
 * SemVer 2.0.0 precedence (§11): -1, 0 or 1. Major, minor and patch compare
 * numerically; a pre-release sorts before its release; pre-release
 * identifiers compare numerically when both are numeric, numeric before
 * alphanumeric, otherwise in ASCII order; a longer set of identifiers wins
 * when the shorter is its prefix. Build metadata is ignored, so `1.0.0+a` and
 * `1.0.0+b` are the same release. Throws a typed error unless both are SemVer.
 */
export function compareVersions(a: string, b: string): number {
  const x = parse(a, 'a');
  const y = parse(b, 'b');
  for (let i = 0; i < 3; i++) {
    const d = compareDigits(x.core[i]!, y.core[i]!);
    if (d !== 0) return d;
  }
  if (x.pre.length === 0 || y.pre.length === 0) return x.pre.length === y.pre.length ? 0 : x.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i]!;
    const q = y.pre[i]!;
    const pn = NUMERIC.test(p);
    const qn = NUMERIC.test(q);
    // ASCII order by code unit, never localeCompare: the order must not depend on the runtime's locale.
    const d = pn && qn ? compareDigits(p, q) : pn ? -1 : qn ? 1 : p < q ? -1 : p > q ? 1 : 0;
    if (d !== 0) return d;
  }
  return Math.sign(x.pre.length - y.pre.length);
}
