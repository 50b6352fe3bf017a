// A screen's change sent twice is applied once: a bump or an item mark carries the screen's
// change_id (a tablet that never got the answer, or queued the change while its engine was away,
// sends it again). Against a real engine, through the same kitchen handlers both transports use.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callScreenHandler } from '../../../src/engine/screen/dispatch.ts';
import { purgeExpiredIdempotencyKeys, IDEMPOTENCY_WINDOW_MS } from '../../../src/engine/services/orders/idempotency-retention.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';

describe("a kitchen screen's change, applied once per key", () => {
  let engine: EngineUnderTest;
  let ipc: ReturnType<typeof handlersFor>;

  before(async () => {
    engine = await startEngineUnderTest();
    ipc = handlersFor(engine);
  });
  after(async () => {
    await engine.stop();
  });

  /** The statuses the order went through over /v1's change feed since `after`. */
  const updatesSince = async (after: string, id: string) =>
    ((await engine.call('GET', `/events?limit=500&after=${after}`)).body.data as { type: string; data: { id: string; status: string } }[])
      .filter((e) => e.type === 'order.updated' && e.data.id === id)
      .map((e) => e.data.status);

  test('the same bump sent again answers with the ticket as it is and writes nothing; the order moved on meanwhile is no refusal', async () => {
    const order = await placeOrder(engine);
    const cursor = (await engine.call('GET', '/events')).body.next_cursor as string;
    const change = { order_id: order.id, target: 'en_preparacion' as const, change_id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' };
    const first = await ipc.ok('orders:transition', change);
    assert.equal(first.order.status, 'en_preparacion');
    // Another screen moves it on; the first screen's retry of its (already applied) bump arrives late.
    await ipc.ok('orders:transition', { order_id: order.id, target: 'listo' });
    const again = await ipc.ok('orders:transition', change);
    assert.equal(again.order.status, 'listo');
    assert.deepEqual(await updatesSince(cursor, order.id), ['en_preparacion', 'listo']);
    // Without a key the same late bump is what it is: a step back the engine refuses.
    const bare = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: order.id, target: 'en_preparacion' });
    assert.equal(bare.ok, false);
  });

  test('the same key for another change is a conflict; a key too short is refused by the schema', async () => {
    const order = await placeOrder(engine);
    await ipc.ok('orders:transition', { order_id: order.id, target: 'en_preparacion', change_id: 'ffffffffffffffffffffffffffffffff' });
    const reused = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: order.id, target: 'listo', change_id: 'ffffffffffffffffffffffffffffffff' });
    assert.equal(!reused.ok && reused.error.code, 'state_conflict');
    const short = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: order.id, target: 'listo', change_id: 'abc' });
    assert.equal(!short.ok && short.error.code, 'invalid_request');
  });

  test('an item mark sent again writes no new event; a refused change leaves its key free', async () => {
    const order = await placeOrder(engine);
    const before = engine.server.engine.db.prepare("SELECT count(*) AS n FROM events WHERE type = 'kitchen.item'").get() as { n: number };
    const mark = { order_id: order.id, item_index: 0, done: true, change_id: '0123456789abcdef0123456789abcdef' };
    await ipc.ok('items:set-done', mark);
    await ipc.ok('items:set-done', { order_id: order.id, item_index: 0, done: false });
    const replay = await ipc.ok('items:set-done', mark);
    assert.equal(replay.kitchen.items[0]!.done, false, 'the replay answers with the ticket as it is now');
    const after = engine.server.engine.db.prepare("SELECT count(*) AS n FROM events WHERE type = 'kitchen.item'").get() as { n: number };
    assert.equal(after.n - before.n, 2);

    const refused = await callScreenHandler(ipc.handlers, 'orders:transition', { order_id: order.id, target: 'listo', change_id: 'feedfacefeedfacefeedfacefeedface' });
    assert.equal(refused.ok, false);
    await ipc.ok('orders:transition', { order_id: order.id, target: 'en_preparacion', change_id: 'feedfacefeedfacefeedfacefeedface' });
  });

  test('keys are forgotten with the API idempotency keys', async () => {
    const count = () => (engine.server.engine.db.prepare('SELECT count(*) AS n FROM kitchen_changes').get() as { n: number }).n;
    assert.ok(count() > 0);
    engine.clock.advance(IDEMPOTENCY_WINDOW_MS + 1);
    await purgeExpiredIdempotencyKeys(engine.server.engine);
    assert.equal(count(), 0);
  });
});
