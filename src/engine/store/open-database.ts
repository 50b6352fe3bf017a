import BetterSqlite3, { type Database } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate.ts';

export type { Database };

/** Opens (creating if needed) the engine's SQLite file in WAL mode and brings its schema up to date. */
export function openDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A checkpoint (the WAL copied into the file, with its fsyncs) every 4,000 pages (16 MB) instead
  // of SQLite's 1,000: a hot page written by many commits is copied once, and writes stall the
  // event loop four times less often (measured by `npm run bench`, docs/performance.md).
  db.pragma('wal_autocheckpoint = 4000');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
