// The log's canonical JSON is a wire format: its bytes are Merkle leaves that
// checkpoints, witnesses and verifiers already hold. Whatever the TypeScript
// side calls a field, an entry the store writes must stay byte for byte what
// it wrote when the fixture was taken.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { init } from '../src/vmg/index.js';
import { scriptedLog } from './helpers/scripted-log.js';

await init();

describe('log entries on the wire', () => {
  it('a scripted session of every operation writes the same entry bytes as the fixture', async () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/vmg-log-v1.json', import.meta.url), 'utf8')) as { entries: string[] };
    const { entries } = await scriptedLog();
    expect(entries).toHaveLength(fixture.entries.length);
    for (let seq = 0; seq < entries.length; seq++) expect(entries[seq], `entry ${seq}`).toBe(fixture.entries[seq]);
  });
});
