// Vitest global setup: every temporary file a test (or a process it starts) makes
// goes under one directory of this run, removed when the run ends, so that a
// property test opening hundreds of databases leaves nothing behind in /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'parapet-test-'));
  // Read by os.tmpdir() on every call, and inherited by the workers and child processes started after this.
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
