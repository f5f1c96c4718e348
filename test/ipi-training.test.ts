import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the shipped model', () => {
  it('is what models/train-ipi.mjs produces from the data in the repository (deterministic training)', () => {
    const run = spawnSync(process.execPath, [new URL('../models/train-ipi.mjs', import.meta.url).pathname, '--check'], { encoding: 'utf8', timeout: 170_000 });
    expect(run.stdout + run.stderr).toMatch(/reproduced exactly/);
    expect(run.status).toBe(0);
  }, 180_000);
});
