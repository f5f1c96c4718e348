import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteStore } from '../src/vmg/byte-store.js';
import { NameSlots } from '../src/vmg/name-slots.js';
import { init, VmgMemoryStore } from '../src/vmg/index.js';
import { RawMemoryBackend } from './helpers/raw-memory-backend.js';

describe('ByteStore', () => {
  it('gives back every string as added, across chunk boundaries and for large ones (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 60_000, max: 70_000 })), { maxLength: 60 }), (items) => {
        const store = new ByteStore();
        const added = items.map((x) => (typeof x === 'number' ? new Uint8Array(x).fill(x & 0xff) : x));
        const ids = added.map((b) => store.add(b));
        return ids.every((id, i) => Buffer.compare(store.get(id), added[i]!) === 0);
      }),
    );
  });

  it('copies (the caller may reuse its buffer) and zeroes a freed string without touching its neighbours', () => {
    const store = new ByteStore();
    const scratch = new Uint8Array([1, 2, 3]);
    const a = store.add(scratch);
    scratch.fill(9);
    const b = store.add(scratch);
    const viewOfA = store.get(a);
    expect([...viewOfA]).toEqual([1, 2, 3]);
    store.free(a);
    expect([...viewOfA]).toEqual([0, 0, 0]);
    expect([...store.get(b)]).toEqual([9, 9, 9]);
  });

  it('frees: what is kept reads back, what is freed is zeroed, and space comes back once chunks are mostly free (property)', () => {
    const op = fc.oneof(
      { arbitrary: fc.record({ add: fc.integer({ min: 0, max: 70_000 }) }), weight: 2 }, // past LARGE too
      { arbitrary: fc.record({ free: fc.nat() }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 100, maxLength: 300 }), (ops) => {
        const store = new ByteStore();
        const live = new Map<number, Uint8Array>();
        const freedViews: Uint8Array[] = [];
        let n = 0;
        for (const o of ops) {
          if ('add' in o) {
            const bytes = new Uint8Array(o.add).fill((n++ % 255) + 1);
            live.set(store.add(bytes), bytes);
          } else if (live.size > 0) {
            const id = [...live.keys()][o.free % live.size]!;
            freedViews.push(store.get(id));
            store.free(id);
            live.delete(id);
          }
        }
        for (const [id, bytes] of live) if (Buffer.compare(store.get(id), bytes) !== 0) return false;
        if (!freedViews.every((v) => v.every((b) => b === 0))) return false;
        // Every finished chunk still held is at least a quarter in use; large strings are held only while kept.
        let small = 0;
        let large = 0;
        for (const bytes of live.values()) bytes.length > ByteStore.LARGE ? (large += bytes.length) : (small += bytes.length);
        return store.bytesHeld() <= 4 * small + ByteStore.CHUNK + large;
      }),
      { numRuns: 60 },
    );
  });

  it('a store that keeps writing and freeing stays the size of what it keeps', () => {
    const store = new ByteStore();
    const kept: number[] = [];
    for (let round = 0; round < 200; round++) {
      const ids = Array.from({ length: 100 }, () => store.add(new Uint8Array(1000).fill(1)));
      kept.push(ids[0]!); // one of each hundred stays
      for (const id of ids.slice(1)) store.free(id);
    }
    // 20 MB written, 200 KB kept: without compaction all 20 chunks would be held.
    expect(store.bytesHeld()).toBeLessThanOrEqual(2 * ByteStore.CHUNK);
    expect(kept.every((id) => store.get(id).length === 1000 && store.get(id).every((b) => b === 1))).toBe(true);
  });

  it('fills one chunk before starting the next: ids stay valid as chunks are added', () => {
    const store = new ByteStore();
    const piece = new Uint8Array(ByteStore.LARGE).fill(7);
    const ids = Array.from({ length: 40 }, () => store.add(piece)); // 2.5 chunks
    expect(ids.every((id) => store.get(id).length === piece.length && store.get(id)[0] === 7)).toBe(true);
  });
});

describe('MemoryBackend names', () => {
  it('a long-lived backend whose session values are purged every session does not grow by them', async () => {
    await init();
    const backend = new RawMemoryBackend();
    const big = { text: 'x'.repeat(8000) };
    for (let s = 0; s < 50; s++) {
      const store = await VmgMemoryStore.open({ backend, agentId: 'a', sessionId: `s${s}` });
      for (let i = 0; i < 40; i++) await store.put(`note${i}`, big, { policyTag: 'session' });
      await store.endSession();
    }
    // 16 MB of values were written and purged; what is kept is the log (≈ 4000 entries of ≈ 450 bytes).
    expect(backend.bytesHeld()).toBeLessThan(8 * 2 ** 20);
    const store = await VmgMemoryStore.open({ backend, agentId: 'a', sessionId: 'after' });
    await store.put('kept', big, { policyTag: 'persistent' });
    expect((await store.get('kept'))!.record.value).toEqual(big);
    expect(await store.verify()).toMatchObject({ ok: true, counts: { tampered: 0, erased: 2000 } });
  });

  it('a name left with neither value nor record is dropped when its transaction commits, not before', async () => {
    await init();
    const backend = new RawMemoryBackend();
    const store = await VmgMemoryStore.open({ backend, agentId: 'a', sessionId: 's' });
    for (let i = 0; i < 5; i++) await store.put(`k${i}`, i, { policyTag: 'session' });
    const during = backend.names().index.filter((n) => n.startsWith('s\u0000'));
    expect(during).toHaveLength(6); // the count and one record per write
    await store.endSession();
    expect(backend.names().index.filter((n) => n.startsWith('s\u0000'))).toEqual([]);
    // Version records stay (their values are erased): the log still names them.
    expect(backend.names().index.filter((n) => n.startsWith('k\u0000'))).toHaveLength(10);
    expect(backend.names().values).toEqual([]);
    // Freed slots are reused, and what is written into them reads back.
    for (let i = 0; i < 5; i++) await store.put(`j${i}`, { i }, { policyTag: 'persistent' });
    for (let i = 0; i < 5; i++) expect((await store.get(`j${i}`))!.record.value).toEqual({ i });
    expect((await store.verify()).ok).toBe(true);
  });
});

describe('NameSlots', () => {
  // Names of every shape: versions in and out of order, non-canonical version parts, heads, other names.
  const part = fc.constantFrom('a', 'b', 'k', '', 'x\u00001');
  const suffix = fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), fc.constantFrom('007', '1e1', '', '-1', '1.5', 'x', '999999999999999', '1234567890123456'));
  const name = fc.oneof(
    fc.tuple(part, part, suffix).map(([ns, key, v]) => `k\u0000${ns}\u0000${key}\u0000${v}`),
    fc.tuple(part, part).map(([ns, key]) => `k\u0000${ns}\u0000${key}`),
    fc.tuple(part, suffix).map(([s, i]) => `s\u0000${s}\u0000${i}`),
    fc.constantFrom('m\u0000head', 'k', 'k\u0000', 'k\u0000\u0000\u00001'),
  );
  // Lookups between the writes too: NameSlots remembers the last names it found.
  const op = fc.oneof(
    fc.tuple(fc.constant('set' as const), name, fc.nat(1000)),
    fc.tuple(fc.constant('delete' as const), name, fc.constant(0)),
    fc.tuple(fc.constant('get' as const), name, fc.constant(0)),
  );

  // And a small alphabet, so that gaps get filled and names come back after a delete.
  const small = fc.tuple(fc.constantFrom('a', 'b'), fc.constantFrom('1', '2', '3', '4', '04')).map(([key, v]) => `k\u0000n\u0000${key}\u0000${v}`);
  const smallOp = fc.oneof(
    fc.tuple(fc.constant('set' as const), small, fc.nat(1000)),
    fc.tuple(fc.constant('delete' as const), small, fc.constant(0)),
    fc.tuple(fc.constant('get' as const), small, fc.constant(0)),
  );

  it.each([
    ['names of every shape', op, name],
    ['a few version names', smallOp, small],
  ] as const)('answers as a Map would, for any sets and deletes (property): %s', (_, anOp, aName) => {
    fc.assert(
      fc.property(fc.array(anOp as typeof op, { maxLength: 200 }), fc.array(aName as typeof name, { maxLength: 30 }), (ops, probes) => {
        const slots = new NameSlots();
        const model = new Map<string, number>();
        for (const [kind, n, slot] of ops) {
          if (kind === 'set') {
            slots.set(n, slot);
            model.set(n, slot);
          } else if (kind === 'delete') {
            slots.delete(n);
            model.delete(n);
          } else if (slots.get(n) !== model.get(n)) return false;
        }
        for (const n of [...probes, ...ops.map((o) => o[1])]) if (slots.get(n) !== model.get(n)) return false;
        const listed = [...slots.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
        return JSON.stringify(listed) === JSON.stringify([...model].sort(([a], [b]) => (a < b ? -1 : 1)));
      }),
      { numRuns: 300 },
    );
  });
});
