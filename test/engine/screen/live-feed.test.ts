import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { readKitchenWaits } from '../../../src/engine/services/kitchen/kitchen-waits.ts';
import { startLiveFeed, type LiveFeed } from '../../../src/engine/screen/live-feed.ts';
import { STANDALONE_STATUS } from '../../../src/engine/screen/live-hub.ts';
import type { KitchenEvent, LivePush } from '../../../src/shared/screen-contract/kitchen.ts';
import { DEMO_NOW, startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { eventually } from '../../support/eventually.ts';
import { R1 } from '../../support/demo-ids.ts';
import { handlersFor, placeOrder } from './support.ts';

describe('live feed to the kitchen screen', () => {
  let engine: EngineUnderTest;
  let pushes: LivePush[];
  let feed: LiveFeed;

  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });
  beforeEach(async () => {
    engine.clock.set(DEMO_NOW);
    pushes = [];
    feed?.stop();
    feed = await startLiveFeed({ engine: engine.server.engine, restaurantId: R1.id, send: (p) => pushes.push(p), connectionStatus: () => STANDALONE_STATUS, heartbeatMs: 60_000 });
  });

  const events = (): KitchenEvent[] => pushes.flatMap((p) => (p.kind === 'events' ? p.events : []));

  test('pushes the commits of both worlds after they happen, in feed order, once', async () => {
    const keys = engine.demo[0]!.keys;
    const live = await placeOrder(engine);
    const sandbox = await placeOrder(engine, {}, keys.test_write);
    await engine.call('PATCH', `/orders/${live.id}`, { key: keys.live_write, body: { status: 'en_preparacion' } });
    await tick();
    const seen = events();
    const orderEvents = seen.filter((e) => e.type === 'order.created' || e.type === 'order.updated');
    assert.deepEqual(
      orderEvents.map((e) => [e.type, e.type !== 'stock.updated' && e.type !== 'location.updated' ? e.order.id : null]),
      [
        ['order.created', live.id],
        ['order.created', sandbox.id],
        ['order.updated', live.id],
      ],
    );
    // The live order took stock: that change comes too (stock events belong to both worlds).
    assert.ok(seen.some((e) => e.type === 'stock.updated' && e.world === 'both' && e.data.location_id === R1.openLocation));
    const seqs = seen.map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
    assert.equal(new Set(seqs).size, seqs.length);
    assert.equal(feed.cursor, seqs[seqs.length - 1]);
    const sandboxEvent = orderEvents[1]!;
    assert.equal(sandboxEvent.type === 'order.created' && sandboxEvent.order.test, true);
  });

  test('a burst of commits goes out as few messages; kitchen writes are pushed like any other', async () => {
    const ipc = handlersFor(engine);
    const order = await placeOrder(engine);
    await tick();
    pushes.length = 0;
    await ipc.ok('orders:transition', { order_id: order.id, target: 'en_preparacion' });
    await ipc.ok('locations:set-open', { location_id: R1.closedLocation, world: 'live', open: true });
    await tick();
    assert.equal(pushes.length, 1);
    assert.deepEqual(events().map((e) => e.type), ['order.updated', 'location.updated']);
    await ipc.ok('locations:set-open', { location_id: R1.closedLocation, world: 'live', open: false });
  });

  test('another restaurant\'s changes are not pushed', async () => {
    await engine.call('POST', '/orders', {
      key: engine.demo[1]!.keys.test_write,
      body: { location_id: '21000000-0000-4000-8000-000000000001', type: 'retiro', customer: { name: 'x' }, items: [{ product_id: '23000000-0000-4000-8000-000000000001', quantity: 1 }] },
    });
    await tick();
    assert.deepEqual(pushes, []);
  });

  test('the heartbeat carries the engine clock and the connection status; stop ends everything', async () => {
    const beats: LivePush[] = [];
    const subscribed = engine.server.engine.notifier.waiting(R1.id);
    const fast = await startLiveFeed({ engine: engine.server.engine, restaurantId: R1.id, send: (p) => beats.push(p), connectionStatus: () => ({ ...STANDALONE_STATUS, queued: 3 }), heartbeatMs: 20 });
    await eventually(() => beats.filter((b) => b.kind === 'heartbeat').length >= 2, 'two heartbeats');
    fast.stop();
    const count = beats.length;
    // Each active location's kitchen wait (issue 32), as the engine reads it now (the clock is still).
    const kitchen_waits = await readKitchenWaits(engine.server.engine, R1.id);
    assert.ok(kitchen_waits.some((w) => w.location_id === R1.openLocation));
    assert.deepEqual(beats[0], { kind: 'heartbeat', now: engine.clock.now(), status: { ...STANDALONE_STATUS, queued: 3 }, stale_after_ms: 60, kitchen_waits });
    assert.equal(engine.server.engine.notifier.waiting(R1.id), subscribed, 'stopped: no longer subscribed to the feed');
    await placeOrder(engine);
    // A witness with the same heartbeat beats three times: the stopped one would have beaten meanwhile.
    const witnessed: LivePush[] = [];
    const witness = await startLiveFeed({ engine: engine.server.engine, restaurantId: R1.id, send: (p) => witnessed.push(p), connectionStatus: () => STANDALONE_STATUS, heartbeatMs: 20 });
    await eventually(() => witnessed.filter((b) => b.kind === 'heartbeat').length >= 3, 'three heartbeats of the witness');
    witness.stop();
    assert.equal(beats.length, count);
  });

  test('large backlogs are sent in batches', async () => {
    feed.stop();
    const small: LivePush[] = [];
    const start = await engine.server.engine.stores.events.lastSeq(R1.id);
    for (let i = 0; i < 5; i++) await placeOrder(engine, { items: [{ product_id: R1.products.cazuela, quantity: 1 }] });
    const batched = await startLiveFeed({ engine: engine.server.engine, restaurantId: R1.id, send: (p) => small.push(p), connectionStatus: () => STANDALONE_STATUS, after: start, batch: 2 });
    await batched.flush();
    batched.stop();
    assert.deepEqual(small.map((p) => (p.kind === 'events' ? p.events.length : -1)), [2, 2, 1]);
  });
});
