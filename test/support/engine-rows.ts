// What a table of the engine under test holds, read behind the engine on either database: on SQLite
// through the engine's own connection (`engine.db`), on PostgreSQL on a connection of its own to the
// engine's database (`dbPath` is then its connection string). For the API tests that check what a
// use case left in a table the API does not show (a purge), so one test body runs on both.
import pg from 'pg';
import type { EngineUnderTest } from './engine-under-test.ts';

/**
 * The rows of `sql`, a query both databases read alike (no parameters, portable SQL). Numbers
 * come back as numbers on both where PostgreSQL's type is a 4-byte integer (`CAST(COUNT(*) AS INTEGER)`: a bigint comes back as text).
 */
export async function engineRows(t: EngineUnderTest, sql: string): Promise<Record<string, unknown>[]> {
  if (!t.dbPath.startsWith('postgres://')) return t.server.engine.db.prepare(sql).all() as Record<string, unknown>[];
  const client = new pg.Client({ connectionString: t.dbPath });
  client.on('error', () => {}); // a dropped connection fails the query below, which says so
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
