// Every command parses its arguments against what it takes: a misspelled or
// unknown flag, a boolean flag given a value and an extra positional argument
// are usage errors (exit 2) — silently ignored, they read as checks that were
// made. Messages name the flag or file as the user typed it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('../bin/parapet.js', import.meta.url).pathname;
const run = (args: string[], input = '') => spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 30_000 });
const dir = mkdtempSync(join(tmpdir(), 'parapet-cliargs-'));
const leaves = join(dir, 'leaves.txt');
writeFileSync(leaves, 'a\nb\nc\n');

describe('arguments a command does not take', () => {
  it('refuses unknown and misspelled flags on every command, in both --flag forms, with exit 2 and no output', () => {
    for (const args of [
      ['hash', '--hmac_key=00'],
      ['hash', '--hmac_key', '00'],
      ['hash', '--jsn'],
      ['hash', '-x'],
      ['scan', '--jsn'],
      ['bench', '--fast'],
      ['demo', '--fast'],
      ['log', 'head', leaves, '--sise=2'],
      ['log', 'verify-inclusion', leaves, '--checkpiont', 'cp.txt'],
      ['memory', 'verify', '--db', 'x.db', '--checkpiont', 'cp.txt'],
      ['skill', 'keygen', '--out', join(dir, 'never'), '--forse'],
    ]) {
      const r = run(args, 'abc');
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/is not an option of/);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    expect(existsSync(join(dir, 'never.key'))).toBe(false);
  });

  it('refuses a value given to a flag that takes none, and a flag given twice', () => {
    for (const [args, message] of [
      [['hash', '--json=false'], /--json takes no value/],
      [['scan', '--json=0'], /--json takes no value/],
      [['log', 'head', leaves, '--size', '1', '--size', '3'], /--size is given more than once/],
      [['memory', 'verify', '--db', 'a.db', '--db', 'b.db'], /--db is given more than once/],
      [['memory', 'verify', '--db', '--json'], /--db needs a value/],
    ] as [string[], RegExp][]) {
      const r = run(args, 'abc');
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('refuses extra positional arguments', () => {
    for (const args of [
      ['scan', leaves, leaves],
      ['bench', 'now'],
      ['demo', 'again'],
      ['log', 'head', leaves, leaves],
      ['log', 'keygen', 'a', 'b'],
      ['memory', 'verify', 'extra', '--db', 'x.db'],
      ['memory', 'get', 'k', 'k2', '--db', 'x.db'],
      ['skill', 'keygen', 'extra', '--out', join(dir, 'never')],
      ['skill', 'verify', dir, dir, '--trust', 'trust.json'],
      ['--version', 'extra'],
    ]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/unexpected argument/);
    }
  });

  it('takes --flag=value for valued flags, and a file after -- even when it is named like a flag', () => {
    const r = run(['log', 'head', leaves, '--size=2', '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).size).toBe(2);
    writeFileSync(join(dir, '--help'), 'flag-named file');
    const h = spawnSync(process.execPath, [bin, 'hash', '--', '--help'], { cwd: dir, encoding: 'utf8' });
    expect(h.stdout).toBe(`${createHash('sha256').update('flag-named file').digest('hex')}  --help\n`);
  });

  it('prints the version of the package it runs from', () => {
    const r = run(['--version']);
    expect(r.status).toBe(0);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(r.stdout).toBe(`parapet ${pkg.version}\n`);
  });
});

describe('messages name what the user typed', () => {
  it('never names an internal parameter', () => {
    const skillDir = join(dir, 'skill');
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(join(skillDir, 'SKILL.md'), '---\nname: s\ndescription: S.\nversion: 1.0.0\n---\nbody\n');
    expect(run(['skill', 'keygen', '--out', join(dir, 'sk')]).status).toBe(0);
    writeFileSync(join(dir, 'notb64.key'), '!!!\n');
    for (const [args, message] of [
      [['hash', '--hmac-key', 'xyz'], /--hmac-key: must be hexadecimal/],
      [['memory', 'get', 'k', '--db', join(dir, 'none.db'), '--as-of', '99999999999999999999'], /--as-of needs a version number/],
      [['memory', 'get', 'k'.repeat(1025), '--db', join(dir, 'none.db')], /KEY must be at most 1024 characters/],
      [['skill', 'sign', skillDir, '--key', join(dir, 'sk.key'), '--expires-in', '0.000001'], /--expires-in needs a positive number of days/],
      [['skill', 'sign', skillDir, '--key', join(dir, 'notb64.key')], /--key .*notb64\.key: not a skill secret key/],
    ] as [string[], RegExp][]) {
      const r = run(args, 'abc');
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/"(hex|text|asOf|expiresAt|key)"/);
    }
    expect(readdirSync(skillDir)).toEqual(['SKILL.md']);
  });

  it('names the file a bad JSON or proof came from, and the field', () => {
    const inc = run(['log', 'prove-inclusion', leaves, '--index', '1', '--json']);
    const proof = JSON.parse(inc.stdout) as Record<string, unknown>;
    writeFileSync(join(dir, 'broken.json'), '{ "leafHash": ');
    writeFileSync(join(dir, 'badhash.json'), JSON.stringify({ ...proof, root: 'not base64!' }));
    writeFileSync(join(dir, 'badindex.json'), JSON.stringify({ ...proof, index: '1' }));
    for (const [file, message] of [
      ['broken.json', /refused \(malformed\): .*broken\.json is not JSON/],
      ['badhash.json', /refused \(malformed\): .*badhash\.json: "root" is not base64/],
      ['badindex.json', /refused \(malformed\): .*badindex\.json: "index" is not a non-negative integer/],
    ] as const) {
      const r = run(['log', 'verify-inclusion', join(dir, file)]);
      expect(r.status, file).toBe(1);
      expect(r.stdout).toMatch(message);
    }
    const missing = run(['log', 'verify-inclusion', join(dir, 'nowhere.json')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/PROOF\.json .*nowhere\.json: cannot read: no such file or directory/);

    writeFileSync(join(dir, 'trust.json'), JSON.stringify({ keys: [] }));
    writeFileSync(join(dir, 'state.json'), '{ "version": 1, ');
    const state = run(['skill', 'verify', join(dir, 'skill'), '--trust', join(dir, 'trust.json'), '--state', join(dir, 'state.json')]);
    expect(state.status).toBe(2);
    expect(state.stderr).toMatch(/--state .*state\.json: not JSON/);
    const key = run(['log', 'sign', leaves, '--key', join(dir, 'nokey.key')]);
    expect(key.status).toBe(1);
    expect(key.stderr).toMatch(/--key .*nokey\.key: cannot read: no such file or directory/);
    const noDir = run(['skill', 'verify', join(dir, 'no-such-skill'), '--trust', join(dir, 'trust.json')]);
    expect(noDir.status).toBe(1);
    expect(noDir.stderr).toMatch(/DIR .*no-such-skill: cannot read: no such file or directory/);
  });
});

describe('checkpoint origins and keys', () => {
  const db = join(dir, 'm.db');
  const cp = join(dir, 'cp');

  beforeAll(async () => {
    const { VmgMemoryStore, init } = await import('../src/vmg/index.js');
    const { SqliteBackend } = await import('../src/vmg/sqlite.js');
    await init();
    const store = await VmgMemoryStore.open({ backend: new SqliteBackend(db), agentId: 'a', sessionId: 's' });
    await store.put('k', 'one', { policyTag: 'persistent' });
    await store.close();
    expect(run(['log', 'keygen', 'mem.test/a', '--out', join(dir, 'k')]).status).toBe(0);
    expect(run(['log', 'keygen', 'mem.test/other', '--out', join(dir, 'other')]).status).toBe(0);
  });

  it('signs with the key name as origin when --origin is not given, and checks against it', () => {
    const signed = run(['memory', 'checkpoint', '--db', db, '--key', join(dir, 'k.key')]);
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.stdout.split('\n')[0]).toBe('mem.test/a');
    writeFileSync(cp, signed.stdout);
    const ok = run(['memory', 'verify', '--db', db, '--checkpoint', cp, '--verifier', join(dir, 'k.pub')]);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/extends the checkpoint at size 1\nok\n$/);
    const tree = run(['log', 'sign', leaves, '--key', join(dir, 'k.key')]);
    expect(tree.status).toBe(0);
    expect(tree.stdout.split('\n')[0]).toBe('mem.test/a');
    expect(run(['log', 'sign', leaves, '--key', join(dir, 'k.key'), '--origin', 'example.org/log']).stdout.split('\n')[0]).toBe('example.org/log');
  });

  it('says a checkpoint that does not open with the key given is refused, not that the store is tampered', () => {
    writeFileSync(cp, run(['memory', 'checkpoint', '--db', db, '--key', join(dir, 'k.key')]).stdout);
    const r = run(['memory', 'verify', '--db', db, '--checkpoint', cp, '--verifier', join(dir, 'other.pub')]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/1 entries: 1 ok, 0 erased, 0 tampered/);
    expect(r.stdout).toMatch(/--checkpoint .*cp does not open with --verifier .*other\.pub/);
    expect(r.stdout).toMatch(/checkpoint refused\n$/);
    expect(r.stdout).not.toMatch(/TAMPERED/);
  });
});

describe('memory commands on a file that is not a store', () => {
  it('leave a foreign SQLite file exactly as it was: its bytes, and no -wal or -shm beside it', async () => {
    const Database = (await import('better-sqlite3')).default;
    const foreign = join(mkdtempSync(join(tmpdir(), 'parapet-foreign-')), 'other.db');
    const db = new Database(foreign);
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('someone else''s data')");
    db.close();
    const before = readFileSync(foreign);
    for (const args of [['verify'], ['get', 'k'], ['history', 'k']]) {
      const r = run(['memory', ...args, '--db', foreign]);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/is not a parapet memory store/);
    }
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(existsSync(`${foreign}-wal`)).toBe(false);
    expect(existsSync(`${foreign}-shm`)).toBe(false);
  });
});
