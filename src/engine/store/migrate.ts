import type { Database } from 'better-sqlite3';
import { COMANDA_APPLICATION_ID } from './database-checks.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

/** Throws when the list has a gap: each version must equal its position (a missing step would misread data). */
export function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((m, index) => {
    if (m.version !== index + 1) {
      throw new Error(`migration list has a gap: expected version ${index + 1}, found ${m.version} (${m.name})`);
    }
  });
}

/**
 * Applies every migration newer than the database, each in its own transaction, and records the
 * version in `PRAGMA user_version` (and Comanda's `application_id`, so the file says whose it is).
 * Refuses a list with gaps and a database newer than this code (opening it would silently misread
 * data).
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  checkMigrationList(migrations);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `database schema version ${current} is newer than this program knows (${migrations.length}); refusing to open it`,
    );
  }
  for (const m of migrations.slice(current)) {
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
      db.pragma(`application_id = ${COMANDA_APPLICATION_ID}`);
    })();
  }
  return migrations.length;
}
