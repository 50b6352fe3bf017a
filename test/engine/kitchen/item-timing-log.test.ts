// The item timing log (issue 32): each line fired, started, done, undone and recalled, written in
// the transaction of the change, with station, device and channel; and the lines open per location.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

const timings = () => engine.server.engine.stores.kitchenTimings;
const logOf = async (orderId: string) => (await timings().logOfOrder(orderId)).map((r) => [r.item_index, r.kind, r.source, r.station_id, r.device, r.at] as const);
const openOf = async (orderId: string) => (await timings().openOf(orderId)).map((r) => [r.item_index, r.started_at] as const);

test('an order\'s lines: fired on arrival, started with their ticket, done by item or by ticket, undone, recalled', async () => {
  const key = engine.demo[0]!.keys;
  const fired = engine.clock.now();
  const order = await placeOrder(engine, {
    items: [{ product_id: R1.products.empanadaQueso, quantity: 2 }, { product_id: R1.products.bebidaLata, quantity: 1 }, { product_id: R1.products.cazuela, quantity: 1 }],
  });
  const keyId = (await timings().logOfOrder(order.id))[0]!.device;
  assert.notEqual(keyId, 'kitchen');
  // The drink and the cazuela are much shorter than two empanadas: held to finish with them.
  assert.deepEqual(await logOf(order.id), [
    [0, 'fired', null, 'horno', keyId, fired],
    [1, 'held', null, 'bar', keyId, fired],
    [2, 'held', null, 'cocina', keyId, fired],
  ]);
  const channel = await engine.server.engine.stores.kitchenData.channel(order.id);
  assert.ok((await timings().logOfOrder(order.id)).every((r) => r.channel === channel && r.quantity === (r.item_index === 0 ? 2 : 1)));
  assert.deepEqual(await openOf(order.id), [[0, null]]);
  assert.ok(key);
  const fireAt = new Map((await timings().heldOf(order.id)).map((h) => [h.item_index, h.fire_at]));
  for (const at of [...fireAt.values()].sort((a, b) => a - b)) {
    engine.clock.set(at);
    await engine.server.jobs.runDue();
  }
  assert.deepEqual((await logOf(order.id)).slice(3), [...fireAt].sort((a, b) => a[1] - b[1]).map(([index, at]) => [index, 'fired', null, index === 1 ? 'bar' : 'cocina', 'engine', at]), 'each fired by the engine at its planned time');
  assert.deepEqual(await openOf(order.id), [[0, null], [1, null], [2, null]]);

  const kitchen = handlersFor(engine);
  engine.clock.advance(2 * 60_000);
  const started = engine.clock.now();
  await kitchen.ok('orders:transition', { order_id: order.id, target: 'en_preparacion' });
  engine.clock.advance(9 * 60_000);
  const bumped = engine.clock.now();
  await kitchen.ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
  engine.clock.advance(1 * 60_000);
  await kitchen.ok('items:set-done', { order_id: order.id, item_index: 2, done: true });
  await kitchen.ok('items:set-done', { order_id: order.id, item_index: 2, done: false });
  engine.clock.advance(1 * 60_000);
  const ready = engine.clock.now();
  await kitchen.ok('orders:transition', { order_id: order.id, target: 'listo' });
  const log = (await logOf(order.id)).slice(5);
  assert.deepEqual(log, [
    [0, 'started', 'ticket', 'horno', 'kitchen', started],
    [1, 'started', 'ticket', 'bar', 'kitchen', started],
    [2, 'started', 'ticket', 'cocina', 'kitchen', started],
    [0, 'done', 'item', 'horno', 'kitchen', bumped],
    [2, 'done', 'item', 'cocina', 'kitchen', bumped + 60_000],
    [2, 'undone', 'item', 'cocina', 'kitchen', bumped + 60_000],
    [1, 'done', 'ticket', 'bar', 'kitchen', ready],
    [2, 'done', 'ticket', 'cocina', 'kitchen', ready],
  ]);
  assert.deepEqual(await openOf(order.id), [], 'nothing of it is open at its stations any more');
  assert.equal((await timings().orderPromise(order.id))?.ready_at, ready, 'its promise knows when it was ready');

  await kitchen.ok('orders:transition', { order_id: order.id, target: 'entregado' });
  await kitchen.ok('orders:recall', { order_id: order.id });
  assert.deepEqual((await logOf(order.id)).slice(13).map(([index, kind]) => [index, kind]), [[0, 'recalled'], [1, 'recalled'], [2, 'recalled']]);
});

test('a cancelled order leaves its stations; an online one is fired when paid, not before', async () => {
  const order = await placeOrder(engine, { items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }] });
  assert.equal((await openOf(order.id)).length, 1);
  const cancelled = await engine.call('PATCH', `/orders/${order.id}`, { body: { status: 'cancelado' } });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.deepEqual(await openOf(order.id), []);

  const online = await placeOrder(engine, { payment: 'online', return_url: 'https://tienda.example/vuelta', items: [{ product_id: R1.products.cazuela, quantity: 1 }] }, engine.demo[0]!.keys.test_write);
  assert.equal(online.status, 'pendiente_pago');
  assert.deepEqual(await logOf(online.id), [], 'not in the kitchen while unpaid');
  assert.ok(online.promise, 'but promised already');
});
