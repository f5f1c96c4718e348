import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, requireTools } from './helpers/system-tools.js';
import { runWorker } from './helpers/workerd.js';

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
      expect(out, out).toMatch(name === 'node' ? /9 passed, 0 failed/ : /8 passed, 0 failed/);
      if (name === 'node') expect(out).toMatch(/ok {3}injection classifier through onnxruntime-web/);
      expect(run.status, out).toBe(0);
    }, 130_000);
  }
});

const [CHROMIUM_BIN] = requireTools('the browser conformance run', CHROMIUM) ?? [];

describe.runIf(CHROMIUM_BIN !== undefined)('runtime conformance in Chromium (IndexedDB backend)', () => {
  it('runs every check in a headless page', async () => {
    const { chromium } = await import('playwright-core');
    const { serveStatic } = await import('./helpers/static-server.js');
    const server = await serveStatic(new URL('..', import.meta.url).pathname);
    const browser = await chromium.launch({
      executablePath: CHROMIUM_BIN!,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${server.url}/test/conformance/browser.html`);
      await page.waitForFunction(() => (window as unknown as { __conformance?: unknown }).__conformance !== undefined, undefined, { timeout: 60_000 });
      const result = await page.evaluate(() => (window as unknown as { __conformance: { failed: number; lines: string[] } }).__conformance);
      const out = result.lines.join('\n') + errors.join('\n');
      expect(out, out).toMatch(/8 passed, 0 failed/);
      expect(out).toMatch(/ok {3}memory store \(IndexedDbBackend\)/);
      expect(result.failed).toBe(0);
    } finally {
      await browser.close();
      await server.close();
    }
  }, 120_000);
});

describe('runtime conformance in workerd (edge entries, precompiled core.wasm)', () => {
  it('runs every check in a worker listening on 127.0.0.1, whose bundle carries no embedded core', async () => {
    const root = new URL('..', import.meta.url).pathname;
    const { body, bundle, logs } = await runWorker(`${root}test/conformance/worker.mjs`, `${root}test-results/workerd`);
    // The worker imports every subpath by name: the workerd conditions must have kept the
    // embedded base64 core (the default entries' init) out of what an edge user ships.
    const embedded = readFileSync(`${root}dist/core.wasm`).toString('base64').slice(0, 96);
    expect(bundle).toMatch(/from\s+["']\.\/core\.wasm["']/);
    expect(bundle.includes(embedded), 'the embedded core is in the worker bundle').toBe(false);
    expect(body, `${body}\n${logs}`).toMatch(/8 passed, 0 failed/);
  }, 120_000);
});
