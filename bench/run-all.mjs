// npm run bench [-- --write]: every benchmark, one after another (each in its own
// process, so one's garbage does not slow the next); --write updates RESULTS.md.
import { execFileSync } from 'node:child_process';

const extra = process.argv.slice(2);
for (const name of ['core', 'tlog', 'vmg', 'skills', 'ipi']) {
  process.stderr.write(`\n== ${name} ==\n`);
  execFileSync(process.execPath, [new URL(`./${name}.bench.mjs`, import.meta.url).pathname, ...extra], { stdio: 'inherit' });
}
