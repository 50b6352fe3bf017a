// npm run export:postgres (issue 34): moves an upstream's SQLite file into an empty PostgreSQL
// database, migrating it first; same ids, the feed's sequence and the order numbers kept.
import BetterSqlite3 from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exportSqliteToPostgres } from '../engine/postgres/export-sqlite.ts';
import { migratePostgres } from '../engine/postgres/migrate-postgres.ts';
import { createPostgresPool } from '../engine/postgres/postgres-pool.ts';

const USAGE = `usage: npm run export:postgres -- --db PATH --to postgres://USER@HOST:PORT/DATABASE
  --db PATH  the upstream's SQLite file (stop its engine first: the export reads it as it is)
  --to URL   an empty PostgreSQL database (migrated here first); the password may come from PGPASSWORD
Copies every table in one transaction: all of it or nothing.`;

function usage(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { db: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
      strict: true,
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.db || !existsSync(values.db)) usage('--db PATH must name an existing SQLite file');
  if (!values.to?.startsWith('postgres://') && !values.to?.startsWith('postgresql://')) usage('--to must be a postgres:// URL');
  const sqlite = new BetterSqlite3(values.db, { readonly: true, fileMustExist: true });
  // The connection string is never logged (it may hold a password).
  const pool = createPostgresPool({ connectionString: values.to, max: 2, applicationName: 'comanda export', onError: (error) => console.error(`postgres: ${error.message}`) });
  try {
    await migratePostgres(pool);
    const summary = await exportSqliteToPostgres(sqlite, pool);
    console.log(JSON.stringify({ db: values.db, tables: Object.keys(summary.rows).length, rows: summary.rows, clocks: summary.clocks }));
  } finally {
    sqlite.close();
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error(`comanda export: ${(error as Error).message}`);
  process.exit(1);
});
