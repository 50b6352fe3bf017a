import BetterSqlite3, { type Database } from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkFolderWritable, checkIntegrity, checkOwnership, folderRefusal, fullDiskRefusal, inspectFile, probeWrite, quickCheckAtOpen, StorageRefusal } from './database-checks.ts';
import { checkMigrationList, migrate } from './migrate.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

export type { Database };

export interface OpenDatabaseOptions {
  /** The schema steps (tests pass a list with a gap or a shorter one); default: this release's. */
  migrations?: readonly Migration[];
  /** Files up to this size get quick_check while opened; larger ones are checked after start (startEngineServer). */
  quickCheckMaxBytes?: number;
}

/**
 * Opens (creating if needed) the engine's SQLite file in WAL mode and brings its schema up to
 * date, after the start-up checks (store/database-checks.ts): a file that is not a SQLite
 * database, belongs to another program, is newer than this code, is damaged or cannot be written
 * is refused with a StorageRefusal; the first three are refused before anything is written.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database {
  const migrations = options.migrations ?? MIGRATIONS;
  checkMigrationList(migrations);
  if (path === ':memory:') return configure(new BetterSqlite3(path), migrations);
  inspectFile(path);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw folderRefusal(path, error);
  }
  // SQLite writes the -wal and -shm beside the file, reads included: a folder that cannot take them is named as such.
  checkFolderWritable(path);
  const sideFiles = [`${path}-wal`, `${path}-shm`].filter((side) => !existsSync(side));
  const created = ownerOnly(path);
  let db = null as Database | null;
  try {
    try {
      db = new BetterSqlite3(path);
    } catch (error) {
      throw new StorageRefusal(path, `SQLite cannot open it (${(error as Error).message})`, undefined, { cause: error });
    }
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    checkOwnership(db, path, migrations.length);
    if (quickCheckAtOpen(path, options.quickCheckMaxBytes)) checkIntegrity(db, path);
    try {
      configure(db, migrations);
    } catch (error) {
      // A file SQLite opened read-only (immutable, no permission) fails on its first write here.
      if (!(error as { code?: string }).code?.startsWith('SQLITE_')) throw error;
      probeWrite(db, path);
      throw new StorageRefusal(path, `it could not be prepared (${(error as Error).message})`, undefined, { cause: error });
    }
    probeWrite(db, path);
    return db;
  } catch (error) {
    db?.close();
    // A refusal leaves nothing behind: the -wal (still empty) and -shm this open made go.
    for (const side of sideFiles) {
      if (side.endsWith('-shm') || statSync(side, { throwIfNoEntry: false })?.size === 0) rmSync(side, { force: true });
    }
    if (created) rmSync(path, { force: true });
    // On a full disk SQLite's errors (an I/O error mapping the -shm, say) would read as damage.
    throw fullDiskRefusal(path, error) ?? error;
  }
}

/**
 * How long opening (the checks, the migrations) and a CLI's connections wait, inside SQLite, for
 * another process's write lock: synchronous, and so not for a serving engine, which sets its
 * connection to 0 once open and waits on timers instead (engine/other-writers.ts).
 */
export const BUSY_TIMEOUT_MS = 5000;

/** Readable and writable by its owner only: the file holds payment credentials and key digests. */
export const DATABASE_FILE_MODE = 0o600;

/**
 * The database file, and the -wal and -shm beside it, readable by their owner only: a new file is
 * created so before SQLite opens it (SQLite gives the -wal and -shm it creates the file's mode),
 * an existing one is narrowed to it where this user may. Returns whether the file was created here.
 */
function ownerOnly(path: string): boolean {
  let created = false;
  try {
    closeSync(openSync(path, 'wx', DATABASE_FILE_MODE));
    created = true;
  } catch {
    // It exists (or cannot be made: SQLite's open says why, below).
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, DATABASE_FILE_MODE);
    } catch {
      // Another user's file, or a read-only mount: left as it is, the checks below say what matters.
    }
  }
  return created;
}

/**
 * A checkpoint (the WAL copied into the file, with its fsyncs) every 4,000 pages (16 MB) instead
 * of SQLite's 1,000: a hot page written by many commits is copied once, and writes stall the event
 * loop four times less often (measured by `npm run bench`, docs/performance.md). A serving engine
 * moves its checkpoints to a worker (store/wal-checkpointer.ts); this is for everything else.
 */
export const AUTOCHECKPOINT_PAGES = 4000;

function configure(db: Database, migrations: readonly Migration[]): Database {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  migrate(db, migrations);
  return db;
}
