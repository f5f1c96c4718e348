import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A key file the CLI refused to write; exit code 1. */
export class KeyFileError extends Error {
  override name = 'KeyFileError';
  constructor(
    message: string,
    readonly code: 'exists' | 'symlink' | 'not-a-file',
  ) {
    super(message);
  }
}

// O_NOFOLLOW is absent on Windows, where file modes do not apply either.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

/**
 * Write key files (a secret at mode 0600, a public key at 0644) without ever
 * following a symlink or keeping an old file's mode. A symlink planted at the
 * path would have sent the secret to its target; an existing 0644 file would
 * have kept its mode with the secret inside. All paths are checked before any
 * is written, so a refusal leaves no half-written pair.
 *
 * Without `force` an existing path is refused and the file is created with
 * O_EXCL. With `force` a regular file is replaced by rename from a fresh temp
 * file in the same directory: the rename replaces the directory entry, never
 * what it points to. Symlinks are refused either way. Only the last path
 * component is checked: the directories are the caller's.
 */
export function writeKeyFiles(files: readonly { path: string; contents: string; mode: 0o600 | 0o644 }[], force: boolean): void {
  for (const { path } of files) check(path, force);
  for (const file of files) (force ? replace : create)(file.path, file.contents, file.mode);
}

function check(path: string, force: boolean): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (stat.isSymbolicLink()) throw new KeyFileError(`refusing to write ${path}: it is a symbolic link`, 'symlink');
  if (!stat.isFile()) throw new KeyFileError(`refusing to write ${path}: it is not a regular file`, 'not-a-file');
  if (!force) throw new KeyFileError(`refusing to overwrite ${path}: it exists (--force replaces it)`, 'exists');
}

function create(path: string, contents: string, mode: number): void {
  let fd: number;
  try {
    fd = openSync(path, CREATE_NEW, mode);
  } catch (e) {
    // Created (or linked) between the check and here.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST' || (e as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new KeyFileError(`refusing to overwrite ${path}: it exists (--force replaces it)`, 'exists');
    }
    throw e;
  }
  fill(fd, contents, mode);
}

function replace(path: string, contents: string, mode: number): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, CREATE_NEW, mode);
  try {
    fill(fd, contents, mode);
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/** Set the mode on the open file (the umask only ever narrows it, and may strip owner bits), write, sync, close. */
function fill(fd: number, contents: string, mode: number): void {
  try {
    fchmodSync(fd, mode);
    writeFileSync(fd, contents);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
