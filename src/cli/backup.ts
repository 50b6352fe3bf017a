import BetterSqlite3 from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ALL_PAGES, BackupError, backupSqlite } from '../engine/services/storage/backup-database.ts';
import { defaultDatabasePath } from '../engine/data-dir.ts';

const USAGE = `usage: npm run backup -- --out FILE [--db PATH]
  --out FILE  where the backup goes (written beside it first, renamed into place when complete and checked)
  --db PATH   the engine's SQLite file (default ${defaultDatabasePath()})
Safe while the engine runs: SQLite's online backup copies a consistent state of the database.`;

function usage(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { db: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
      strict: true,
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.out) usage('--out FILE is required');
  const dbPath = values.db ?? defaultDatabasePath();
  if (!existsSync(dbPath)) usage(`no database at ${dbPath}`);
  // Opened as it is: a backup neither migrates nor otherwise writes the database.
  const db = new BetterSqlite3(dbPath, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    // Another process (the running engine) may write meanwhile, and each of its writes would
    // restart a backup taken in steps: copy everything in one step instead.
    const result = await backupSqlite(db, values.out, { pagesPerStep: ALL_PAGES });
    console.log(JSON.stringify({ db: dbPath, out: result.file, bytes: result.bytes, pages: result.pages, duration_ms: result.durationMs }));
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`backup failed: ${error.message}`);
    process.exitCode = 1;
  } finally {
    db.close();
  }
}

main().catch((error: unknown) => {
  console.error(`comanda backup: ${(error as Error).message}`);
  process.exit(1);
});
