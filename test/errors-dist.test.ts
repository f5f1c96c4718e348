import { describe, expect, it } from 'vitest';

// The shipped bundles: every entry hands out the same error classes (one core
// chunk), each named after its class, so `instanceof` and `name` work whichever
// entry a caller imported them from.
type Entry = Record<string, any>;
const load = (name: string): Promise<Entry> => import(new URL(`../dist/${name}`, import.meta.url).href);

describe('errors in the built package', () => {
  it('are one set of classes across entries, named after themselves', async () => {
    const root = await load('index.js');
    const [tlog, skills, hooks] = await Promise.all([load('tlog.js'), load('skills.js'), load('hooks.js')]);
    for (const entry of [tlog, skills, hooks]) {
      expect(entry.ParapetError).toBe(root.ParapetError);
      expect(entry.ParapetTypeError).toBe(root.ParapetTypeError);
    }
    await skills.init();
    let error: unknown;
    try {
      skills.verifySkillSignature({ files: new Map() }, null);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(root.ParapetError);
    expect(error).toMatchObject({ name: 'ParapetTypeError', code: 'invalid-type' });
    expect(new root.ParapetRangeError('m').name).toBe('ParapetRangeError');
    expect(new root.ParapetStateError('m', 'destroyed').name).toBe('ParapetStateError');
  });
});
