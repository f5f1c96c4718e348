/**
 * parapet/vmg/sqlite — a durable StorageBackend on better-sqlite3 (Node only).
 * WAL journal, synchronous=FULL, one IMMEDIATE transaction per store
 * operation: an acknowledged write survives a killed process (and power loss),
 * and several processes can share one file, serialised by SQLite's write lock.
 */
import Database from 'better-sqlite3';
import type { BackendTx, IndexValue, StorageBackend } from './backend.js';

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

/** Index records are JSON text; text that is not (edited at rest) comes back as the string itself, which no reader accepts. */
function parseIndex(text: string | undefined): IndexValue | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as IndexValue;
  } catch {
    return text;
  }
}

const bytes = (b: Buffer | undefined) => (b === undefined ? undefined : new Uint8Array(b.buffer, b.byteOffset, b.byteLength));

export class SqliteBackend implements StorageBackend {
  readonly durable = true;
  readonly db: Database.Database;
  readonly #q: Record<string, Database.Statement>;
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
      deleteIndex: this.db.prepare('DELETE FROM idx WHERE name = ?'),
      leafCount: this.db.prepare('SELECT coalesce(max(i) + 1, 0) FROM nodes WHERE level = 0').pluck(),
      getNode: this.db.prepare('SELECT hash FROM nodes WHERE level = ? AND i = ?').pluck(),
      setNode: this.db.prepare('INSERT OR REPLACE INTO nodes (level, i, hash) VALUES (?, ?, ?)'),
    };
    this.#q = q;
    this.#run = this.db.transaction((fn: (tx: BackendTx) => unknown) => fn(this.#txView()));
  }

  /**
   * The transaction's view of the database, with a read cache valid for its
   * lifetime only (inside IMMEDIATE nobody else writes): a put reads the same
   * counts, nodes and index records several times, and each statement costs
   * microseconds.
   */
  #txView(): BackendTx {
    const q = this.#q;
    let entries: number | undefined;
    let leaves: number | undefined;
    const nodes = new Map<string, Uint8Array | undefined>();
    const index = new Map<string, IndexValue | undefined>();
    return {
      entryCount: () => (entries ??= q.entryCount!.get() as number),
      getEntry: (seq) => bytes(q.getEntry!.get(seq) as Buffer | undefined),
      putEntry: (seq, b) => {
        q.putEntry!.run(seq, b);
        if (entries !== undefined && seq >= entries) entries = seq + 1;
      },
      getValue: (ref) => bytes(q.getValue!.get(ref) as Buffer | undefined),
      putValue: (ref, b) => void q.putValue!.run(ref, b),
      deleteValue: (ref) => void q.deleteValue!.run(ref),
      getIndex: (name) => {
        if (!index.has(name)) index.set(name, parseIndex(q.getIndex!.get(name) as string | undefined));
        return index.get(name);
      },
      setIndex: (name, value) => {
        q.setIndex!.run(name, JSON.stringify(value));
        index.set(name, value);
      },
      deleteIndex: (name) => {
        q.deleteIndex!.run(name);
        index.set(name, undefined);
      },
      nodes: {
        leafCount: () => (leaves ??= q.leafCount!.get() as number),
        get: (level, i) => {
          const k = `${level}/${i}`;
          if (!nodes.has(k)) nodes.set(k, bytes(q.getNode!.get(level, i) as Buffer | undefined));
          return nodes.get(k);
        },
        set: (level, i, hash) => {
          q.setNode!.run(level, i, hash);
          nodes.set(`${level}/${i}`, hash.slice());
          if (level === 0 && leaves !== undefined && i >= leaves) leaves = i + 1;
        },
      },
    };
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
