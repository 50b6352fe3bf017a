// Prep times learned from the item timing log over the real engine (issue 32): the cook time from
// a line's known start to its bump, a mass bump left out, and the promise using what was learned.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { learnRestaurantPrepTimes, prepTimeDrift } from '../../../src/engine/services/kitchen/learn-prep-times.ts';
import { readKitchenSettings } from '../../../src/engine/services/kitchen/kitchen-settings.ts';
import { callScreenHandler } from '../../../src/engine/screen/dispatch.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

const MIN = 60_000;
const completo = { product_id: R1.products.completo, quantity: 1 };

test('the grill\'s completos take 7 minutes, not the 5 typed; a sweep of bumps is not cooking', async () => {
  const kitchen = handlersFor(engine);
  // Whatever the demo left open at the grill is done first, so the grill starts empty.
  const open = engine.server.engine.db.prepare('SELECT order_id, item_index, station_id FROM kitchen_open_items WHERE location_id = ?').all(R1.openLocation) as { order_id: string; item_index: number; station_id: string | null }[];
  for (const row of open) {
    if (row.station_id === 'plancha') await kitchen.ok('items:set-done', { order_id: row.order_id, item_index: row.item_index, done: true });
  }
  engine.clock.advance(30 * MIN);
  for (let i = 0; i < 10; i++) {
    const order = await placeOrder(engine, { items: [completo] });
    engine.clock.advance(7 * MIN);
    await kitchen.ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
    engine.clock.advance(MIN);
  }
  // Five tickets left on the screen, then swept off within seconds.
  const swept = [];
  for (let i = 0; i < 5; i++) swept.push(await placeOrder(engine, { items: [completo] }));
  engine.clock.advance(40 * MIN);
  for (const order of swept) {
    await kitchen.ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
    engine.clock.advance(1000);
  }

  const result = await learnRestaurantPrepTimes(engine.server.engine, R1.id);
  assert.equal(result.excluded.mass_bump, 5);
  const grill = (await engine.server.engine.stores.kitchenTimings.prepStats(R1.id)).find((s) => s.product_id === R1.products.completo)!;
  assert.equal(grill.station_id, 'plancha');
  assert.equal(grill.median_seconds, 7 * 60);
  assert.equal(grill.p90_seconds, 7 * 60);
  assert.equal(grill.samples, 10);
  assert.equal(grill.excluded, 5);
  assert.deepEqual(
    (await prepTimeDrift(engine.server.engine, R1.id)).find((d) => d.product_id === R1.products.completo),
    { product_id: R1.products.completo, station_id: 'plancha', typed_seconds: 5 * 60, learned_seconds: 7 * 60, samples: 10 },
    'the manager sees it drift from the typed 5 minutes',
  );

  const quote = await engine.call('POST', '/ready-time-quotes', { body: { location_id: R1.openLocation, items: [completo] } });
  assert.equal(quote.status, 200, quote.text);
  assert.equal((DateTime.fromISO(quote.body.expected_ready_at).toMillis() - engine.clock.now()) / MIN, 7, 'the promise uses the learned time');
});

test('the manager accepts the learned time with one tap: the prep time is written, with an event, and leaves the list', async () => {
  const hub = handlersFor(engine);
  const listed = (await hub.ok('prep-times:drift', {})).find((d) => d.product_id === R1.products.completo);
  assert.deepEqual(listed, {
    product_id: R1.products.completo,
    product_name: 'Completo italiano',
    station_id: 'plancha',
    station_name: 'Plancha',
    typed_seconds: 5 * 60,
    learned_seconds: 7 * 60,
    samples: 10,
  });
  const feedFrom = (await engine.call('GET', '/events')).body.next_cursor as string;
  const after = await hub.ok('prep-times:accept', { product_id: R1.products.completo, station_id: 'plancha' });
  assert.equal(after.find((d) => d.product_id === R1.products.completo), undefined, 'accepted: it no longer drifts');
  assert.equal((await readKitchenSettings(engine.server.engine, R1.id)).prep?.product_seconds[R1.products.completo], 7 * 60);
  const events = (await engine.call('GET', `/events?after=${feedFrom}`)).body.data as { type: string; data: Record<string, unknown> }[];
  const accepted = events.filter((e) => e.type === 'prep_time.updated');
  assert.equal(accepted.length, 1);
  assert.deepEqual({ ...accepted[0]!.data, accepted_at: undefined }, {
    product_id: R1.products.completo, station_id: 'plancha', prep_seconds: 7 * 60, previous_seconds: 5 * 60, samples: 10, accepted_at: undefined,
  });
  // A product the kitchen has learned nothing of: nothing to accept.
  const unknown = await callScreenHandler(hub.handlers, 'prep-times:accept', { product_id: R1.products.empanadaQueso, station_id: 'horno' });
  assert.equal(unknown.ok, false);
  assert.equal(!unknown.ok && unknown.error.code, 'not_found');
});
