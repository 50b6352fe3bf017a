import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readKitchenBoard, readKitchenEvents, RECALL_LIMIT, startOfLocalDay } from '../../../src/engine/services/kitchen/kitchen-board.ts';
import { foldTiming } from '../../../src/shared/screen-contract/ticket-timing.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { placeOrder } from './support.ts';

describe('kitchen board read service', () => {
  let engine: EngineUnderTest;
  const patch = (id: string, status: string) => engine.call('PATCH', `/orders/${id}`, { body: { status } });

  before(async () => {
    engine = await startEngineUnderTest({ now: '2026-11-20T21:00:00-03:00' });
  });
  after(async () => {
    await engine.stop();
  });

  test('timing folds: the kitchen timer starts at the kitchen door, ready is the first ready state', () => {
    let timing = foldTiming(undefined, 'pendiente_pago', 1);
    assert.deepEqual(timing, { kitchen_since: null, ready_at: null });
    timing = foldTiming(timing, 'recibido', 10);
    timing = foldTiming(timing, 'en_preparacion', 20);
    timing = foldTiming(timing, 'listo', 30);
    timing = foldTiming(timing, 'en_reparto', 40);
    assert.deepEqual(timing, { kitchen_since: 10, ready_at: 30 });
    assert.deepEqual(foldTiming(undefined, 'cancelado', 5), { kitchen_since: null, ready_at: null });
  });

  test('yesterday\'s finished orders are only in the recall; active ones of any age stay; today\'s all come', async () => {
    const oldDone = await placeOrder(engine);
    await patch(oldDone.id, 'en_preparacion');
    await patch(oldDone.id, 'listo');
    await patch(oldDone.id, 'entregado');
    const oldActive = await placeOrder(engine);
    engine.clock.set('2026-11-21T19:00:00-03:00');
    const today = await placeOrder(engine);
    engine.clock.advance(7 * 60_000);
    await patch(today.id, 'en_preparacion');
    engine.clock.advance(8 * 60_000);
    await patch(today.id, 'listo');
    await patch(today.id, 'entregado');

    const board = await readKitchenBoard(engine.server.engine, R1.id);
    assert.equal(board.day_start, new Date('2026-11-21T00:00:00-03:00').getTime());
    assert.equal(board.day_start, startOfLocalDay(engine.clock.now(), 'America/Santiago'));
    const byId = new Map(board.tickets.map((t) => [t.order.id, t]));
    assert.ok(byId.has(oldDone.id), 'recall');
    assert.equal(byId.get(oldActive.id)?.kitchen_since, new Date('2026-11-20T21:00:00-03:00').getTime());
    const done = byId.get(today.id)!;
    assert.equal(done.ready_at! - done.kitchen_since!, 15 * 60_000);
  });

  test('a ticket carries its lines once (kitchen.items), without prices, products or the money breakdown; events the same', async () => {
    const since = (await readKitchenBoard(engine.server.engine, R1.id)).cursor;
    const placed = await placeOrder(engine, { items: [{ product_id: R1.products.cazuela, quantity: 2, notes: 'sin cebolla' }] });
    const ticket = (await readKitchenBoard(engine.server.engine, R1.id)).tickets.find((t) => t.order.id === placed.id)!;
    for (const field of ['items', 'subtotal', 'shipping_fee', 'discount']) assert.equal(field in ticket.order, false, `order.${field} is sent`);
    assert.deepEqual(Object.keys(ticket.kitchen.items[0]!).sort(), ['done', 'index', 'modifiers', 'name', 'notes', 'quantity', 'station_id']);
    assert.deepEqual([ticket.kitchen.items[0]!.name, ticket.kitchen.items[0]!.quantity, ticket.kitchen.items[0]!.notes], [placed.items[0].name, 2, 'sin cebolla']);
    assert.equal(ticket.order.total, placed.total);
    const created = (await readKitchenEvents(engine.server.engine, R1.id, since)).find((e) => e.type === 'order.created' && e.order.id === placed.id)!;
    assert.ok('order' in created && !('items' in created.order) && !('subtotal' in created.order));
  });

  test('the recall keeps only the latest finished orders', async () => {
    for (let i = 0; i < RECALL_LIMIT + 3; i++) {
      const order = await placeOrder(engine, { items: [{ product_id: R1.products.cazuela, quantity: 1 }] });
      await patch(order.id, 'cancelado');
    }
    engine.clock.set('2026-11-22T12:00:00-03:00');
    const board = await readKitchenBoard(engine.server.engine, R1.id);
    const finished = board.tickets.filter((t) => t.order.status === 'entregado' || t.order.status === 'cancelado');
    assert.equal(finished.length, RECALL_LIMIT);
  });

  test('events of both worlds, oldest first, after a position', async () => {
    const cursor = await engine.server.engine.stores.events.lastSeq(R1.id);
    await placeOrder(engine, {}, engine.demo[0]!.keys.test_write);
    const events = await readKitchenEvents(engine.server.engine, R1.id, cursor);
    assert.deepEqual(events.map((e) => e.type), ['order.created']);
    assert.equal(events[0]!.type === 'order.created' && events[0]!.order.test, true);
    assert.deepEqual(await readKitchenEvents(engine.server.engine, R1.id, events[0]!.seq), []);
  });
});
