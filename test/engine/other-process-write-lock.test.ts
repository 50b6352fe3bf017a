// Another process holds the SQLite file's write lock (a CLI beside a running hub, a database shell
// left in a transaction): the engine must not stop its event loop waiting for it. Before the fix
// the connection waited inside SQLite (busy_timeout 5 s, synchronous): one jobs tick or one API
// write froze the HTTP server and the kitchen's live stream for 5 s per write, and then failed.
// The holder is a child process (test/support/write-lock-holder.ts), released when the test says.
// The event loop's longest stall is printed (a heartbeat timer's longest gap), never asserted on.
import { after, afterEach, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/engine/clock.ts';
import { seedDemo } from '../../src/engine/demo/seed-demo.ts';
import { Engine } from '../../src/engine/engine.ts';
import { startEngineServer, type EngineServer } from '../../src/host/start-engine-server.ts';
import { R1 } from '../support/demo-ids.ts';
import { callApi, DEMO_NOW, GENEROUS_LIMITS, startEngineUnderTest, type EngineUnderTest } from '../support/engine-under-test.ts';
import { eventually } from '../support/eventually.ts';
import { holdWriteLock, type WriteLockHolder } from '../support/write-lock-holder.ts';

const orderBody = (name: string, extra: Record<string, unknown> = {}) => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name },
  items: [{ product_id: R1.products.cazuela, quantity: 1 }],
  ...extra,
});

/**
 * The event loop's longest stall while `work` runs (a 5-ms heartbeat's longest gap, the last one up
 * to the end included), said in the test's output with the machine's load; never asserted on.
 */
async function measuringTheLoop<T>(t: TestContext, what: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let last = started;
  let longest = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    return await work();
  } finally {
    clearInterval(beat);
    const end = performance.now();
    longest = Math.max(longest, end - last);
    const load = loadavg().map((value) => value.toFixed(1)).join(' ');
    t.diagnostic(`${what}: took ${(end - started).toFixed(0)} ms, event loop stalled at most ${longest.toFixed(1)} ms (load ${load})`);
  }
}

describe('another process holding the database file\'s write lock', () => {
  let t: EngineUnderTest;
  let holder: WriteLockHolder | null = null;
  before(async () => {
    // The real-time tick out of reach: this file runs the jobs itself (runDue, clock moves).
    t = await startEngineUnderTest({ jobsIntervalMs: 3_600_000 });
    // The first order compiles what every later one reuses: not part of what is measured below.
    assert.equal((await t.call('POST', '/orders', { body: orderBody('Primero') })).status, 201);
  });
  // A failed test lets the file go, so the next one starts without it held.
  afterEach(async () => await holder?.release());
  after(async () => await t.stop());

  test('an API write waits for it on timers: reads are answered meanwhile, and the write is saved once it lets go', async (ctx) => {
    holder = await holdWriteLock(t.dbPath);
    const posted = await measuringTheLoop(ctx, 'one POST /orders while another process holds the lock', async () => {
      let answered = false;
      const post = t.call('POST', '/orders', { body: orderBody('Espera'), headers: { 'idempotency-key': 'held-file-1' } }).finally(() => (answered = true));
      await eventually(() => t.server.engine.waitingForOtherWriter, 'the write waiting for the other process', { timeoutMs: 20_000 });
      // The loop turns while the write waits: a read is answered, the write still is not.
      const read = await t.call('GET', '/orders?limit=1');
      assert.equal(read.status, 200, read.text);
      assert.equal(answered, false, 'the write waits for the other process');
      assert.equal(holder!.holding, true);
      await holder!.release();
      return await post;
    });
    assert.equal(posted.status, 201, posted.text);
    const stored = await t.call('GET', `/orders/${posted.body.id}`);
    assert.equal(stored.body.customer.name, 'Espera');
  });

  test('a jobs tick does none of its database work, sets nothing aside, and does it on the first tick after', async (ctx) => {
    const scheduled = await t.call('POST', '/orders', { body: orderBody('Programado', { scheduled_for: '2026-11-21T22:00:00-03:00' }) });
    assert.equal(scheduled.status, 201, scheduled.text);
    assert.equal(scheduled.body.status, 'programado');
    holder = await holdWriteLock(t.dbPath);
    await measuringTheLoop(ctx, 'one jobs tick (release due) while another process holds the lock', async () => {
      // 21:30 is the order's release time (30 minutes' lead): the move runs a tick.
      t.clock.set('2026-11-21T21:30:00-03:00');
      await t.server.jobs.databaseJobs();
    });
    assert.equal(holder.holding, true);
    assert.equal((await t.call('GET', `/orders/${scheduled.body.id}`)).body.status, 'programado', 'nothing written while the file is held');
    await holder.release();
    // The same minute: an item the busy file stopped was not set aside for a minute.
    await t.server.jobs.runDue();
    assert.equal((await t.call('GET', `/orders/${scheduled.body.id}`)).body.status, 'recibido');
  });
});

describe('a write the other process keeps waiting past the engine\'s wait', () => {
  let dir: string;
  let server: EngineServer;
  let key: string;
  let holder: WriteLockHolder | null = null;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-other-writer-'));
    const engine = new Engine({ database: join(dir, 'engine.db'), clock: new ManualClock(DEMO_NOW), otherWriterWaitMs: 200 });
    server = await startEngineServer({ database: engine, rateLimits: GENEROUS_LIMITS, jobsIntervalMs: 3_600_000 });
    key = (await seedDemo(server.engine, server.providers.payments))[0]!.keys.live_write;
  });
  after(async () => {
    await holder?.release();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is refused as 503 storage_unavailable with Retry-After, nothing saved; the same request with its key then goes through', async () => {
    const before = await callApi(server.baseUrl, key, 'GET', '/orders?limit=100');
    holder = await holdWriteLock(join(dir, 'engine.db'));
    const refused = await callApi(server.baseUrl, key, 'POST', '/orders', { body: orderBody('Rechazo'), headers: { 'idempotency-key': 'held-file-2' } });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error.code, 'storage_unavailable');
    assert.match(refused.body.error.message, /another program is writing the database file/);
    assert.equal(refused.headers.get('retry-after'), '5');
    await holder.release();
    const after = await callApi(server.baseUrl, key, 'GET', '/orders?limit=100');
    assert.equal(after.body.data.length, before.body.data.length, 'nothing was saved');
    const retried = await callApi(server.baseUrl, key, 'POST', '/orders', { body: orderBody('Rechazo'), headers: { 'idempotency-key': 'held-file-2' } });
    assert.equal(retried.status, 201, retried.text);
  });
});
