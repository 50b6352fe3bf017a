// PostgreSQL's schema against SQLite's, its migrations, the transactions' retries, and the defects a
// literal port of today's SQL would have (reproduced here on a real PostgreSQL, so the port's answers
// to them are known to be needed).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { migratePostgres } from '../../../src/engine/postgres/migrate-postgres.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/engine/postgres/migrations/index.ts';
import { createPostgresPool } from '../../../src/engine/postgres/postgres-pool.ts';
import { runTransaction } from '../../../src/engine/postgres/run-transaction.ts';
import { migrate } from '../../../src/engine/store/migrate.ts';
import { usePostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';

/** SQLite's declared types and PostgreSQL's for the same column. */
const TYPE_MAP: Record<string, string> = { INTEGER: 'bigint', TEXT: 'text', REAL: 'double precision', BLOB: 'bytea' };
/** Tables only one side has, and why. */
const ONLY_SQLITE = new Set(['sqlite_sequence']); // SQLite's own AUTOINCREMENT bookkeeping
const ONLY_POSTGRES = new Set(['schema_migrations', 'restaurant_clocks', 'kitchen_pairing_bucket_tally', 'config_version']); // PostgreSQL's version table; the clock rows; the pairing buckets' count (0009); the kept tables' number (0011)
/** Columns that moved to the clock row on PostgreSQL. */
const MOVED: Record<string, string> = {
  'restaurants.next_order_number': 'restaurant_clocks.next_order_number',
  'restaurants.next_test_order_number': 'restaurant_clocks.next_test_order_number',
};

interface Column {
  type: string;
  notNull: boolean;
}

function sqliteColumns(): Map<string, Column> {
  const db = new Database(':memory:');
  migrate(db);
  const columns = new Map<string, Column>();
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  for (const { name } of tables) {
    if (ONLY_SQLITE.has(name)) continue;
    for (const c of db.prepare(`PRAGMA table_info(${name})`).all() as { name: string; type: string; notnull: number; pk: number }[]) {
      const type = TYPE_MAP[c.type];
      assert.ok(type, `${name}.${c.name}: no PostgreSQL type for SQLite's ${c.type}`);
      columns.set(`${name}.${c.name}`, { type, notNull: c.notnull === 1 || c.pk > 0 });
    }
  }
  db.close();
  return columns;
}

async function postgresColumns(pool: pg.Pool): Promise<Map<string, Column>> {
  const { rows } = await pool.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public'",
  );
  const columns = new Map<string, Column>();
  for (const r of rows) {
    if (ONLY_POSTGRES.has(r.table_name)) continue;
    columns.set(`${r.table_name}.${r.column_name}`, { type: r.data_type, notNull: r.is_nullable === 'NO' });
  }
  return columns;
}

describe('PostgreSQL schema and transactions', () => {
  let cluster: PostgresCluster;
  let pool: pg.Pool;
  const errors: Error[] = [];
  before(async () => {
    cluster = await usePostgresCluster();
    pool = createPostgresPool({ connectionString: await cluster.createDatabase('schema'), max: 6, onError: (e) => errors.push(e) });
    await migratePostgres(pool);
  });
  after(async () => {
    await pool.end();
    await cluster.release();
  });

  test('the two schemas hold the same tables and columns, types mapped, nullability alike', async () => {
    const sqlite = sqliteColumns();
    const postgres = await postgresColumns(pool);
    for (const [from, to] of Object.entries(MOVED)) {
      assert.ok(sqlite.has(from) && !postgres.has(from), `${from} moved`);
      const clocks = await pool.query("SELECT 1 FROM information_schema.columns WHERE table_name || '.' || column_name = $1", [to]);
      assert.equal(clocks.rowCount, 1, `${to} exists`);
      sqlite.delete(from);
    }
    assert.deepEqual([...postgres.keys()].sort(), [...sqlite.keys()].sort());
    for (const [column, expected] of sqlite) assert.deepEqual(postgres.get(column), expected, column);
  });

  test('migrations: recorded by version, a second run does nothing, a newer database is refused', async () => {
    const { rows } = await pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows.map((r) => r.version), POSTGRES_MIGRATIONS.map((m) => m.version));
    assert.equal(await migratePostgres(pool), POSTGRES_MIGRATIONS.length);
    await assert.rejects(migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, 1)), /newer than this program knows/);
    await assert.rejects(migratePostgres(pool, [POSTGRES_MIGRATIONS[0]!, { ...POSTGRES_MIGRATIONS[1]!, version: 3 }]), /gap/);
  });

  test('a deadlock between two transactions: PostgreSQL ends one, it is retried and both commit', async () => {
    await pool.query("CREATE TABLE deadlock_rows (id text PRIMARY KEY, n bigint NOT NULL); INSERT INTO deadlock_rows VALUES ('a', 0), ('b', 0)");
    let firstLocks = 0;
    let bothLocked!: () => void;
    const barrier = new Promise<void>((resolve) => (bothLocked = resolve));
    const retries: string[] = [];
    const crosswise = (first: string, second: string) =>
      runTransaction(
        pool,
        async (client) => {
          await client.query('UPDATE deadlock_rows SET n = n + 1 WHERE id = $1', [first]);
          if ((firstLocks += 1) === 2) bothLocked();
          await barrier;
          await client.query('UPDATE deadlock_rows SET n = n + 1 WHERE id = $1', [second]);
        },
        { onRetry: (error) => retries.push((error as { code: string }).code) },
      );
    await Promise.all([crosswise('a', 'b'), crosswise('b', 'a')]);
    // Usually one is ended; both can be when their waits began within the same moment (each finds the cycle).
    assert.ok(retries.length >= 1 && retries.length <= 2, `retries: ${retries.join(', ')}`);
    assert.ok(retries.every((code) => code === '40P01'));
    const { rows } = await pool.query<{ n: number }>('SELECT n FROM deadlock_rows ORDER BY id');
    assert.deepEqual(rows.map((r) => r.n), [2, 2]);
  });

  test('an error that is not a deadlock or a serialization failure is not retried', async () => {
    let attempts = 0;
    await assert.rejects(
      runTransaction(pool, async (client) => {
        attempts += 1;
        await client.query('SELECT 1 / 0');
      }),
      /division by zero/,
    );
    assert.equal(attempts, 1);
  });

  test('the defect a literal port has: a plain sequence lets a reader skip a slow writer\'s event', async () => {
    await pool.query('CREATE TABLE plain_events (seq bigserial PRIMARY KEY, who text NOT NULL)');
    const slow = await pool.connect();
    try {
      await slow.query('BEGIN');
      await slow.query("INSERT INTO plain_events (who) VALUES ('slow')"); // takes 1, not committed
      await pool.query("INSERT INTO plain_events (who) VALUES ('fast')"); // takes 2, committed
      const { rows: firstRead } = await pool.query<{ seq: number }>('SELECT seq FROM plain_events WHERE seq > 0 ORDER BY seq');
      const cursor = firstRead.at(-1)!.seq;
      await slow.query('COMMIT');
      const { rows: secondRead } = await pool.query('SELECT seq FROM plain_events WHERE seq > $1', [cursor]);
      assert.equal(cursor, 2);
      assert.deepEqual(secondRead, [], "the slow writer's event 1 is never read by a reader at cursor 2");
    } finally {
      slow.release();
    }
  });

  test("the defect a literal port has: look-up-then-upsert of an Idempotency-Key lets two transactions both do the work", async () => {
    await pool.query('CREATE TABLE plain_keys (key text PRIMARY KEY, order_id text NOT NULL)');
    const [one, two] = [await pool.connect(), await pool.connect()];
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      const missed = [
        (await one.query("SELECT 1 FROM plain_keys WHERE key = 'k'")).rowCount,
        (await two.query("SELECT 1 FROM plain_keys WHERE key = 'k'")).rowCount,
      ];
      assert.deepEqual(missed, [0, 0], 'both miss the key, so both create an order');
      const upsert = "INSERT INTO plain_keys VALUES ('k', $1) ON CONFLICT (key) DO UPDATE SET order_id = excluded.order_id";
      await one.query(upsert, ['order-1']);
      const second = two.query(upsert, ['order-2']); // waits for one
      await one.query('COMMIT');
      await second;
      await two.query('COMMIT');
      const { rows } = await pool.query<{ order_id: string }>('SELECT order_id FROM plain_keys');
      assert.deepEqual(rows, [{ order_id: 'order-2' }], "the first order's record is overwritten: two orders under one key");
    } finally {
      one.release();
      two.release();
    }
  });

  test('no connection error went unhandled', () => {
    assert.deepEqual(errors, []);
  });
});
