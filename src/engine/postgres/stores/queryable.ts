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

/**
 * A transaction's client (transaction-client.ts): it can send a write without waiting for its
 * answer, the next statements going out behind it; a failure is carried to the next statement
 * awaited or to the COMMIT. The pool cannot: each of its statements commits alone.
 */
export interface SendsWithoutWaiting {
  send(sql: string, params?: unknown[]): void;
}

/**
 * A transaction's client that counts the ROLLBACK TO statements sent on it: what a store wrote in
 * the transaction and kept to answer its own reads (kitchen-data-store.ts) is kept only while no
 * savepoint was rolled back since.
 */
export interface CountsRollbacks {
  readonly rollbacks: number;
}

export function countsRollbacks(db: PostgresQueryable): db is PostgresQueryable & CountsRollbacks {
  return typeof (db as Partial<CountsRollbacks>).rollbacks === 'number';
}

function sendsWithoutWaiting(db: PostgresQueryable): db is PostgresQueryable & SendsWithoutWaiting {
  return typeof (db as Partial<SendsWithoutWaiting>).send === 'function';
}

/**
 * A write whose answer the use case does not read (no rows, no count): inside a transaction sent
 * without waiting (one round trip fewer while the restaurant's clock row is held), on the pool awaited.
 */
export async function sendWrite(db: PostgresQueryable, sql: string, params: unknown[] = []): Promise<void> {
  if (sendsWithoutWaiting(db)) db.send(sql, params);
  else await db.query(sql, params);
}
