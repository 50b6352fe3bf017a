// Issue 34: the pairing guard's bucket count on PostgreSQL (migration 0009, PostgresKitchenDevicesStore
// .pairingBucketCount): read from a tally the triggers keep, never from the buckets' rows, so it costs
// the same with 20,000 buckets as with none; right after every kind of write; and taken one after
// another by attempts that would add a bucket, so two nodes cannot both pass the cap.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import { migratePostgres } from '../../../src/engine/postgres/migrate-postgres.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/engine/postgres/migrations/index.ts';
import { createPostgresPool } from '../../../src/engine/postgres/postgres-pool.ts';
import { PostgresKitchenDevicesStore } from '../../../src/engine/postgres/stores/kitchen-devices-store.ts';
import { eventually } from '../../support/eventually.ts';
import { usePostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';

const rowCount = async (db: Pick<pg.PoolClient, 'query'>) =>
  (await db.query<{ n: number }>('SELECT count(*)::bigint AS n FROM kitchen_pairing_buckets')).rows[0]!.n;

/** Scans of the buckets' table by this transaction so far (any kind: a count(*) is one). */
const bucketScans = async (client: pg.PoolClient) =>
  (await client.query<{ n: number }>(
    "SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::bigint AS n FROM pg_stat_xact_user_tables WHERE relname = 'kitchen_pairing_buckets'",
  )).rows[0]!.n;

describe('the pairing buckets\' count on PostgreSQL', () => {
  let cluster: PostgresCluster;
  let pool: pg.Pool;
  before(async () => {
    cluster = await usePostgresCluster();
    pool = createPostgresPool({ connectionString: await cluster.createDatabase('pairing_tally'), max: 4, onError: () => {} });
    await migratePostgres(pool);
  });
  after(async () => {
    await pool.end();
    await cluster.release();
  });

  test('the count reads no bucket row, however many there are (20,000, the service\'s cap)', async () => {
    await pool.query("INSERT INTO kitchen_pairing_buckets SELECT 'many-' || i, 1, 0, 9e15::bigint FROM generate_series(1, 20000) i");
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const store = new PostgresKitchenDevicesStore(client);
      const scansBefore = await bucketScans(client);
      assert.equal(await store.pairingBucketCount(), 20_000);
      assert.equal(await bucketScans(client), scansBefore, 'the count scanned the buckets');
      assert.equal(await rowCount(client), 20_000);
      assert.equal(await bucketScans(client), scansBefore + 1, 'a count(*) is seen as a scan: the probe can tell');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await pool.query("DELETE FROM kitchen_pairing_buckets WHERE address LIKE 'many-%'");
    assert.equal(await new PostgresKitchenDevicesStore(pool).pairingBucketCount(), 0);
  });

  test('the count is the rows\' after inserts, replacements, prunes, a rolled-back insert and a TRUNCATE', async () => {
    const store = new PostgresKitchenDevicesStore(pool);
    const same = async (what: string) => assert.equal(await store.pairingBucketCount(), await rowCount(pool), what);
    await store.putPairingBucket('10.0.0.1', 4, 100, 300, true);
    await store.putPairingBucket('10.0.0.2', 4, 100, 200, true);
    await store.putPairingBucket('10.0.0.3', 4, 100, 250, true);
    await same('inserts');
    await store.putPairingBucket('10.0.0.1', 3, 110, 400, false);
    await same('a replacement');
    assert.equal(await store.pairingBucketCount(), 3);
    await store.prunePairingBuckets(300, 2);
    await same('a prune');
    assert.equal(await store.pairingBucketCount(), 1);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await new PostgresKitchenDevicesStore(client).putPairingBucket('10.0.0.4', 4, 100, 200, true);
      assert.equal(await new PostgresKitchenDevicesStore(client).pairingBucketCount(), 2, 'its own insert, inside its transaction');
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    await same('a rolled-back insert');
    await pool.query('TRUNCATE kitchen_pairing_buckets');
    await same('a TRUNCATE');
    assert.equal(await store.pairingBucketCount(), 0);
  });

  test('two nodes adding a bucket count one after another: the second sees the first\'s bucket once it commits', async () => {
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      const start = await new PostgresKitchenDevicesStore(first).pairingBucketCount();
      const secondPid = (await second.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      let secondCount: number | undefined;
      const counting = new PostgresKitchenDevicesStore(second).pairingBucketCount().then((n) => (secondCount = n));
      await eventually(
        async () => (await pool.query<{ wait: string | null }>('SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = $1', [secondPid])).rows[0]?.wait,
        'the second count waiting for the first',
        { until: (wait) => wait === 'Lock' },
      );
      assert.equal(secondCount, undefined);
      await new PostgresKitchenDevicesStore(first).putPairingBucket('10.1.0.1', 4, 100, 200, true);
      await first.query('COMMIT');
      await counting;
      assert.equal(secondCount, start + 1);
      await second.query('COMMIT');
    } finally {
      first.release();
      second.release();
    }
  });

  test('a database migrated with buckets already there counts them', async () => {
    const other = createPostgresPool({ connectionString: await cluster.createDatabase('pairing_tally_upgrade'), max: 1, onError: () => {} });
    try {
      const before0009 = POSTGRES_MIGRATIONS.filter((m) => m.version < 9);
      await migratePostgres(other, before0009);
      await other.query("INSERT INTO kitchen_pairing_buckets VALUES ('a', 1, 0, 1), ('b', 1, 0, 1)");
      await migratePostgres(other);
      assert.equal(await new PostgresKitchenDevicesStore(other).pairingBucketCount(), 2);
    } finally {
      await other.end();
    }
  });
});
