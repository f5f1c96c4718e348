/**
 * parapet/vmg/sqlite — a durable StorageBackend on better-sqlite3 (Node only).
 * WAL journal, synchronous=FULL, one IMMEDIATE transaction per store
 * operation: an acknowledged write survives a killed process (and power loss),
 * and several processes can share one file, serialised by SQLite's write lock.
 */
import Database from 'better-sqlite3';
import type { BackendTx, StorageBackend } from './backend.js';

export interface SqliteOptions {
  /** SQLite's synchronous pragma. FULL (default) syncs the WAL on every commit. */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** How long a writer waits for another process's lock, in ms. Default 10 s. */
  readonly busyTimeoutMs?: number;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS entries (seq INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
  CREATE TABLE IF NOT EXISTS vals (ref TEXT PRIMARY KEY, bytes BLOB NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS idx (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS nodes (level INTEGER NOT NULL, i INTEGER NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (level, i)) WITHOUT ROWID;
`;

const bytes = (b: Buffer | undefined) => (b === undefined ? undefined : new Uint8Array(b.buffer, b.byteOffset, b.byteLength));

export class SqliteBackend implements StorageBackend {
  readonly durable = true;
  readonly db: Database.Database;
  readonly #tx: BackendTx;
  readonly #run: Database.Transaction<(fn: (tx: BackendTx) => unknown) => unknown>;

  constructor(path: string, options: SqliteOptions = {}) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
    this.db.exec(SCHEMA);
    const q = {
      entryCount: this.db.prepare('SELECT coalesce(max(seq) + 1, 0) AS n FROM entries').pluck(),
      getEntry: this.db.prepare('SELECT bytes FROM entries WHERE seq = ?').pluck(),
      putEntry: this.db.prepare('INSERT OR REPLACE INTO entries (seq, bytes) VALUES (?, ?)'),
      getValue: this.db.prepare('SELECT bytes FROM vals WHERE ref = ?').pluck(),
      putValue: this.db.prepare('INSERT OR REPLACE INTO vals (ref, bytes) VALUES (?, ?)'),
      deleteValue: this.db.prepare('DELETE FROM vals WHERE ref = ?'),
      getIndex: this.db.prepare('SELECT value FROM idx WHERE name = ?').pluck(),
      setIndex: this.db.prepare('INSERT OR REPLACE INTO idx (name, value) VALUES (?, ?)'),
      leafCount: this.db.prepare('SELECT coalesce(max(i) + 1, 0) FROM nodes WHERE level = 0').pluck(),
      getNode: this.db.prepare('SELECT hash FROM nodes WHERE level = ? AND i = ?').pluck(),
      setNode: this.db.prepare('INSERT OR REPLACE INTO nodes (level, i, hash) VALUES (?, ?, ?)'),
    };
    this.#tx = {
      entryCount: () => q.entryCount.get() as number,
      getEntry: (seq) => bytes(q.getEntry.get(seq) as Buffer | undefined),
      putEntry: (seq, b) => void q.putEntry.run(seq, b),
      getValue: (ref) => bytes(q.getValue.get(ref) as Buffer | undefined),
      putValue: (ref, b) => void q.putValue.run(ref, b),
      deleteValue: (ref) => void q.deleteValue.run(ref),
      getIndex: (name) => q.getIndex.get(name) as string | undefined,
      setIndex: (name, value) => void q.setIndex.run(name, value),
      nodes: {
        leafCount: () => q.leafCount.get() as number,
        get: (level, i) => bytes(q.getNode.get(level, i) as Buffer | undefined),
        set: (level, i, hash) => void q.setNode.run(level, i, hash),
      },
    };
    this.#run = this.db.transaction((fn: (tx: BackendTx) => unknown) => fn(this.#tx));
  }

  async transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    // IMMEDIATE takes the write lock up front, so two processes cannot both
    // read version n and both write n + 1.
    return this.#run.immediate(fn) as T;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
