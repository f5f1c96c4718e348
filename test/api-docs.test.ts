import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/api is TypeDoc's output from the TSDoc in src/ (`npm run docs`). It is
// regenerated here and compared file by file, so an API or doc-comment change
// that was not followed by `npm run docs` fails CI instead of drifting.
const root = new URL('..', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

// Shiki numbers its colour classes (hl-0, hl-1, …) in the order it first meets
// each colour, which varies between runs; the text and structure do not.
const normalise = (file: string, text: string) => (file.endsWith('highlight.css') ? '' : text.replace(/\bhl-\d+\b/g, 'hl'));

describe('API reference (docs/api)', () => {
  it('is what `npm run docs` generates from the sources now', () => {
    const out = mkdtempSync(join(tmpdir(), 'parapet-api-docs-'));
    try {
      const run = spawnSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--out', out, '--logLevel', 'Error'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 170_000,
      });
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
      const committed = files(join(root, 'docs/api'));
      const generated = files(out);
      expect(committed, 'docs/api lists other files than TypeDoc writes: run `npm run docs`').toEqual(generated);
      const stale = generated.filter(
        (f) => normalise(f, readFileSync(join(out, f), 'utf8')) !== normalise(f, readFileSync(join(root, 'docs/api', f), 'utf8')),
      );
      expect(stale, 'these pages of docs/api are stale: run `npm run docs`').toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
