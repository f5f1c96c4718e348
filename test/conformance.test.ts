import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The same checks (test/conformance/checks.mjs) against the built package in
// each runtime the project installs from npm (deno, bun) and in Node itself.
const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const script = new URL('./conformance/cli.mjs', import.meta.url).pathname;
const runtimes: [string, string, string[]][] = [
  ['node', process.execPath, [script]],
  ['bun', bin('bun'), [script]],
  ['deno', bin('deno'), ['run', '--allow-read', '--allow-env', script]],
];

describe('runtime conformance', () => {
  for (const [name, exe, args] of runtimes) {
    it(`${name} runs every check against the built package`, () => {
      expect(existsSync(exe), `${name} is installed (npm ci)`).toBe(true);
      const run = spawnSync(exe, args, { encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
      const out = `${run.stdout}${run.stderr}`;
      expect(out, out).toMatch(/8 passed, 0 failed/);
      expect(run.status, out).toBe(0);
    }, 130_000);
  }
});
