// RestaurantsStore's contract, on both databases (on PostgreSQL the counters live in the clock row).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

export function restaurantsStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('a restaurant reads as its row, counters at 1 before its first order; the list by creation', async () => {
    assert.deepEqual(await db.stores.restaurants.get(R1), {
      id: R1, name: 'Uno', register_mode: 'manual', time_zone: 'America/Santiago', payment_timeout_minutes: 30,
      sold_out_resets_at: '04:00', shipping_subsidies: '[]', next_order_number: 1, next_test_order_number: 1, created_at: 10,
    });
    assert.equal(await db.stores.restaurants.get('r-none'), undefined);
    assert.deepEqual((await db.stores.restaurants.list()).map((r) => r.id), [R2, R1]);
  });

  test('order numbers count per world, gapless across a write rolled back', async () => {
    assert.equal(await db.stores.restaurants.takeOrderNumber(R1, 'live'), '1');
    assert.equal(await db.stores.restaurants.takeOrderNumber(R1, 'live'), '2');
    assert.equal(await db.stores.restaurants.takeOrderNumber(R1, 'test'), 'T1');
    assert.equal(await db.stores.restaurants.takeOrderNumber(R2, 'live'), '1');
    await assert.rejects(
      db.transaction(async (tx) => {
        assert.equal(await tx.restaurants.takeOrderNumber(R1, 'live'), '3');
        throw new Error('the order was refused');
      }),
      /refused/,
    );
    assert.equal(await db.stores.restaurants.takeOrderNumber(R1, 'live'), '3');
    const row = await db.stores.restaurants.get(R1);
    assert.equal(row?.next_order_number, 4);
    assert.equal(row?.next_test_order_number, 2);
  });

  test('numbering an order of a restaurant that is not there fails', async () => {
    await assert.rejects(Promise.resolve().then(() => db.stores.restaurants.takeOrderNumber('r-none', 'live')), /vanished/);
  });
}
