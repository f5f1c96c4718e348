import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJsonBytes, init, MemoryStoreError, VmgMemoryStore } from '../src/vmg/index.js';
import { HEAD_INDEX, valueRef } from '../src/vmg/entry.js';
import type { IndexValue, StorageBackend } from '../src/vmg/backend.js';
import { SqliteBackend } from '../src/vmg/sqlite.js';
import { IndexedDbBackend } from '../src/vmg/indexeddb.js';
import { VersionSeqs } from '../src/vmg/rebuilt-index.js';
import { RawMemoryBackend } from './helpers/raw-memory-backend.js';
import { CountingBackend, WorkMeter } from './helpers/counting-backend.js';

await init();

/** A store whose log holds every kind of operation, on a backend open to edits. */
async function seeded<B extends StorageBackend = RawMemoryBackend>(backend: B = new RawMemoryBackend() as unknown as B) {
  let now = 1_700_000_000_000;
  const store = await VmgMemoryStore.open({ backend, agentId: 'a', sessionId: 's1', clock: () => now++ });
  await store.put('k', 'v1', { policyTag: 'persistent' });
  await store.put('k', { n: 2 }, { policyTag: 'session' });
  await store.rollback('k', 1, { reason: 'undo' });
  await store.put('j', [1, 2], { policyTag: 'persistent', namespace: 'other' });
  await store.put('d', 'derived', { policyTag: 'persistent', provenanceKind: 'extraction' }); // lands quarantined
  await store.promote('d', { approver: 'op' });
  await store.quarantine('d', { reason: 'a later detection' });
  await store.put('f', 'forget me', { policyTag: 'persistent' });
  await store.forget('f');
  await store.put('i', 'fixed', { policyTag: 'immutable' });
  await expect(store.put('i', 'again', { policyTag: 'persistent' })).rejects.toThrow(MemoryStoreError); // refused, and logged
  await store.put('e', 'for now', { policyTag: 'ephemeral' });
  await store.put('s', 'this session', { policyTag: 'session' });
  await store.endSession();
  await store.put('k', 'v3', { policyTag: 'persistent' });
  await store.put('open', 'its session goes on', { policyTag: 'session' }); // its retention list stays in the index
  await store.put('q', 'derived', { policyTag: 'persistent', provenanceKind: 'reflection' }); // quarantined
  await store.put('q', 'trusted', { policyTag: 'persistent' });
  await store.promote('q', { approver: 'op' }); // the newest quarantined version, below the latest
  expect((await store.verify()).ok).toBe(true);
  return { backend, store };
}

/**
 * Every read an agent makes, then every kind of write: each must answer or fail
 * with the store's typed error, nothing else. And an edit of the log itself
 * (entries, tree nodes) that verify() reported must still be reported after the
 * writes: they append, and never rewrite what is logged. (Not so for the rest:
 * an edited value may then be erased for good by a forget or purge, as asked,
 * and an edited index record the writes did not act on wrongly is rewritten
 * whole by the next write to it — end states a sound history reaches too.)
 */
async function operationsFailTyped(store: VmgMemoryStore, editedLog: boolean): Promise<void> {
  const before = await store.verify();
  const operations = [
    () => store.get('k'), () => store.get('k', { version: 2 }), () => store.history('k'), () => store.get('d', { includeQuarantined: true }),
    () => store.get('j', { namespace: 'other' }), () => store.history('f'), () => store.get('i'), () => store.get('open'),
    () => store.put('k', 'after', { policyTag: 'persistent' }), () => store.put('new', 1, { policyTag: 'session' }),
    () => store.rollback('k', 1, { reason: 'r' }), () => store.quarantine('k', { reason: 'r' }), () => store.promote('d', { approver: 'op' }),
    () => store.forget('j', { namespace: 'other' }), () => store.put('i', 'x', { policyTag: 'persistent' }), () => store.endSession(),
  ];
  for (const operation of operations) await (operation() as Promise<unknown>).catch((e: unknown) => expect(e).toBeInstanceOf(MemoryStoreError));
  const after = await store.verify();
  if (!before.ok && editedLog) expect(after.ok, `reported before the writes: ${[...before.problems.map((p) => p.code), ...before.entries.filter((r) => r.status === 'tampered').flatMap((r) => r.reasons)]}`).toBe(false);
}

/** Session retention lists are index data the log cannot check until the session's purge (docs/guide/memory-store.md: what verify() checks). */
const uncheckable = (name: string) => name.startsWith('s\u0000');

/** Every (level, index) of a tree of `leaves` leaves that holds a node. */
function nodesOf(leaves: number): [number, number][] {
  const out: [number, number][] = [];
  for (let level = 0; leaves >> level > 0; level++) for (let i = 0; i < leaves >> level; i++) out.push([level, i]);
  return out;
}

type Edit =
  | { kind: 'index'; pick: number; to: IndexValue | undefined }
  | { kind: 'field'; pick: number; field: number; to: IndexValue }
  | { kind: 'value'; pick: number; to: Uint8Array | undefined }
  | { kind: 'node'; pick: number; bit: number };

const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<IndexValue>;
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('index' as const), pick: fc.nat(), to: fc.option(json, { nil: undefined }) }),
  fc.record({ kind: fc.constant('field' as const), pick: fc.nat(), field: fc.nat(), to: json }),
  fc.record({ kind: fc.constant('value' as const), pick: fc.nat(), to: fc.option(fc.uint8Array({ maxLength: 24 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant('node' as const), pick: fc.nat(), bit: fc.nat(255) }),
);

/** One field of a record replaced (or one added): the edit an attacker makes to steer one write. */
function withField(record: IndexValue | undefined, field: number, to: IndexValue): IndexValue {
  if (Array.isArray(record)) return record.map((x, i) => (i === field % record.length ? to : x));
  if (typeof record !== 'object' || record === null) return to;
  const keys = [...Object.keys(record), 'extra'];
  return { ...record, [keys[field % keys.length]!]: to };
}

/** Apply `e`; returns the name edited (index and value edits) and whether anything held changed. */
function apply(backend: RawMemoryBackend, e: Edit): { name?: string; changed: boolean } {
  if (e.kind === 'node') {
    const all = nodesOf(backend.leafCount());
    const [level, i] = all[e.pick % all.length]!;
    const hash = backend.node(level, i)!.slice();
    hash[e.bit >> 3]! ^= 1 << (e.bit & 7);
    backend.setNode(level, i, hash);
    return { changed: true };
  }
  if (e.kind === 'value') {
    const names = backend.names().values.sort();
    const name = names[e.pick % names.length]!;
    const before = backend.value(name)!.slice();
    backend.setValue(name, e.to);
    return { name, changed: e.to === undefined || !isDeepStrictEqual(before, e.to) };
  }
  const names = backend.names().index.sort();
  const name = names[e.pick % names.length]!;
  const before = structuredClone(backend.index(name));
  const after = e.kind === 'index' ? e.to : withField(before, e.field, e.to);
  backend.setIndex(name, after);
  return { name, changed: !isDeepStrictEqual(before, after) };
}

/** Every field of a log entry an attacker may edit (a dotted name: inside provenance or detail). */
const ENTRY_FIELDS = ['v', 'seq', 'prev', 'op', 'ns', 'key', 'version', 'policy_tag', 'write_hash', 'parent_hash', 'quarantined', 'detail', 'provenance', 'provenance.session_id', 'provenance.kind', 'detail.session_id', 'detail.erased'];

/** Set field `at` of entry `pick` (mod the log's length) to `to` (undefined: delete it); true if the bytes changed. */
function editEntry(backend: RawMemoryBackend, pick: number, at: string, to: IndexValue | undefined): boolean {
  const entries = backend.entries();
  const seq = pick % entries.length;
  const before = new TextDecoder().decode(entries[seq]!);
  const e = JSON.parse(before) as Record<string, Record<string, unknown>>;
  const [head, tail] = at.split('.') as [string, string | undefined];
  const target = tail === undefined ? e : ((e[head] = typeof e[head] === 'object' && e[head] !== null ? e[head] : {}) as Record<string, unknown>);
  if (to === undefined) delete target[tail ?? head];
  else target[tail ?? head] = to;
  const after = JSON.stringify(e);
  backend.setEntry(seq, new TextEncoder().encode(after));
  return after !== before;
}

describe('an attacker with write access to the backend', () => {
  it('cannot edit an index record, a value or a tree node without verify() reporting it, nor make verify() or a read throw (property)', async () => {
    await fc.assert(
      fc.asyncProperty(edit, async (e) => {
        const { backend, store } = await seeded();
        const { name, changed } = apply(backend, e);
        const report = await store.verify();
        if (changed && !(name !== undefined && uncheckable(name))) expect(report.ok, `${e.kind} ${name ?? ''}`).toBe(false);
        await operationsFailTyped(store, e.kind === 'node');
      }),
      { numRuns: Number(process.env.TAMPER_RUNS ?? 400) },
    );
  });

  it('cannot edit a log entry (any field, to any JSON) without verify() reporting it for good, whatever is written after (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.constantFrom(...ENTRY_FIELDS), fc.option(json, { nil: undefined }), async (pick, at, to) => {
        const { backend, store } = await seeded();
        if (editEntry(backend, pick, at, to)) expect((await store.verify()).ok, `${pick}.${at}`).toBe(false);
        await operationsFailTyped(store, true);
      }),
      { numRuns: Number(process.env.TAMPER_RUNS ?? 400) },
    );
  });

  it('cannot lower the stored head, or make it unreadable, without verify() reporting it', async () => {
    for (const head of [0, 3, -1, 'x', null, [99], { size: 99 }] as IndexValue[]) {
      const { backend, store } = await seeded();
      backend.setIndex(HEAD_INDEX, head);
      expect((await store.verify()).problems.map((p) => p.code), JSON.stringify(head)).toContain('head-mismatch');
    }
  });

  it('cannot put an erased value back, even byte for byte, without verify() reporting it', async () => {
    const { backend, store } = await seeded();
    backend.setValue(valueRef('default', 'f', 1), canonicalJsonBytes('forget me')); // forgotten
    backend.setValue(valueRef('default', 'k', 2), canonicalJsonBytes({ n: 2 })); // purged at session end
    const report = await store.verify();
    expect(report.ok).toBe(false);
    const revived = report.entries.filter((r) => r.reasons.includes('value-not-erased'));
    expect(revived.map((r) => [r.key, r.version, r.status])).toEqual([
      ['k', 2, 'tampered'],
      ['f', 1, 'tampered'],
    ]);
  });
});

/** Numbers an attacker picks to make a walk long: a claimed version or count of 10^12 steps, or 2^53. */
const huge = fc.constantFrom(1e12, 2 ** 53 - 1, 2 ** 32 - 2, 2 ** 31);
const hugeOrJson = fc.oneof(json, huge);

type WorkEdit = { kind: 'entry'; pick: number; at: string; to: IndexValue | undefined } | Edit;
const workEdit: fc.Arbitrary<WorkEdit> = fc.oneof(
  fc.record({ kind: fc.constant('entry' as const), pick: fc.nat(), at: fc.constantFrom(...ENTRY_FIELDS), to: fc.option(hugeOrJson, { nil: undefined }) }),
  fc.record({ kind: fc.constant('field' as const), pick: fc.nat(), field: fc.nat(), to: hugeOrJson }),
  edit,
);

describe('verify() on a store edited by an attacker', () => {
  it('does work bounded by what is stored: after any single edit, its backend reads and version lookups stay under a fixed multiple of a clean verify (property)', async () => {
    // Counted, not timed: a loop over a count taken from the data (a version of 10^12, say) shows as
    // lookups without a read, so version lookups are counted too; past the budget the meter throws, so
    // such a loop fails here instead of hanging the run.
    const meter = new WorkMeter();
    const lookup = VersionSeqs.prototype.get;
    VersionSeqs.prototype.get = function (this: VersionSeqs, v: number) {
      meter.tick();
      return lookup.call(this, v);
    };
    const open = () => seeded(new CountingBackend(new RawMemoryBackend(), meter));
    try {
      const clean = await open();
      const { count: cleanWork } = await meter.measure(() => clean.store.verify());
      // The known case: entry 20 puts "q" v2 above its quarantined v1, which a promote then releases; v2 edited to claim
      // version 10^12 made the promote's check count down from there to v1.
      expect(JSON.parse(new TextDecoder().decode(clean.backend.inner.entries()[20]!))).toMatchObject({ op: 'put', key: 'q', version: 2 });
      const budget = 2 * cleanWork;
      await fc.assert(
        fc.asyncProperty(workEdit, async (e) => {
          const { backend, store } = await open();
          if (e.kind === 'entry') editEntry(backend.inner, e.pick, e.at, e.to);
          else apply(backend.inner, e);
          const { count } = await meter.measure(() => store.verify(), budget);
          expect(count).toBeLessThanOrEqual(budget);
        }),
        { numRuns: Number(process.env.TAMPER_RUNS ?? 400), examples: [[{ kind: 'entry', pick: 20, at: 'version', to: 1e12 }]] },
      );
    } finally {
      VersionSeqs.prototype.get = lookup;
    }
  });
});

type CellEdit =
  | { column: 'entry' | 'nodes' | 'value'; pick: number; how: 'flip'; bit: number }
  | { column: 'entry' | 'nodes' | 'value'; pick: number; how: 'cut'; length: number }
  | { column: 'entry' | 'nodes' | 'value' | 'rec'; pick: number; how: 'null' }
  | { column: 'rec'; pick: number; how: 'json'; to: IndexValue }
  | { column: 'rec'; pick: number; how: 'text'; to: string }
  | { column: 'row'; pick: number; how: 'insert'; seq: number; entry: Uint8Array | null; nodes: Uint8Array | null };

const cellEdit: fc.Arbitrary<CellEdit> = fc.oneof(
  fc.record({ column: fc.constantFrom('entry' as const, 'nodes' as const, 'value' as const), pick: fc.nat(), how: fc.constant('flip' as const), bit: fc.nat() }),
  fc.record({ column: fc.constantFrom('entry' as const, 'nodes' as const, 'value' as const), pick: fc.nat(), how: fc.constant('cut' as const), length: fc.nat(80) }),
  fc.record({ column: fc.constantFrom('entry' as const, 'nodes' as const, 'value' as const, 'rec' as const), pick: fc.nat(), how: fc.constant('null' as const) }),
  fc.record({ column: fc.constant('rec' as const), pick: fc.nat(), how: fc.constant('json' as const), to: json }),
  fc.record({ column: fc.constant('rec' as const), pick: fc.nat(), how: fc.constant('text' as const), to: fc.string({ maxLength: 12 }) }),
  // A whole log row, at or past the end, or far beyond it.
  fc.record({
    column: fc.constant('row' as const), pick: fc.nat(), how: fc.constant('insert' as const),
    seq: fc.oneof(fc.nat(40), fc.constantFrom(2 ** 31, 2 ** 40, 1e12)),
    entry: fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null }), nodes: fc.option(fc.uint8Array({ maxLength: 96 }), { nil: null }),
  }),
);

/** Apply `e` to one cell of the SQLite file, as an attacker with the file would; returns the kv name edited, if any, and whether the cell changed. */
function applyCell(backend: SqliteBackend, e: CellEdit): { name?: string; changed: boolean } {
  const db = backend.db;
  if (e.how === 'insert') {
    const before = db.prepare('SELECT entry, nodes FROM log WHERE seq = ?').get(e.seq) as { entry: Buffer | null; nodes: Buffer | null } | undefined;
    const after = { entry: e.entry && Buffer.from(e.entry), nodes: e.nodes && Buffer.from(e.nodes) };
    db.prepare('INSERT OR REPLACE INTO log (seq, entry, nodes) VALUES (?, ?, ?)').run(e.seq, after.entry, after.nodes);
    return { changed: !isDeepStrictEqual(before ?? { entry: null, nodes: null }, after) };
  }
  const inLog = e.column === 'entry' || e.column === 'nodes';
  const rows = (inLog ? db.prepare('SELECT seq AS id, NULL AS name FROM log ORDER BY seq') : db.prepare('SELECT id, name FROM kv ORDER BY id')).all() as { id: number; name: string | null }[];
  const { id, name } = rows[e.pick % rows.length]!;
  const table = inLog ? 'log' : 'kv';
  const where = inLog ? 'seq' : 'id';
  const before = db.prepare(`SELECT ${e.column} AS v FROM ${table} WHERE ${where} = ?`).get(id) as { v: Buffer | string | null };
  let after: Buffer | string | null;
  if (e.how === 'null') after = null;
  else if (e.how === 'json') after = JSON.stringify(e.to);
  else if (e.how === 'text') after = e.to;
  else if (!(before.v instanceof Buffer) || before.v.length === 0) after = before.v;
  else if (e.how === 'cut') after = before.v.subarray(0, e.length % before.v.length);
  else {
    after = Buffer.from(before.v);
    after[(e.bit >> 3) % after.length]! ^= 1 << (e.bit & 7);
  }
  db.prepare(`UPDATE ${table} SET ${e.column} = ? WHERE ${where} = ?`).run(after, id);
  return { name: name ?? undefined, changed: !isDeepStrictEqual(before.v, after) };
}

describe('an attacker with the SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parapet-tamper-'));
  let files = 0;

  it('cannot edit one cell of it without verify() reporting it, nor make verify() or a read throw (property)', async () => {
    await fc.assert(
      fc.asyncProperty(cellEdit, async (e) => {
        const { backend, store } = await seeded(new SqliteBackend(join(dir, `t${++files}.db`), { synchronous: 'NORMAL' }));
        try {
          const { name, changed } = applyCell(backend, e);
          const report = await store.verify();
          if (changed && !(name !== undefined && uncheckable(name))) expect(report.ok, `${e.column} ${name ?? ''}`).toBe(false);
          await operationsFailTyped(store, e.column === 'entry' || e.column === 'nodes' || e.column === 'row');
        } finally {
          await store.close();
        }
      }),
      { numRuns: Number(process.env.TAMPER_RUNS_SQLITE ?? 150) },
    );
  });
});

const OBJECT_STORES = ['entries', 'values', 'index', 'nodes'] as const;

/** What an IndexedDB record may be: the shapes the backend writes, and others. */
const anyRecord = fc.oneof(
  fc.uint8Array({ maxLength: 40 }).map((b) => b.slice().buffer),
  fc.string({ maxLength: 8 }),
  fc.double(),
  fc.constant(null),
  json,
  fc.uint8Array({ maxLength: 8 }), // a view, not an ArrayBuffer
);
/** What an IndexedDB key may be: numbers of every kind, strings, arrays (nodes are keyed [level, index]). */
const anyKey = fc.oneof(
  fc.integer({ min: -5, max: 40 }),
  fc.constantFrom(2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER, 0.5),
  fc.string({ maxLength: 6 }),
  fc.tuple(fc.oneof(fc.integer({ min: -1, max: 70 }), fc.constantFrom(2 ** 31, 1e9)), fc.oneof(fc.integer({ min: -1, max: 40 }), fc.constantFrom(2 ** 40, 0.5))),
);

type RowEdit =
  | { store: (typeof OBJECT_STORES)[number]; pick: number; action: 'retype'; to: unknown }
  | { store: (typeof OBJECT_STORES)[number]; pick: number; action: 'rekey'; key: IDBValidKey }
  | { store: (typeof OBJECT_STORES)[number]; pick: number; action: 'delete' }
  | { store: (typeof OBJECT_STORES)[number]; pick: number; action: 'add'; key: IDBValidKey; to: unknown };

const rowEdit: fc.Arbitrary<RowEdit> = fc.oneof(
  fc.record({ store: fc.constantFrom(...OBJECT_STORES), pick: fc.nat(), action: fc.constant('retype' as const), to: anyRecord }),
  fc.record({ store: fc.constantFrom(...OBJECT_STORES), pick: fc.nat(), action: fc.constant('rekey' as const), key: anyKey }),
  fc.record({ store: fc.constantFrom(...OBJECT_STORES), pick: fc.nat(), action: fc.constant('delete' as const) }),
  fc.record({ store: fc.constantFrom(...OBJECT_STORES), pick: fc.nat(), action: fc.constant('add' as const), key: anyKey, to: anyRecord }),
) as fc.Arbitrary<RowEdit>;

const idbRequest = <T>(r: IDBRequest<T>) => new Promise<T>((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));

/** Apply `e` to the closed database `name`, as someone editing the browser's storage would; returns the index name edited, if any, and whether a record the log accounts for changed. */
async function applyRow(name: string, e: RowEdit): Promise<{ indexName?: string; changed: boolean }> {
  const db = await idbRequest(indexedDB.open(name));
  const t = db.transaction([e.store], 'readwrite');
  const os = t.objectStore(e.store);
  const keys = await idbRequest(os.getAllKeys());
  const key = keys[e.pick % keys.length]!;
  const before: unknown = e.action === 'add' ? undefined : await idbRequest(os.get(key));
  // An added record sits beside the log (nothing refers to it); a record re-keyed to its own key, or rewritten as it was, is unchanged.
  let changed = e.action === 'delete';
  if (e.action === 'add') os.put(e.to, e.key);
  else if (e.action === 'delete') os.delete(key);
  else if (e.action === 'retype') {
    os.put(e.to, key);
    changed = !isDeepStrictEqual(before, e.to);
  } else {
    os.delete(key);
    os.put(before, e.key);
    changed = indexedDB.cmp(key, e.key) !== 0;
  }
  await new Promise((resolve, reject) => ((t.oncomplete = resolve), (t.onerror = () => reject(t.error))));
  db.close();
  return { indexName: e.store === 'index' && e.action !== 'add' ? String(key) : undefined, changed };
}

describe('an attacker with the browser\'s IndexedDB storage', () => {
  let databases = 0;

  it('cannot edit one record of it at rest without the store refusing to open (typed) or verify() reporting it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(rowEdit, async (e) => {
        const name = `tamper-${++databases}`;
        const { store } = await seeded(await IndexedDbBackend.open(name, { locks: null }));
        await store.close();
        const { indexName, changed } = await applyRow(name, e);
        let backend: IndexedDbBackend;
        try {
          backend = await IndexedDbBackend.open(name, { locks: null });
        } catch (error) {
          expect(error, `${e.store} ${e.action}`).toBeInstanceOf(MemoryStoreError);
          return;
        }
        const reopened = await VmgMemoryStore.open({ backend, agentId: 'a', sessionId: 's1' });
        try {
          const report = await reopened.verify();
          // A record added beside the log (a value or index record nothing refers to) is not part of what verify() checks.
          if (changed && !(indexName !== undefined && uncheckable(indexName))) expect(report.ok, `${e.store} ${e.action}`).toBe(false);
          await operationsFailTyped(reopened, e.store === 'entries' || e.store === 'nodes');
        } finally {
          await reopened.close();
        }
      }),
      { numRuns: Number(process.env.TAMPER_RUNS_IDB ?? 150) },
    );
  }, 60_000);

  it('cannot make opening the store allocate without bound (one key edited far out) or fail untyped', async () => {
    const cases: RowEdit[] = [
      { store: 'nodes', pick: 0, action: 'rekey', key: [0, 2 ** 40] },
      { store: 'nodes', pick: 0, action: 'rekey', key: [1e9, 0] },
      { store: 'nodes', pick: 0, action: 'rekey', key: 7 },
      { store: 'entries', pick: 0, action: 'rekey', key: 2 ** 31 },
      { store: 'entries', pick: 0, action: 'rekey', key: -1 },
      { store: 'entries', pick: 0, action: 'retype', to: 'bytes?' },
      { store: 'values', pick: 0, action: 'rekey', key: 5 },
    ];
    for (const e of cases) {
      const name = `tamper-${++databases}`;
      const { store } = await seeded(await IndexedDbBackend.open(name, { locks: null }));
      await store.close();
      await applyRow(name, e);
      await expect(IndexedDbBackend.open(name, { locks: null }), JSON.stringify(e)).rejects.toMatchObject({ code: 'store-damaged', message: expect.stringMatching(/is damaged/) });
    }
  });
});
