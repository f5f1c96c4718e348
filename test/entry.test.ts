import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// The default entry must load in every runtime: no node: imports, no
// import.meta.url, no top-level await, no Node globals. Checked on the bundle
// that ships (built by `npm test`'s pretest step).
const bundle = (name: string) => readFileSync(new URL(`../dist/${name}`, import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, unknown>;
  sideEffects: boolean;
};

function importedFiles(name: string, seen = new Set<string>()): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const code = bundle(name);
  const deps = [...code.matchAll(/from\s+["'](\.\.?\/[^"']+)["']/g)].map((m) => posix.join(posix.dirname(name), m[1]!));
  return [code, ...deps.filter((d) => !d.endsWith('.wasm')).flatMap((d) => importedFiles(d, seen))];
}

describe('isomorphic default entry', () => {
  for (const entry of ['index.js', 'edge.js']) {
    it(`${entry} and what it imports use no Node-only features`, () => {
      for (const code of importedFiles(entry)) {
        expect(code).not.toMatch(/from\s+["']node:/);
        expect(code).not.toMatch(/import\.meta\.url/);
        expect(code).not.toMatch(/\bprocess\./);
        expect(code).not.toMatch(/\brequire\(/);
        // Top-level await: an `await` outside any function body shows up at the start of a line.
        expect(code).not.toMatch(/^await\s/m);
      }
    });
  }

  it('edge entry imports core.wasm as a module and carries no embedded copy', () => {
    const code = importedFiles('edge.js').join('\n');
    expect(code).toMatch(/from\s+["']\.\/core\.wasm["']/);
    expect(code).not.toMatch(/CORE_WASM_BASE64/);
  });

  it('package.json routes workerd and worker to the edge entry and declares no side effects', () => {
    expect(pkg.sideEffects).toBe(false);
    const root = pkg.exports['.'] as Record<string, string>;
    expect(Object.keys(root).slice(0, 3)).toEqual(['types', 'workerd', 'worker']);
    expect(root.workerd).toBe('./dist/edge.js');
  });
});

describe('size budget', () => {
  it('the default entry (JS with its chunks, wasm embedded) and the edge entry (JS + core.wasm) stay within 80 KB gzip', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [new URL('../scripts/size-budget.mjs', import.meta.url).pathname], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/within the 80 KB gzip budget/);
    expect(run.status).toBe(0);
  });
});
