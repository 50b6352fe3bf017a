// Issue 34: PostgreSQL's migrations, each version once, in its own transaction, recorded in
// schema_migrations. Nodes starting together on one database take an advisory lock: one migrates,
// the others then find nothing to do. A database newer than this code is refused, as on SQLite.
import type pg from 'pg';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from './migrations/index.ts';

/** Any fixed number: the advisory lock's name for "migrating Comanda's schema". */
const MIGRATION_LOCK = 0x436d6e64;

export async function migratePostgres(pool: pg.Pool, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<number> {
  migrations.forEach((m, index) => {
    if (m.version !== index + 1) throw new Error(`PostgreSQL migration list has a gap: expected version ${index + 1}, found ${m.version} (${m.name})`);
  });
  const client = await pool.connect();
  const ignore = () => {};
  client.on('error', ignore);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
      const current = rows[0]?.version ?? 0;
      if (current > migrations.length) {
        throw new Error(`database schema version ${current} is newer than this program knows (${migrations.length}); refusing to use it`);
      }
      for (const m of migrations.slice(current)) {
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
      return migrations.length;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.off('error', ignore);
    client.release();
  }
}
