// Vitest global setup: every temporary file a test (or a process it starts) makes,
// and Deno's cache, goes under one directory of this run, removed when the run
// ends, so that a property test opening hundreds of databases leaves nothing behind
// in /tmp and the Deno runs nothing in the home directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Vitest runs a global setup once for the root config and once more for each
// project that extends it. Only the first makes the directory: nesting one per
// project pushed Chromium's singleton socket path past the 107 bytes a Unix
// socket address holds, and the browser aborted at launch.
const OWNER = 'PARAPET_TEST_TMPDIR';

export default function setup(): () => void {
  if (process.env[OWNER] !== undefined) return () => {};
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'parapet-test-'));
  process.env[OWNER] = root;
  // Read by os.tmpdir() on every call, and inherited by the workers and child processes started after this.
  process.env.TMPDIR = root;
  // Deno keeps its compile cache in the home directory unless told otherwise.
  const deno = process.env.DENO_DIR;
  if (deno === undefined) process.env.DENO_DIR = join(root, 'deno');
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (deno === undefined) delete process.env.DENO_DIR;
    delete process.env[OWNER];
    rmSync(root, { recursive: true, force: true });
  };
}
