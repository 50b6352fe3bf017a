import { mapInOrder } from '../../../src/shared/in-order.ts';
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { Engine } from '../../../src/engine/engine.ts';
import { startLiveFeed, type LiveFeed } from '../../../src/engine/screen/live-feed.ts';
import { STANDALONE_STATUS } from '../../../src/engine/screen/live-hub.ts';
import { readKitchenBoard } from '../../../src/engine/services/kitchen/kitchen-board.ts';
import type { KitchenEvent, LivePush } from '../../../src/shared/screen-contract/kitchen.ts';
import { callScreenHandler } from '../../../src/engine/screen/dispatch.ts';
import { isKitchenErrorCode } from '../../../src/shared/error-codes.ts';
import { DEMO_NOW, startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1 } from '../../support/demo-ids.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';

describe('item-level bump: kitchen data kept by the engine', () => {
  let engine: EngineUnderTest;
  let ipc: ReturnType<typeof handlersFor>;

  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });
  beforeEach(() => {
    engine.clock.set(DEMO_NOW);
    ipc = handlersFor(engine);
  });

  const twoLines = {
    items: [
      { product_id: R1.products.empanadaQueso, quantity: 2 },
      { product_id: R1.products.empanadaQueso, quantity: 1, notes: 'sin cebolla' },
    ],
  };

  test('a bump is answered with the ticket, pushed to two live-feed subscribers, and absent from the API', async () => {
    const order = await placeOrder(engine, twoLines);
    const subscribers: LivePush[][] = [[], []];
    const feeds: LiveFeed[] = (await mapInOrder(subscribers, async (pushes) =>
      await startLiveFeed({ engine: engine.server.engine, restaurantId: R1.id, send: (p) => pushes.push(p), connectionStatus: () => STANDALONE_STATUS, heartbeatMs: 60_000 })));
    const feedBefore = await engine.call('GET', '/events?limit=100');
    const cursor = feedBefore.body.next_cursor as string;

    const ticket = await ipc.ok('items:set-done', { order_id: order.id, item_index: 1, done: true });
    assert.deepEqual(ticket.kitchen.items.map((i) => i.done), [false, true]);
    assert.equal(ticket.kitchen.items[1]!.notes, 'sin cebolla');
    assert.equal(ticket.kitchen.suggested_target, null);
    assert.equal(ticket.order.status, 'recibido');
    assert.equal(ticket.order.updated_at, order.updated_at, 'the order itself is untouched');

    await tick();
    for (const pushes of subscribers) {
      const events = pushes.flatMap((p) => (p.kind === 'events' ? p.events : [])) as KitchenEvent[];
      const bump = events.find((e) => e.type === 'kitchen.item');
      assert.ok(bump && bump.type === 'kitchen.item');
      assert.equal(bump.order.id, order.id);
      assert.deepEqual(bump.kitchen.items.map((i) => i.done), [false, true]);
    }
    feeds.forEach((f) => f.stop());

    // Not in the public API: no event, and the order reads the same.
    const after = await engine.call('GET', `/events?after=${cursor}&limit=100`);
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.data, []);
    const read = await engine.call('GET', `/orders/${order.id}`);
    const { promise: _promise, ...created } = order; // the promise is the creation's answer only (issue 32)
    assert.deepEqual(read.body, created);
  });

  test('every item done suggests the next step; un-striking takes the suggestion back', async () => {
    const order = await placeOrder(engine, twoLines);
    await ipc.ok('orders:transition', { order_id: order.id, target: 'en_preparacion' });
    await ipc.ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
    const done = await ipc.ok('items:set-done', { order_id: order.id, item_index: 1, done: true });
    assert.equal(done.kitchen.suggested_target, 'listo');
    assert.deepEqual(done.kitchen.actions, ['listo', 'cancelado']);
    const again = await ipc.ok('items:set-done', { order_id: order.id, item_index: 1, done: true });
    assert.equal(again.kitchen.suggested_target, 'listo', 'the same bump twice changes nothing');
    const undone = await ipc.ok('items:set-done', { order_id: order.id, item_index: 0, done: false });
    assert.equal(undone.kitchen.suggested_target, null);
    assert.deepEqual(undone.kitchen.items.map((i) => i.done), [false, true]);
  });

  test('refusals come back with stable codes', async () => {
    const order = await placeOrder(engine, twoLines);
    const missingLine = await callScreenHandler(ipc.handlers, 'items:set-done', { order_id: order.id, item_index: 5, done: true });
    assert.equal(missingLine.ok, false);
    assert.equal(!missingLine.ok && missingLine.error.code, 'not_found');
    await ipc.ok('orders:transition', { order_id: order.id, target: 'cancelado' });
    const finished = await callScreenHandler(ipc.handlers, 'items:set-done', { order_id: order.id, item_index: 0, done: true });
    assert.equal(!finished.ok && finished.error.code, 'ticket_finished');
    const active = await placeOrder(engine);
    const notFinished = await callScreenHandler(ipc.handlers, 'orders:recall', { order_id: active.id });
    assert.equal(!notFinished.ok && notFinished.error.code, 'ticket_not_finished');
    const badIndex = await callScreenHandler(ipc.handlers, 'items:set-done', { order_id: order.id, item_index: -1, done: true });
    assert.equal(!badIndex.ok && badIndex.error.code, 'invalid_request');
    // Every one is a code the screen can translate.
    for (const result of [missingLine, finished, notFinished, badIndex]) assert.ok(!result.ok && isKitchenErrorCode(result.error.code));
  });

  test('recall brings a finished ticket back, marked, without changing its state, until the clock passes', async () => {
    const order = await placeOrder(engine, twoLines);
    for (const target of ['en_preparacion', 'listo', 'entregado'] as const) await ipc.ok('orders:transition', { order_id: order.id, target });
    const pushes: LivePush[] = [];
    const feed = await startLiveFeed({ engine: engine.server.engine, restaurantId: R1.id, send: (p) => pushes.push(p), connectionStatus: () => STANDALONE_STATUS, heartbeatMs: 60_000 });
    const recalled = await ipc.ok('orders:recall', { order_id: order.id });
    await tick();
    feed.stop();
    const shared = pushes.flatMap((p) => (p.kind === 'events' ? p.events : [])).find((e) => e.type === 'kitchen.recall');
    assert.ok(shared && shared.type === 'kitchen.recall', 'every screen hears of the recall');
    assert.equal(shared.order.status, 'entregado');
    assert.equal(shared.kitchen.recalled_until, engine.clock.now() + 5 * 60_000);
    assert.equal(recalled.order.status, 'entregado');
    assert.equal(recalled.kitchen.recalled_until, engine.clock.now() + 5 * 60_000);
    assert.equal(recalled.kitchen.items.length, 2, 'the recall list carries the items');
    // A recalled ticket may be bumped item by item again.
    await ipc.ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
    let board = await ipc.ok('board:snapshot', {});
    assert.equal(board.tickets.find((t) => t.order.id === order.id)?.kitchen.recalled_until, recalled.kitchen.recalled_until);
    engine.clock.advance(5 * 60_000 + 1);
    board = await ipc.ok('board:snapshot', {});
    const later = board.tickets.find((t) => t.order.id === order.id);
    assert.equal(later?.kitchen.recalled_until ?? null, null);
    assert.equal(later?.order.status ?? 'entregado', 'entregado');
  });

  test('item states survive a restart of the engine on the same file', async () => {
    const order = await placeOrder(engine, twoLines);
    await ipc.ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
    // A second engine on the same SQLite file, as after a restart.
    const reopened = new Engine({ database: engine.dbPath, clock: engine.clock });
    try {
      const board = await readKitchenBoard(reopened, R1.id);
      assert.deepEqual(board.tickets.find((t) => t.order.id === order.id)?.kitchen.items.map((i) => i.done), [true, false]);
    } finally {
      reopened.close();
    }
  });
});
