// Before `npm run test:unit`: the unit tests import src/, which needs the
// generated sources (the embedded core, the unrolled SHA-256, the embedded
// model) but not dist/. Rebuilds core.wasm only when it is missing or older
// than anything it is built from (asc takes ~10 s; the tests take seconds);
// re-embeds the model, which takes a fraction of a second.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const mtime = (path) => (existsSync(root + path) ? statSync(root + path).mtimeMs : -Infinity);
const outputs = ['build/core.wasm', 'src/core-wasm.generated.ts', 'assembly/sha256-compress.generated.ts'];
const inputs = [
  ...readdirSync(root + 'assembly').filter((f) => f.endsWith('.ts') && !f.endsWith('.generated.ts')).map((f) => `assembly/${f}`),
  'asconfig.json', 'scripts/gen-sha256-compress.mjs', 'scripts/embed-wasm.mjs',
];
const oldestOutput = Math.min(...outputs.map(mtime));
const newestInput = Math.max(...inputs.map(mtime));
const run = (command) => execSync(command, { cwd: root, stdio: 'inherit' });
if (oldestOutput < newestInput) run('npm run --silent build:wasm');
run('node scripts/embed-model.mjs');
