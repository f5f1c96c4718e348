// The CLI fails closed: a verification flag without what it needs, a flag the
// command does not take and a malformed value are usage errors (exit 2), never
// a silent "ok"; secret key files end at mode 0600 and never follow a symlink.
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('../bin/parapet.js', import.meta.url).pathname;
const run = (args: string[], input?: string) => spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 30_000 });
/** Run under a shell umask (a worker thread cannot change the process umask). */
const runUmask = (umask: string, args: string[]) =>
  spawnSync('sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, bin, ...args], { encoding: 'utf8', timeout: 30_000 });
const mode = (path: string) => statSync(path).mode & 0o777;

describe('memory verify with a checkpoint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parapet-clisec-'));
  const db = join(dir, 'm.db');
  const other = join(dir, 'other.db');
  const cp = join(dir, 'cp');
  const pub = join(dir, 'k.pub');

  beforeAll(async () => {
    const { VmgMemoryStore, init } = await import('../src/vmg/index.js');
    const { SqliteBackend } = await import('../src/vmg/sqlite.js');
    await init();
    for (const [file, value] of [[db, 'one'], [other, 'replaced']] as const) {
      const store = await VmgMemoryStore.open({ backend: new SqliteBackend(file), agentId: 'a', sessionId: 's' });
      await store.put('k', value, { policyTag: 'persistent' });
      await store.close();
    }
    expect(run(['log', 'keygen', 'mem.test/a', '--out', join(dir, 'k')]).status).toBe(0);
    const signed = run(['memory', 'checkpoint', '--db', db, '--key', join(dir, 'k.key'), '--origin', 'mem.test/a']);
    expect(signed.status).toBe(0);
    writeFileSync(cp, signed.stdout);
  });

  it('refuses each incomplete combination with exit 2 naming the flag, instead of printing ok for a replaced store', () => {
    const cases: [string[], RegExp][] = [
      [['--checkpoint', cp], /--checkpoint needs --verifier/],
      [['--checkpoint', cp, '--origin', 'mem.test/a'], /--checkpoint needs --verifier/],
      [['--verifier', pub], /--verifier needs --checkpoint/],
      [['--origin', 'mem.test/a'], /--origin needs --checkpoint and --verifier/],
    ];
    for (const [flags, message] of cases) {
      const r = run(['memory', 'verify', '--db', other, ...flags]);
      expect(r.status, flags.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).not.toMatch(/ok/);
    }
    // The origin defaults to the verifier key's name (mem.test/a): the replaced store is still refused.
    for (const full of [['--checkpoint', cp, '--verifier', pub, '--origin', 'mem.test/a'], [`--checkpoint=${cp}`, '--verifier', pub]]) {
      expect(run(['memory', 'verify', '--db', other, ...full]).status).toBe(1);
      expect(run(['memory', 'verify', '--db', db, ...full]).status).toBe(0);
    }
  });

  it('refuses checkpoint flags on commands that would ignore them', () => {
    const r = run(['memory', 'get', 'k', '--db', db, '--checkpoint', cp, '--verifier', pub]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--checkpoint is not an option of memory get/);
    expect(run(['memory', 'checkpoint', '--db', db, '--origin', 'o']).stderr).toMatch(/checkpoint needs --key/);
    expect(run(['memory', 'checkpoint', '--db', db, '--origin', 'o']).status).toBe(2);
  });
});

describe('usage errors exit 2, failed verifications exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parapet-clisec-'));
  const leaves = join(dir, 'leaves.txt');
  writeFileSync(leaves, 'a\nb\nc\n');
  const skillDir = join(dir, 'skill');
  mkdirSync(skillDir);
  writeFileSync(join(skillDir, 'SKILL.md'), '---\nname: s\ndescription: S.\nversion: 1.0.0\n---\nbody\n');
  writeFileSync(join(dir, 'trust.json'), JSON.stringify({ keys: [] }));
  writeFileSync(join(dir, 'broken.json'), '{ "keys": [');
  writeFileSync(join(dir, 'badtrust.json'), JSON.stringify({ keys: [{ fingerprint: 'md5:x' }] }));

  it('refuses flags a log, memory or skill command does not take (a typo must not drop a check)', () => {
    expect(run(['log', 'keygen', 'k', '--out', join(dir, 'k')]).status).toBe(0);
    const cp = run(['log', 'sign', leaves, '--key', join(dir, 'k.key'), '--origin', 'k']);
    writeFileSync(join(dir, 'cp'), cp.stdout);
    for (const [args, message] of [
      [['log', 'open', join(dir, 'cp'), '--verifier', join(dir, 'k.pub'), '--orign', 'other'], /--orign is not an option of log open/],
      [['log', 'head', leaves, '--verifier', join(dir, 'k.pub')], /--verifier is not an option of log head/],
      [['skill', 'verify', skillDir, '--trust', join(dir, 'trust.json'), '--verifier', 'x'], /--verifier is not an option of skill verify/],
      [['log', 'sign', leaves, '--origin', 'o'], /--origin needs --key/],
      [['log', 'keygen', 'k', '--force'], /--force needs --out/],
    ] as [string[], RegExp][]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(run(['log', 'open', join(dir, 'cp'), '--verifier', join(dir, 'k.pub'), '--origin', 'other']).status).toBe(1);
  });

  it('gives exit 2, naming the flag, for malformed values that used to exit 1', () => {
    for (const [args, message] of [
      [['hash', '--hmac-key', 'xyz', '-'], /--hmac-key: must be hexadecimal/],
      [['log', 'keygen', 'bad name'], /key NAME "bad name"/],
      [['log', 'head', leaves, '--size', '9'], /--size 9 is beyond/],
      [['log', 'prove-inclusion', leaves, '--index', '3'], /--index 3 is not below the tree size 3/],
      [['log', 'prove-consistency', leaves, '--from', '4'], /--from 4 is beyond/],
      [['log', 'open', leaves, '--verifier', 'junk+x'], /--verifier junk\+x: verifier key/],
      [['log', 'sign', leaves, '--key', leaves, '--origin', 'o'], /--key .*leaves\.txt: not a note signer key/],
      [['memory', 'get', 'k', '--db', join(dir, 'none.db'), '--as-of', 'abc'], /--as-of needs a version number/],
      [['skill', 'verify', skillDir, '--trust', join(dir, 'trust.json'), '--mode', 'enforcing'], /--mode must be one of enforce, warn, off/],
      [['skill', 'verify', skillDir, '--trust', join(dir, 'broken.json')], /--trust .*broken\.json:/],
      [['skill', 'verify', skillDir, '--trust', join(dir, 'badtrust.json')], /--trust .*badtrust\.json: "keys\[0\]\.fingerprint"/],
      [['skill', 'sign', skillDir, '--key', join(dir, 'k.key'), '--carrier', 'email'], /--carrier must be one of/],
      [['skill', 'sign', skillDir, '--key', join(dir, 'k.key'), '--expires-in', 'soon'], /--expires-in needs a positive number/],
      [['skill', 'sign', skillDir, '--key', leaves], /--key .*leaves\.txt:/],
    ] as [string[], RegExp][]) {
      const r = run(args, '');
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(readdirSync(skillDir)).toEqual(['SKILL.md']);
    expect(run(['skill', 'verify', skillDir, '--trust', join(dir, 'trust.json')]).status).toBe(1);
  });
});

describe.skipIf(process.platform === 'win32')('secret key files', () => {
  const keygens: [string, (prefix: string, ...extra: string[]) => string[]][] = [
    ['log keygen', (prefix, ...extra) => ['log', 'keygen', 'example.test/k', '--out', prefix, ...extra]],
    ['skill keygen', (prefix, ...extra) => ['skill', 'keygen', '--out', prefix, ...extra]],
  ];

  for (const [name, args] of keygens) {
    it(`${name}: refuses an existing file; --force replaces it at mode 0600`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'parapet-keyfile-'));
      const prefix = join(dir, 'k');
      writeFileSync(`${prefix}.key`, 'old\n');
      chmodSync(`${prefix}.key`, 0o644);
      const refused = run(args(prefix));
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/refusing to overwrite .*k\.key: it exists \(--force replaces it\)/);
      expect(readFileSync(`${prefix}.key`, 'utf8')).toBe('old\n');
      expect(mode(`${prefix}.key`)).toBe(0o644);
      expect(readdirSync(dir)).toEqual(['k.key']);
      expect(run(args(prefix, '--force')).status).toBe(0);
      expect(mode(`${prefix}.key`)).toBe(0o600);
      expect(readFileSync(`${prefix}.key`, 'utf8')).not.toBe('old\n');
      expect(readdirSync(dir).sort()).toEqual(['k.key', 'k.pub']);
    });

    it(`${name}: refuses a symlink at the path, with or without --force, and leaves its target alone`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'parapet-keyfile-'));
      const prefix = join(dir, 'k');
      writeFileSync(join(dir, 'target'), 'target\n');
      chmodSync(join(dir, 'target'), 0o644);
      symlinkSync(join(dir, 'target'), `${prefix}.key`);
      for (const extra of [[], ['--force']]) {
        const r = run(args(prefix, ...extra));
        expect(r.status, extra.join(' ')).toBe(1);
        expect(r.stderr).toMatch(/k\.key: it is a symbolic link/);
      }
      expect(readFileSync(join(dir, 'target'), 'utf8')).toBe('target\n');
      expect(mode(join(dir, 'target'))).toBe(0o644);
      expect(lstatSync(`${prefix}.key`).isSymbolicLink()).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(['k.key', 'target']);
    });

    it(`${name}: ends at 0600 under umask 000, new or replacing a 0666 file`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'parapet-keyfile-'));
      expect(runUmask('000', args(join(dir, 'new'))).status).toBe(0);
      expect(mode(join(dir, 'new.key'))).toBe(0o600);
      writeFileSync(join(dir, 'old.key'), 'old\n');
      chmodSync(join(dir, 'old.key'), 0o666);
      expect(runUmask('000', args(join(dir, 'old'), '--force')).status).toBe(0);
      expect(mode(join(dir, 'old.key'))).toBe(0o600);
    });
  }
});
