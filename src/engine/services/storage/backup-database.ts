import BetterSqlite3, { type Database } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Engine } from '../../engine.ts';
import { DATABASE_FILE_MODE } from '../../store/open-database.ts';

export interface BackupResult {
  /** The backup file, an absolute path. */
  file: string;
  bytes: number;
  pages: number;
  durationMs: number;
}

export interface BackupOptions {
  /**
   * Pages copied per step; the event loop runs between steps. Writes through the same connection
   * update the copy as it goes, but a write from another connection (another process) restarts
   * the copy from the start, so a backup taken from outside a busy engine copies all in one step.
   */
  pagesPerStep?: number;
}

/** Pages per step in the engine's own process: about 4 MiB, a few ms of the event loop. */
const IN_PROCESS_PAGES_PER_STEP = 1024;
export const ALL_PAGES = 0x7fffffff;

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

function samePath(a: string, b: string): boolean {
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));
  return real(a) === real(b);
}

/**
 * Copies an open SQLite database to `outFile` with SQLite's online backup: consistent while others
 * read and write, and everything committed before the call is in the copy. The copy is written to
 * a temporary file beside `outFile`, checked with `PRAGMA integrity_check`, then renamed into place,
 * so `outFile` is only ever a complete, sound backup (an older one stays until the new one is).
 */
export async function backupSqlite(db: Database, outFile: string, options: BackupOptions = {}): Promise<BackupResult> {
  const started = Date.now();
  const target = resolve(outFile);
  if (db.memory) throw new BackupError('an in-memory database has no file to back up');
  const source = db.name;
  for (const live of [source, `${source}-wal`, `${source}-shm`]) {
    if (samePath(live, target)) throw new BackupError(`the backup cannot overwrite the database itself (${live})`);
  }
  if (!existsSync(dirname(target))) throw new BackupError(`the folder ${dirname(target)} does not exist`);
  if (existsSync(target) && !statSync(target).isFile()) throw new BackupError(`${target} exists and is not a file`);

  const partial = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.partial`);
  const pagesPerStep = Math.max(1, Math.floor(options.pagesPerStep ?? IN_PROCESS_PAGES_PER_STEP));
  try {
    // Created readable by its owner only before SQLite writes into it: a backup holds what the database does.
    closeSync(openSync(partial, 'wx', DATABASE_FILE_MODE));
    const progress = await db.backup(partial, { progress: () => pagesPerStep });
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      const integrity = copy.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') throw new BackupError(`the copy failed its integrity check: ${String(integrity)}`);
      // The copy stands alone: no WAL file beside it, one file to keep or move.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    renameSync(partial, target);
    return { file: target, bytes: statSync(target).size, pages: progress.totalPages, durationMs: Date.now() - started };
  } finally {
    for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`]) rmSync(leftover, { force: true });
  }
}

/**
 * Backs up the engine's database to `outFile` while the engine keeps serving (the desktop app's
 * "back up now", over IPC). See backupSqlite for what the copy guarantees.
 */
export function backupDatabase(engine: Engine, outFile: string): Promise<BackupResult> {
  return backupSqlite(engine.db, outFile);
}
