import { spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';

const bin = new URL('../bin/parapet.js', import.meta.url).pathname;
const run = (args: string[], input?: string | Buffer) =>
  spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 30_000 });

describe('parapet CLI', () => {
  it('prints help (exit 0) and refuses unknown commands (exit 2)', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/parapet hash/);
    const bad = run(['frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it('hashes stdin and files like sha256sum, and HMACs with a hex key', () => {
    const data = Buffer.from('x'.repeat(100_000) + 'tail');
    const out = run(['hash'], data);
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(`${createHash('sha256').update(data).digest('hex')}  -\n`);
    const json = run(['hash', '--json', '--hmac-key', '00ff', '-'], data);
    expect(JSON.parse(json.stdout)[0].digest).toBe(createHmac('sha256', Buffer.from('00ff', 'hex')).update(data).digest('hex'));
  });

  it('reports bad input as an error with its code (exit 1) and usage errors (exit 2)', () => {
    const badKey = run(['hash', '--hmac-key', 'xyz', '-'], 'a');
    expect(badKey.status).toBe(1);
    expect(badKey.stderr).toMatch(/"hex".*\[invalid-value\]/);
    expect(run(['hash', '--hmac-key']).status).toBe(2);
    expect(run(['hash', '/nonexistent/file']).status).toBe(1);
  });

  it('runs the demo session', () => {
    const demo = run(['demo']);
    expect(demo.status).toBe(0);
    expect(demo.stdout).toMatch(/2\/2 of its word shingles appear in untrusted tool output/);
  });
});
