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

test('every new order at a busy station is promised later; a quote changes nothing', async () => {
  // The oven (horno) has one cook and 10 minutes per empanada de queso (resources/demo).
  const empanada = { product_id: R1.products.empanadaQueso, quantity: 1 };
  const first = await quote([empanada]);
  assert.equal(first.location_id, R1.openLocation);
  const again = await quote([empanada]);
  assert.deepEqual(again, first, 'asking twice is the same answer: nothing was created');
  const expected: number[] = [];
  for (let i = 0; i < 4; i++) {
    const order = await placeOrder(engine, { items: [empanada] });
    assert.ok(order.promise, 'the created order carries its promise');
    assert.ok(DateTime.fromISO(order.promise.promised_ready_at) >= DateTime.fromISO(order.promise.expected_ready_at));
    assert.equal(order.promise.quantile, 0.9);
    assert.equal(order.promise.margin_basis, 'prior');
    expected.push(minutesAhead(order.promise.expected_ready_at));
  }
  assert.equal(expected[0], minutesAhead(first.expected_ready_at), 'the quote was the first order\'s promise');
  for (let i = 1; i < expected.length; i++) assert.equal(expected[i]! - expected[i - 1]!, 10, 'each one 10 minutes behind the last');
  // A sandbox order is promised behind the real queue, but does not delay real customers.
  const sandbox = await placeOrder(engine, { items: [empanada] }, engine.demo[0]!.keys.test_write);
  assert.equal(minutesAhead(sandbox.promise.expected_ready_at), expected.at(-1)! + 10);
  assert.equal(minutesAhead((await quote([empanada])).expected_ready_at), expected.at(-1)! + 10, 'a live cart waits behind live lines only');
  const wait = (await engine.call('GET', '/locations')).body.data.find((l: { location_id: string }) => l.location_id === R1.openLocation);
  assert.ok(wait.kitchen_wait_minutes >= expected.at(-1)! + 10, `the location's wait shows the oven's queue (${wait.kitchen_wait_minutes})`);
});

test('a cook added at the station shrinks the promise', async () => {
  for (let i = 0; i < 6; i++) await placeOrder(engine, { items: [completo] });
  const two = minutesAhead((await quote([completo])).expected_ready_at);
  await setStationCooks(engine.server.engine, kitchenActor(R1.id, 'live'), 'plancha', 3);
  const three = minutesAhead((await quote([completo])).expected_ready_at);
  assert.ok(three < two, `3 cooks (${three} min) promise earlier than 2 (${two} min)`);
  // Seven completos of 5 minutes at the grill: with 2 cooks the 7th waits 3 rounds; with 3, 2 rounds.
  assert.equal(two, 20);
  assert.equal(three, 15);
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
