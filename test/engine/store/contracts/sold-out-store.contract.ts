// SoldOutStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { L1, L2, R1, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { CATALOGUE_SEED } from './catalogue-seed.ts';

export function soldOutStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED + CATALOGUE_SEED);
  });
  after(() => db.stop());

  test('marks in force at a location, by kind then id byte by byte; one past its end counts for nothing', async () => {
    await db.stores.soldOut.set(L1, 'product', 'p-zap', true, 100, null);
    await db.stores.soldOut.set(L1, 'product', 'P-upper', true, 100, 500);
    await db.stores.soldOut.set(L1, 'option', 'o-grande', true, 100, 200);
    await db.stores.soldOut.set(L2, 'product', 'p-agua', true, 100, null);
    assert.deepEqual(await db.stores.soldOut.atLocation(L1, 150), [
      { location_id: L1, item_kind: 'option', item_id: 'o-grande', since: 100, until: 200 },
      { location_id: L1, item_kind: 'product', item_id: 'P-upper', since: 100, until: 500 },
      { location_id: L1, item_kind: 'product', item_id: 'p-zap', since: 100, until: null },
    ]);
    assert.deepEqual((await db.stores.soldOut.atLocation(L1, 200)).map((m) => m.item_id), ['P-upper', 'p-zap']);
    const inRestaurant = (await db.stores.soldOut.inRestaurant(R1, 200)).map((m) => `${m.location_id}/${m.item_id}`).sort();
    assert.deepEqual(inRestaurant, [`${L1}/P-upper`, `${L1}/p-zap`, `${L2}/p-agua`]);
  });

  test('marking again moves the mark; switching it back removes it; purgeEnded forgets the ended ones', async () => {
    await db.stores.soldOut.set(L1, 'product', 'p-zap', true, 300, 900);
    assert.deepEqual((await db.stores.soldOut.atLocation(L1, 300)).find((m) => m.item_id === 'p-zap'), {
      location_id: L1, item_kind: 'product', item_id: 'p-zap', since: 300, until: 900,
    });
    await db.stores.soldOut.set(L1, 'product', 'p-zap', false, 400, null);
    assert.equal((await db.stores.soldOut.atLocation(L1, 400)).find((m) => m.item_id === 'p-zap'), undefined);
    await db.stores.soldOut.purgeEnded(L1, 500);
    assert.deepEqual((await db.rows(`SELECT item_id FROM sold_out WHERE location_id = '${L1}'`)).map((r) => r.item_id), []);
    assert.equal((await db.rows(`SELECT item_id FROM sold_out WHERE location_id = '${L2}'`)).length, 1);
  });
}
