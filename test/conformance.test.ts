import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, requireTools } from './helpers/system-tools.js';

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
    const { build } = await import('vite');
    const { mkdirSync, copyFileSync, readFileSync, writeFileSync } = await import('node:fs');
    const { createServer } = await import('node:net');
    const { spawn } = await import('node:child_process');
    const root = new URL('..', import.meta.url).pathname;
    const outDir = `${root}test-results/workerd`;
    mkdirSync(outDir, { recursive: true });
    await build({
      configFile: false,
      logLevel: 'warn',
      resolve: { conditions: ['workerd', 'worker', 'browser'] },
      build: {
        outDir, emptyOutDir: true, minify: false, target: 'es2022',
        lib: { entry: `${root}test/conformance/worker.mjs`, formats: ['es'], fileName: () => 'worker.mjs' },
        // Every import of core.wasm becomes the one module workerd provides; one file for workerd's module list.
        rollupOptions: {
          external: [/\.wasm$/],
          output: { paths: (id: string) => (id.endsWith('.wasm') ? './core.wasm' : id), codeSplitting: false },
        },
      },
    });
    copyFileSync(`${root}dist/core.wasm`, `${outDir}/core.wasm`);
    // The worker imports every subpath by name: the workerd conditions must have kept the
    // embedded base64 core (the default entries' init) out of what an edge user ships.
    const bundled = readFileSync(`${outDir}/worker.mjs`, 'utf8');
    const embedded = readFileSync(`${root}dist/core.wasm`).toString('base64').slice(0, 96);
    expect(bundled).toMatch(/from\s+["']\.\/core\.wasm["']/);
    expect(bundled.includes(embedded), 'the embedded core is in the worker bundle').toBe(false);
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    writeFileSync(`${outDir}/config.capnp`, `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .conformance) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const conformance :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "core.wasm", wasm = embed "core.wasm"),
  ],
  compatibilityDate = "2024-09-23",
);
`);
    const child = spawn(bin('workerd'), ['serve', `${outDir}/config.capnp`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let logs = '';
    child.stdout!.on('data', (d) => (logs += d));
    child.stderr!.on('data', (d) => (logs += d));
    try {
      let body = '';
      for (let i = 0; i < 100 && !body; i++) {
        try {
          body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      expect(body, `${body}\n${logs}`).toMatch(/8 passed, 0 failed/);
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);
});
