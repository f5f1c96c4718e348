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

/** The .wasm files `name` and its chunks import, as paths inside dist/. */
function wasmImportsOf(name: string, seen = new Set<string>()): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const specifiers = [...bundle(name).matchAll(/from\s+["'](\.\.?\/[^"']+)["']/g)].map((m) => posix.join(posix.dirname(name), m[1]!));
  return specifiers.flatMap((d) => (d.endsWith('.wasm') ? [d] : wasmImportsOf(d, seen)));
}

describe('isomorphic default entry', () => {
  for (const entry of ['index.js', 'edge.js', 'tlog-edge.js', 'vmg-edge.js', 'skills-edge.js', 'ipi-edge.js']) {
    it(`${entry} and what it imports use no Node-only features`, () => {
      for (const code of importedFiles(entry)) {
        expect(code).not.toMatch(/from\s+["']node:/);
        expect(code).not.toMatch(/import\.meta\.url/);
        // Node globals only behind feature detection (the runtime's SHA-512), never bare.
        expect(code.replace(/globalThis\.process\?\./g, '')).not.toMatch(/\bprocess\./);
        expect(code).not.toMatch(/\brequire\(/);
        // Top-level await: an `await` outside any function body shows up at the start of a line.
        expect(code).not.toMatch(/^await\s/m);
      }
    });
  }

  for (const entry of ['edge.js', 'tlog-edge.js', 'vmg-edge.js', 'skills-edge.js', 'ipi-edge.js']) {
    it(`${entry} imports the shipped core.wasm as a module and carries no embedded copy`, () => {
      const wasmImports = wasmImportsOf(entry);
      expect(wasmImports.length).toBeGreaterThan(0);
      for (const file of wasmImports) expect(file).toBe('core.wasm');
      expect(importedFiles(entry).join('\n')).not.toMatch(/CORE_WASM_BASE64/);
    });
  }

  it('package.json routes workerd and worker to the edge entry and declares no side effects', () => {
    expect(pkg.sideEffects).toBe(false);
    const root = pkg.exports['.'] as Record<string, string>;
    expect(Object.keys(root).slice(0, 3)).toEqual(['types', 'workerd', 'worker']);
    expect(root.workerd).toBe('./dist/edge.js');
    for (const subpath of ['./tlog', './vmg', './skills', './ipi']) {
      const conditions = pkg.exports[subpath] as Record<string, string>;
      expect(Object.keys(conditions), subpath).toEqual(['types', 'workerd', 'worker', 'default']);
      expect(conditions.workerd, subpath).toBe(`./dist/${subpath.slice(2)}-edge.js`);
      expect(conditions.worker, subpath).toBe(conditions.workerd);
    }
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
