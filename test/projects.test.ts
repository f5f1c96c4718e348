import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UNIT_TESTS } from './projects.js';

// What would make a unit test slow or dependent on the outside: the built
// package, a subprocess, a browser, a bundler run, SQLite on disk.
const FORBIDDEN: [RegExp, string][] = [
  [/\bdist\//, 'reads dist/'],
  [/node:child_process/, 'starts a subprocess'],
  [/playwright|chromium/i, 'drives a browser'],
  [/from 'vite'|import\('vite'\)/, 'runs a bundler'],
  [/better-sqlite3|vmg\/sqlite/, 'opens SQLite'],
];

describe('test projects', () => {
  it('list only files that exist', () => {
    const files = new Set(readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.test.ts')).map((f) => `test/${f}`));
    for (const file of UNIT_TESTS) expect(files.has(file), file).toBe(true);
  });

  // This file names the patterns it looks for, so it is left out of its own check.
  for (const file of UNIT_TESTS.filter((f) => f !== 'test/projects.test.ts')) {
    it(`${file} is a unit test by the definition in test/projects.ts`, () => {
      const source = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      for (const [pattern, what] of FORBIDDEN) expect(pattern.test(source), `${file} ${what}`).toBe(false);
    });
  }
});
