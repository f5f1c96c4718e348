// A trust root is the operator's configuration, often parsed from JSON: a
// value of the wrong type is a typed error at construction, never a crash
// deep inside verification — nor a string read as a list (a key's `names`
// given as "weather-pro" used to let it sign "weather", a substring).
import { describe, expect, it } from 'vitest';
import { ParapetTypeError } from '../src/index.js';
import { generateSkillKey, init, resolvePublishers, signSkill, TrustRoot, verifySkillSignature, type TrustRootConfig } from '../src/skills/index.js';

await init();
const enc = new TextEncoder();
const key = generateSkillKey();
const bundle = signSkill({ files: new Map([['SKILL.md', enc.encode('---\nname: weather\ndescription: W.\nversion: 1.0.0\n---\nbody\n')]]) }, key.secretKey);

const typeError = (config: unknown) => {
  let thrown: unknown;
  try {
    new TrustRoot(config as TrustRootConfig);
  } catch (e) {
    thrown = e;
  }
  expect(thrown, JSON.stringify(config)).toBeInstanceOf(ParapetTypeError);
  expect((thrown as ParapetTypeError).code).toBe('invalid-type');
  return (thrown as Error).message;
};

describe('TrustRoot configuration types', () => {
  it('refuses a non-list where a list belongs, naming the field', () => {
    expect(typeError({ keys: 'oops' })).toMatch(/"keys" must be an array, got string/);
    expect(typeError({ keys: [null] })).toMatch(/"keys\[0\]" must be an object/);
    expect(typeError({ keys: [{ fingerprint: key.fingerprint, names: 'weather-pro' }] })).toMatch(/"keys\[0\]\.names" must be an array/);
    expect(typeError({ keys: [{ fingerprint: key.fingerprint, publicKey: 7 }] })).toMatch(/"keys\[0\]\.publicKey" must be a string/);
    expect(typeError({ deny: 'weather' })).toMatch(/"deny" must be an array/);
    expect(typeError({ allow: 'weather' })).toMatch(/"allow" must be an array/);
    expect(typeError({ allow: ['weather', 3] })).toMatch(/"allow\[1\]" must be a string/);
    expect(typeError({ revocationSigners: 'sha256:00' })).toMatch(/"revocationSigners" must be an array/);
    expect(typeError({ revocations: { list: [] } })).toMatch(/"revocations" must be a string/);
    expect(typeError({ publishers: 'example.com' })).toMatch(/"publishers" must be an array/);
    expect(typeError([])).toMatch(/"trustRoot" must be an object/);
  });

  it('refuses it through verifySkillSignature too, before reading the bundle', () => {
    expect(() => verifySkillSignature(bundle, { trustRoot: { keys: 'oops' } as unknown as TrustRootConfig })).toThrow(ParapetTypeError);
  });

  it('still verifies with a well-typed root', () => {
    expect(verifySkillSignature(bundle, { trustRoot: { keys: [{ fingerprint: key.fingerprint, names: ['weather'] }] } })).toMatchObject({ status: 'verified' });
  });

  it('resolvePublishers refuses a non-list before fetching anything', async () => {
    let fetched = 0;
    const fetchFn = (async () => {
      fetched++;
      return new Response('{}');
    }) as typeof fetch;
    await expect(resolvePublishers({ publishers: 'example.com' } as unknown as TrustRootConfig, fetchFn)).rejects.toBeInstanceOf(ParapetTypeError);
    await expect(resolvePublishers({ publishers: [{ domain: 5 }] } as unknown as TrustRootConfig, fetchFn)).rejects.toBeInstanceOf(ParapetTypeError);
    expect(fetched).toBe(0);
  });
});
