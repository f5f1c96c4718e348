import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteStore } from '../src/vmg/byte-store.js';
import { init, MemoryBackend, VmgMemoryStore } from '../src/vmg/index.js';

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

  it('copies (the caller may reuse its buffer) and zeroes one string without touching its neighbours', () => {
    const store = new ByteStore();
    const scratch = new Uint8Array([1, 2, 3]);
    const a = store.add(scratch);
    scratch.fill(9);
    const b = store.add(scratch);
    expect([...store.get(a)]).toEqual([1, 2, 3]);
    store.zero(a);
    expect([...store.get(a)]).toEqual([0, 0, 0]);
    expect([...store.get(b)]).toEqual([9, 9, 9]);
  });

  it('fills one chunk before starting the next: ids stay valid as chunks are added', () => {
    const store = new ByteStore();
    const piece = new Uint8Array(ByteStore.LARGE).fill(7);
    const ids = Array.from({ length: 40 }, () => store.add(piece)); // 2.5 chunks
    expect(ids.every((id) => store.get(id).length === piece.length && store.get(id)[0] === 7)).toBe(true);
  });
});

describe('MemoryBackend names', () => {
  class Inspectable extends MemoryBackend {
    names() {
      return this.heldNames();
    }
  }

  it('a name left with neither value nor record is dropped when its transaction commits, not before', async () => {
    await init();
    const backend = new Inspectable();
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
