import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, requireTools } from './helpers/system-tools.js';

const [CHROMIUM_BIN] = requireTools('the playground end-to-end test', CHROMIUM) ?? [];

describe.runIf(CHROMIUM_BIN !== undefined)('playground (end to end in Chromium)', () => {
  it('assesses an injected call, writes, tampers and catches it with verify, and saves a screenshot', async () => {
    const { build } = await import('vite');
    const { chromium } = await import('playwright-core');
    const { serveStatic } = await import('./helpers/static-server.js');
    const root = new URL('..', import.meta.url).pathname;
    await build({ configFile: `${root}playground/vite.config.ts`, logLevel: 'warn' });
    const server = await serveStatic(`${root}test-results/playground-dist`);
    const browser = await chromium.launch({
      executablePath: CHROMIUM_BIN!,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${server.url}/index.html`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      await page.click('#assess');
      await expect.poll(() => page.textContent('#action')).toBe('block');
      expect(await page.textContent('#level')).toMatch(/medium|high/);
      expect(await page.locator('#tokens span').count()).toBeGreaterThan(5);
      // Text mode: the injected tool result is scored beside benign text, not ignored.
      await page.fill('#input', 'Thanks, that is all for today.');
      await page.click('#assess');
      await expect.poll(() => page.textContent('#level')).toMatch(/medium|high/);
      expect(await page.textContent('#signals')).toMatch(/tool result[\s\S]*text/);
      await page.fill('#result', '');
      await page.click('#assess');
      await expect.poll(() => page.textContent('#level')).toBe('none');
      await page.click('#put');
      await page.fill('#value', 'Greek, no shellfish');
      await page.click('#put');
      await expect.poll(() => page.locator('#history tr').count()).toBe(3);
      expect(await page.textContent('#proof')).toMatch(/verifies/);
      await page.click('#verify');
      await expect.poll(() => page.textContent('#verdict')).toMatch(/verified/);
      await page.click('#tamper');
      await page.click('#verify');
      await expect.poll(() => page.textContent('#verdict')).toMatch(/TAMPERED[\s\S]*value-changed/);
      // Beside TAMPERED, no table or green proof left from before the tamper.
      await expect.poll(() => page.textContent('#proof')).toMatch(/read refused[\s\S]*does not match its write_hash/);
      expect(await page.locator('#proof .ok').count()).toBe(0);
      expect(await page.textContent('#history')).toMatch(/read refused/);
      mkdirSync(`${root}test-results`, { recursive: true });
      await page.screenshot({ path: `${root}test-results/playground.png`, fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  }, 120_000);
});
