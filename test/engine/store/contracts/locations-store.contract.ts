// LocationsStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { L1, L2, R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';

export function locationsStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('a location reads as its row, for its restaurant only; the list by position', async () => {
    assert.deepEqual(await db.stores.locations.get(R1, L1), {
      id: L1, restaurant_id: R1, name: 'Centro', address: 'Calle 1', latitude: null, longitude: null, is_active: 1,
      register_open: 0, weekly_schedule: '{}', preparation_lead_minutes: 30, delivery: '{}', position: 1, known_status: null,
    });
    assert.equal(await db.stores.locations.get(R2, L1), undefined);
    assert.deepEqual((await db.stores.locations.list(R1)).map((l) => l.id), [L2, L1]);
  });

  test('the register opens and closes', async () => {
    await db.stores.locations.setRegisterOpen(L1, true);
    assert.equal((await db.stores.locations.get(R1, L1))?.register_open, 1);
    await db.stores.locations.setRegisterOpen(L1, false);
    assert.equal((await db.stores.locations.get(R1, L1))?.register_open, 0);
  });

  test('closed days between two dates in order; clearing the API\'s keeps the configured ones', async () => {
    await db.exec(`INSERT INTO location_exceptions (location_id, local_date, closed, hours, label, source)
      VALUES ('${L1}', '2026-12-25', 0, '[["10:00","14:00"]]', 'Navidad', 'config');`);
    await db.stores.locations.addClosedDay(L1, '2026-12-25', 'Inventario');
    await db.stores.locations.addClosedDay(L1, '2026-12-24', 'Víspera');
    await db.stores.locations.addClosedDay(L1, '2027-01-01', 'Año nuevo');
    const between = await db.stores.locations.exceptions(L1, '2026-12-24', '2026-12-31');
    assert.deepEqual(between.map((e) => [e.local_date, e.label, e.closed, e.source]), [
      ['2026-12-24', 'Víspera', 1, 'api'], ['2026-12-25', 'Navidad', 0, 'config'], ['2026-12-25', 'Inventario', 1, 'api'],
    ]);
    await db.stores.locations.clearApiExceptions(L1, '2026-12-25');
    assert.deepEqual((await db.stores.locations.exceptions(L1, '2026-12-25', '2026-12-25')).map((e) => e.label), ['Navidad']);
    await db.stores.locations.clearExceptions(L1, '2026-12-25');
    assert.deepEqual(await db.stores.locations.exceptions(L1, '2026-12-25', '2026-12-25'), []);
    assert.equal((await db.stores.locations.exceptions(L1, '2027-01-01', '2027-01-01')).length, 1);
  });
}
