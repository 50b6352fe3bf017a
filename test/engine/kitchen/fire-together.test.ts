import { mapInOrder } from '../../../src/shared/in-order.ts';
// Fired to finish together (issue 32), over the real engine on its injected clock: an order's line
// that its station would have done long before the order's slowest one is held, shows when it will
// fire, is fired by the jobs by itself (earlier when its station's queue grows), and the timing log
// says held, then fired.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { KITCHEN_EVENTS } from '../../../src/shared/screen-contract/kitchen.ts';
import { MAX_HOLD_MS } from '../../../src/engine/domain/finish-together.ts';

const MIN = 60_000;
let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

const timings = () => engine.server.engine.stores.kitchenTimings;
// Oven (horno): 12 empanadas at once, 10 min an empanada de queso, 12 one de camarón queso; grill
// (plancha): 2 cooks of 4 completos at once each, 5 min a completo (resources/demo).
const empanada = { product_id: R1.products.empanadaQueso, quantity: 1 };
const completo = { product_id: R1.products.completo, quantity: 1 };
/** A dozen empanadas de camarón queso (untracked): a whole bake of the oven. */
const dozen = { product_id: R1.products.empanadaCamaronQueso, quantity: 12 };
/** Four completos: one grill cook's hands full. */
const fourCompletos = { product_id: R1.products.completo, quantity: 4 };
const ticketOf = async (orderId: string) => {
  const snapshot = await handlersFor(engine).ok('board:snapshot', {});
  const ticket = snapshot.tickets.find((t) => t.order.id === orderId);
  assert.ok(ticket, 'the order is on the board');
  return ticket;
};
/** Moves the engine's clock a minute at a time (the jobs run on every move), to `until`. */
const runClockTo = async (until: number) => {
  while (engine.clock.now() < until) {
    engine.clock.set(Math.min(until, engine.clock.now() + MIN));
    await engine.server.jobs.runDue();
  }
};
/** Closes whatever the tests left open, so each starts from an idle kitchen. */
const clearKitchen = async () => {
  const kitchen = handlersFor(engine);
  for (const ticket of (await kitchen.ok('board:snapshot', {})).tickets) {
    if ((ticket.order.status === 'recibido' || ticket.order.status === 'en_preparacion') && ticket.kitchen.managed_by === null) {
      const key = ticket.order.test ? engine.demo[0]!.keys.test_write : engine.demo[0]!.keys.live_write;
      const answer = await engine.call('PATCH', `/orders/${ticket.order.id}`, { key, body: { status: 'cancelado' } });
      assert.equal(answer.status, 200, answer.text);
    }
  }
  engine.clock.advance(30 * MIN);
};

test('the short line of an order is held, shows when it fires, and the jobs fire it by itself then', async () => {
  const placed = engine.clock.now();
  const order = await placeOrder(engine, { items: [empanada, completo] });
  // Idle kitchen: the empanada is done in 10 minutes, the completo would be in 5: held 5 minutes.
  const held = await timings().heldOf(order.id);
  assert.deepEqual(held.map((h) => [h.item_index, h.station_id, h.fire_at - placed, h.target_ready_at - placed]), [[1, 'plancha', 5 * MIN, 10 * MIN]]);
  assert.deepEqual((await timings().logOfOrder(order.id)).map((r) => [r.item_index, r.kind]), [[0, 'fired'], [1, 'held']]);
  assert.deepEqual((await timings().openOf(order.id)).map((o) => o.item_index), [0], 'only the empanada is at its station');
  let ticket = await ticketOf(order.id);
  assert.equal(ticket.kitchen.items[1]!.held_until, placed + 5 * MIN, 'the board shows when it fires');
  assert.equal(ticket.kitchen.items[0]!.held_until, undefined);

  const kitchen = handlersFor(engine);
  const cursor = (await kitchen.ok('board:snapshot', {})).cursor;
  // It fires once fired now it would be done within FIRE_AHEAD_MS (30 s) of the empanada.
  await runClockTo(placed + 5 * MIN - 31_000);
  assert.equal((await timings().heldOf(order.id)).length, 1, 'still held 31 s before');
  await runClockTo(placed + 5 * MIN);
  assert.equal((await timings().heldOf(order.id)).length, 0, 'fired at its time, by the jobs alone');
  assert.deepEqual(
    (await timings().logOfOrder(order.id)).map((r) => [r.item_index, r.kind, r.device, r.at - placed]),
    [[0, 'fired', order.promise ? (await timings().logOfOrder(order.id))[0]!.device : '', 0], [1, 'held', (await timings().logOfOrder(order.id))[0]!.device, 0], [1, 'fired', 'engine', 5 * MIN]],
  );
  assert.deepEqual((await timings().openOf(order.id)).map((o) => [o.item_index, o.fired_at - placed]), [[0, 0], [1, 5 * MIN]]);
  ticket = await ticketOf(order.id);
  assert.equal(ticket.kitchen.items[1]!.held_until, undefined, 'an ordinary line on the board again');
  const events = (await engine.server.engine.stores.kitchen.events(R1.id, cursor, 50)).filter((e) => e.type === KITCHEN_EVENTS.item);
  assert.deepEqual(events.map((e) => JSON.parse(e.data)), [{ order_id: order.id, item_index: 1, done: false }], 'the screens hear of it');
  await clearKitchen();
});

test('a held line fires early when its station\'s queue grows', async () => {
  const placed = engine.clock.now();
  const order = await placeOrder(engine, { items: [empanada, completo] });
  const [held] = await timings().heldOf(order.id);
  assert.equal(held?.fire_at, placed + 5 * MIN);
  engine.clock.advance(MIN);
  // Four completos for each of the grill's two cooks: fired now, the held one would wait 5 minutes for
  // room and be done at 11 minutes, after the empanada (10): it must go now, not at 5.
  // The jobs decide it on their next pass (every second on a hub), the clock not moved.
  await placeOrder(engine, { items: [fourCompletos] });
  await engine.server.jobs.runDue();
  assert.equal((await timings().heldOf(order.id)).length, 1, 'four completos ahead leave a cook\'s room free');
  await placeOrder(engine, { items: [fourCompletos] });
  await engine.server.jobs.runDue();
  assert.equal((await timings().heldOf(order.id)).length, 0);
  const fired = (await timings().logOfOrder(order.id)).find((r) => r.item_index === 1 && r.kind === 'fired');
  assert.equal(fired?.at, placed + MIN, 'fired four minutes before its planned time');
  await clearKitchen();
});

test('an order with one line, or lines of equal time, holds nothing; a held line bumped or cancelled is no longer held', async () => {
  const single = await placeOrder(engine, { items: [empanada] });
  const pair = await placeOrder(engine, { items: [completo, completo] });
  assert.deepEqual([...await timings().heldOf(single.id), ...await timings().heldOf(pair.id)], []);
  await clearKitchen();

  const bumped = await placeOrder(engine, { items: [empanada, completo] });
  assert.equal((await timings().heldOf(bumped.id)).length, 1);
  const kitchen = handlersFor(engine);
  await kitchen.ok('items:set-done', { order_id: bumped.id, item_index: 1, done: true });
  assert.equal((await timings().heldOf(bumped.id)).length, 0, 'a cook who made it anyway bumps it: never fired after');
  const cancelled = await placeOrder(engine, { items: [empanada, completo] });
  assert.equal((await timings().heldOf(cancelled.id)).length, 1);
  const answer = await engine.call('PATCH', `/orders/${cancelled.id}`, { body: { status: 'cancelado' } });
  assert.equal(answer.status, 200, answer.text);
  assert.equal((await timings().heldOf(cancelled.id)).length, 0);
  await runClockTo(engine.clock.now() + 15 * MIN);
  assert.ok(!(await timings().logOfOrder(cancelled.id)).some((r) => r.kind === 'fired' && r.item_index === 1), 'a cancelled order\'s held line never fires');
  await clearKitchen();
});

test('orders placed in the same millisecond queue in the order they came: a later one moves no earlier order\'s held line', async () => {
  // A frozen clock (or two orders at once): the oven takes its bakes in the order they came, so
  // each order's plan is made once. Ties used to go by order id, so a new order could be scheduled
  // ahead of older ones and move every one of their held lines (an event each, per order: the
  // backup of test/engine/services/backup-database.test.ts never caught up with the writes).
  const placed = engine.clock.now();
  const cursor = (await handlersFor(engine).ok('board:snapshot', {})).cursor;
  const orders = [];
  for (let k = 0; k < 12; k++) orders.push(await placeOrder(engine, { items: [dozen, completo] }));
  assert.equal(engine.clock.now(), placed, 'all in one millisecond');
  // Order k's dozen (a whole bake) is done at 12(k+1) min behind the k before it; its completo (5 min)
  // held by the rest, 30 minutes at most (MAX_HOLD_MS).
  assert.deepEqual(
    (await mapInOrder(orders, async (o) => (await timings().heldOf(o.id)).map((h) => [h.item_index, (h.fire_at - placed) / MIN, (h.target_ready_at - placed) / MIN]))),
    orders.map((_, k) => [[1, Math.min(12 * (k + 1) - 5, MAX_HOLD_MS / MIN), 12 * (k + 1)]]),
  );
  const moved = (await engine.server.engine.stores.kitchen.events(R1.id, cursor, 500)).filter((e) => e.type === KITCHEN_EVENTS.item);
  assert.deepEqual(moved, [], 'no held line was moved or fired');
  await clearKitchen();
});
