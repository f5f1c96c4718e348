import type { SqliteBackend, SqliteOptions } from '../vmg/sqlite.js';

/** A dependency the command needs is not installed: exit 1 with how to install it. */
export class MissingDependencyError extends Error {
  override name = 'MissingDependencyError';
}

/**
 * The SQLite backend, loaded only by the commands that use it: better-sqlite3
 * is an optional peer dependency (a native addon), and importing it eagerly
 * made every command — `hash` and `log` included — fail where it is absent.
 */
export async function openSqlite(command: string, path: string, options: SqliteOptions = {}): Promise<SqliteBackend> {
  let backend: typeof import('../vmg/sqlite.js');
  try {
    backend = await import('../vmg/sqlite.js');
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String((e as Error).message).includes('better-sqlite3')) {
      throw new MissingDependencyError(
        `${command} needs better-sqlite3, an optional peer dependency that is not installed: npm install better-sqlite3`,
      );
    }
    throw e;
  }
  return new backend.SqliteBackend(path, options);
}
