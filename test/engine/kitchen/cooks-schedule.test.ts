// Cooks on shift by the hour (issue 32): the restaurant file's schedule changes the cooks the promise
// schedules with at the hour it says (the restaurant's local hour, on the engine's clock), the hub's
// "+ / −" holds until the schedule next changes the count, and the file refuses overlapping shifts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { importRestaurant } from '../../../src/engine/services/restaurants/import-restaurant.ts';
import { readStationCooks, setStationCooks } from '../../../src/engine/services/kitchen/station-cooks.ts';
import { createApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { kitchenActor } from '../../../src/engine/screen/kitchen-handlers.ts';
import { validateRestaurantConfig } from '../../../src/engine/restaurant-config/validate-restaurant-config.ts';

const RESTAURANT = '95000000-0000-4000-8000-000000000032';
const LOCATION = '95100000-0000-4000-8000-000000000032';
const ZONE = 'America/Santiago';
const at = (local: string) => DateTime.fromISO(local, { zone: ZONE }).toMillis();

const config = (cooksByHour: unknown) => ({
  id: RESTAURANT,
  name: 'La Plancha por Turnos',
  register_mode: 'manual',
  time_zone: ZONE,
  locations: [{ id: LOCATION, name: 'Centro', address: 'Calle 1', register_open: true }],
  catalogue: { categories: [{ name: 'Carta', products: [{ slug: 'burger', name: 'Hamburguesa', price: 5000, prep_minutes: 10 }] }] },
  stations: [{ id: 'plancha', name: 'Plancha', cooks: 1, products: ['burger'], cooks_by_hour: cooksByHour }],
});

let engine: EngineUnderTest;
let burger: string;
let pos: string;
before(async () => {
  // 19:50 in Santiago: one cook at the grill until 20:00, two from 20:00 to 22:00 (the schedule).
  engine = await startEngineUnderTest({ seed: false, now: '2026-11-21T19:50:00-03:00' });
  const imported = await importRestaurant(engine.server.engine, config([{ from_hour: 20, to_hour: 22, cooks: 2 }]));
  burger = imported.productIds.burger!;
  pos = (await createApiKey(engine.server.engine, { restaurantId: RESTAURANT, world: 'live', write: true, label: 'caja' })).key;
});
after(async () => {
  await engine?.stop();
});

const actor = () => kitchenActor(RESTAURANT, 'live');
const grillCooks = async () => (await readStationCooks(engine.server.engine, actor())).find((s) => s.station_id === 'plancha')!.cooks;
const oneBurger = () => ({ location_id: LOCATION, items: [{ product_id: burger, quantity: 1 }] });
const expectedReady = async () => {
  const response = await engine.call('POST', '/ready-time-quotes', { key: pos, body: oneBurger() });
  assert.equal(response.status, 200, response.text);
  return DateTime.fromISO(response.body.expected_ready_at as string).toMillis();
};

test('the promise follows the cooks schedule at the hour boundary', async () => {
  for (let i = 0; i < 2; i++) {
    const placed = await engine.call('POST', '/orders', { key: pos, body: { ...oneBurger(), type: 'retiro', customer: { name: 'Ana' } } });
    assert.equal(placed.status, 201, placed.text);
  }
  engine.clock.set(at('2026-11-21T19:59:30'));
  assert.equal(await grillCooks(), 1, 'one cook before 20:00');
  // One cook: the two burgers ahead (19:50–20:00, 20:00–20:10), then this one to 20:20.
  assert.equal(await expectedReady(), at('2026-11-21T20:20:00'));
  engine.clock.set(at('2026-11-21T20:00:00'));
  assert.equal(await grillCooks(), 2, 'two cooks from 20:00');
  // Two cooks: the second burger and this one side by side, both from 20:00.
  assert.equal(await expectedReady(), at('2026-11-21T20:10:00'));
  engine.clock.set(at('2026-11-21T22:00:00'));
  assert.equal(await grillCooks(), 1, 'back to the default from 22:00');
});

test('the hub\'s "+ / −" holds until the schedule next changes the count', async () => {
  engine.clock.set(at('2026-11-22T19:30:00'));
  await setStationCooks(engine.server.engine, actor(), 'plancha', 3);
  assert.equal(await grillCooks(), 3);
  engine.clock.set(at('2026-11-22T19:59:59'));
  assert.equal(await grillCooks(), 3, 'held within the hour the schedule gives 1');
  engine.clock.set(at('2026-11-22T20:00:00'));
  assert.equal(await grillCooks(), 2, 'the 20:00 shift is the schedule\'s');
  engine.clock.set(at('2026-11-22T20:10:00'));
  await setStationCooks(engine.server.engine, actor(), 'plancha', 4);
  engine.clock.set(at('2026-11-22T21:30:00'));
  assert.equal(await grillCooks(), 4, 'no change of count at 21:00: the hub\'s count holds');
  engine.clock.set(at('2026-11-22T22:00:00'));
  assert.equal(await grillCooks(), 1);
});

test('the restaurant file refuses overlapping or backwards shifts', () => {
  const overlapping = validateRestaurantConfig(config([{ from_hour: 12, to_hour: 15, cooks: 2 }, { from_hour: 14, to_hour: 16, cooks: 3 }]));
  assert.equal(overlapping.ok, false);
  assert.deepEqual(!overlapping.ok && overlapping.errors.map((e) => e.path), ['$.stations[0].cooks_by_hour[1]']);
  const backwards = validateRestaurantConfig(config([{ from_hour: 23, to_hour: 2, cooks: 2 }]));
  assert.deepEqual(!backwards.ok && backwards.errors.map((e) => e.path), ['$.stations[0].cooks_by_hour[0].to_hour']);
  const outOfRange = validateRestaurantConfig(config([{ from_hour: 12, to_hour: 25, cooks: 2 }]));
  assert.equal(outOfRange.ok, false);
  assert.equal(validateRestaurantConfig(config([{ from_hour: 12, to_hour: 15, cooks: 2 }, { from_hour: 15, to_hour: 16, cooks: 3 }])).ok, true);
});
