// Stations that cook several units at once (issue 32), over the real engine: a grill cook has six
// patties on at once (`units_at_once`, grows with the cooks), an oven bakes eight pizzas whoever
// tends it (`max_units_at_once`, does not). The promise places lines on that capacity, and grows
// with the queue once it is full.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { importRestaurant } from '../../../src/engine/services/restaurants/import-restaurant.ts';
import { setStationCooks } from '../../../src/engine/services/kitchen/station-cooks.ts';
import { createApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { kitchenActor } from '../../../src/engine/screen/kitchen-handlers.ts';
import { validateRestaurantConfig } from '../../../src/engine/restaurant-config/validate-restaurant-config.ts';

const ZONE = 'America/Santiago';
const NOW = '2026-11-21T19:00:00-03:00';

interface Kitchen {
  restaurant: string;
  location: string;
  key: string;
  products: Record<string, string>;
}

const config = (n: number, stations: unknown[]) => ({
  id: `96000000-0000-4000-8000-00000000003${n}`,
  name: `Capacidad ${n}`,
  register_mode: 'manual',
  time_zone: ZONE,
  locations: [{ id: `96100000-0000-4000-8000-00000000003${n}`, name: 'Centro', address: 'Calle 1', register_open: true }],
  catalogue: {
    categories: [
      {
        name: 'Carta',
        products: [
          { slug: 'burger', name: 'Hamburguesa', price: 5000, prep_minutes: 10 },
          { slug: 'pizza', name: 'Pizza', price: 9000, prep_minutes: 12 },
        ],
      },
    ],
  },
  stations,
});

const GRILL_6 = { id: 'plancha', name: 'Plancha', cooks: 1, units_at_once: 6, products: ['burger'] };
const OVEN_8 = { id: 'horno', name: 'Horno', cooks: 1, units_at_once: 8, max_units_at_once: 8, products: ['pizza'] };

let engine: EngineUnderTest;
let count = 0;
before(async () => {
  engine = await startEngineUnderTest({ seed: false, now: NOW });
});
after(async () => {
  await engine?.stop();
});

/** A restaurant of its own per test (its own queue), with a POS key. */
async function kitchen(stations: unknown[]): Promise<Kitchen> {
  const file = config(count++, stations);
  const imported = await importRestaurant(engine.server.engine, file);
  const key = (await createApiKey(engine.server.engine, { restaurantId: file.id, world: 'live', write: true, label: 'caja' })).key;
  return { restaurant: file.id, location: file.locations[0]!.id, key, products: imported.productIds };
}

const minutesAhead = (iso: string) => (DateTime.fromISO(iso).toMillis() - engine.clock.now()) / 60_000;
const items = (k: Kitchen, product: string, quantities: number[]) => quantities.map((quantity) => ({ product_id: k.products[product]!, quantity }));

/** Places an order; returns its expected ready time in minutes from now. */
async function order(k: Kitchen, product: string, quantities: number[] = [1]): Promise<number> {
  const placed = await engine.call('POST', '/orders', { key: k.key, body: { location_id: k.location, type: 'retiro', customer: { name: 'Ana' }, items: items(k, product, quantities) } });
  assert.equal(placed.status, 201, placed.text);
  return minutesAhead(placed.body.promise.expected_ready_at as string);
}

/** What a cart would be promised now (nothing created), in minutes from now. */
async function quote(k: Kitchen, product: string, quantities: number[] = [1]): Promise<number> {
  const response = await engine.call('POST', '/ready-time-quotes', { key: k.key, body: { location_id: k.location, items: items(k, product, quantities) } });
  assert.equal(response.status, 200, response.text);
  return minutesAhead(response.body.expected_ready_at as string);
}

test('two burgers at a grill of one cook with 6 at once finish together', async () => {
  const grill = await kitchen([GRILL_6]);
  assert.equal(await order(grill, 'burger'), 10);
  assert.equal(await order(grill, 'burger'), 10, 'the second burger goes on beside the first');
  assert.equal(await quote(grill, 'burger', [1, 1]), 10, 'two lines of one order, side by side');
  assert.equal(await quote(grill, 'burger', [3]), 10, 'a line of 3 takes 3 of the 6, one burger\'s time');
  // The same grill as the file said before (one line at a time): the second burger waits for the first.
  const before = await kitchen([{ id: 'plancha', name: 'Plancha', cooks: 1, products: ['burger'] }]);
  assert.equal(await order(before, 'burger'), 10);
  assert.equal(await order(before, 'burger'), 20, 'without units_at_once a cook makes one line at a time, as before');
  assert.equal(await quote(before, 'burger', [3]), 40, 'and a line of 3 takes twice a burger\'s time behind them');
});

test('the promise grows with the queue once the capacity is full', async () => {
  const grill = await kitchen([GRILL_6]);
  // Six burgers fill the grill: each promised in 10 minutes; from the seventh, the next round.
  const waits: number[] = [];
  for (let i = 0; i < 13; i++) waits.push(await order(grill, 'burger'));
  assert.deepEqual(waits, [10, 10, 10, 10, 10, 10, 20, 20, 20, 20, 20, 20, 30]);
  // A line of 4 needs 4 slots free at once: the third round's 5 free ones from minute 20.
  assert.equal(await quote(grill, 'burger', [4]), 30);
  assert.equal(await quote(grill, 'burger', [6]), 40, 'six at once wait for the whole grill to free');
});

test('an oven\'s capacity does not grow with its cooks; a grill\'s does', async () => {
  const k = await kitchen([GRILL_6, OVEN_8]);
  for (let i = 0; i < 8; i++) assert.equal(await order(k, 'pizza'), 12, 'eight pizzas bake together');
  assert.equal(await quote(k, 'pizza'), 24, 'the ninth waits for the next bake');
  for (let i = 0; i < 6; i++) await order(k, 'burger');
  assert.equal(await quote(k, 'burger'), 20, 'the seventh burger waits for a round with one cook');
  await setStationCooks(engine.server.engine, kitchenActor(k.restaurant, 'live'), 'horno', 3);
  await setStationCooks(engine.server.engine, kitchenActor(k.restaurant, 'live'), 'plancha', 2);
  assert.equal(await quote(k, 'pizza'), 24, 'three cooks at the oven: still 8 racks');
  assert.equal(await quote(k, 'burger'), 10, 'a second grill cook has six more on at once');
  // Nine pizzas in one line: 8 racks, then a second bake (each bake past the first adds half of one).
  const empty = await kitchen([OVEN_8]);
  assert.equal(await quote(empty, 'pizza', [9]), 18);
});

test('the restaurant file refuses capacities that are not whole units', () => {
  const refused = (station: Record<string, unknown>) => {
    const result = validateRestaurantConfig(config(9, [{ ...GRILL_6, ...station }]));
    assert.equal(result.ok, false, JSON.stringify(station));
    return result.ok ? [] : result.errors.map((e) => e.path);
  };
  assert.ok(refused({ units_at_once: 0 }).some((path) => path.includes('units_at_once')));
  assert.ok(refused({ max_units_at_once: 2.5 }).some((path) => path.includes('max_units_at_once')));
  assert.equal(validateRestaurantConfig(config(9, [GRILL_6, OVEN_8])).ok, true);
});
