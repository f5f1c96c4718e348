import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { init, VmgMemoryStore } from '../src/vmg/index.js';
import { SqliteBackend } from '../src/vmg/sqlite.js';

await init();
const writer = new URL('./fixtures/sqlite-writer.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'parapet-sqlite-'));

function run(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

describe('SqliteBackend across processes', () => {
  it('two processes incrementing one key with compare-and-set lose no update', async () => {
    const file = join(dir, 'shared.db');
    const store = await VmgMemoryStore.open({ backend: new SqliteBackend(file), agentId: 'setup', sessionId: 's' });
    await store.put('counter', 0, { policyTag: 'persistent' });
    await store.close();
    const codes = await Promise.all([run(['increment', file, '40']), run(['increment', file, '40'])]);
    expect(codes).toEqual([0, 0]);
    const again = await VmgMemoryStore.open({ backend: new SqliteBackend(file), agentId: 'check', sessionId: 's' });
    expect((await again.get('counter'))!.record).toMatchObject({ value: 80, version: 81 });
    const history = await again.history('counter');
    expect(new Set(history.map((h) => h.version)).size).toBe(81);
    expect(new Set(history.map((h) => h.provenance.agentId)).size).toBe(3);
    expect((await again.verify()).ok).toBe(true);
    await again.close();
  }, 60_000);

  it('kill -9 during a write burst loses no acknowledged write and leaves the log verifiable', async () => {
    const file = join(dir, 'crash.db');
    const child = spawn(process.execPath, [writer, 'burst', file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let acked = -1;
    let buffer = '';
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) acked = Number(line.slice(4));
        if (acked >= 150) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await new Promise((r) => child.on('exit', r));
    const store = await VmgMemoryStore.open({ backend: new SqliteBackend(file), agentId: 'after', sessionId: 's' });
    for (let i = 0; i <= acked; i++) expect((await store.get(`k${i}`))?.record.value, `k${i}`).toMatchObject({ i });
    const v = await store.verify();
    expect(v.ok).toBe(true);
    expect(v.size).toBeGreaterThanOrEqual(acked + 1);
    // The store keeps working after the crash.
    await store.put('after-crash', true, { policyTag: 'persistent' });
    expect((await store.verify()).ok).toBe(true);
    await store.close();
  }, 60_000);
});
