// Busy mode over the real engine (issue 32): above the threshold for a few minutes, a store front's
// order is refused with Retry-After and a POS's is not; it resumes by itself below the margin, it
// cannot pause more than twice an hour, a manager overrides it, and each change is an event.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { eventually } from '../../support/eventually.ts';
import { importRestaurant } from '../../../src/engine/services/restaurants/import-restaurant.ts';
import { createApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { readBusyState, setBusyOverride, setKeyChannelKind } from '../../../src/engine/services/kitchen/busy-mode.ts';
import { kitchenActor } from '../../../src/engine/screen/kitchen-handlers.ts';
import { setItemDone } from '../../../src/engine/services/kitchen/kitchen-items.ts';

const RESTAURANT = '95000000-0000-4000-8000-000000000001';
const LOCATION = '95100000-0000-4000-8000-000000000001';
const MIN = 60_000;

let engine: EngineUnderTest;
let storeFront: string;
let pos: string;
let burger: string;
let juice: string;
before(async () => {
  engine = await startEngineUnderTest({ seed: false });
  const imported = await importRestaurant(
    engine.server.engine,
    {
      id: RESTAURANT,
      name: 'La Plancha Ocupada',
      register_mode: 'manual',
      locations: [{ id: LOCATION, name: 'Centro', address: 'Calle 1', register_open: true }],
      catalogue: {
        categories: [
          {
            name: 'Carta',
            products: [
              { slug: 'burger', name: 'Hamburguesa', price: 5000, prep_minutes: 10 },
              { slug: 'jugo', name: 'Jugo natural', price: 2500, prep_minutes: 3 },
            ],
          },
        ],
      },
      stations: [
        { id: 'plancha', name: 'Plancha', cooks: 1, products: ['burger'] },
        { id: 'bar', name: 'Bar', cooks: 1, products: ['jugo'] },
      ],
      busy_mode: { threshold_minutes: 30, after_minutes: 3, margin_minutes: 10, max_pauses_per_hour: 2 },
    },
  );
  burger = imported.productIds.burger!;
  juice = imported.productIds.jugo!;
  const key = async (label: string, kind: 'store_front' | 'pos') => {
    const created = await createApiKey(engine.server.engine, { restaurantId: RESTAURANT, world: 'live', write: true, label });
    await setKeyChannelKind(engine.server.engine, created.record.id, kind);
    return created.key;
  };
  storeFront = await key('tienda web', 'store_front');
  pos = await key('caja', 'pos');
});
after(async () => {
  await engine?.stop();
});

const order = (key: string, product = burger) =>
  engine.call('POST', '/orders', { key, body: { location_id: LOCATION, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: product, quantity: 1 }] } });
const paused = async () => (await readBusyState(engine.server.engine, LOCATION)).paused;
const location = async () => (await engine.call('GET', '/locations', { key: pos })).body.data[0];
const busyEvents = async () =>
  (await engine.server.engine.stores.events
    .list(RESTAURANT, 'live', 0, 1000))
    .filter((e) => e.type === 'location.updated')
    .map((e) => (JSON.parse(e.data) as { kitchen_busy: { paused: boolean; reason: string } }).kitchen_busy);
const fill = async (count: number) => {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const placed = await order(pos);
    assert.equal(placed.status, 201, placed.text);
    ids.push(placed.body.id);
  }
  return ids;
};
/** Moves the clock a minute at a time (the jobs evaluate busy mode on each move) until it resumes, 31 minutes at most (the refused lines' window is the threshold's 30). */
const advanceUntilResumed = async () => {
  await engine.advance(30_000);
  for (let i = 0; i < 31 && (await paused()); i++) await engine.advance(MIN);
};
/** The cook catches up: every line open at the grill bumped done. */
const drain = async () => {
  const open = engine.server.engine.db.prepare('SELECT order_id, item_index FROM kitchen_open_items WHERE location_id = ?').all(LOCATION) as { order_id: string; item_index: number }[];
  for (const line of open) {
    await setItemDone(engine.server.engine, kitchenActor(RESTAURANT, 'live'), line.order_id, line.item_index, true);
  }
};

test('busy: a store front is refused with Retry-After after 3 minutes above the threshold, a POS never; it resumes below the margin', async () => {
  await fill(4); // 4 burgers of 10 minutes at one cook: a fifth would wait 50.
  await engine.advance(MIN);
  assert.equal(await paused(), false, 'not before 3 minutes above the threshold');
  assert.equal((await order(storeFront)).status, 201);
  await engine.advance(3 * MIN);
  await eventually(async () => await paused() || undefined, 'busy mode paused');

  const refused = await order(storeFront);
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error.code, 'kitchen_busy');
  const retryAfter = Number(refused.headers.get('retry-after'));
  assert.ok(retryAfter >= 60 && retryAfter <= 1800, `Retry-After ${retryAfter}`);
  assert.equal((await order(pos)).status, 201, 'a POS\'s order is taken');
  // Paused by the wait, a store front's cart that needs no slow station is promised within the threshold: taken.
  const juiceOnly = await order(storeFront, juice);
  assert.equal(juiceOnly.status, 201, juiceOnly.text);
  assert.ok(juiceOnly.body.promise.wait_minutes <= 30, `the juice is promised in ${juiceOnly.body.promise.wait_minutes} minutes`);
  const status = await location();
  assert.equal(status.kitchen_busy.paused, true);
  assert.equal(status.kitchen_busy.reason, 'kitchen_wait');
  assert.equal(status.kitchen_busy.retry_after_seconds, retryAfter);

  await drain();
  // The refused burger is work it would have again: it resumes once that, too, would be cooked.
  await advanceUntilResumed();
  await eventually(async () => !await paused() || undefined, 'busy mode resumed on its own');
  assert.equal((await order(storeFront)).status, 201);
  assert.deepEqual((await busyEvents()).map((b) => b.paused), [true, false], 'the pause and the resume are events');
});

test('it cannot flap: a third pause within the hour is not taken; an hour later it may pause again', async () => {
  const firstPause = (await readBusyState(engine.server.engine, LOCATION)).recent_pauses[0]!;
  await fill(6);
  await engine.advance(MIN); // the jobs see the wait above the threshold...
  await engine.advance(3 * MIN); // ...and 3 minutes later still
  await eventually(async () => await paused() || undefined, 'the second pause of the hour');
  await drain();
  await advanceUntilResumed();
  await eventually(async () => !await paused() || undefined, 'the second resume');

  await fill(6);
  for (let i = 0; i < 6; i++) await engine.advance(MIN);
  assert.equal(await paused(), false, 'a third pause within the hour is not taken');
  assert.equal((await order(storeFront)).status, 201, 'store fronts are still served (the promise says the wait)');
  await drain();

  engine.clock.set(firstPause + 61 * MIN);
  await engine.server.jobs.databaseJobs();
  await fill(6);
  await engine.advance(MIN);
  await engine.advance(3 * MIN);
  await eventually(async () => await paused() || undefined, 'an hour after the first pause, a pause again');
  assert.deepEqual((await busyEvents()).map((b) => b.paused), [true, false, true, false, true]);
});

test('a manager pauses and resumes from the hub; auto gives it back to the wait', async () => {
  const actor = kitchenActor(RESTAURANT, 'live');
  const resumed = await setBusyOverride(engine.server.engine, actor, LOCATION, 'resume');
  assert.deepEqual([resumed.paused, resumed.reason], [false, 'manager']);
  assert.equal((await order(storeFront)).status, 201, 'the manager takes orders despite the wait');
  await engine.advance(5 * MIN);
  assert.equal(await paused(), false, 'the override holds whatever the wait');
  const paused_ = await setBusyOverride(engine.server.engine, actor, LOCATION, 'pause');
  assert.deepEqual([paused_.paused, paused_.reason], [true, 'manager']);
  assert.equal((await order(storeFront)).status, 503);
  assert.equal((await order(storeFront, juice)).status, 503, 'a manager\'s pause refuses every store front\'s order, however short');
  assert.equal((await order(pos)).status, 201);
  const auto = await setBusyOverride(engine.server.engine, actor, LOCATION, 'auto');
  assert.equal(auto.reason, 'kitchen_wait', 'back to the wait: still above it, so still paused');
  assert.equal((await busyEvents()).at(-1)!.reason, 'kitchen_wait');
});

test('paused by the wait, it resumes when the queue it would have with the refused orders drains, not when refusing them kept the real one short', async () => {
  assert.equal(await paused(), true, 'still paused by the wait (the previous test gave it back)');
  for (let i = 0; i < 3; i++) assert.equal((await order(storeFront)).status, 503, 'a store front\'s burger behind the full grill is refused');
  await drain();
  await engine.advance(30_000);
  assert.equal(await paused(), true, 'the grill is empty, but the three refused burgers (30 minutes at one cook) would fill it again: still paused');
  const status = await location();
  assert.ok(status.kitchen_busy.wait_minutes >= 20, `busy mode's wait counts the refused lines: ${status.kitchen_busy.wait_minutes}`);
  assert.equal((await order(storeFront, juice)).status, 201, 'a cart the kitchen can still promise in time is taken meanwhile');
  await drain();
  await advanceUntilResumed();
  await eventually(async () => !(await paused()) || undefined, 'resumed once the refused lines are cooked in the projection');
  assert.equal((await order(storeFront)).status, 201);
});
