// One serving engine per database file, whatever the path it is given by. The lock is SQLite's
// own: an exclusive lock, held for the engine's life, on a small companion file named after the
// file's real path (`<real path>-serving`: symlinks and `..` resolved), and a second one named
// after its device and inode (in the temporary folder), so the same file under two names (a hard
// link) is one file too. The operating system drops them when the process ends however it ends
// (SIGKILL, power off of the process), so a crashed engine never leaves a stale lock; a second
// engine (`npm run serve`, a replica or the app) finds one taken and stops at once, naming the
// holder from `<real path>-serving.json`, before it opens or writes anything.
//
// A start refused after the lock was taken (a damaged file, a full disk) gives it back with
// `abandon()`: what this start created (the lock files, the data folder, a new database file, its
// -wal and -shm) is removed, so a refused start leaves nothing behind. The CLIs (keys, restaurant,
// backup) do not take it: they write through SQLite's normal locking beside the running engine.
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, openSync, closeSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { folderRefusal, fullDiskRefusal, StorageRefusal } from './store/database-checks.ts';

export interface ServingHolder {
  pid: number;
  /** Who serves: "npm run serve", "the Comanda app", … */
  program: string;
  since: string;
  base_url: string | null;
  /** The database's real path, as the holder named it. */
  file?: string;
}

export class DatabaseAlreadyServed extends Error {
  readonly file: string;
  readonly holder: ServingHolder | null;

  constructor(file: string, holder: ServingHolder | null) {
    const who = holder
      ? `process ${holder.pid} (${holder.program}, since ${holder.since}${holder.base_url ? `, serving ${holder.base_url}` : ''})`
      : 'another process that is starting';
    const alias = holder?.file && holder.file !== file ? ` (the same file as ${holder.file})` : '';
    super(
      `the database ${file}${alias} is already being served by ${who}: one engine serves a file at a time. ` +
        'Use that one, or stop it first; the CLIs (keys, restaurant, devices, backup) work beside it',
    );
    this.name = 'DatabaseAlreadyServed';
    this.file = file;
    this.holder = holder;
  }
}

export interface ServingLock {
  /** The database's real path (symlinks and `..` resolved). */
  readonly file: string;
  /** Records where the engine answers, for the message a second engine prints. */
  setBaseUrl(baseUrl: string): void;
  /** Takes the device-and-inode lock of a file this start created (it had no inode before). */
  coverFile(): void;
  /** Stops serving: the locks are given back and their files removed. */
  release(): void;
  /** A refused start: as release, and what this start created beside or for the database is removed. */
  abandon(): void;
}

/**
 * The path's real location as the operating system resolves it (symlinks, and `..` after a
 * symlinked folder, which a lexical normalisation gets wrong), also for a file or folders not there yet.
 */
function realDatabasePath(databasePath: string): string {
  try {
    return realpathSync(databasePath);
  } catch {
    const parent = dirname(databasePath);
    if (parent === databasePath) return resolve(databasePath);
    return join(realDatabasePath(parent), basename(databasePath));
  }
}

const lockPathOf = (file: string) => `${file}-serving`;
const holderPathOf = (file: string) => `${file}-serving.json`;
const INODE_LOCKS_DIR = () => join(tmpdir(), 'comanda-serving');
const inodeLockPathOf = (file: string) => {
  const stat = statSync(file);
  return join(INODE_LOCKS_DIR(), `${stat.dev}-${stat.ino}`);
};

const isCode = (error: unknown, ...codes: string[]) => codes.includes((error as NodeJS.ErrnoException).code ?? '');

interface FileLock {
  db: Database;
  path: string;
}

/**
 * An exclusive SQLite lock on `path` (created if needed), or 'busy' when another process holds it.
 * The file is removed on release while the lock is held, so a taker checks afterwards that it
 * locked the file the path still names, and tries again otherwise.
 */
function takeFileLock(path: string): FileLock | 'busy' {
  for (let attempt = 0; ; attempt++) {
    const created = !existsSync(path);
    const fd = openSync(path, 'a');
    let inode: number;
    try {
      inode = statSync(path).ino;
    } finally {
      closeSync(fd);
    }
    const db: Database = new BetterSqlite3(path, { timeout: 0 });
    try {
      // EXCLUSIVE locking mode keeps the lock once taken, until the connection closes (or the
      // process dies); MEMORY journal: the file only carries the lock, nothing to keep.
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = MEMORY');
      db.exec('BEGIN EXCLUSIVE; COMMIT');
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return 'busy';
      // Not taken (a full disk, say): a lock file this call made is not left behind.
      if (created) rmSync(path, { force: true });
      throw error;
    }
    const now = statSync(path, { throwIfNoEntry: false });
    if (now?.ino === inode) return { db, path };
    // Its holder removed it as we opened it: the lock is on a file no one else will look at.
    db.close();
    if (attempt >= 20) throw new Error(`the lock file ${path} keeps being replaced`);
  }
}

function dropFileLock(lock: FileLock): void {
  rmSync(lock.path, { force: true });
  lock.db.close();
}

/**
 * Who serves `databasePath` now, from the record the serving engine keeps beside it (its process
 * alive), or null. For the CLIs that need the engine's address (`devices -- pair`); no lock is taken.
 */
export function servingHolderOf(databasePath: string): ServingHolder | null {
  return readHolder(holderPathOf(realDatabasePath(databasePath)));
}

/** Takes the serving lock of `databasePath`, or throws DatabaseAlreadyServed naming the holder. */
export function acquireServingLock(databasePath: string, program: string): ServingLock {
  const file = realDatabasePath(databasePath);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat?.isDirectory()) {
    throw new StorageRefusal(databasePath, 'it is a folder, not a database file', `Give the path of a file, e.g. --db ${join(databasePath, 'comanda.db')}; nothing was written`);
  }
  const folder = dirname(file);
  // On a first start the data folder (e.g. ~/.config/Comanda) may not exist yet.
  let firstCreated: string | undefined;
  try {
    firstCreated = mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK);
  } catch (error) {
    if (isCode(error, 'EACCES', 'EPERM', 'EROFS', 'ENOTDIR')) {
      removeCreatedFolders(folder, firstCreated);
      throw folderRefusal(databasePath, error);
    }
    throw error;
  }
  const existed = new Set([file, `${file}-wal`, `${file}-shm`].filter((p) => existsSync(p)));
  const createdFolders = () => removeCreatedFolders(folder, firstCreated);
  let pathLock: FileLock | 'busy';
  try {
    pathLock = takeFileLock(lockPathOf(file));
  } catch (error) {
    createdFolders();
    if (isCode(error, 'EACCES', 'EPERM', 'EROFS')) throw folderRefusal(databasePath, error);
    throw fullDiskRefusal(databasePath, error) ?? error;
  }
  if (pathLock === 'busy') throw new DatabaseAlreadyServed(databasePath, readHolder(holderPathOf(file)));
  let inodeLock: FileLock | null = null;
  const holder: ServingHolder = { pid: process.pid, program, since: new Date().toISOString(), base_url: null, file };
  const write = () => {
    writeHolder(holderPathOf(file), holder);
    if (inodeLock) writeHolder(`${inodeLock.path}.json`, holder);
  };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    rmSync(holderPathOf(file), { force: true });
    if (inodeLock) {
      rmSync(`${inodeLock.path}.json`, { force: true });
      dropFileLock(inodeLock);
    }
    dropFileLock(pathLock);
  };
  const coverFile = () => {
    if (inodeLock || released || !existsSync(file)) return;
    const path = inodeLockPathOf(file);
    let taken: FileLock | 'busy';
    try {
      // Shared by every user, like the temporary folder itself (sticky: each removes only its own).
      if (mkdirSync(INODE_LOCKS_DIR(), { recursive: true }) !== undefined) chmodSync(INODE_LOCKS_DIR(), 0o1777);
      taken = takeFileLock(path);
    } catch (error) {
      // A temporary folder this user cannot write: the real path's lock still holds (a hard link is not caught).
      if (isCode(error, 'EACCES', 'EPERM', 'EROFS') || (error as { code?: string }).code?.startsWith('SQLITE_CANTOPEN')) return;
      throw error;
    }
    if (taken === 'busy') {
      const other = readHolder(`${path}.json`);
      release();
      throw new DatabaseAlreadyServed(databasePath, other);
    }
    inodeLock = taken;
  };
  try {
    coverFile();
  } catch (error) {
    release();
    createdFolders();
    throw error;
  }
  write();
  return {
    file,
    setBaseUrl(baseUrl) {
      holder.base_url = baseUrl;
      if (!released) write();
    },
    coverFile() {
      coverFile();
      if (!released) write();
    },
    release,
    abandon() {
      if (released) return;
      // Created by this start: a new database file and the side files SQLite made for it, removed
      // while the lock is still held (no other engine can have opened them meanwhile).
      for (const path of [`${file}-wal`, `${file}-shm`, `${file}-journal`, file]) {
        if (!existed.has(path)) rmSync(path, { force: true });
      }
      release();
      createdFolders();
    },
  };
}

/** Removes the folders `mkdirSync(folder, { recursive: true })` created (first one `firstCreated`), if still empty. */
function removeCreatedFolders(folder: string, firstCreated: string | undefined): void {
  if (!firstCreated) return;
  for (let dir = folder; dir.length >= firstCreated.length; dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
    if (dir === firstCreated) return;
  }
}

function writeHolder(path: string, holder: ServingHolder): void {
  try {
    writeFileSync(`${path}.tmp`, `${JSON.stringify(holder)}\n`);
    renameSync(`${path}.tmp`, path);
  } catch {
    // Only the message of a second engine needs it (a full disk must not stop this one).
    rmSync(`${path}.tmp`, { force: true });
  }
}

function readHolder(path: string): ServingHolder | null {
  let holder: ServingHolder;
  try {
    holder = JSON.parse(readFileSync(path, 'utf8')) as ServingHolder;
  } catch {
    return null;
  }
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // Left by an engine that was killed, and the new holder has not written its own yet.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return holder;
}
