// StockStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { L1, L2, R1, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { CATALOGUE_SEED } from './catalogue-seed.ts';

export function stockStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED + CATALOGUE_SEED);
  });
  after(() => db.stop());

  test('a product with no row has 0; set writes a quantity, and again', async () => {
    assert.equal(await db.stores.stock.quantity(L1, 'p-zap'), 0);
    await db.stores.stock.set(L1, 'p-zap', 7);
    assert.equal(await db.stores.stock.quantity(L1, 'p-zap'), 7);
    await db.stores.stock.set(L1, 'p-zap', 3);
    assert.equal(await db.stores.stock.quantity(L1, 'p-zap'), 3);
  });

  test('tryTake takes what is there and refuses more, leaving the quantity as it was', async () => {
    await db.stores.stock.set(L1, 'p-agua', 2);
    assert.equal(await db.stores.stock.tryTake(L1, 'p-agua', 3), false);
    assert.equal(await db.stores.stock.quantity(L1, 'p-agua'), 2);
    assert.equal(await db.stores.stock.tryTake(L1, 'p-agua', 2), true);
    assert.equal(await db.stores.stock.quantity(L1, 'p-agua'), 0);
    assert.equal(await db.stores.stock.tryTake(L1, 'p-agua', 1), false);
    assert.equal(await db.stores.stock.tryTake(L2, 'p-none', 1), false);
  });

  test('twenty takes at once of five units: exactly five succeed', async () => {
    await db.stores.stock.set(L1, 'p-season', 5);
    const takes = await Promise.all(Array.from({ length: 20 }, () => Promise.resolve().then(() => db.stores.stock.tryTake(L1, 'p-season', 1))));
    assert.equal(takes.filter(Boolean).length, 5);
    assert.equal(await db.stores.stock.quantity(L1, 'p-season'), 0);
  });

  test('restore gives units back, making the row when there was none', async () => {
    await db.stores.stock.set(L1, 'p-off', 1);
    await db.stores.stock.restore(L1, 'p-off', 2);
    assert.equal(await db.stores.stock.quantity(L1, 'p-off'), 3);
    await db.stores.stock.restore(L2, 'p-off', 4);
    assert.equal(await db.stores.stock.quantity(L2, 'p-off'), 4);
  });

  test('quantitiesAt maps a location\'s products; productsInStockAnywhere counts active locations with units left', async () => {
    await db.exec('DELETE FROM stock');
    await db.stores.stock.set(L1, 'p-zap', 2);
    await db.stores.stock.set(L1, 'p-agua', 0);
    await db.stores.stock.set(L2, 'p-season', 9); // l-2 is not active
    assert.deepEqual(await db.stores.stock.quantitiesAt(L1), new Map([['p-zap', 2], ['p-agua', 0]]));
    assert.deepEqual(await db.stores.stock.productsInStockAnywhere(R1), new Set(['p-zap']));
  });
}
