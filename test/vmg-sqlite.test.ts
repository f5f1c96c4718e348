// SqliteBackend's own concerns, beyond the behaviour suite every backend runs
// (vmg-store.test.ts): its layout, and the read cache it keeps between
// transactions, which must never outlive someone else's write.
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { init, VmgMemoryStore, type StorageBackend } from '../src/vmg/index.js';
import { SqliteBackend } from '../src/vmg/sqlite.js';
import { generateNoteKey, parseSignerKey } from '../src/tlog/index.js';

await init();
const dir = mkdtempSync(join(tmpdir(), 'parapet-sqlite-unit-'));
let files = 0;
const file = () => join(dir, `u${++files}.db`);
const open = (backend: SqliteBackend, agentId = 'a') => VmgMemoryStore.open({ backend, agentId, sessionId: 's' });

describe('SqliteBackend read cache', () => {
  it('a write by another connection is seen by the next operation (compare-and-set holds)', async () => {
    const path = file();
    const a = await open(new SqliteBackend(path), 'a');
    const b = await open(new SqliteBackend(path), 'b');
    await a.put('k', 1, { policyTag: 'persistent' });
    await b.put('k', 2, { policyTag: 'persistent', expectedVersion: 1 });
    // a read "k" at v1 and cached its head; b's commit must invalidate that.
    await expect(a.put('k', 3, { policyTag: 'persistent', expectedVersion: 1 })).rejects.toMatchObject({ code: 'version-conflict' });
    await a.put('k', 3, { policyTag: 'persistent', expectedVersion: 2 });
    expect((await b.get('k'))!.record).toMatchObject({ value: 3, version: 3 });
    expect((await a.verify()).ok).toBe(true);
    await a.close();
    await b.close();
  });

  it('a row edited through the same connection outside a transaction is seen too', async () => {
    const backend = new SqliteBackend(file());
    const store = await open(backend);
    await store.put('k', 1, { policyTag: 'persistent' });
    await store.put('k', 2, { policyTag: 'persistent' }); // head of "k" now cached
    backend.db.prepare('UPDATE kv SET rec = ? WHERE name = ?').run('not json', 'k\u0000default\u0000k');
    await expect(store.put('k', 3, { policyTag: 'persistent' })).rejects.toMatchObject({ code: 'store-damaged' });
    await store.close();
  });

  it('a failed operation leaves nothing behind, in the file or in the cache', async () => {
    const backend = new SqliteBackend(file());
    const store = await open(backend);
    const { writeHash } = await store.put('k', 1, { policyTag: 'persistent' });
    await expect(
      backend.transaction((tx) => {
        tx.putEntry(1, new Uint8Array([1]));
        tx.setIndex('k\u0000default\u0000k', { latest: 9, forgotten: false, hash: writeHash, policy: 'persistent' });
        tx.nodes.set(0, 1, new Uint8Array(32));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await backend.transaction((tx) => [tx.entryCount(), tx.nodes.leafCount(), tx.getIndex('k\u0000default\u0000k')])).toEqual([1, 1, { latest: 1, forgotten: false, hash: writeHash, policy: 'persistent' }]);
    await store.put('k', 2, { policyTag: 'persistent', expectedVersion: 1 });
    expect((await store.verify()).ok).toBe(true);
    await store.close();
  });
});

describe('SqliteBackend layout', () => {
  it('packs a put into a log row (entry + the nodes its leaf completes) and a row per name', async () => {
    const backend = new SqliteBackend(file());
    const store = await open(backend);
    for (let i = 0; i < 4; i++) await store.put(`k${i}`, i, { policyTag: 'persistent' });
    const nodes = backend.db.prepare('SELECT length(nodes) FROM log ORDER BY seq').pluck().all();
    expect(nodes).toEqual([32, 64, 32, 96]); // leaf 3 completes (1,1) and (2,0)
    const row = backend.db.prepare('SELECT value IS NOT NULL, rec IS NOT NULL FROM kv WHERE name = ?').raw().get('k\u0000default\u0000k2\u00001');
    expect(row).toEqual([1, 1]); // a version's value and its index record share a row
    await store.close();
  });

  it('refuses a file of another layout instead of reading it as empty', () => {
    const path = file();
    const old = new Database(path);
    old.exec('CREATE TABLE entries (seq INTEGER PRIMARY KEY, bytes BLOB NOT NULL)');
    old.close();
    expect(() => new SqliteBackend(path)).toThrow(expect.objectContaining({ code: 'layout-mismatch', message: expect.stringMatching(/layout 0, expected 3/) }));
  });
});

describe('SqliteBackend log rows far beyond the end', () => {
  it('one row inserted at seq 10^12: verify() stops at a bound and says so, verifyAgainst refuses, reads fail typed', async () => {
    const keys = generateNoteKey('parapet/vmg/a');
    const backend = new SqliteBackend(file());
    const store = await VmgMemoryStore.open({ backend, agentId: 'a', sessionId: 's', signer: parseSignerKey(keys.signerKey), origin: 'parapet/vmg/a' });
    for (let i = 0; i < 3; i++) await store.put(`k${i}`, i, { policyTag: 'persistent' });
    const checkpoint = await store.checkpoint();
    backend.db.prepare('INSERT INTO log (seq, entry, nodes) VALUES (?, ?, ?)').run(1e12, Buffer.from('{}'), null);
    const report = await store.verify();
    expect(report.ok).toBe(false);
    expect(report).toMatchObject({ ok: false, code: 'entries-beyond-end' });
    expect(report.problems[0]!.code).toBe('entries-beyond-end');
    expect(report.size).toBe(2 * 4 + 64); // the walk's bound: twice the rows held, plus 64
    expect(report.entries.slice(0, 3).map((e) => e.status)).toEqual(['ok', 'ok', 'ok']);
    expect(await store.verifyAgainst(checkpoint, keys.verifierKey)).toMatchObject({ ok: false, code: 'rewritten', message: expect.stringMatching(/far beyond/) });
    await expect(store.get('k1')).rejects.toMatchObject({ code: 'store-damaged' });
    await store.close();
  });

  it('with a key head claiming that many versions too, reads fail at once instead of walking them', async () => {
    const backend = new SqliteBackend(file());
    const store = await open(backend);
    await store.put('k', 'v1', { policyTag: 'persistent' });
    await store.put('k', 'v2', { policyTag: 'persistent' });
    backend.db.prepare('INSERT INTO log (seq, entry, nodes) VALUES (?, ?, ?)').run(1e12, Buffer.from('{}'), Buffer.alloc(32));
    const head = JSON.parse(backend.db.prepare('SELECT rec FROM kv WHERE name = ?').pluck().get('k\u0000default\u0000k') as string);
    backend.db.prepare('UPDATE kv SET rec = ? WHERE name = ?').run(JSON.stringify({ ...head, latest: 1e12 }), 'k\u0000default\u0000k');
    for (const read of [() => store.get('k'), () => store.history('k'), () => store.forget('k'), () => store.promote('k', { approver: 'op' })]) {
      await expect(read()).rejects.toMatchObject({ code: 'store-damaged', message: expect.stringMatching(/"k" v\d+ is missing: run verify\(\)/) });
    }
    await store.close();
  });
});

describe('SqliteBackend log truncated by deleting rows (entries and nodes alike)', () => {
  it('writes refuse, so that the recorded head keeps saying so, and verify() reports it', async () => {
    const backend = new SqliteBackend(file());
    const store = await open(backend);
    for (let i = 0; i < 6; i++) await store.put(`k${i}`, i, { policyTag: 'persistent' });
    backend.db.prepare('DELETE FROM log WHERE seq >= 3').run(); // the tree stays consistent with the entries left
    await expect(store.put('after', 1, { policyTag: 'persistent' })).rejects.toMatchObject({ code: 'store-damaged', message: expect.stringMatching(/holds 3 entries but its recorded head says 6/) });
    await expect(store.endSession()).rejects.toMatchObject({ code: 'store-damaged' });
    expect((await store.verify()).problems.map((p) => p.code)).toContain('truncated');
    await store.close();
  });
});

describe('SqliteBackend with create: false (tools that read or verify)', () => {
  it('refuses a missing file or one without a store, and creates or writes nothing', () => {
    const missing = file();
    expect(() => new SqliteBackend(missing, { create: false })).toThrow(expect.objectContaining({ code: 'not-found', message: expect.stringMatching(/does not exist/) }));
    expect(existsSync(missing)).toBe(false);
    const empty = file();
    writeFileSync(empty, '');
    expect(() => new SqliteBackend(empty, { create: false })).toThrow(expect.objectContaining({ code: 'not-found', message: expect.stringMatching(/holds no tables/) }));
    expect(readFileSync(empty).length).toBe(0);
    expect(existsSync(`${empty}-wal`)).toBe(false);
  });

  it('leaves a foreign SQLite file (rollback or WAL journal) and a file that is not SQLite exactly as they were', () => {
    for (const journal of ['DELETE', 'WAL']) {
      const foreign = file();
      const db = new Database(foreign);
      db.pragma(`journal_mode = ${journal}`);
      db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('someone else''s')");
      db.close();
      const before = readFileSync(foreign);
      expect(() => new SqliteBackend(foreign, { create: false }), journal).toThrow(expect.objectContaining({ code: 'layout-mismatch', message: expect.stringMatching(/not a parapet memory store/) }));
      expect(readFileSync(foreign).equals(before), journal).toBe(true);
      expect(existsSync(`${foreign}-wal`) || existsSync(`${foreign}-shm`), journal).toBe(false);
    }
    const text = file();
    writeFileSync(text, 'not a database, but long enough to hold a header of one hundred bytes, which it does not hold at all');
    expect(() => new SqliteBackend(text, { create: false })).toThrow(expect.objectContaining({ code: 'not-found', message: expect.stringMatching(/not a SQLite database/) }));
    expect(existsSync(`${text}-wal`)).toBe(false);
  });

  it('opens an existing store', async () => {
    const path = file();
    const writer = await open(new SqliteBackend(path));
    await writer.put('k', 1, { policyTag: 'persistent' });
    await writer.close();
    const reader = await open(new SqliteBackend(path, { create: false }));
    expect((await reader.get('k'))?.record.value).toBe(1);
    await reader.close();
  });
});

describe('SqliteBackend prefetch', () => {
  /** The same file, its transactions' prefetch hint removed: every read is a statement of its own. */
  const withoutPrefetch = (backend: SqliteBackend): StorageBackend => ({
    transaction: (fn) => backend.transaction((tx) => fn({ ...tx, prefetch: undefined })),
    close: () => backend.close(),
  });

  it('verify() reads in bulk and says exactly what it says without, on a log edited every way at rest', async () => {
    const path = file();
    const backend = new SqliteBackend(path);
    const store = await open(backend);
    // More than a batch (4096 entries), over keys with several versions, a forget, a session purge.
    for (let i = 0; i < 5000; i++) await store.put(`k${i % 700}`, { i }, { policyTag: i % 9 === 0 ? 'session' : 'persistent' });
    await store.forget('k3');
    await store.endSession();
    const clean = await store.verify();
    expect(clean.ok).toBe(true);
    const db = backend.db;
    db.prepare('UPDATE kv SET value = ? WHERE name = ?').run(Buffer.from('{"i":-1}'), 'k\u0000default\u0000k10\u00002');
    db.prepare('UPDATE kv SET rec = ? WHERE name = ?').run('{"v":1,"seq":5,"policy":"persistent","quarantined":true,"erased":false}', 'k\u0000default\u0000k5\u00001');
    db.prepare('DELETE FROM kv WHERE name = ?').run('k\u0000default\u0000k20\u00003');
    db.prepare('UPDATE log SET entry = ? WHERE seq = ?').run(Buffer.from('{"not":"an entry"}'), 4500);
    db.prepare('UPDATE log SET nodes = ? WHERE seq = ?').run(Buffer.alloc(64, 7), 4095); // leaf 4095's leaf and (1, 2047)
    const bulk = await store.verify();
    const single = await (await VmgMemoryStore.open({ backend: withoutPrefetch(backend), agentId: 'a', sessionId: 's' })).verify();
    expect(bulk).toEqual(single);
    expect(bulk.ok).toBe(false);
    expect(bulk.entries.filter((e) => e.status === 'tampered').map((e) => [e.seq, e.reasons])).toEqual([
      [710, ['value-changed']], // k10 v2
      [1420, ['value-missing']], // k20 v3
      [4095, ['node-mismatch']],
      [4500, ['entry-unreadable', 'node-mismatch']],
      [4501, ['chain-broken']],
    ]);
    // k5's record quarantined by an edit; k20's record deleted; k300 v7 lost its entry (4500); (1, 2047) edited.
    expect(bulk.problems.map((p) => (p.code === 'index-mismatch' ? `${p.code}:${p.ns}/${p.key}` : p.code))).toEqual(['index-mismatch:default/k5', 'index-mismatch:default/k20', 'index-mismatch:default/k300', 'root-mismatch']);
    await store.close();
  });
});

describe('SqliteBackend erasure', () => {
  /** The files an attacker who can read the directory reads: the database and its WAL (the -shm holds page numbers only). */
  const holds = (path: string, text: string): string[] =>
    [path, `${path}-wal`].filter((f) => existsSync(f) && readFileSync(f).includes(Buffer.from(text))).map((f) => f.slice(path.length) || 'db');
  const record = (backend: SqliteBackend, name: string) => backend.db.prepare('SELECT rec FROM kv WHERE name = ?').pluck().get(name) as string;

  it('forget and endSession leave no copy of an erased value, nor of its index record, in the file or its WAL', async () => {
    const path = file();
    const backend = new SqliteBackend(path);
    const store = await open(backend);
    const small = 'forget-me-7f3a9c';
    const large = 'a value on overflow pages '.repeat(400); // > a page: its overflow pages are freed, not a cell
    const session = 'this-session-only-51d0e2';
    await store.put('small', small, { policyTag: 'persistent' });
    await store.put('large', large, { policyTag: 'persistent' });
    await store.put('sess', session, { policyTag: 'session' });
    for (let i = 0; i < 40; i++) await store.put(`kept${i}`, { i }, { policyTag: 'persistent' }); // the erased cells share pages with kept ones
    const smallRecord = record(backend, 'k\u0000default\u0000small\u00001');
    const retentionItem = record(backend, 's\u0000s\u00000');
    expect(retentionItem).toBe('["default","sess",1]');
    expect(holds(path, small).length + holds(path, retentionItem).length).toBeGreaterThan(0); // the search finds them while they are live

    await store.forget('small');
    await store.forget('large');
    expect(holds(path, small)).toEqual([]);
    expect(holds(path, large.slice(0, 200))).toEqual([]);
    expect(holds(path, smallRecord)).toEqual([]); // its record now says erased; the old text is gone too
    await store.endSession();
    expect(holds(path, session)).toEqual([]);
    expect(holds(path, retentionItem)).toEqual([]);
    expect(backend.erasureSettled).toBe(true);
    expect((await store.verify()).ok).toBe(true);
    expect((await store.get('kept39'))?.record.value).toEqual({ i: 39 });
    await store.close();
    for (const text of [small, large.slice(0, 200), session, smallRecord, retentionItem]) expect(holds(path, text)).toEqual([]);
  });

  it('while another connection holds a read open, the WAL keeps the erased value until the next operation after it ends', async () => {
    const path = file();
    const backend = new SqliteBackend(path, { busyTimeoutMs: 20 });
    const store = await open(backend);
    await store.put('k', 'held-by-a-reader-3e1b', { policyTag: 'persistent' });
    const reader = new Database(path);
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM kv').pluck().get(); // a read transaction on the snapshot that holds the value
    await store.forget('k');
    expect(backend.erasureSettled).toBe(false);
    reader.prepare('COMMIT').run();
    await store.get('k');
    expect(backend.erasureSettled).toBe(true);
    expect(holds(path, 'held-by-a-reader-3e1b')).toEqual([]);
    reader.close();
    await store.close();
  });

  it('creates the database readable by its owner only, and SQLite gives its -wal and -shm the same mode; an existing file keeps its own', async () => {
    const path = file();
    const store = await open(new SqliteBackend(path));
    await store.put('k', 1, { policyTag: 'persistent' });
    for (const f of [path, `${path}-wal`, `${path}-shm`]) expect((statSync(f).mode & 0o777).toString(8), f).toBe('600');
    await store.close();
    const shared = file();
    writeFileSync(shared, '');
    chmodSync(shared, 0o640);
    await (await open(new SqliteBackend(shared))).close();
    expect((statSync(shared).mode & 0o777).toString(8)).toBe('640');
  });
});
