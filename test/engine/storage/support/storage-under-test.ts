// The storage port's two implementations on real databases, seeded alike: a SQLite file made by
// openDatabase (the engine's own start-up and migrations), and a database of the test process's
// throwaway PostgreSQL cluster (test/support/postgres-cluster.ts) migrated by migratePostgres, as one
// node or several (each its own pool and LISTEN connection on the same database).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { migratePostgres } from '../../../../src/engine/postgres/migrate-postgres.ts';
import { createPostgresPool } from '../../../../src/engine/postgres/postgres-pool.ts';
import { PostgresStorage } from '../../../../src/engine/postgres/postgres-storage.ts';
import { SqliteStorage } from '../../../../src/engine/storage/sqlite-storage.ts';
import type { StoragePort } from '../../../../src/engine/storage/storage-port.ts';
import { openDatabase } from '../../../../src/engine/store/open-database.ts';
import { usePostgresCluster, type PostgresCluster } from '../../../support/postgres-cluster.ts';

export const RESTAURANT = 'r-1';
export const OTHER_RESTAURANT = 'r-2';
export const LOCATION = 'l-1';
export const PRODUCT = 'p-1';
export const API_KEY = 'k-1';

export interface StorageUnderTest {
  kind: 'sqlite' | 'postgres';
  storage: StoragePort;
  /** Reads the database directly (what the test checks), plain SQL without parameters. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  /** Runs plain SQL outside the port (seeding). */
  exec(sql: string): Promise<void>;
  stop(): Promise<void>;
}

/** Two restaurants, one location, one tracked product with `units` in stock, one API key. */
function seedSql(units: number, blob: string): string {
  return `
    INSERT INTO restaurants (id, name, register_mode, created_at) VALUES ('${RESTAURANT}', 'Uno', 'manual', 0), ('${OTHER_RESTAURANT}', 'Dos', 'manual', 0);
    INSERT INTO locations (id, restaurant_id, name, address) VALUES ('${LOCATION}', '${RESTAURANT}', 'Local', 'Calle 1');
    INSERT INTO categories (id, restaurant_id, name) VALUES ('c-1', '${RESTAURANT}', 'Platos');
    INSERT INTO products (id, restaurant_id, category_id, slug, name, price, track_stock) VALUES ('${PRODUCT}', '${RESTAURANT}', 'c-1', 'completo', 'Completo', 2500, 1);
    INSERT INTO stock (location_id, product_id, quantity) VALUES ('${LOCATION}', '${PRODUCT}', ${units});
    INSERT INTO api_keys (id, restaurant_id, lookup, salt, hash, world, can_write, last4, created_at)
      VALUES ('${API_KEY}', '${RESTAURANT}', 'lookup-1', ${blob}, ${blob}, 'live', 1, 'abcd', 0);`;
}

export async function sqliteUnderTest(units: number): Promise<StorageUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-storage-'));
  const db = openDatabase(join(dir, 'engine.db'));
  db.exec(seedSql(units, "X'00'"));
  const storage = new SqliteStorage(db);
  return {
    kind: 'sqlite',
    storage,
    rows: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
    exec: async (sql) => void db.exec(sql),
    stop: async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PostgresUnderTest extends StorageUnderTest {
  connectionString: string;
  /** One more node on the same database: its own pool and LISTEN connection. */
  node(options?: { rePollMs?: number }): Promise<PostgresStorage>;
}

let databases = 0;

export async function postgresUnderTest(units: number, options: { rePollMs?: number } = {}): Promise<PostgresUnderTest> {
  const cluster: PostgresCluster = await usePostgresCluster();
  const connectionString = await cluster.createDatabase(`storage_${process.pid}_${(databases += 1)}`);
  const errors: Error[] = [];
  const onError = (error: Error) => errors.push(error);
  const admin = createPostgresPool({ connectionString, max: 2, onError });
  await migratePostgres(admin);
  await admin.query(seedSql(units, "'\\x00'::bytea"));
  const nodes: PostgresStorage[] = [];
  const node = async (nodeOptions: { rePollMs?: number } = {}) => {
    const storage = await PostgresStorage.open({ connectionString, poolSize: 20, onError, rePollMs: nodeOptions.rePollMs ?? options.rePollMs });
    nodes.push(storage);
    return storage;
  };
  const storage = await node();
  return {
    kind: 'postgres',
    storage,
    connectionString,
    node,
    rows: async (sql) => (await admin.query(sql)).rows as Record<string, unknown>[],
    exec: async (sql) => void (await admin.query(sql)),
    stop: async () => {
      for (const each of nodes) await each.close();
      await admin.end();
      await cluster.release();
    },
  };
}

