// CourierDeliveriesStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CourierDeliveryRow } from '../../../../src/engine/store/courier-deliveries-store.ts';
import { RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

function delivery(orderId: string, changes: Partial<CourierDeliveryRow> = {}): CourierDeliveryRow {
  return {
    order_id: orderId, provider: 'simulado', status: 'pendiente', delivery_id: null, tracking_url: null, attempts: 0,
    next_check_at: null, last_error: null, dispatched_at: null, claimed_until: null, created_at: 100, updated_at: 100, ...changes,
  };
}

export function courierDeliveriesStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
    for (const id of ['d-1', 'd-2', 'D-3', 'd-4']) await db.stores.orders.insert(orderRow(id, { type: 'delivery' }));
  });
  after(() => db.stop());

  test('a delivery reads as inserted; an update changes the named columns and the update time', async () => {
    await db.stores.courierDeliveries.insert(delivery('d-1', { next_check_at: 500 }));
    assert.deepEqual(await db.stores.courierDeliveries.get('d-1'), delivery('d-1', { next_check_at: 500 }));
    assert.equal(await db.stores.courierDeliveries.get('d-2'), undefined);
    await db.stores.courierDeliveries.update('d-1', { status: 'asignado', delivery_id: 'c-77', attempts: 1, next_check_at: null }, 600);
    assert.deepEqual(await db.stores.courierDeliveries.get('d-1'), delivery('d-1', {
      status: 'asignado', delivery_id: 'c-77', attempts: 1, next_check_at: null, updated_at: 600,
    }));
  });

  test('due: the deliveries to look at by a time, oldest first, ties by order id byte by byte, none once done', async () => {
    await db.stores.courierDeliveries.insert(delivery('d-2', { next_check_at: 300 }));
    await db.stores.courierDeliveries.insert(delivery('D-3', { next_check_at: 300 }));
    await db.stores.courierDeliveries.insert(delivery('d-4', { next_check_at: 900 }));
    assert.deepEqual(await db.stores.courierDeliveries.due(300, 10), ['D-3', 'd-2']);
    assert.deepEqual(await db.stores.courierDeliveries.due(1_000, 2), ['D-3', 'd-2']);
    await db.stores.courierDeliveries.update('d-4', { next_check_at: null, status: 'entregado' }, 950);
    assert.deepEqual(await db.stores.courierDeliveries.due(1_000, 10), ['D-3', 'd-2']);
  });

  test('due leaves out a delivery claimed for a call until its claim ends (issue 34), and the claim reads back', async () => {
    await db.stores.courierDeliveries.update('D-3', { claimed_until: 2_000, next_check_at: 2_000 }, 1_000);
    await db.stores.courierDeliveries.update('d-2', { claimed_until: 2_000 }, 1_000);
    // Due by next_check_at (a cancellation moved it) but claimed: not due before the claim ends.
    assert.deepEqual(await db.stores.courierDeliveries.due(1_500, 10), []);
    assert.equal((await db.stores.courierDeliveries.get('d-2'))?.claimed_until, 2_000);
    assert.deepEqual(await db.stores.courierDeliveries.due(2_000, 10), ['d-2', 'D-3']);
    await db.stores.courierDeliveries.update('d-2', { claimed_until: null }, 1_600);
    assert.deepEqual(await db.stores.courierDeliveries.due(1_600, 10), ['d-2']);
  });
}
