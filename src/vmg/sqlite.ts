/**
 * parapet/vmg/sqlite — a durable StorageBackend on better-sqlite3 (Node only).
 * WAL journal, synchronous=FULL, one IMMEDIATE transaction per store
 * operation: an acknowledged write survives a killed process (and power loss),
 * and several processes can share one file, serialised by SQLite's write lock.
 *
 * Erasure (forget, retention) must leave no copy in the files (decision 25):
 * secure_delete zeroes what a transaction frees, the WAL (which holds the page
 * images of earlier commits) is checkpointed and truncated after every
 * transaction that erased, and a new file is created 0600 (SQLite gives its
 * -wal and -shm the database file's mode).
 *
 * Layout (docs/decisions/0011): a commit costs about one page write per page
 * it dirties, so a put is packed into few rows.
 * - `log`: one row per entry — its bytes and the tree nodes its leaf completes
 *   (node (level, i) is completed by leaf (i + 1)·2^level − 1; it sits at
 *   byte level·32 of that row's `nodes`);
 * - `kv`: one row per name, appended — a value and the index record of the
 *   same name share a row; the index on name keeps a key's names together.
 *
 * @module parapet/vmg/sqlite
 */
import { closeSync, openSync, readSync, unlinkSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, ParapetError, ParapetTypeError } from '../bindings/errors.js';
import type { BackendTx, IndexValue, StorageBackend } from './backend.js';
import { MemoryStoreError } from './errors.js';

export interface SqliteOptions {
  /** SQLite's synchronous pragma. FULL (default) syncs the WAL on every commit. */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** How long a writer waits for another process's lock, in ms. Default 10 s. */
  readonly busyTimeoutMs?: number;
  /**
   * False: open an existing store only — a missing file, or one without a
   * store in it, is refused (MemoryStoreError `not-found`) and nothing is
   * created. For tools that read or verify: a mistyped path must not read as an
   * empty, valid store. Default true.
   */
  readonly create?: boolean;
}

/** `PRAGMA user_version` of this layout; a file with another is refused, not misread. */
const LAYOUT = 3;
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, entry BLOB, nodes BLOB);
  CREATE TABLE IF NOT EXISTS kv (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, value BLOB, rec TEXT);
`;
const HASH = 32;
/** Rows cached between transactions (see #stamp); past this many the cache starts over. */
const CACHE_ROWS = 4096;

/** Index records are JSON text; text that is not (edited at rest) comes back as the string itself, which no reader accepts. */
function parseIndex(text: string | null | undefined): IndexValue | undefined {
  if (text === undefined || text === null) return undefined;
  try {
    return JSON.parse(text) as IndexValue;
  } catch {
    return text;
  }
}

const view = (b: Buffer | null | undefined) => (b === undefined || b === null ? undefined : new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
/** The log row whose leaf completes node (level, i). */
const ownerOf = (level: number, i: number) => (i + 1) * 2 ** level - 1;

/** A row's pending change: a column set to bytes/text, to null (cleared), or absent (unchanged). */
interface LogRow { entry?: Uint8Array; nodes?: Uint8Array }
interface KvRow { value?: Uint8Array | null; rec?: string | null; parsed?: IndexValue }
interface Ran { result: unknown; remember: () => void; erased: boolean }

function statements(db: Database.Database) {
  return {
    // data_version moves when another connection commits; total_changes when this one writes (someone using `db`).
    // (Two statements: the pragma as a table-valued function in one SELECT costs twice as much.)
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    totalChanges: db.prepare('SELECT total_changes()').pluck(),
    entryCount: db.prepare('SELECT seq + 1 FROM log WHERE entry IS NOT NULL ORDER BY seq DESC LIMIT 1').pluck(),
    storedEntries: db.prepare('SELECT count(*) FROM log WHERE entry IS NOT NULL').pluck(),
    leafCount: db.prepare('SELECT seq + 1 FROM log WHERE nodes IS NOT NULL ORDER BY seq DESC LIMIT 1').pluck(),
    getEntry: db.prepare('SELECT entry FROM log WHERE seq = ?').pluck(),
    getNodes: db.prepare('SELECT nodes FROM log WHERE seq = ?').pluck(),
    // A log row's columns are only ever set, never cleared: NULL here means "unchanged".
    putLog: db.prepare('INSERT INTO log (seq, entry, nodes) VALUES (?, ?, ?) ON CONFLICT (seq) DO UPDATE SET entry = coalesce(excluded.entry, entry), nodes = coalesce(excluded.nodes, nodes)'),
    logRange: db.prepare('SELECT seq, entry, nodes FROM log WHERE seq >= ? AND seq < ?').raw(),
    // Names as one JSON array parameter: no limit on bound variables, one statement.
    kvNamed: db.prepare('SELECT name, value, rec FROM kv WHERE name IN (SELECT value FROM json_each(?))').raw(),
    getValue: db.prepare('SELECT value FROM kv WHERE name = ?').pluck(),
    getRec: db.prepare('SELECT rec FROM kv WHERE name = ?').pluck(),
    putKv: db.prepare('INSERT INTO kv (name, value, rec) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, rec = excluded.rec'),
    putValue: db.prepare('INSERT INTO kv (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    putRec: db.prepare('INSERT INTO kv (name, rec) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET rec = excluded.rec'),
    dropEmpty: db.prepare('DELETE FROM kv WHERE name = ? AND value IS NULL AND rec IS NULL'),
  };
}

export class SqliteBackend implements StorageBackend {
  readonly db: Database.Database;
  readonly #q: ReturnType<typeof statements>;
  readonly #run: Database.Transaction<(fn: (tx: BackendTx) => unknown) => Ran>;
  /**
   * What committed transactions read and wrote, kept while nobody else has
   * written: no other connection committed (data_version) and nothing was
   * written through `db` outside a transaction of ours (total_changes).
   */
  #stamp: readonly [dataVersion: number, changes: number] = [-1, -1];
  #entries: number | undefined;
  #leaves: number | undefined;
  readonly #nodes = new Map<number, Uint8Array | undefined>();
  readonly #recs = new Map<string, IndexValue | undefined>();
  /** An erasure committed whose WAL could not be truncated yet (a reader held it): retried after each transaction and at close. */
  #scrubPending = false;
  readonly #busyTimeout: number;

  /**
   * Open (creating it 0600 if missing, unless `create: false`) the store in
   * the file `path`. Refuses with a MemoryStoreError: `not-found` (create:
   * false and no store there), `layout-mismatch` (a store of another layout),
   * `open-failed` (the file cannot be opened or created, or is not SQLite).
   */
  constructor(path: string, options: SqliteOptions = {}) {
    if (typeof path !== 'string') throw new ParapetTypeError(`"path" must be a string, got ${describe(path)}`);
    const create = options.create ?? true;
    this.#busyTimeout = options.busyTimeoutMs ?? 10_000;
    if (!create) identifyStore(path);
    const created = create && createPrivate(path);
    try {
      this.db = new Database(path, { fileMustExist: !create });
    } catch (e) {
      if (created) unlinkSync(path);
      if (!create && (e as { code?: string }).code === 'SQLITE_CANTOPEN') throw new MemoryStoreError(`no memory store at "${path}": the file does not exist`, 'not-found');
      throw new MemoryStoreError(`cannot open the memory store "${path}": ${(e as Error).message}`, 'open-failed', { cause: e });
    }
    try {
      // Checked before the WAL pragma: that would write to an empty file.
      if (!create && this.#tableCount() === 0) throw new MemoryStoreError(`no memory store at "${path}": the file holds no tables`, 'not-found');
      // Per connection, before anything is written: a cell deleted or rewritten without it stays in the file's free space.
      this.db.pragma('secure_delete = ON');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
      this.db.pragma(`busy_timeout = ${this.#busyTimeout}`);
      this.db.transaction(() => this.#createLayout(path)).immediate();
    } catch (e) {
      this.db.close();
      if (e instanceof ParapetError) throw e;
      throw new MemoryStoreError(`cannot open the memory store "${path}": ${(e as Error).message}`, 'open-failed', { cause: e });
    }
    this.#q = statements(this.db);
    this.#run = this.db.transaction((fn: (tx: BackendTx) => unknown) => this.#runInside(fn));
    // A process that erased and died before its WAL was truncated left the erased pages there.
    this.#scrub(false);
  }

  /**
   * False while a committed erasure may still be readable in the WAL file:
   * another connection held a read open, so the WAL could not be truncated.
   * The backend tries again after each transaction and at close.
   */
  get erasureSettled(): boolean {
    return !this.#scrubPending;
  }

  /**
   * Move the WAL into the database and truncate it to zero bytes: after an
   * erasing commit the WAL still holds the page images of the commits before
   * it (the erased value among them), and a checkpoint alone rewinds the WAL
   * without overwriting them. `wait`: let the busy timeout run while readers
   * finish (right after an erasure); retries do not wait, so that one
   * long-lived reader does not slow every later operation.
   */
  #scrub(wait: boolean): void {
    if (!wait) this.db.pragma('busy_timeout = 0');
    try {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      this.#scrubPending = result === undefined || result.busy !== 0;
    } catch {
      this.#scrubPending = true;
    } finally {
      if (!wait) this.db.pragma(`busy_timeout = ${this.#busyTimeout}`);
    }
  }

  #tableCount(): number {
    return this.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number;
  }

  /** A new file gets the layout; one with another layout (an earlier build's) is refused rather than read as empty. */
  #createLayout(path: string): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version === 0 && this.#tableCount() === 0) {
      this.db.exec(SCHEMA);
      this.db.pragma(`user_version = ${LAYOUT}`);
    } else if (version !== LAYOUT) {
      throw new MemoryStoreError(`"${path}" is not a parapet memory store of this version (layout ${version}, expected ${LAYOUT})`, 'layout-mismatch');
    }
  }

  /**
   * Inside the IMMEDIATE transaction: writes are gathered per row while `fn`
   * runs (reads see them) and written at the end, one statement per row.
   */
  #runInside(fn: (tx: BackendTx) => unknown): Ran {
    const q = this.#q;
    const dataVersion = q.dataVersion.get() as number;
    const changesBefore = q.totalChanges.get() as number;
    if (dataVersion !== this.#stamp[0] || changesBefore !== this.#stamp[1]) this.#forget();
    const logRows = new Map<number, LogRow>();
    const kvRows = new Map<string, KvRow>();
    // Rows loaded by the last prefetch hints (one batch each); pending writes above take precedence.
    let loadedLog: Map<number, { entry: Uint8Array | undefined; nodes: Uint8Array | undefined }> | undefined;
    let loadedKv: Map<string, { value: Uint8Array | undefined; rec: IndexValue | undefined }> | undefined;
    let entries = this.#entries;
    let leaves = this.#leaves;
    const nodesOf = (seq: number): Uint8Array | undefined => {
      const pending = logRows.get(seq)?.nodes;
      if (pending) return pending;
      const loaded = loadedLog?.get(seq);
      if (loaded) return loaded.nodes;
      if (!this.#nodes.has(seq)) this.#remember(this.#nodes, seq, view(q.getNodes.get(seq) as Buffer | null | undefined));
      return this.#nodes.get(seq);
    };
    const logRow = (seq: number): LogRow => {
      let row = logRows.get(seq);
      if (!row) logRows.set(seq, (row = {}));
      return row;
    };
    const kvRow = (name: string): KvRow => {
      let row = kvRows.get(name);
      if (!row) kvRows.set(name, (row = {}));
      return row;
    };
    const tx: BackendTx = {
      entryCount: () => (entries ??= (q.entryCount.get() as number | undefined) ?? 0),
      getEntry: (seq) => {
        const pending = logRows.get(seq)?.entry;
        if (pending) return pending;
        const loaded = loadedLog?.get(seq);
        return loaded ? loaded.entry : view(q.getEntry.get(seq) as Buffer | null | undefined);
      },
      putEntry: (seq, bytes) => {
        logRow(seq).entry = bytes.slice();
        if (seq >= tx.entryCount()) entries = seq + 1;
      },
      getValue: (name) => {
        const row = kvRows.get(name);
        if (row && row.value !== undefined) return row.value ?? undefined;
        const loaded = loadedKv?.get(name);
        return loaded ? loaded.value : view(q.getValue.get(name) as Buffer | null | undefined);
      },
      putValue: (name, bytes) => void (kvRow(name).value = bytes.slice()),
      deleteValue: (name) => void (kvRow(name).value = null),
      getIndex: (name) => {
        const row = kvRows.get(name);
        if (row && row.rec !== undefined) return row.parsed;
        const loaded = loadedKv?.get(name);
        if (loaded) return loaded.rec;
        if (!this.#recs.has(name)) this.#remember(this.#recs, name, parseIndex(q.getRec.get(name) as string | null | undefined));
        return this.#recs.get(name);
      },
      setIndex: (name, value) => {
        const row = kvRow(name);
        row.rec = JSON.stringify(value);
        row.parsed = value;
      },
      deleteIndex: (name) => {
        const row = kvRow(name);
        row.rec = null;
        row.parsed = undefined;
      },
      nodes: {
        leafCount: () => (leaves ??= (q.leafCount.get() as number | undefined) ?? 0),
        get: (level, i) => {
          const nodes = nodesOf(ownerOf(level, i));
          return nodes && nodes.length >= (level + 1) * HASH ? nodes.subarray(level * HASH, (level + 1) * HASH) : undefined;
        },
        set: (level, i, hash) => {
          const seq = ownerOf(level, i);
          const old = nodesOf(seq);
          const nodes = new Uint8Array(Math.max(old?.length ?? 0, (level + 1) * HASH));
          if (old) nodes.set(old);
          nodes.set(hash.subarray(0, HASH), level * HASH);
          logRow(seq).nodes = nodes;
          if (level === 0 && i >= tx.nodes.leafCount()) leaves = i + 1;
        },
      },
      storedEntries: () => q.storedEntries.get() as number,
      prefetch: (what) => {
        // Rows absent from the file are absent from the maps, and read as before (a statement, then nothing).
        if ('names' in what) {
          loadedKv = new Map();
          for (const [name, value, rec] of q.kvNamed.all(JSON.stringify(what.names)) as [string, Buffer | null, string | null][]) {
            loadedKv.set(name, { value: view(value), rec: parseIndex(rec) });
          }
        } else {
          loadedLog = new Map();
          for (const [seq, entry, nodes] of q.logRange.all(what.start, what.end) as [number, Buffer | null, Buffer | null][]) {
            loadedLog.set(seq, { entry: view(entry), nodes: view(nodes) });
          }
        }
      },
    };
    const result = fn(tx);
    let changes = changesBefore;
    let erased = false;
    for (const [seq, row] of logRows) changes += q.putLog.run(seq, row.entry ?? null, row.nodes ?? null).changes;
    for (const [name, row] of kvRows) {
      if (row.value !== undefined && row.rec !== undefined) changes += q.putKv.run(name, row.value, row.rec).changes;
      else if (row.value !== undefined) changes += q.putValue.run(name, row.value).changes;
      else changes += q.putRec.run(name, row.rec).changes;
      if (row.value === null || row.rec === null) {
        changes += q.dropEmpty.run(name).changes;
        erased = true;
      }
    }
    // What to remember once the commit is certain (see transaction()).
    const remember = () => {
      this.#stamp = [dataVersion, changes];
      this.#entries = entries;
      this.#leaves = leaves;
      for (const [seq, row] of logRows) if (row.nodes) this.#remember(this.#nodes, seq, row.nodes);
      for (const [name, row] of kvRows) if (row.rec !== undefined) this.#remember(this.#recs, name, row.parsed);
    };
    return { result, remember, erased };
  }

  #remember<K, V>(cache: Map<K, V>, key: K, value: V): void {
    if (cache.size >= CACHE_ROWS) cache.clear();
    cache.set(key, value);
  }

  /** Someone else wrote (or our own commit's outcome is unknown): nothing read before holds. */
  #forget(): void {
    this.#stamp = [-1, -1];
    this.#entries = undefined;
    this.#leaves = undefined;
    this.#nodes.clear();
    this.#recs.clear();
  }

  async transaction<T>(fn: (tx: BackendTx) => T): Promise<T> {
    if (!this.db.open) throw new MemoryStoreError('the SQLite backend is closed', 'closed');
    let ran: Ran;
    try {
      // IMMEDIATE takes the write lock up front, so two processes cannot both
      // read version n and both write n + 1.
      ran = this.#run.immediate(fn);
    } catch (e) {
      this.#forget();
      // SQLite's own failures (a lock held past the busy timeout, I/O, a full disk) roll the
      // transaction back: typed, with SQLite's error as the cause. The callback's errors pass as they are.
      if (e instanceof Database.SqliteError) throw new MemoryStoreError(`SQLite refused the operation (${e.code}): nothing was written`, 'backend', { cause: e });
      throw e;
    }
    ran.remember();
    if (ran.erased || this.#scrubPending) this.#scrub(ran.erased);
    return ran.result as T;
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    if (this.#scrubPending) this.#scrub(false);
    this.db.close();
  }
}

/**
 * For `create: false`: prove from the file's header, read with a read-only
 * descriptor, that it is a store of this layout before SQLite opens it. The
 * read-write open sets journal_mode=WAL (written into the header, with -wal
 * and -shm created beside it), and even a read-only SQLite connection creates
 * those for a WAL file: a foreign SQLite file handed to a verifier was
 * switched to WAL before it was refused. user_version (header offset 60) is
 * set when a store is created, and the constructor checkpoints it into the
 * main file before it returns, so the header is where it can be read.
 */
function identifyStore(path: string): void {
  const header = Buffer.alloc(100);
  let read: number;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, header, 0, header.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') throw new MemoryStoreError(`no memory store at "${path}": the file does not exist`, 'not-found');
    throw new MemoryStoreError(`no memory store at "${path}": ${(e as Error).message}`, 'not-found');
  }
  if (read === 0) throw new MemoryStoreError(`no memory store at "${path}": the file is empty and holds no tables`, 'not-found');
  if (read < header.length || header.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') {
    throw new MemoryStoreError(`no memory store at "${path}": the file is not a SQLite database`, 'not-found');
  }
  const version = header.readUInt32BE(60);
  if (version !== LAYOUT) throw new MemoryStoreError(`"${path}" is not a parapet memory store of this version (layout ${version}, expected ${LAYOUT})`, 'layout-mismatch');
}

/**
 * Create a missing database file readable by its owner only (SQLite would
 * create it 0644 under the usual umask, and its -wal and -shm with the same
 * mode: memory values readable by every local user). True if it created one.
 * An existing file keeps its mode: sharing it (a group of processes) is the
 * owner's choice.
 */
function createPrivate(path: string): boolean {
  // Not a file: an in-memory or temporary database, or a URI (only when SQLITE_USE_URI=1 turns them on).
  if (path === '' || path === ':memory:' || (path.startsWith('file:') && process.env.SQLITE_USE_URI === '1')) return false;
  try {
    closeSync(openSync(path, 'wx', 0o600));
    return true;
  } catch {
    return false; // it exists (kept as it is), or cannot be created: SQLite says why
  }
}
