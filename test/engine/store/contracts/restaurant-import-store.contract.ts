// RestaurantImportStore's contract, on both databases (issue 34): the id checks and the inserts of a
// restaurant configuration file (services/restaurants/import-restaurant.ts). What it writes is read
// back through the other stores, as the engine reads it; an import that fails halfway leaves nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ImportedLocationRow, ImportedProductRow, ImportedRestaurantRow, ImportedTable } from '../../../../src/engine/store/restaurant-import-store.ts';
import { R1, RESTAURANTS_SEED, type OpenBackend, type StoreBackend, type StoresUnderTest } from '../support/store-backends.ts';

const restaurant = (id: string): ImportedRestaurantRow => ({
  id, name: 'Fuente Alemana', register_mode: 'schedule', time_zone: 'America/Punta_Arenas', payment_timeout_minutes: 15,
  sold_out_resets_at: null, shipping_subsidies: '[{"from":10000,"amount":1000}]', created_at: 1_700_000_000_000,
});

const product = (id: string, restaurantId: string, categoryId: string): ImportedProductRow => ({
  id, restaurant_id: restaurantId, category_id: categoryId, slug: `slug-${id}`, name: 'Lomito', description: null, price: 7990,
  offer_price: 6990, image_url: 'https://example.cl/lomito.jpg', active: 1, track_stock: 1, position: 2,
});

const location = (id: string, restaurantId: string): ImportedLocationRow => ({
  id, restaurant_id: restaurantId, name: 'Alameda', address: 'Av. Libertador 58', latitude: -33.4378, longitude: -70.6505,
  is_active: 1, register_open: 0, weekly_schedule: '{"mon":[["12:00","22:00"]]}', preparation_lead_minutes: 25, delivery: '{}', position: 0,
});

/** One restaurant's whole file, as import-restaurant.ts writes it (ids prefixed, so a body can write two). */
async function importOne(stores: StoresUnderTest, prefix: string): Promise<void> {
  const rows = stores.restaurantImport;
  await rows.insertRestaurant(restaurant(`${prefix}r`));
  await rows.insertCategory(`${prefix}c`, `${prefix}r`, 'Sándwiches', null, 1, 0);
  await rows.insertProduct(product(`${prefix}p`, `${prefix}r`, `${prefix}c`));
  await rows.insertModifierGroup(`${prefix}g`, `${prefix}p`, 'Agregados', 0, 0, 2, 0);
  await rows.insertModifierOption(`${prefix}o`, `${prefix}g`, 'Palta', 900, 0);
  await rows.insertLocation(location(`${prefix}l`, `${prefix}r`));
  await rows.insertException(`${prefix}l`, '2026-12-25', 1, '[]', 'Navidad');
  await rows.insertStock(`${prefix}l`, `${prefix}p`, 12);
  await rows.insertKitchenSettings(`${prefix}r`, '{"stations":[]}', 1_700_000_000_000);
}

const TABLES: [ImportedTable, string][] = [
  ['restaurants', 'r'], ['locations', 'l'], ['categories', 'c'], ['products', 'p'], ['modifier_groups', 'g'], ['modifier_options', 'o'],
];

export function restaurantImportStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('an id is taken once a row of that table has it, in any restaurant, and only in that table', async () => {
    const { restaurantImport } = db.stores;
    assert.equal(await restaurantImport.taken('restaurants', R1), true);
    assert.equal(await restaurantImport.taken('locations', R1), false);
    for (const [table, suffix] of TABLES) assert.equal(await restaurantImport.taken(table, `x-${suffix}`), false, table);
    await db.transaction((stores) => importOne(stores, 'x-'));
    for (const [table, suffix] of TABLES) assert.equal(await restaurantImport.taken(table, `x-${suffix}`), true, table);
  });

  test('what an import writes reads back through the engine\'s stores, numbers as numbers, nulls as nulls', async () => {
    await db.transaction((stores) => importOne(stores, 'y-'));
    const { restaurants, catalogue, locations, stock, kitchenData } = db.stores;
    assert.deepEqual(await restaurants.get('y-r'), { ...restaurant('y-r'), next_order_number: 1, next_test_order_number: 1 });
    assert.equal(await restaurants.takeOrderNumber('y-r', 'live'), '1', 'an imported restaurant numbers its orders from 1');
    const { position: _position, ...imported } = product('y-p', 'y-r', 'y-c');
    assert.deepEqual(await catalogue.product('y-r', 'y-p'), { ...imported, orderable: 1 });
    assert.deepEqual(await db.rows("SELECT position FROM products WHERE id = 'y-p'"), [{ position: 2 }]);
    assert.deepEqual(await catalogue.modifierGroups('y-p'), [{ id: 'y-g', product_id: 'y-p', name: 'Agregados', required: 0, min: 0, max: 2, position: 0 }]);
    assert.deepEqual(await catalogue.modifierOptions('y-p'), [{ id: 'y-o', group_id: 'y-g', name: 'Palta', price: 900, position: 0 }]);
    assert.deepEqual(await locations.get('y-r', 'y-l'), { ...location('y-l', 'y-r'), known_status: null });
    assert.deepEqual(
      (await locations.exceptions('y-l', '2026-12-01', '2026-12-31')).map((e) => [e.local_date, e.closed, e.hours, e.label, e.source]),
      [['2026-12-25', 1, '[]', 'Navidad', 'config']],
    );
    assert.equal(await stock.quantity('y-l', 'y-p'), 12);
    assert.deepEqual(await kitchenData.settings('y-r'), { settings: '{"stations":[]}', updated_at: 1_700_000_000_000 });
  });

  test('a row the database refuses (an id taken, a product of no category) fails the import, and its transaction leaves nothing', async () => {
    await assert.rejects(db.transaction(async (stores) => {
      await stores.restaurantImport.insertRestaurant(restaurant('z-r'));
      await stores.restaurantImport.insertCategory('x-c', 'z-r', 'Otra', null, 1, 0);
    }));
    await assert.rejects(db.transaction(async (stores) => {
      await stores.restaurantImport.insertRestaurant(restaurant('z-r'));
      await stores.restaurantImport.insertProduct(product('z-p', 'z-r', 'no-category'));
    }));
    assert.equal(await db.stores.restaurantImport.taken('restaurants', 'z-r'), false);
    assert.deepEqual(await db.rows("SELECT id FROM restaurants WHERE id = 'z-r'"), []);
  });
}
