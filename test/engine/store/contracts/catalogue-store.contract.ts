// CatalogueStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { CATALOGUE_SEED } from './catalogue-seed.ts';

export function catalogueStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED + CATALOGUE_SEED);
  });
  after(() => db.stop());

  test('a product reads with `orderable` 1 only when it and its category are active, for its restaurant only', async () => {
    assert.deepEqual(await db.stores.catalogue.product(R1, 'p-agua'), {
      id: 'p-agua', restaurant_id: R1, category_id: 'c-main', slug: 'agua', name: 'agua', description: null, price: 1000,
      offer_price: 900, image_url: null, active: 1, track_stock: 1, orderable: 1,
    });
    assert.equal((await db.stores.catalogue.product(R1, 'p-off'))?.orderable, 0);
    assert.equal((await db.stores.catalogue.product(R1, 'p-season'))?.orderable, 0);
    assert.equal(await db.stores.catalogue.product(R2, 'p-agua'), undefined);
  });

  test('modifier groups and options in their positions; an option found with its product, for its restaurant only', async () => {
    assert.deepEqual((await db.stores.catalogue.modifierGroups('p-zap')).map((g) => [g.id, g.required, g.min, g.max]), [
      ['g-a', 1, 1, 1], ['g-b', 0, 0, 2],
    ]);
    assert.deepEqual((await db.stores.catalogue.modifierOptions('p-zap')).map((o) => o.id), ['o-chico', 'o-grande', 'o-pebre']);
    const option = await db.stores.catalogue.option(R1, 'o-grande');
    assert.deepEqual({ id: option?.id, group_id: option?.group_id, price: option?.price, product_id: option?.product_id }, {
      id: 'o-grande', group_id: 'g-a', price: 500, product_id: 'p-zap',
    });
    assert.equal(await db.stores.catalogue.option(R2, 'o-grande'), undefined);
  });

  test('the menu holds the active categories and orderable products with their modifiers, in their positions', async () => {
    const menu = await db.stores.catalogue.menu(R1);
    assert.deepEqual(menu.categories, [{ id: 'c-main', name: 'Platos', description: null }]);
    assert.deepEqual(menu.products.map((p) => p.id), ['p-agua', 'p-zap']);
    assert.deepEqual(menu.groups.map((g) => g.id), ['g-a', 'g-b']);
    assert.deepEqual(menu.options.map((o) => o.id), ['o-chico', 'o-pebre', 'o-grande']);
  });

  test('tracked products by name byte by byte (upper case first), whatever their state', async () => {
    assert.deepEqual((await db.stores.catalogue.trackedProductsOf(R1)).map((p) => p.name), ['Temporada', 'Zapallo', 'agua']);
  });
}
