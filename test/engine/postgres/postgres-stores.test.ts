// Issue 34: the registry of the PostgreSQL stores (postgres-stores.ts): every store of `Stores` is
// there, each a twin on the client it is given (so a transaction's statements run on its connection).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { Stores } from '../../../src/engine/stores.ts';
import { migrate } from '../../../src/engine/store/migrate.ts';
import { postgresStores } from '../../../src/engine/postgres/postgres-stores.ts';
import type { PostgresQueryable } from '../../../src/engine/postgres/stores/queryable.ts';

/** A client that records what it is asked and answers no rows. */
function recordingClient(): { client: PostgresQueryable; asked: string[] } {
  const asked: string[] = [];
  const client = { query: (sql: string) => (asked.push(sql), Promise.resolve({ rows: [], rowCount: 0 })) } as unknown as PostgresQueryable;
  return { client, asked };
}

test('the registry has every store of Stores, no more', () => {
  const db = new Database(':memory:');
  migrate(db);
  const sqlite = Object.keys(new Stores(db, '')).sort();
  db.close();
  const { client } = recordingClient();
  assert.deepEqual(Object.keys(postgresStores(client, { orderNumberPrefix: '', eventAppended: () => {} })).sort(), sqlite);
});

test("each twin runs its statements on the client it was built on (the transaction's)", async () => {
  const first = recordingClient();
  const second = recordingClient();
  const options = { orderNumberPrefix: '', eventAppended: () => {} };
  const stores = postgresStores(first.client, options);
  postgresStores(second.client, options);
  assert.equal(await stores.restaurants.get('r1'), undefined);
  assert.equal(await stores.locations.get('r1', 'l1'), undefined);
  assert.equal(first.asked.length, 2);
  assert.equal(second.asked.length, 0);
});

test('every store is a PostgreSQL twin: none is left without one', () => {
  const { client } = recordingClient();
  const stores = postgresStores(client, { orderNumberPrefix: '', eventAppended: () => {} });
  for (const [name, store] of Object.entries(stores)) {
    assert.match((Object.getPrototypeOf(store) as object).constructor.name, /^Postgres\w+Store$/, name);
  }
});

test('the last two twins (the reports\' reads, the restaurant import) run on the client they were built on', async () => {
  const { client, asked } = recordingClient();
  const stores = postgresStores(client, { orderNumberPrefix: '', eventAppended: () => {} });
  assert.deepEqual(await stores.kitchenReports.numbers(['o1']), new Map());
  assert.equal(await stores.restaurantImport.taken('products', 'p1'), false);
  assert.deepEqual(asked, ['SELECT id, number FROM orders WHERE id = ANY ($1::text[])', 'SELECT 1 FROM products WHERE id = $1']);
});
