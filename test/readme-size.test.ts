import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README's size figures sit between markers, `<!-- size:NAME -->38 KB<!-- /size -->`
// (NAME: index.js, edge.js or budget), so that this check reads exactly what a
// reader reads. Each must match `npm run size` (scripts/size-budget.mjs) to the
// nearest KB; run it and update the figure when this fails.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const figures = new Map([...readme.matchAll(/<!-- size:([\w.]+) -->\s*([\d.]+) KB\s*<!-- \/size -->/g)].map((m) => [m[1]!, Number(m[2])]));

describe('README size figures', () => {
  it('are what `npm run size` measures now', () => {
    const run = spawnSync(process.execPath, [new URL('../scripts/size-budget.mjs', import.meta.url).pathname, '--json'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const measured = JSON.parse(run.stdout) as { budget: number } & Record<'index.js' | 'edge.js', { gzip: number }>;
    expect([...figures.keys()].sort(), 'the README names each size figure between markers').toEqual(['budget', 'edge.js', 'index.js']);
    expect(figures.get('budget')).toBe(measured.budget / 1024);
    for (const entry of ['index.js', 'edge.js'] as const) {
      const kb = measured[entry].gzip / 1024;
      expect(Math.abs(figures.get(entry)! - kb), `README says ${entry} is ${figures.get(entry)} KB gzip; npm run size measures ${kb.toFixed(1)} KB`).toBeLessThan(0.5 + 1e-9);
    }
  });
});
