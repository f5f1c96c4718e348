// The memory store against a plain model of its rules, over random sequences
// of every operation on a few keys: after each operation every key's history
// and `get` match the model, refusals are the typed errors the rules give, and
// the log verifies at the end.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ImmutableRecordError, init, MemoryBackend, MemoryStoreError, VmgMemoryStore, type StorageBackend } from '../src/vmg/index.js';
import 'fake-indexeddb/auto';
import { SqliteBackend } from '../src/vmg/sqlite.js';
import { IndexedDbBackend } from '../src/vmg/indexeddb.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

await init();
let idb = 0;
// One directory for every database the runs open, removed at the end: a property run opens hundreds.
const scratch = mkdtempSync(join(tmpdir(), 'parapet-model-'));
let dbs = 0;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Policy = 'ephemeral' | 'session' | 'persistent' | 'immutable';
interface Version { value: number; policy: Policy; quarantined: boolean; erased: boolean; session: string }

const KEYS = ['a', 'b', 'c'];
const op = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('put' as const), key: fc.constantFrom(...KEYS), value: fc.nat(99), policy: fc.constantFrom<Policy>('persistent', 'persistent', 'session', 'ephemeral', 'immutable'), derived: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('rollback' as const), key: fc.constantFrom(...KEYS), to: fc.nat(8) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('forget' as const), key: fc.constantFrom(...KEYS) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('quarantine' as const), key: fc.constantFrom(...KEYS) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('promote' as const), key: fc.constantFrom(...KEYS) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('endSession' as const), session: fc.constantFrom('s1', 's2') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('switch' as const), session: fc.constantFrom('s1', 's2') }) },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** What the rules say an operation does to the model: the error code it must fail with, or undefined. */
function apply(model: Map<string, Version[]>, o: Op, session: string): string | undefined {
  if (o.op === 'endSession') {
    for (const versions of model.values()) for (const v of versions) if (!v.erased && (v.policy === 'ephemeral' || v.policy === 'session') && v.session === o.session) v.erased = true;
    return undefined;
  }
  if (o.op === 'switch') return undefined;
  const versions = model.get(o.key) ?? [];
  const latest = versions[versions.length - 1];
  switch (o.op) {
    case 'put':
      if (latest && latest.policy === 'immutable' && !latest.erased) return 'immutable';
      versions.push({ value: o.value, policy: o.policy, quarantined: o.derived, erased: false, session });
      model.set(o.key, versions);
      return undefined;
    case 'rollback': {
      const target = versions[o.to - 1];
      if (!target || !latest) return 'not-found';
      if (latest.policy === 'immutable' && !latest.erased) return 'immutable';
      // An ephemeral value lives only in the store object that wrote it.
      if (target.erased || (target.policy === 'ephemeral' && target.session !== session)) return 'erased';
      // A session value is restored only by its own session: a copy would escape that session's retention.
      if (target.policy === 'session' && target.session !== session) return 'retention';
      versions.push({ ...target, session });
      return undefined;
    }
    case 'forget':
      if (versions.length === 0) return 'not-found';
      if (versions.some((v) => v.policy === 'immutable' && !v.erased)) return 'immutable';
      for (const v of versions) v.erased = true;
      return undefined;
    case 'quarantine':
      if (!latest || latest.erased) return 'not-found';
      latest.quarantined = true;
      return undefined;
    case 'promote': {
      const target = [...versions].reverse().find((v) => v.quarantined && !v.erased);
      if (!target) return 'not-found';
      // Content this store object cannot read (another object's ephemeral value) cannot be inspected.
      if (target.policy === 'ephemeral' && target.session !== session) return 'needs-force';
      target.quarantined = false;
      return undefined;
    }
  }
}

async function run(store: Map<string, VmgMemoryStore>, session: string, o: Op): Promise<string | undefined> {
  const s = store.get(session)!;
  try {
    switch (o.op) {
      case 'put':
        await s.put(o.key, o.value, { policyTag: o.policy, provenanceKind: o.derived ? 'extraction' : 'user' });
        break;
      case 'rollback':
        if (o.to < 1) return 'not-found';
        await s.rollback(o.key, o.to, { reason: 'model' });
        break;
      case 'forget':
        await s.forget(o.key);
        break;
      case 'quarantine':
        await s.quarantine(o.key, { reason: 'model' });
        break;
      case 'promote':
        await s.promote(o.key, { approver: 'tester' });
        break;
      case 'endSession':
        await store.get(o.session)!.endSession();
        break;
    }
    return undefined;
  } catch (e) {
    if (e instanceof ImmutableRecordError) return 'immutable';
    if (e instanceof MemoryStoreError) return e.code;
    throw e;
  }
}

async function check(backend: StorageBackend, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
      const file = join(scratch, `m-${++dbs}.db`);
      const b =
        backend instanceof SqliteBackend ? new SqliteBackend(file)
        : backend instanceof IndexedDbBackend ? await IndexedDbBackend.open(`model-${++idb}`, { locks: null })
        : new MemoryBackend();
      // On SQLite the second store object has a connection of its own to the same file, so
      // every switch of session also tests that each connection's read cache sees the other's writes.
      const b2 = b instanceof SqliteBackend ? new SqliteBackend(file) : b;
      // Two store objects: sessions s1 and s2 (ephemeral values live in the object that wrote them).
      const stores = new Map([
        ['s1', await VmgMemoryStore.open({ backend: b, agentId: 'agent', sessionId: 's1' })],
        ['s2', await VmgMemoryStore.open({ backend: b2, agentId: 'agent', sessionId: 's2' })],
      ]);
      const model = new Map<string, Version[]>();
      let session = 's1';
      for (const o of ops) {
        if (o.op === 'switch') {
          session = o.session;
          continue;
        }
        const want = o.op === 'rollback' && o.to < 1 ? 'not-found' : apply(model, o, session);
        expect(await run(stores, session, o), JSON.stringify(o)).toBe(want);
        for (const key of KEYS) {
          const versions = model.get(key) ?? [];
          const history = await stores.get(session)!.history(key);
          // Ephemeral values are visible only to the store object that wrote them.
          const visible = (v: Version) => !v.erased && (v.policy !== 'ephemeral' || v.session === session);
          expect(history.map((h) => [h.version, h.policyTag, h.quarantined, h.erased])).toEqual(versions.map((v, i) => [i + 1, v.policy, v.quarantined, !visible(v)]));
          const got = await stores.get(session)!.get(key);
          // The newest usable version by the index, unless an immutable one (quarantined) comes first: it superseded
          // the older ones for good. Another object's ephemeral version reads as no value (next test).
          const first = [...versions].reverse().find((v) => !v.erased && (!v.quarantined || v.policy === 'immutable'));
          const served = first && !first.quarantined && (first.policy !== 'ephemeral' || first.session === session) ? first : undefined;
          if (served) expect(got?.record.value, key).toBe(served.value);
          else expect(got, key).toBeUndefined();
        }
      }
      const report = await stores.get('s1')!.verify();
      expect(report.problems).toEqual([]);
      expect(report.counts.tampered).toBe(0);
      await b.close();
      if (b2 !== b) await b2.close();
    }),
    { numRuns: runs },
  );
}

describe('the memory store against a model of its rules (property)', () => {
  it('on MemoryBackend', async () => check(new MemoryBackend(), Number(process.env.MODEL_RUNS ?? 300)), 600_000);
  it('on SqliteBackend', async () => check(new SqliteBackend(join(scratch, 'x.db')), Number(process.env.MODEL_RUNS_SQLITE ?? 40)), 120_000);
  it('on IndexedDbBackend', async () => check(await IndexedDbBackend.open('model-0', { locks: null }), 40), 120_000);
});

describe('ephemeral versions seen from another store object', () => {
  it('read as erased, and a key whose newest version is one has no value there', async () => {
    const backend = new MemoryBackend();
    const s1 = await VmgMemoryStore.open({ backend, agentId: 'agent', sessionId: 's1' });
    const s2 = await VmgMemoryStore.open({ backend, agentId: 'agent', sessionId: 's2' });
    await s1.put('k', 'durable', { policyTag: 'persistent' });
    await s1.put('k', 'scratch', { policyTag: 'ephemeral' });
    expect((await s1.get('k'))!.record.value).toBe('scratch');
    expect(await s2.get('k')).toBeUndefined();
    expect((await s2.history('k')).map((h) => h.erased)).toEqual([false, true]);
    await expect(s2.rollback('k', 2, { reason: 'x' })).rejects.toMatchObject({ code: 'erased' });
  });
});
