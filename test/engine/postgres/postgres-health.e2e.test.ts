// Issue 35: `/v1/health` on a PostgreSQL node, through a real engine server on the throwaway cluster,
// behind a loopback TCP stand-in (test/support/fault-proxy.ts) that can refuse and cut connections as
// a stopped PostgreSQL does. The probe has a connection of its own: a node whose pool is busy (every
// client held) still says it can write; a node whose database is gone says 503 with Retry-After, and
// says 200 again once it is back (the probe's connection made anew).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { Engine } from '../../../src/engine/engine.ts';
import { postgresNodeHealth } from '../../../src/engine/postgres/postgres-health.ts';
import { openPostgresEngine } from '../../../src/host/open-postgres-engine.ts';
import { startEngineServer, type EngineServer } from '../../../src/host/start-engine-server.ts';
import { BlackholeProxy } from '../../support/blackhole-proxy.ts';
import { eventually } from '../../support/eventually.ts';
import { FaultProxy } from '../../support/fault-proxy.ts';
import { usePostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.ts';

const POOL_SIZE = 2;

describe('/v1/health on a PostgreSQL node', () => {
  let cluster: PostgresCluster;
  let proxy: FaultProxy;
  let engine: Engine;
  let server: EngineServer;
  let direct: URL;

  before(async () => {
    cluster = await usePostgresCluster();
    direct = new URL(await cluster.createDatabase('node_health'));
    proxy = new FaultProxy(Number(direct.port));
    await proxy.start();
    const proxied = new URL(direct);
    proxied.port = String(proxy.port);
    engine = await openPostgresEngine({ connectionString: proxied.toString(), poolSize: POOL_SIZE, onError: () => {} });
    server = await startEngineServer({ database: engine, logger: false });
  });
  after(async () => {
    await server?.close();
    await proxy?.stop();
    await cluster?.release();
  });

  const health = async () => {
    const response = await fetch(`${server.baseUrl}/health`);
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { writable: boolean; reason: string | null; database: string } };
  };

  test('a pool with every client held: 200, writable (the probe is not queued behind the pool)', async () => {
    const pool = engine.postgres!.pool;
    const held: pg.PoolClient[] = [];
    try {
      for (let i = 0; i < POOL_SIZE; i += 1) {
        const client = await pool.connect();
        // Ended by the server's idle-in-transaction timeout on a very slow run: still held, still busy.
        client.on('error', () => {});
        held.push(client);
        await client.query('BEGIN');
        await client.query('SELECT 1');
      }
      // The pool is saturated: a query of its own waits in its queue.
      const queued = pool.query('SELECT 1');
      await eventually(() => pool.waitingCount >= 1, 'a query waiting for a pool client');
      const answer = await health();
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual({ writable: answer.body.writable, reason: answer.body.reason, database: answer.body.database }, { writable: true, reason: null, database: 'postgres' });
      for (const client of held.splice(0)) {
        await client.query('ROLLBACK');
        client.release();
      }
      await queued;
    } finally {
      for (const client of held) client.release(true);
    }
  });

  test('PostgreSQL gone: 503 with Retry-After; back: 200 again, on a new probe connection', async () => {
    proxy.set({ kind: 'refuse' });
    const down = await eventually(health, 'health to say it cannot write', { until: (answer) => answer.status === 503 });
    assert.equal(down.body.writable, false);
    assert.match(down.body.reason ?? '', /cannot be reached|did not answer/);
    assert.ok(Number(down.retryAfter) >= 1, `Retry-After: ${down.retryAfter}`);
    proxy.set({ kind: 'pass' });
    const up = await eventually(health, 'health to say it can write again', { until: (answer) => answer.status === 200 });
    assert.deepEqual({ writable: up.body.writable, reason: up.body.reason }, { writable: true, reason: null });
  });

  test('a probe connection that stops answering (half-open): "did not answer" within the deadline, then a new connection answers', async () => {
    const blackhole = new BlackholeProxy(direct.hostname, Number(direct.port));
    await blackhole.start();
    const url = new URL(direct);
    url.port = String(blackhole.port);
    let now = 0;
    let made = 0;
    const probe = postgresNodeHealth(() => {
      made += 1;
      const client = new pg.Client({ connectionString: url.toString() });
      return client;
    }, { timeoutMs: 300, now: () => now });
    try {
      assert.deepEqual(await probe.canWrite(), { writable: true, reason: null });
      blackhole.blackhole();
      now += 1_000;
      assert.deepEqual(await probe.canWrite(), { writable: false, reason: 'the database did not answer within 300 ms' });
      now += 1_000;
      assert.deepEqual(await probe.canWrite(), { writable: true, reason: null });
      assert.equal(made, 2, 'the silent connection dropped, one new one made');
    } finally {
      await probe.close();
      await blackhole.stop();
    }
  });

  // Round 11: each serve node said "cannot write" for its first 3–5 s on the loaded platform while it
  // already wrote (docs/platform-failover.md). These two reproduce the two ways a probe failed there.
  test('connections that take 1.5 s to open (a loaded machine): a new node says writable from its first /health on, and again after its probe connection is cut', async () => {
    const slow = new FaultProxy(Number(direct.port));
    await slow.start();
    const url = new URL(direct);
    url.port = String(slow.port);
    slow.set({ kind: 'slow-open', ms: 1_500 });
    let node: EngineServer | null = null;
    try {
      // The node migrates and writes through the slow connections: it can write before it serves.
      const started = await startEngineServer({ database: await openPostgresEngine({ connectionString: url.toString(), poolSize: POOL_SIZE, onError: () => {} }), logger: false });
      node = started;
      const answers: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const response: Response = await fetch(`${started.baseUrl}/health`);
        const body = (await response.json()) as { writable: boolean; reason: string | null };
        answers.push(response.status);
        assert.equal(response.status, 200, `answer ${i + 1}: ${JSON.stringify(body)} (answers so far: ${answers.join(', ')})`);
      }
      // Every connection cut (the probe's too): the new one takes longer than the 1 s deadline to
      // make, and is kept for the next probe instead of being dropped and started over each time.
      slow.retarget(Number(direct.port));
      const status = async () => (await fetch(`${started.baseUrl}/health`)).status;
      await eventually(status, 'the probe to find its connection gone', { until: (code) => code === 503 });
      await eventually(status, 'the node to say writable again', { until: (code) => code === 200 });
    } finally {
      await node?.close();
      await slow.stop();
    }
  });

  test('an event loop blocked past the deadline: the answer already in the socket counts, the connection is kept', async () => {
    let now = 0;
    let made = 0;
    const probe = postgresNodeHealth(() => {
      made += 1;
      return new pg.Client({ connectionString: direct.toString() });
    }, { timeoutMs: 200, now: () => now });
    try {
      assert.deepEqual(await probe.canWrite(), { writable: true, reason: null });
      now += 1_000;
      const asked = probe.canWrite();
      // The question is sent (its connection is open); then the loop is busy for 2 s, as a node's is
      // while it handles its first requests on a loaded machine (compiling their validators). The
      // answer arrives meanwhile; on the loop's next turn the 200 ms deadline's timer runs before
      // the socket is read. (Blocked inside a timer callback instead, the deadline would wait for
      // the turn after: timers due are judged by the time the timers phase began.)
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          const until = performance.now() + 2_000;
          while (performance.now() < until);
          resolve();
        }),
      );
      assert.deepEqual(await asked, { writable: true, reason: null });
      assert.equal(made, 1, 'the same connection throughout');
    } finally {
      await probe.close();
    }
  });
});
