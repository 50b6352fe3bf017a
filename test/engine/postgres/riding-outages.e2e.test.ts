// Issue 35, on a real PostgreSQL (the test cluster): runTransaction rides what a failover does to a
// connection. A connection cut mid-transaction (57P01) and a read-only leader (25006) are retried whole
// on a new connection; COMMIT has no client-side timeout (a plain one fails a COMMIT that then
// commits: reproduced first); a COMMIT whose
// connection dies is CommitOutcomeUnknown unless the work says it may run again (keyed).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { runTransaction } from '../../../src/engine/postgres/run-transaction.ts';
import { FEED_CHANNEL, FeedListener, feedPayload } from '../../../src/engine/postgres/feed-listener.ts';
import { createPostgresClient } from '../../../src/engine/postgres/postgres-pool.ts';
import { postgresNodeHealth } from '../../../src/engine/postgres/postgres-health.ts';
import { CommitOutcomeUnknown } from '../../../src/engine/storage-unavailable.ts';
import { usePostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';
import { eventually } from '../../support/eventually.ts';

/** The test cluster runs with synchronous_commit off; these sessions wait for a (missing) synchronous standby. */
const SYNCHRONOUS = '-c synchronous_commit=on';

describe('runTransaction through an outage', () => {
  let cluster: PostgresCluster;
  let connectionString: string;
  let admin: pg.Pool;
  const pools: pg.Pool[] = [];
  const poolWith = (settings: pg.PoolConfig = {}) => {
    const pool = new pg.Pool({ connectionString, max: 4, ...settings });
    pool.on('error', () => {}); // an idle client cut by the tests
    pools.push(pool);
    return pool;
  };

  before(async () => {
    cluster = await usePostgresCluster();
    connectionString = await cluster.createDatabase('outages');
    admin = new pg.Pool({ connectionString, max: 2 });
    admin.on('error', () => {}); // an idle client of its own cut while the tests cut connections: reported by the pool, not fatal
    await admin.query('CREATE TABLE rides (id text PRIMARY KEY, attempt integer NOT NULL)');
  });
  after(async () => {
    await admin.query('ALTER SYSTEM RESET synchronous_standby_names').catch(() => {});
    await admin.query('SELECT pg_reload_conf()').catch(() => {});
    for (const pool of pools) await pool.end();
    await admin.end();
    await cluster.release();
  });

  const rows = async (id: string) => (await admin.query<{ attempt: number }>('SELECT attempt FROM rides WHERE id = $1', [id])).rows;

  test('a connection cut mid-transaction (57P01): rolled back, rerun whole on a new connection, saved once', async () => {
    const pool = poolWith();
    const pids: number[] = [];
    const retried: string[] = [];
    await runTransaction(
      pool,
      async (client) => {
        const { rows: [me] } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        pids.push(me!.pid);
        await client.query('INSERT INTO rides VALUES ($1, $2)', ['cut', pids.length]);
        if (pids.length === 1) await admin.query('SELECT pg_terminate_backend($1)', [me!.pid]);
        await client.query('SELECT 1');
      },
      { onRetry: (error) => retried.push((error as { code?: string }).code ?? (error as Error).message) },
    );
    assert.equal(pids.length, 2);
    assert.notEqual(pids[0], pids[1], 'the second attempt ran on another connection');
    assert.deepEqual(retried.length, 1);
    // The cut reaches the client as the query's 57P01, or first as the connection's error (the next query then says so).
    assert.match(retried[0]!, /57P01|Connection terminated|connection error and is not queryable/);
    assert.deepEqual(await rows('cut'), [{ attempt: 2 }], 'the first attempt\'s insert was rolled back');
  });

  test('a read-only leader (25006): its connections are dropped, not reused, and the write commits once writes come back', async () => {
    const pool = poolWith();
    const database = new URL(connectionString).pathname.slice(1);
    await admin.query(`ALTER DATABASE ${database} SET default_transaction_read_only = on`);
    const codes: string[] = [];
    let attempts = 0;
    const writing = runTransaction(
      pool,
      async (client) => {
        attempts += 1;
        await client.query('INSERT INTO rides VALUES ($1, $2)', ['read-only', attempts]);
      },
      {
        onRetry: (error) => {
          codes.push((error as { code?: string }).code ?? '');
          // A leader back to taking writes after a few refusals (new sessions only: the old ones keep read-only).
          if (codes.length === 3) void admin.query(`ALTER DATABASE ${database} RESET default_transaction_read_only`);
        },
      },
    );
    await writing;
    assert.ok(codes.length >= 3 && codes.every((code) => code === '25006'), codes.join());
    assert.deepEqual(await rows('read-only'), [{ attempt: attempts }]);
    assert.equal(pool.totalCount <= 1, true, 'the read-only connections were destroyed, not kept');
  });

  test('COMMIT is never abandoned by the client: a plain client timeout reports a failure that then commits; runTransaction waits', async () => {
    await admin.query("ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
    await admin.query('SELECT pg_reload_conf()');
    try {
      await eventually(async () => (await admin.query('SHOW synchronous_standby_names')).rows[0].synchronous_standby_names === 'nobody', 'reloaded');
      // The defect, reproduced: pg's query_timeout fails a COMMIT that is waiting for the standby…
      const plain = new pg.Client({ connectionString, query_timeout: 300, options: SYNCHRONOUS });
      await plain.connect();
      await plain.query('BEGIN');
      await plain.query("INSERT INTO rides VALUES ('plain', 1)");
      await assert.rejects(plain.query('COMMIT'), /Query read timeout/);

      // …while runTransaction's COMMIT on a pool with the same timeouts (and statement_timeout, which
      // PostgreSQL does not apply to a commit's wait) keeps waiting.
      const pool = poolWith({ query_timeout: 300, statement_timeout: 300, application_name: 'commit-waits', options: SYNCHRONOUS });
      let settled = false;
      const writing = runTransaction(pool, async (client) => {
        await client.query("INSERT INTO rides VALUES ('waits', 1)");
      }).finally(() => (settled = true));
      await eventually(
        async () =>
          (
            await admin.query(
              "SELECT 1 FROM pg_stat_activity WHERE application_name = 'commit-waits' AND wait_event = 'SyncRep' AND now() - query_start > interval '2 seconds'",
            )
          ).rowCount === 1,
        'the COMMIT waiting for the standby for over 6× both timeouts',
      );
      assert.equal(settled, false);
      await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
      await admin.query('SELECT pg_reload_conf()');
      await writing;
      assert.deepEqual(await rows('waits'), [{ attempt: 1 }]);
      // The plain client was told its COMMIT failed, and it was saved.
      await eventually(async () => (await rows('plain')).length === 1, 'the "failed" plain commit saved');
      await plain.end().catch(() => {});
    } finally {
      await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
      await admin.query('SELECT pg_reload_conf()');
    }
  });

  test('a COMMIT whose connection dies: CommitOutcomeUnknown when unkeyed (and it was saved); rerun when keyed, saved once', async () => {
    await admin.query("ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
    await admin.query('SELECT pg_reload_conf()');
    const waitingCommit = async (name: string) =>
      (
        await eventually(
          async () =>
            (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event = 'SyncRep'", [name])).rows[0],
          `${name}'s COMMIT waiting`,
        )
      )!.pid;
    try {
      const unkeyed = poolWith({ application_name: 'unkeyed', options: SYNCHRONOUS });
      const unkeyedWrite = runTransaction(unkeyed, async (client) => {
        await client.query("INSERT INTO rides VALUES ('unkeyed', 1)");
      });
      const outcome = unkeyedWrite.then(() => 'resolved', (error: unknown) => error);
      await admin.query('SELECT pg_terminate_backend($1)', [await waitingCommit('unkeyed')]);
      assert.ok((await outcome) instanceof CommitOutcomeUnknown, String(await outcome));
      // Why it is not rerun: it committed locally before its connection died.
      assert.deepEqual(await rows('unkeyed'), [{ attempt: 1 }]);

      const keyed = poolWith({ application_name: 'keyed', options: SYNCHRONOUS });
      let attempts = 0;
      const keyedWrite = runTransaction(
        keyed,
        async (client) => {
          attempts += 1;
          // A keyed write: its claim is the row; a second run finds it and does nothing more.
          await client.query("INSERT INTO rides VALUES ('keyed', $1) ON CONFLICT (id) DO NOTHING", [attempts]);
        },
        { rerunAfterUnknownCommit: () => true },
      );
      const first = await waitingCommit('keyed');
      await admin.query('SELECT pg_terminate_backend($1)', [first]);
      await eventually(() => attempts === 2, 'the keyed write rerun');
      await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
      await admin.query('SELECT pg_reload_conf()');
      await keyedWrite;
      assert.deepEqual(await rows('keyed'), [{ attempt: 1 }], 'saved once, by its first run');
    } finally {
      await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
      await admin.query('SELECT pg_reload_conf()');
    }
  });

  test('the LISTEN connection comes back by itself after a cut and refused reconnections, and tells every waiter once', async () => {
    const database = new URL(connectionString).pathname.slice(1);
    // ALTER DATABASE … ALLOW_CONNECTIONS is refused from the database itself.
    const maintenance = new pg.Client({ connectionString: connectionString.replace(/\/[^/]+$/, '/postgres') });
    await maintenance.connect();
    const heard: (string | null)[] = [];
    const errors: string[] = [];
    const listener = new FeedListener(
      'node-b',
      () => createPostgresClient({ connectionString, applicationName: 'listen-under-test', onError: () => {} }),
      (restaurantId) => heard.push(restaurantId),
      (error) => errors.push(error.message),
      { firstMs: 20, maxMs: 200 },
    );
    await listener.start();
    try {
      await admin.query('SELECT pg_notify($1, $2)', [FEED_CHANNEL, feedPayload('node-a', 'r-1', 'feed')]);
      await eventually(() => heard.includes('r-1'), 'the first notification');
      // The leader goes away: the connection is cut and new ones are refused for a while.
      await maintenance.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      await maintenance.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'listen-under-test'");
      await eventually(() => errors.length >= 3, 'three refused reconnections');
      assert.equal(listener.isListening, false);
      assert.equal(heard.includes(null), false, 'nobody told before it is back');
      await maintenance.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      await eventually(() => listener.isListening, 'LISTEN back');
      assert.equal(listener.reconnections, 1);
      assert.deepEqual(heard.filter((r) => r === null), [null], 'every waiter told once');
      await admin.query('SELECT pg_notify($1, $2)', [FEED_CHANNEL, feedPayload('node-a', 'r-2', 'feed')]);
      await eventually(() => heard.includes('r-2'), 'a notification after the reconnection');
    } finally {
      await maintenance.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      await maintenance.end();
      await listener.stop();
    }
  });

  test('health on PostgreSQL: writable on the leader, not when the probe cannot connect, one probe a second at most on one connection', async () => {
    const clients: pg.Client[] = [];
    const probeClient = (url: string) => () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      clients.push(client);
      return client;
    };
    const leader = postgresNodeHealth(probeClient(connectionString), { nodeId: 'node-a' });
    assert.deepEqual(await leader.canWrite(), { writable: true, reason: null });
    assert.equal(leader.database, 'postgres');
    await leader.close();
    const unreachable = postgresNodeHealth(probeClient(connectionString.replace(/:\d+\//, ':1/')), { timeoutMs: 5_000 });
    assert.deepEqual(await unreachable.canWrite(), { writable: false, reason: 'the database cannot be reached' });
    await unreachable.close();
    let now = 0;
    const probes: number[] = [];
    const made = clients.length;
    const counted = postgresNodeHealth(() => {
      const client = probeClient(connectionString)();
      const query = client.query.bind(client) as (text: string) => Promise<unknown>;
      Object.assign(client, { query: (text: string) => (probes.push(now), query(text)) });
      return client;
    }, { now: () => now });
    await Promise.all([counted.canWrite(), counted.canWrite(), counted.canWrite()]);
    now = 999;
    await counted.canWrite();
    now = 1_000;
    assert.deepEqual(await counted.canWrite(), { writable: true, reason: null });
    assert.deepEqual(probes, [0, 1_000], 'one probe for the three at once and the one within the second');
    assert.equal(clients.length - made, 1, 'both probes on one connection of their own');
    await counted.close();
  });
});
