// Issue 35, on a real PostgreSQL behind a loopback stand-in that stops forwarding without closing
// (test/support/blackhole-proxy.ts): a database machine that vanished without a FIN or RST. A
// statement sent into the dead connection, a COMMIT sent into it, and the LISTEN connection waiting
// on it are each found within a bounded time; the use case is rerun whole on a new connection within
// runTransaction's budget and saved once. A COMMIT that the database is still running (waiting for a
// synchronous standby) is never cut by the same watch.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { commitWatchFor, type CommitVerdict, type CommitWatch } from '../../../src/engine/postgres/commit-watch.ts';
import { FEED_CHANNEL, FeedListener, feedPayload } from '../../../src/engine/postgres/feed-listener.ts';
import { createPostgresClient } from '../../../src/engine/postgres/postgres-pool.ts';
import { DEFAULT_OUTAGE_RETRY, runTransaction } from '../../../src/engine/postgres/run-transaction.ts';
import { CommitOutcomeUnknown } from '../../../src/engine/storage-unavailable.ts';
import { BlackholeProxy } from '../../support/blackhole-proxy.ts';
import { eventually } from '../../support/eventually.ts';
import { usePostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';

/**
 * The engine's bounds scaled down so the test is short; what is asserted is that the dead connection
 * is found and the rerun commits within the budget, not how fast (no figure is timed here).
 */
const SHORT_BOUNDS = { idle_in_transaction_session_timeout: 500, lock_timeout: 1_500, statement_timeout: 1_800, query_timeout: 2_000 };
const WATCH_TIMING = { afterMs: 300, everyMs: 300, probeTimeoutMs: 1_000 };

describe('a half-open connection (the database vanished without a FIN or RST)', () => {
  let cluster: PostgresCluster;
  let direct: string;
  let admin: pg.Pool;
  const proxies: BlackholeProxy[] = [];
  const pools: pg.Pool[] = [];

  /** A connection string through a new stand-in, and the stand-in. */
  async function throughProxy(): Promise<{ proxy: BlackholeProxy; connectionString: string }> {
    const url = new URL(direct);
    const proxy = new BlackholeProxy(url.hostname, Number(url.port));
    await proxy.start();
    proxies.push(proxy);
    url.port = String(proxy.port);
    return { proxy, connectionString: url.toString() };
  }

  function poolOn(connectionString: string): pg.Pool {
    const pool = new pg.Pool({ connectionString, max: 4, pipeline: true, keepAlive: true, ...SHORT_BOUNDS } as pg.PoolConfig);
    pool.on('error', () => {}); // an idle client found dead
    pools.push(pool);
    return pool;
  }

  /** A watch that records its verdicts. */
  function recordingWatch(connectionString: string, verdicts: CommitVerdict[]): CommitWatch {
    const inner = commitWatchFor({ connectionString }, WATCH_TIMING);
    return { ...inner, probe: async (session) => { const verdict = await inner.probe(session); verdicts.push(verdict); return verdict; } };
  }

  before(async () => {
    cluster = await usePostgresCluster();
    direct = await cluster.createDatabase('half_open');
    admin = new pg.Pool({ connectionString: direct, max: 2 });
    admin.on('error', () => {});
    await admin.query('CREATE TABLE rides (id text PRIMARY KEY, attempt integer NOT NULL)');
    // A row every write takes first, as a restaurant's clock row: what an orphaned transaction holds.
    await admin.query("CREATE TABLE turns (id text PRIMARY KEY, n integer NOT NULL); INSERT INTO turns VALUES ('r-1', 0)");
  });
  after(async () => {
    await admin.query('ALTER SYSTEM RESET synchronous_standby_names').catch(() => {});
    await admin.query('SELECT pg_reload_conf()').catch(() => {});
    for (const pool of pools) await pool.end().catch(() => {});
    for (const proxy of proxies) await proxy.stop();
    await admin.end();
    await cluster.release();
  });

  const rows = async (id: string) => (await admin.query<{ attempt: number }>('SELECT attempt FROM rides WHERE id = $1', [id])).rows;

  test('a statement sent into it: query_timeout ends it, the use case reruns on a new connection within the budget, saved once; another writer waits for the orphan\'s lock instead of failing', async () => {
    const { proxy, connectionString } = await throughProxy();
    const pool = poolOn(connectionString);
    const retried: string[] = [];
    let attempts = 0;
    let other: Promise<unknown> | undefined;
    const started = performance.now();
    await runTransaction(
      pool,
      async (client) => {
        attempts += 1;
        await client.query("UPDATE turns SET n = n + 1 WHERE id = 'r-1'");
        await client.query('INSERT INTO rides VALUES ($1, $2)', ['statement', attempts]);
        if (attempts === 1) {
          proxy.blackhole();
          // Another writer of the same "restaurant" on a healthy connection: it waits for the row the
          // orphaned transaction holds until the server ends that transaction, within its lock_timeout.
          other = runTransaction(poolOn(direct), async (healthy) => {
            await healthy.query("UPDATE turns SET n = n + 1 WHERE id = 'r-1'");
            await healthy.query("INSERT INTO rides VALUES ('other-writer', 1)");
          }, { commitWatch: null });
        }
        await client.query('SELECT 1');
      },
      { onRetry: (error) => retried.push((error as Error).message), commitWatch: recordingWatch(connectionString, []) },
    );
    const tookMs = performance.now() - started;
    await other;
    assert.deepEqual(await rows('other-writer'), [{ attempt: 1 }], 'the other writer was not refused (55P03)');
    assert.equal((await admin.query("SELECT n FROM turns WHERE id = 'r-1'")).rows[0].n, 2, 'the orphan\'s take rolled back, the rerun\'s and the other\'s kept');
    console.log(`half-open figure: a statement into a dead connection found and rerun in ${tookMs.toFixed(0)} ms (query_timeout ${SHORT_BOUNDS.query_timeout} ms, idle in transaction ${SHORT_BOUNDS.idle_in_transaction_session_timeout} ms)`);
    assert.equal(attempts >= 2, true);
    assert.match(retried[0]!, /Query read timeout/);
    assert.ok(tookMs < DEFAULT_OUTAGE_RETRY.budgetMs, `within the budget (${tookMs} ms)`);
    // The first attempt's transaction is ended by the server (idle_in_transaction_session_timeout): its insert never committed.
    assert.deepEqual(await rows('statement'), [{ attempt: attempts }]);
  });

  test('a COMMIT sent into it: the watch finds the session not committing, the connection is ended; unkeyed is CommitOutcomeUnknown, keyed reruns and saves once', async () => {
    const { proxy, connectionString } = await throughProxy();
    const pool = poolOn(connectionString);
    const verdicts: CommitVerdict[] = [];
    const watch = recordingWatch(connectionString, verdicts);

    let unkeyedAttempts = 0;
    const unkeyed = await runTransaction(
      pool,
      async (client) => {
        unkeyedAttempts += 1;
        await client.query('INSERT INTO rides VALUES ($1, $2)', ['commit-unkeyed', unkeyedAttempts]);
        proxy.blackhole(); // the COMMIT that follows goes into it
      },
      { commitWatch: watch },
    ).then(() => null, (error: unknown) => error);
    assert.ok(unkeyed instanceof CommitOutcomeUnknown, String(unkeyed));
    assert.equal(unkeyedAttempts, 1, 'an unkeyed write is never run again after an unknown COMMIT');
    assert.ok(verdicts.includes('gone'), verdicts.join());
    // The COMMIT never reached the server: the server rolls the orphan back by its idle timeout.
    await eventually(() => rows('commit-unkeyed'), 'the orphaned transaction rolled back', { until: (found) => found.length === 0 });

    let keyedAttempts = 0;
    const started = performance.now();
    await runTransaction(
      pool,
      async (client) => {
        keyedAttempts += 1;
        await client.query('INSERT INTO rides VALUES ($1, $2)', ['commit-keyed', keyedAttempts]);
        if (keyedAttempts === 1) proxy.blackhole();
      },
      { commitWatch: watch, rerunAfterUnknownCommit: () => true },
    );
    const tookMs = performance.now() - started;
    console.log(`half-open figure: a COMMIT into a dead connection found and rerun in ${tookMs.toFixed(0)} ms (watch after ${WATCH_TIMING.afterMs} ms)`);
    assert.equal(keyedAttempts, 2);
    assert.ok(tookMs < DEFAULT_OUTAGE_RETRY.budgetMs, `within the budget (${tookMs} ms)`);
    assert.deepEqual(await rows('commit-keyed'), [{ attempt: 2 }]);
  });

  test('a COMMIT the database is still running (waiting for a synchronous standby) is never cut by the watch', async () => {
    const { connectionString } = await throughProxy();
    await admin.query("ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
    await admin.query('SELECT pg_reload_conf()');
    try {
      await eventually(async () => (await admin.query('SHOW synchronous_standby_names')).rows[0].synchronous_standby_names, 'reloaded', { until: (names) => names === 'nobody' });
      const pool = new pg.Pool({ connectionString, max: 2, pipeline: true, ...SHORT_BOUNDS, options: '-c synchronous_commit=on' } as pg.PoolConfig);
      pool.on('error', () => {});
      pools.push(pool);
      const verdicts: CommitVerdict[] = [];
      let settled = false;
      const writing = runTransaction(pool, async (client) => {
        await client.query("INSERT INTO rides VALUES ('sync-wait', 1)");
      }, { commitWatch: recordingWatch(connectionString, verdicts) }).finally(() => (settled = true));
      await eventually(() => verdicts.filter((verdict) => verdict === 'committing').length, 'the watch asking several times', { until: (count) => count >= 3 });
      assert.equal(settled, false, 'the COMMIT still waits');
      assert.ok(!verdicts.includes('gone'), verdicts.join());
      await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
      await admin.query('SELECT pg_reload_conf()');
      await writing;
      assert.deepEqual(await rows('sync-wait'), [{ attempt: 1 }]);
    } finally {
      await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
      await admin.query('SELECT pg_reload_conf()');
    }
  });

  test('the LISTEN connection on it: its heartbeat finds it dead, LISTEN comes back on a new connection and hears again', async () => {
    const { proxy, connectionString } = await throughProxy();
    const heard: (string | null)[] = [];
    const errors: string[] = [];
    const listener = new FeedListener(
      'node-b',
      () => createPostgresClient({ connectionString, applicationName: 'half-open listen', onError: () => {} }),
      (restaurantId) => heard.push(restaurantId),
      (error) => errors.push(error.message),
      { firstMs: 50, maxMs: 200 },
      { everyMs: 200, timeoutMs: 500 },
    );
    await listener.start();
    try {
      assert.equal(proxy.blackhole(), 1, 'the LISTEN connection is the one cut off');
      const started = performance.now();
      await eventually(() => listener.reconnections, 'LISTEN back', { until: (count) => count >= 1 });
      console.log(`half-open figure: a dead LISTEN connection found and replaced in ${(performance.now() - started).toFixed(0)} ms (heartbeat every 200 ms, 500 ms to answer)`);
      assert.ok(listener.isListening);
      assert.match(errors[0]!, /heartbeat/);
      assert.ok(heard.includes(null), 'everyone told once that commits may have been missed');
      await admin.query('SELECT pg_notify($1, $2)', [FEED_CHANNEL, feedPayload('node-a', 'r-after', 'feed')]);
      await eventually(() => heard.includes('r-after'), 'a commit after the reconnection heard');
    } finally {
      await listener.stop();
    }
  });
});
