// A line started at its station (issue 32, `items:set-started`), over the real engine on its injected
// clock: logged as an explicit start (station, device), drawn started, taken back; the order's held
// lines then fire from that real start (start plus its mean minus theirs), not from the predicted
// one; and the cook times learned from such starts have no queue in them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { callScreenHandler } from '../../../src/engine/screen/dispatch.ts';
import { KITCHEN_EVENTS } from '../../../src/shared/screen-contract/kitchen.ts';
import { cookSamples } from '../../../src/engine/services/kitchen/learn-prep-times.ts';
import { queueOpenLines } from '../../../src/engine/domain/kitchen-promise.ts';

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
const logOf = async (orderId: string) => (await timings().logOfOrder(orderId)).map((r) => [r.item_index, r.kind, r.source, r.station_id, r.device, r.at] as const);
const openOf = async (orderId: string) => (await timings().openOf(orderId)).map((r) => [r.item_index, r.started_at, r.started_explicit] as const);
const itemsOf = async (orderId: string) => {
  const ticket = (await handlersFor(engine).ok('board:snapshot', {})).tickets.find((t) => t.order.id === orderId);
  assert.ok(ticket, 'the order is on the board');
  return ticket.kitchen.items.map((i) => [i.index, i.done, i.started ?? false] as const);
};
const heldOf = async (orderId: string) => (await timings().heldOf(orderId)).map((h) => h.item_index);
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

test('a line started at its station: logged as an explicit start, drawn started, taken back, never on a done line', async () => {
  const kitchen = handlersFor(engine);
  const order = await placeOrder(engine, { items: [empanada, completo] });
  const logged = (await logOf(order.id)).length;
  engine.clock.advance(MIN);
  const startedAt = engine.clock.now();
  const events = await engine.server.engine.stores.events.lastSeq(R1.id);
  const answer = await kitchen.ok('items:set-started', { order_id: order.id, item_index: 0, started: true });
  assert.deepEqual(answer.kitchen.items.map((i) => [i.index, i.started ?? false]), [[0, true], [1, false]], 'the answer is the ticket with its line started');
  assert.deepEqual((await logOf(order.id)).slice(logged), [[0, 'started', 'explicit', 'horno', 'kitchen', startedAt]]);
  assert.deepEqual(await openOf(order.id), [[0, startedAt, 1]], 'its open line takes that start as its own');
  assert.deepEqual(await itemsOf(order.id), [[0, false, true], [1, false, false]]);
  const event = (await engine.server.engine.stores.kitchenData.itemEvents(R1.id, 'live', KITCHEN_EVENTS.item, events, 10)).map((e) => JSON.parse(e.data) as unknown);
  assert.deepEqual(event, [{ order_id: order.id, item_index: 0, done: false, started: true }], 'one kitchen event, that every screen redraws from');

  await kitchen.ok('items:set-started', { order_id: order.id, item_index: 0, started: true });
  assert.equal((await logOf(order.id)).length, logged + 1, 'asked again (a queued retry), nothing is written');

  engine.clock.advance(MIN);
  await kitchen.ok('items:set-started', { order_id: order.id, item_index: 0, started: false });
  assert.deepEqual((await logOf(order.id)).at(-1), [0, 'undone', 'explicit', 'horno', 'kitchen', startedAt + MIN], 'the undo is logged as the start taken back');
  assert.deepEqual(await openOf(order.id), [[0, null, 0]]);
  assert.deepEqual(await itemsOf(order.id), [[0, false, false], [1, false, false]]);

  // The held completo started by a cook: fired from its "retenido" mark, then started.
  assert.deepEqual(await heldOf(order.id), [1]);
  await kitchen.ok('items:set-started', { order_id: order.id, item_index: 1, started: true });
  const now = engine.clock.now();
  assert.deepEqual((await logOf(order.id)).slice(-2), [[1, 'fired', null, 'plancha', 'kitchen', now], [1, 'started', 'explicit', 'plancha', 'kitchen', now]]);
  assert.deepEqual(await heldOf(order.id), [], 'no longer held');
  assert.deepEqual(await openOf(order.id), [[0, null, 0], [1, now, 1]]);

  // A done line is neither started nor unstarted: its bump says more.
  await kitchen.ok('items:set-done', { order_id: order.id, item_index: 1, done: true });
  const afterBump = (await logOf(order.id)).length;
  await kitchen.ok('items:set-started', { order_id: order.id, item_index: 1, started: false });
  await kitchen.ok('items:set-started', { order_id: order.id, item_index: 1, started: true });
  assert.equal((await logOf(order.id)).length, afterBump);
  assert.deepEqual(await itemsOf(order.id), [[0, false, false], [1, true, false]], 'a done line is drawn done, not started');

  const missing = await callScreenHandler(kitchen.handlers, 'items:set-started', { order_id: order.id, item_index: 5, started: true });
  assert.equal(missing.ok ? 'ok' : missing.error.code, 'not_found');
  await kitchen.ok('orders:transition', { order_id: order.id, target: 'cancelado' });
  const finished = await callScreenHandler(kitchen.handlers, 'items:set-started', { order_id: order.id, item_index: 0, started: true });
  assert.equal(finished.ok ? 'ok' : finished.error.code, 'ticket_finished');
  await clearKitchen();
});

test('a held line fires from its slowest line\'s real start: later when the oven started late', async () => {
  const kitchen = handlersFor(engine);
  const placed = engine.clock.now();
  const order = await placeOrder(engine, { items: [empanada, completo] });
  // Idle kitchen: the empanada is predicted started at once, done at +10; the completo held to +5.
  const [held] = await timings().heldOf(order.id);
  assert.equal(held!.fire_at - placed, 5 * MIN);
  // The oven's cook takes the empanada only at +4: it will be done at +14, not +10.
  await runClockTo(placed + 4 * MIN);
  await kitchen.ok('items:set-started', { order_id: order.id, item_index: 0, started: true });
  await runClockTo(placed + 8 * MIN);
  assert.deepEqual(await heldOf(order.id), [1], 'still held at +8: fired at +5 it would be done 4 minutes before the empanada');
  await runClockTo(placed + 10 * MIN);
  const fired = (await timings().logOfOrder(order.id)).filter((r) => r.item_index === 1 && r.kind === 'fired');
  assert.deepEqual(fired.map((r) => (r.at - placed) / MIN), [9], 'fired at +9 (14 minus its 5, a tick early at most)');
  await clearKitchen();
});

test('a held line fires from its slowest line\'s real start: earlier when the oven freed up early', async () => {
  const kitchen = handlersFor(engine);
  const placed = engine.clock.now();
  // A dozen empanadas de camarón queso (12 minutes) fills the oven (12 at once).
  const first = await placeOrder(engine, { items: [{ product_id: R1.products.empanadaCamaronQueso, quantity: 12 }] });
  const order = await placeOrder(engine, { items: [empanada, completo] });
  // The oven is full with the first bake: this empanada is predicted from +12 to +22, the completo held to +17.
  const [held] = await timings().heldOf(order.id);
  assert.deepEqual([held!.fire_at - placed, held!.target_ready_at - placed], [17 * MIN, 22 * MIN]);
  // The first bake is out at +3 and the cook puts this one in at once: done at +13.
  await runClockTo(placed + 3 * MIN);
  await kitchen.ok('items:set-done', { order_id: first.id, item_index: 0, done: true });
  await kitchen.ok('items:set-started', { order_id: order.id, item_index: 0, started: true });
  await runClockTo(placed + 7 * MIN);
  assert.deepEqual(await heldOf(order.id), [1], 'not yet at +7');
  await runClockTo(placed + 9 * MIN);
  const fired = (await timings().logOfOrder(order.id)).filter((r) => r.item_index === 1 && r.kind === 'fired');
  assert.deepEqual(fired.map((r) => (r.at - placed) / MIN), [8], 'fired at +8 (13 minus its 5), not at its planned +17');
  await clearKitchen();
});

test('cook times learned from an explicit start leave out the wait, whatever the queue bound says', () => {
  const row = (kind: 'fired' | 'started' | 'done' | 'undone', at: number, source: string | null = null, index = 0) =>
    ({ order_id: 'o', item_index: index, kind, source, station_id: 'horno', product_id: 'p', quantity: 1, at });
  const cooks = new Map([['horno', 1]]);
  // Fired at 0, the ticket moved at 1 min, the cook started it at 6 and bumped it at 16.
  const explicit = cookSamples([row('fired', 0), row('started', MIN, 'ticket'), row('started', 6 * MIN, 'explicit'), row('done', 16 * MIN, 'item')], cooks);
  assert.deepEqual(explicit.map((s) => s.seconds), [600]);
  // Without it, the wait from the ticket's move is counted as cooking.
  const bounded = cookSamples([row('fired', 0), row('started', MIN, 'ticket'), row('done', 16 * MIN, 'item')], cooks);
  assert.deepEqual(bounded.map((s) => s.seconds), [900]);
  // A start taken back is no start.
  const undone = cookSamples([row('fired', 0), row('started', 6 * MIN, 'explicit'), row('undone', 7 * MIN, 'explicit'), row('done', 16 * MIN, 'item')], cooks);
  assert.deepEqual(undone.map((s) => s.seconds), [960]);
});

test('the schedule puts a line started at its station on a cook from its real start, ahead of older lines still waiting', () => {
  const cooks = new Map([['horno', 1]]);
  const open = [
    { station_id: 'horno', fired_at: 0, started_at: null, seconds: 600, order_id: 'older', item_index: 0 },
    { station_id: 'horno', fired_at: MIN, started_at: 2 * MIN, started_explicit: true, seconds: 600, order_id: 'taken', item_index: 0 },
  ];
  const queued = queueOpenLines({ now: 3 * MIN, cooks, open });
  assert.deepEqual([queued.orders_ready_at.get('taken')! / MIN, queued.orders_ready_at.get('older')! / MIN], [12, 22], 'the cook is on the later line since minute 2; the older one waits behind it');
  assert.deepEqual([...queued.orders_started_ready_at].map(([order, at]) => [order, at / MIN]), [['taken', 12]], 'only the started order\'s finish is known from a real start');
  // A ticket's start is a lower bound only: the line still waits for the oven's cook.
  const ticket = queueOpenLines({ now: 3 * MIN, cooks, open: [open[0]!, { ...open[1]!, started_explicit: false }] });
  assert.deepEqual([ticket.orders_ready_at.get('older')! / MIN, ticket.orders_ready_at.get('taken')! / MIN], [10, 20]);
  assert.equal(ticket.orders_started_ready_at.size, 0);
});
