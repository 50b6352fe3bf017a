// One serving engine per database file. The lock is SQLite's own: an exclusive lock, held for the
// engine's life, on a small companion file (`<db>-serving`). The operating system drops it when
// the process ends however it ends (SIGKILL, power off of the process), so a crashed engine never
// leaves a stale lock; a second engine (`npm run serve` or the app) finds it taken and stops at
// once, naming the holder from `<db>-serving.json`. The CLIs (keys, restaurant, backup) do not
// take it: they write through SQLite's normal locking beside the running engine.
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ServingHolder {
  pid: number;
  /** Who serves: "npm run serve", "the Comanda app", … */
  program: string;
  since: string;
  base_url: string | null;
}

export class DatabaseAlreadyServed extends Error {
  readonly file: string;
  readonly holder: ServingHolder | null;

  constructor(file: string, holder: ServingHolder | null) {
    const who = holder
      ? `process ${holder.pid} (${holder.program}, since ${holder.since}${holder.base_url ? `, serving ${holder.base_url}` : ''})`
      : 'another process that is starting';
    super(
      `the database ${file} is already being served by ${who}: one engine serves a file at a time. ` +
        'Use that one, or stop it first; the CLIs (keys, restaurant, devices, backup) work beside it',
    );
    this.name = 'DatabaseAlreadyServed';
    this.file = file;
    this.holder = holder;
  }
}

export interface ServingLock {
  /** Records where the engine answers, for the message a second engine prints. */
  setBaseUrl(baseUrl: string): void;
  release(): void;
}

const lockPathOf = (databasePath: string) => `${databasePath}-serving`;
const holderPathOf = (databasePath: string) => `${databasePath}-serving.json`;

/** Takes the serving lock of `databasePath`, or throws DatabaseAlreadyServed naming the holder. */
export function acquireServingLock(databasePath: string, program: string): ServingLock {
  const lockPath = lockPathOf(databasePath);
  // The lock is taken before the database is opened: on a first start the data folder (e.g.
  // ~/.config/Comanda) may not exist yet.
  mkdirSync(dirname(databasePath), { recursive: true });
  const lock: Database = new BetterSqlite3(lockPath, { timeout: 0 });
  try {
    // EXCLUSIVE locking mode keeps the lock once taken, until the connection closes (or the
    // process dies); MEMORY journal: the file only carries the lock, nothing to keep.
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.pragma('journal_mode = MEMORY');
    lock.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new DatabaseAlreadyServed(databasePath, readHolder(databasePath));
    throw error;
  }
  const holder: ServingHolder = { pid: process.pid, program, since: new Date().toISOString(), base_url: null };
  writeHolder(databasePath, holder);
  let released = false;
  return {
    setBaseUrl(baseUrl) {
      holder.base_url = baseUrl;
      if (!released) writeHolder(databasePath, holder);
    },
    release() {
      if (released) return;
      released = true;
      rmSync(holderPathOf(databasePath), { force: true });
      lock.close();
    },
  };
}

function writeHolder(databasePath: string, holder: ServingHolder): void {
  const path = holderPathOf(databasePath);
  try {
    writeFileSync(`${path}.tmp`, `${JSON.stringify(holder)}\n`);
    renameSync(`${path}.tmp`, path);
  } catch {
    // Only the message of a second engine needs it (a full disk must not stop this one).
  }
}

function readHolder(databasePath: string): ServingHolder | null {
  let holder: ServingHolder;
  try {
    holder = JSON.parse(readFileSync(holderPathOf(databasePath), 'utf8')) as ServingHolder;
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
