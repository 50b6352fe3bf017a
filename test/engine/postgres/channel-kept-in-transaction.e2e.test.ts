// Issue 34, round 12, on a real PostgreSQL: the kitchen channel a transaction set is read back from
// what it set, not with a statement (a round trip fewer while the restaurant's clock row is held),
// and only while no savepoint was rolled back since; outside a transaction (the pool) it is read.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runTransaction } from '../../../src/engine/postgres/run-transaction.ts';
import { TransactionClient } from '../../../src/engine/postgres/transaction-client.ts';
import { PostgresKitchenDataStore } from '../../../src/engine/postgres/stores/kitchen-data-store.ts';
import { PostgresOrdersStore } from '../../../src/engine/postgres/stores/orders-store.ts';
import { openPostgresBackend, RESTAURANTS_SEED } from '../../engine/store/support/store-backends.ts';
import { orderRow } from '../../engine/store/contracts/orders-store.contract.ts';

const CHANNEL_READ = 'SELECT channel FROM kitchen_order_channels';

describe("a transaction's own kitchen channel", () => {
  let backend: Awaited<ReturnType<typeof openPostgresBackend>>;

  before(async () => {
    backend = await openPostgresBackend();
    await backend.exec(RESTAURANTS_SEED);
    for (const id of ['c-1', 'c-2']) await new PostgresOrdersStore(backend.pool).insert(orderRow(id));
  });
  after(() => backend.stop());

  /** Runs `work` on a transaction's client as the engine builds it, counting the channel reads it sent. */
  const inTransaction = <T>(work: (store: PostgresKitchenDataStore, client: TransactionClient) => Promise<T>) => {
    const reads = { n: 0 };
    const done = runTransaction(backend.pool, async (pooled) => {
      const client = new TransactionClient({
        query: ((sql: unknown, ...rest: unknown[]) => {
          if (typeof sql === 'string' && sql.startsWith(CHANNEL_READ)) reads.n += 1;
          return (pooled.query as (...a: unknown[]) => unknown)(sql, ...rest);
        }) as typeof pooled.query,
      });
      return await work(new PostgresKitchenDataStore(client), client);
    }, { commitWatch: null });
    return done.then((value) => ({ value, reads: reads.n }));
  };

  test('set then read in one transaction: its own value, no statement; committed as set', async () => {
    const { value, reads } = await inTransaction(async (store) => {
      await store.setChannel('c-1', 'api');
      return await store.channel('c-1');
    });
    assert.equal(value, 'api');
    assert.equal(reads, 0);
    assert.equal(await new PostgresKitchenDataStore(backend.pool).channel('c-1'), 'api');
  });

  test('a savepoint rolled back after the set: read from the database (what the rollback left)', async () => {
    const { value, reads } = await inTransaction(async (store, client) => {
      await store.setChannel('c-2', 'pos');
      await client.query('SAVEPOINT sp');
      await store.setChannel('c-2', 'kiosk');
      await client.query('ROLLBACK TO SAVEPOINT sp');
      return await store.channel('c-2');
    });
    assert.equal(value, 'pos');
    assert.equal(reads, 1);
  });

  test('another order, or a store on the pool: read with a statement', async () => {
    const { value, reads } = await inTransaction(async (store) => {
      await store.setChannel('c-2', 'pos');
      return await store.channel('c-1');
    });
    assert.equal(value, 'api');
    assert.equal(reads, 1);
  });
});
