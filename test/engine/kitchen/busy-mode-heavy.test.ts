// Busy mode sheds the heaviest work first (issue 32), over the real engine: paused by the wait, a
// store front's order that needs more of the slow grill than one dish is refused even when its own
// promise is within the threshold, while one burger, or a cart for the idle bar, is taken; a POS's
// heavy order is taken all the same.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { eventually } from '../../support/eventually.ts';
import { importRestaurant } from '../../../src/engine/services/restaurants/import-restaurant.ts';
import { createApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { readBusyState, setKeyChannelKind } from '../../../src/engine/services/kitchen/busy-mode.ts';
import { kitchenActor } from '../../../src/engine/screen/kitchen-handlers.ts';
import { setItemDone } from '../../../src/engine/services/kitchen/kitchen-items.ts';

const RESTAURANT = '95000000-0000-4000-8000-000000000032';
const LOCATION = '95100000-0000-4000-8000-000000000032';
const MIN = 60_000;

let engine: EngineUnderTest;
let storeFront: string;
let pos: string;
let burger: string;
let juice: string;
before(async () => {
  engine = await startEngineUnderTest({ seed: false });
  const imported = await importRestaurant(engine.server.engine, {
    id: RESTAURANT,
    name: 'La Plancha de Tres',
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
      { id: 'plancha', name: 'Plancha', cooks: 3, products: ['burger'] },
      { id: 'bar', name: 'Bar', cooks: 1, products: ['jugo'] },
    ],
    busy_mode: { threshold_minutes: 30, after_minutes: 3, margin_minutes: 10, max_pauses_per_hour: 2 },
  });
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

const order = (key: string, items: { product_id: string; quantity: number }[]) =>
  engine.call('POST', '/orders', { key, body: { location_id: LOCATION, type: 'retiro', customer: { name: 'Ana' }, items } });
const paused = async () => (await readBusyState(engine.server.engine, LOCATION)).paused;

test('paused by the wait, two burgers from a store front are refused though promised within the threshold; one burger and a juice are taken; a POS\'s two burgers too', async () => {
  // 6 burgers of 10 minutes at 3 cooks: a seventh would be done in 30 minutes, and promised later.
  const fired: string[] = [];
  for (let i = 0; i < 6; i++) {
    const placed = await order(pos, [{ product_id: burger, quantity: 1 }]);
    assert.equal(placed.status, 201, placed.text);
    fired.push(placed.body.id);
  }
  await engine.advance(MIN);
  await engine.advance(3 * MIN);
  await eventually(async () => (await paused()) || undefined, 'busy mode paused');
  // Each cook finishes a burger: 3 left, a new burger would be done in about 20 minutes.
  for (const id of fired.slice(0, 3)) await setItemDone(engine.server.engine, kitchenActor(RESTAURANT, 'live'), id, 0, true);
  await engine.advance(30_000);
  assert.equal(await paused(), true, 'the grill is still within the margin of the threshold: still paused');

  const twoBurgers = [{ product_id: burger, quantity: 1 }, { product_id: burger, quantity: 1 }];
  const quote = await engine.call('POST', '/ready-time-quotes', { key: storeFront, body: { location_id: LOCATION, items: twoBurgers } });
  assert.equal(quote.status, 200, quote.text);
  assert.ok(quote.body.wait_minutes <= 30, `two burgers would be promised within the threshold (${quote.body.wait_minutes} minutes): the rule is not their own wait`);
  const heavy = await order(storeFront, twoBurgers);
  assert.equal(heavy.status, 503, heavy.text);
  assert.equal(heavy.body.error.code, 'kitchen_busy');
  assert.match(heavy.body.error.message, /large online orders/);
  assert.ok(Number(heavy.headers.get('retry-after')) >= 60, 'with a Retry-After');

  const one = await order(storeFront, [{ product_id: burger, quantity: 1 }]);
  assert.equal(one.status, 201, `one burger (one dish at the grill) is taken: ${one.text}`);
  const bar = await order(storeFront, [{ product_id: juice, quantity: 2 }]);
  assert.equal(bar.status, 201, `a cart for the idle bar is taken: ${bar.text}`);
  assert.equal((await order(pos, twoBurgers)).status, 201, 'a POS\'s order is never refused');
});
