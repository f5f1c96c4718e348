import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical/jcs.js';
import { entryJson, type LogEntry } from '../src/vmg/entry.js';
import { init, MemoryStoreError, VmgMemoryStore } from '../src/vmg/index.js';
import { RawMemoryBackend } from './helpers/raw-memory-backend.js';

// Strings with everything the canonical writer treats specially.
const text = fc.string({ unit: fc.constantFrom('a', 'Z', '"', '\\', '\n', '\u0001', '/', 'é', '😀', '\u2028', ' '), maxLength: 10 });
const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const provenance = fc.record(
  {
    agent_id: text, session_id: text, timestamp: fc.integer({ min: 0, max: 2 ** 53 - 1 }),
    kind: fc.constantFrom('user', 'tool', 'extraction', 'reflection', 'induction', 'imported'),
    actor: text, reason: text, rolled_back_from: fc.nat(), rolled_back_to: fc.nat(),
  },
  { requiredKeys: ['agent_id', 'session_id', 'timestamp', 'kind'] },
);

const entry = fc.record({
  v: fc.constant(1 as const),
  seq: fc.nat(),
  prev: fc.option(hex64, { nil: null }),
  op: fc.constantFrom('put', 'rollback', 'forget', 'purge', 'session-end', 'quarantine', 'promote', 'refused'),
  ns: text,
  key: text,
  version: fc.nat(),
  policy_tag: optional(fc.constantFrom('ephemeral', 'session', 'persistent', 'immutable')),
  provenance,
  write_hash: optional(hex64),
  parent_hash: optional(fc.option(hex64, { nil: null })),
  quarantined: optional(fc.boolean()),
  detail: optional(fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }))),
}) as fc.Arbitrary<LogEntry>;

describe('log entry encoding', () => {
  it('writes exactly what canonicalJson writes, for every shape of entry (property)', () => {
    fc.assert(
      fc.property(entry, (e) => {
        expect(entryJson(e)).toBe(canonicalJson(e));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what canonicalJson refuses', () => {
    const e = { v: 1, seq: 0, prev: null, op: 'put', ns: 'default', key: 'k\ud800', version: 1, provenance: { agent_id: 'a', session_id: 's', timestamp: 1, kind: 'user' } } as LogEntry;
    expect(() => canonicalJson(e)).toThrow(/lone surrogate/);
    expect(() => entryJson(e)).toThrow(/lone surrogate/);
    expect(() => entryJson({ ...e, key: 'k', seq: Number.NaN })).toThrow(/not a JSON number/);
  });
});

describe('tampered entries that are still JSON', () => {
  const fields = ['v', 'seq', 'prev', 'op', 'ns', 'key', 'version', 'policy_tag', 'write_hash', 'parent_hash', 'quarantined', 'detail', 'provenance'];
  const provenanceFields = ['agent_id', 'session_id', 'timestamp', 'kind', 'actor', 'rolled_back_from'];
  const edit = fc.oneof(
    fc.record({ at: fc.constantFrom(...fields), value: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }) }),
    fc.record({ at: fc.constantFrom(...provenanceFields).map((f) => `provenance.${f}`), value: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }) }),
    fc.record({ at: fc.constant('detail.erased'), value: fc.jsonValue({ maxDepth: 1 }) }),
  );

  it('never make verify() or a read throw anything but a typed MemoryStoreError (property)', async () => {
    await init();
    await fc.assert(
      fc.asyncProperty(fc.nat(7), edit, async (which, { at, value }) => {
        const backend = new RawMemoryBackend();
        const store = await VmgMemoryStore.open({ backend, agentId: 'a', sessionId: 's' });
        await store.put('k', 'v1', { policyTag: 'persistent' });
        await store.put('k', 'v2', { policyTag: 'session' });
        await store.put('j', { n: 1 }, { policyTag: 'persistent' });
        await store.rollback('k', 1, { reason: 'undo' });
        await store.quarantine('j', { reason: 'suspicious' });
        await store.forget('j');
        await store.put('e', 'tmp', { policyTag: 'ephemeral' });
        await store.endSession();
        const entries = backend.entries();
        const seq = which % entries.length;
        const e = JSON.parse(new TextDecoder().decode(entries[seq]!)) as Record<string, Record<string, unknown>>;
        const [head, tail] = at.split('.') as [string, string | undefined];
        const target = tail === undefined ? e : ((e[head] ??= {}) as Record<string, unknown>);
        const field = tail ?? head;
        if (value === undefined) delete target[field];
        else target[field] = value as never;
        backend.setEntry(seq, new TextEncoder().encode(JSON.stringify(e)));
        const report = await store.verify();
        expect(typeof report.ok).toBe('boolean');
        for (const read of [() => store.get('k'), () => store.history('k'), () => store.get('j', { includeQuarantined: true }), () => store.rollback('k', 2, { reason: 'r' })]) {
          await read().catch((err: unknown) => expect(err).toBeInstanceOf(MemoryStoreError));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a huge version number edited in (or an erased list naming one) costs verify() nothing: it reports, it does not walk to it', async () => {
    await init();
    // (5 and 0: versions out of sequence but small, which leave the dense path of the per-key version list too.)
    for (const [seq, huge] of [[0, 2 ** 32 - 2], [1, 2 ** 32 - 2], [1, Number.MAX_SAFE_INTEGER], [2, 2 ** 32 - 2], [1, 5], [0, 0], [2, 7]] as const) {
      const backend = new RawMemoryBackend();
      const store = await VmgMemoryStore.open({ backend, agentId: 'a', sessionId: 's' });
      await store.put('k', 'v1', { policyTag: 'persistent' });
      await store.put('k', 'v2', { policyTag: 'persistent' });
      await store.forget('k');
      const e = JSON.parse(new TextDecoder().decode(backend.entries()[seq]!)) as Record<string, unknown>;
      if (e.op === 'forget') e.detail = { erased: [huge] };
      else e.version = huge;
      backend.setEntry(seq, new TextEncoder().encode(JSON.stringify(e)));
      const started = performance.now();
      const report = await store.verify();
      expect(performance.now() - started).toBeLessThan(5_000); // a walk to 2^32 takes minutes
      expect(report.ok).toBe(false);
      expect(report.entries[seq]!.status).toBe('tampered');
    }
  });
});
