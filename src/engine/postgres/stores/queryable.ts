// Issue 34: what a PostgreSQL store runs its statements on. Inside a transaction, the one client
// that transaction holds (runTransaction hands it out, as postgres-storage.ts hands its client to a
// RestaurantWrite): a store is built per transaction on it, so every statement of the use case runs
// in that transaction and, on a pipelining pool, goes out behind the one before. Outside one (a read
// on its own), the pool. Either way from createPostgresPool: its `bigint` columns come back as
// numbers, refused beyond 2^53, as better-sqlite3 gives them.
import type pg from 'pg';

export type PostgresQueryable = Pick<pg.PoolClient, 'query'>;

/** The rows of one statement, typed as the SQLite store types them. */
export async function rowsOf<Row>(db: PostgresQueryable, sql: string, params: unknown[] = []): Promise<Row[]> {
  return (await db.query(sql, params)).rows as Row[];
}

/** The first row of one statement, or undefined (as better-sqlite3's `get`). */
export async function firstRow<Row>(db: PostgresQueryable, sql: string, params: unknown[] = []): Promise<Row | undefined> {
  return (await rowsOf<Row>(db, sql, params))[0];
}

/** How many rows a statement changed (better-sqlite3's `changes`). */
export async function changesOf(db: PostgresQueryable, sql: string, params: unknown[] = []): Promise<number> {
  return (await db.query(sql, params)).rowCount ?? 0;
}
