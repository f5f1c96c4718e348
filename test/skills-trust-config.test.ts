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
    // The contract is the class and code (typeError checks them) and the field named as the configuration spells it.
    const field = (config: unknown, name: string) => expect(typeError(config), name).toMatch(new RegExp(`^"${name.replace(/[[\].]/g, '\\$&')}" must be `));
    field({ keys: 'oops' }, 'keys');
    field({ keys: [null] }, 'keys[0]');
    field({ keys: [{ fingerprint: key.fingerprint, names: 'weather-pro' }] }, 'keys[0].names');
    field({ keys: [{ fingerprint: key.fingerprint, publicKey: 7 }] }, 'keys[0].publicKey');
    field({ keys: [{ fingerprint: key.fingerprint, signer: 7 }] }, 'keys[0].signer');
    field({ deny: 'weather' }, 'deny');
    field({ allow: 'weather' }, 'allow');
    field({ allow: ['weather', 3] }, 'allow[1]');
    field({ revocationSigners: 'sha256:00' }, 'revocationSigners');
    field({ revocations: { list: [] } }, 'revocations');
    field({ publishers: 'example.com' }, 'publishers');
    field({ publishers: [{ domain: 5 }] }, 'publishers[0]');
    field([], 'trustRoot');
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
