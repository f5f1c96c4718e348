import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical/jcs.js';
import { ParapetRangeError, ParapetTypeError } from '../src/bindings/errors.js';
import { expectThrows } from './helpers/errors.js';

const fromBits = (hex: string) => new DataView(Uint8Array.from(Buffer.from(hex, 'hex')).buffer).getFloat64(0);

describe('RFC 8785 canonical JSON', () => {
  it('writes numbers as ECMAScript does (RFC 8785 Appendix B samples)', () => {
    const samples: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'], // -0
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [bits, want] of samples) expect(canonicalJson(fromBits(bits)), bits).toBe(want);
  });

  it('sorts keys by UTF-16 code units (RFC 8785 §3.2.3 example)', () => {
    const input = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    // Read the keys off the text: JSON.parse would put the integer-like "1" first again.
    const text = canonicalJson(input);
    const keys = [...text.matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
    expect(keys).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  });

  it('writes the §3.2.2 example as the RFC shows it', () => {
    const input = { numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001], string: '\u20ac$\u000f\nA\'B"\\\\"/', literals: [null, true, false] };
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('is independent of key order and a fixed point (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const c = canonicalJson(v);
        return canonicalJson(JSON.parse(c)) === c;
      }),
    );
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, 2] }, b: 1 }));
  });

  it('equals a plain JSON.stringify-per-scalar writer with sorted keys (property)', () => {
    // Plainly: JSON.stringify for every scalar (RFC 8785 adopts its strings and numbers), keys sorted.
    const reference = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(reference).join(',')}]`
        : v && typeof v === 'object'
          ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${reference((v as Record<string, unknown>)[k])}`).join(',')}}`
          : JSON.stringify(v);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 1000 },
    );
    const strings = fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0001', '\u007f', 'é', '😀', '\u2028'), maxLength: 12 });
    fc.assert(fc.property(fc.dictionary(strings, strings), (v) => {
      expect(canonicalJson(v)).toBe(reference(v));
    }));
  });

  it('refuses what is not I-JSON with typed errors', () => {
    expectThrows(() => canonicalJson({ a: [1, NaN] }), ParapetRangeError, 'invalid-value');
    expectThrows(() => canonicalJson(Infinity), ParapetRangeError, 'invalid-value');
    expectThrows(() => canonicalJson({ s: 'x\ud800' }), ParapetRangeError, 'invalid-value');
    expectThrows(() => canonicalJson(10n), ParapetTypeError, 'invalid-type');
    expectThrows(() => canonicalJson(new Map()), ParapetTypeError, 'invalid-type');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expectThrows(() => canonicalJson(cyclic), ParapetTypeError, 'invalid-type');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expectThrows(() => canonicalJson({ x: [1, { y: 'ok', z: () => 1 }] }), ParapetTypeError, 'invalid-type');
    expectThrows(() => canonicalJson({ 'k\ud800': 1 }), ParapetRangeError, 'invalid-value');
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expectThrows(() => canonicalJson(deep), ParapetRangeError, 'invalid-value');
  });

  it('says where in the value the refused part is', () => {
    // The path is what this message is for: in a large record it is the only pointer to the bad field.
    expect(() => canonicalJson({ a: [1, NaN] })).toThrow(/^\$\.a\[1\]: /);
    expect(() => canonicalJson({ x: [1, { y: 'ok', z: () => 1 }] })).toThrow(/^\$\.x\[1\]\.z: /);
  });
});
