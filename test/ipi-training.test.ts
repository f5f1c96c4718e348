import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the shipped models', () => {
  it('content: models/ipi-content.i8 is what training/train-ipi.mjs produces from the data in the repository (deterministic)', () => {
    const run = spawnSync(process.execPath, [new URL('../training/train-ipi.mjs', import.meta.url).pathname, '--check'], { encoding: 'utf8', timeout: 590_000 });
    expect(run.stdout + run.stderr).toMatch(/reproduced exactly/);
    expect(run.status).toBe(0);
  }, 600_000);
});

describe('the shipped trace model', () => {
  it('models/ipi-trace.json is what training/train-traces.mjs produces from the traces in the repository (deterministic)', () => {
    const run = spawnSync(process.execPath, [new URL('../training/train-traces.mjs', import.meta.url).pathname, '--check'], { encoding: 'utf8', timeout: 290_000 });
    expect(run.stdout + run.stderr).toMatch(/reproduced exactly/);
    expect(run.status).toBe(0);
  }, 300_000);
});
