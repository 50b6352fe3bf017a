// The promise over the real engine (issue 32): POST /orders answers it, POST /ready-time-quotes gives
// it for a cart without creating anything, GET /locations carries the wait; it grows with the queue
// at a station, whatever the channel, and shrinks when the hub adds a cook.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { setStationCooks } from '../../../src/engine/services/kitchen/station-cooks.ts';
import { kitchenActor } from '../../../src/engine/screen/kitchen-handlers.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

const minutesAhead = (iso: string) => (DateTime.fromISO(iso).toMillis() - engine.clock.now()) / 60_000;
const completo = { product_id: R1.products.completo, quantity: 1 };
const quote = async (items: unknown[]) => {
  const response = await engine.call('POST', '/ready-time-quotes', { body: { location_id: R1.openLocation, items } });
  assert.equal(response.status, 200, response.text);
  return response.body;
};

test('on an idle kitchen the wait is the promise of one typical line at the slowest station (an empanada at the oven)', async () => {
  // The oven's typical product is a 12-minute empanada (its products take 10, 12, 12 and 15): an
  // order of one is expected in 12 minutes and promised at its p90 (1.35 x 12, plus a tenth of the
  // wait), what the location's wait says; a completo (5 minutes at the grill) is promised sooner.
  const empanada = await quote([{ product_id: R1.products.empanadaCamaronQueso, quantity: 1 }]);
  assert.equal(minutesAhead(empanada.expected_ready_at), 12);
  assert.equal(empanada.wait_minutes, 18);
  const wait = (await engine.call('GET', '/locations')).body.data.find((l: { location_id: string }) => l.location_id === R1.openLocation);
  assert.equal(wait.kitchen_wait_minutes, empanada.wait_minutes, 'the idle kitchen\'s wait is what an order of one empanada is promised');
  assert.ok((await quote([completo])).wait_minutes < wait.kitchen_wait_minutes, 'a faster station waits less');
});

test('every new order at a busy station is promised later; a quote changes nothing', async () => {
  // The oven (horno) bakes 12 empanadas at once (resources/demo): a dozen empanadas de camarón queso
  // (12 minutes each) fills it, so each dozen waits for the bake before it.
  const dozen = { product_id: R1.products.empanadaCamaronQueso, quantity: 12 };
  const first = await quote([dozen]);
  assert.equal(first.location_id, R1.openLocation);
  const again = await quote([dozen]);
  assert.deepEqual(again, first, 'asking twice is the same answer: nothing was created');
  const expected: number[] = [];
  for (let i = 0; i < 4; i++) {
    const order = await placeOrder(engine, { items: [dozen] });
    assert.ok(order.promise, 'the created order carries its promise');
    assert.ok(DateTime.fromISO(order.promise.promised_ready_at) >= DateTime.fromISO(order.promise.expected_ready_at));
    assert.equal(order.promise.quantile, 0.9);
    assert.equal(order.promise.margin_basis, 'prior');
    expected.push(minutesAhead(order.promise.expected_ready_at));
  }
  assert.equal(expected[0], minutesAhead(first.expected_ready_at), 'the quote was the first order\'s promise');
  for (let i = 1; i < expected.length; i++) assert.equal(expected[i]! - expected[i - 1]!, 12, 'each one a bake (12 minutes) behind the last');
  // A sandbox order is promised behind the real queue, but does not delay real customers.
  const sandbox = await placeOrder(engine, { items: [dozen] }, engine.demo[0]!.keys.test_write);
  assert.equal(minutesAhead(sandbox.promise.expected_ready_at), expected.at(-1)! + 12);
  assert.equal(minutesAhead((await quote([dozen])).expected_ready_at), expected.at(-1)! + 12, 'a live cart waits behind live lines only');
  const wait = (await engine.call('GET', '/locations')).body.data.find((l: { location_id: string }) => l.location_id === R1.openLocation);
  assert.ok(wait.kitchen_wait_minutes >= expected.at(-1)! + 12, `the location's wait shows the oven's queue (${wait.kitchen_wait_minutes})`);
});

test('a cook added at the station shrinks the promise, up to what the station holds', async () => {
  // The grill (plancha): 4 completos on at once per cook, 12 at most on the griddle (resources/demo).
  const orders = [];
  for (let i = 0; i < 16; i++) orders.push(await placeOrder(engine, { items: [completo] }));
  const two = minutesAhead((await quote([completo])).expected_ready_at);
  await setStationCooks(engine.server.engine, kitchenActor(R1.id, 'live'), 'plancha', 3);
  const three = minutesAhead((await quote([completo])).expected_ready_at);
  assert.ok(three < two, `3 cooks (${three} min) promise earlier than 2 (${two} min)`);
  // Seventeen completos of 5 minutes: with 2 cooks (8 at once) the 17th waits 2 rounds; with 3 (12), 1.
  assert.equal(two, 15);
  assert.equal(three, 10);
  // A fourth cook adds no room on a griddle that holds 12: with one order cancelled, 15 completos
  // still fill it and the 16th waits a round (four cooks' 16 would take it at once).
  const cancelled = await engine.call('PATCH', `/orders/${orders[0]!.id}`, { body: { status: 'cancelado' } });
  assert.equal(cancelled.status, 200, cancelled.text);
  await setStationCooks(engine.server.engine, kitchenActor(R1.id, 'live'), 'plancha', 4);
  assert.equal(minutesAhead((await quote([completo])).expected_ready_at), 10);
});

test('a cart of products no one has: 400 naming the line, as POST /orders', async () => {
  const response = await engine.call('POST', '/ready-time-quotes', {
    body: { location_id: R1.openLocation, items: [completo, { product_id: '13000000-0000-4000-8000-000000000099', quantity: 1 }] },
  });
  assert.equal(response.status, 400);
  assert.match(response.body.error.message, /items\[1\]\.product_id/);
});

test('lines left open for hours are tickets forgotten on the screen, not work ahead', async () => {
  const empanada = { product_id: R1.products.empanadaQueso, quantity: 1 };
  assert.ok(minutesAhead((await quote([empanada])).expected_ready_at) > 10, 'the oven has a queue from the tests before');
  engine.clock.advance(7 * 3_600_000);
  assert.equal(minutesAhead((await quote([empanada])).expected_ready_at), 10, 'seven hours later only its own 10 minutes');
});

test('the board\'s ticket carries the order\'s promise (the board colours it and lists it late past it)', async () => {
  const order = await placeOrder(engine, { items: [completo] });
  const snapshot = await handlersFor(engine).ok('board:snapshot', {});
  const ticket = snapshot.tickets.find((x: { order: { id: string } }) => x.order.id === order.id);
  assert.equal(ticket?.kitchen.promised_ready_at, DateTime.fromISO(order.promise.promised_ready_at).toMillis());
});
