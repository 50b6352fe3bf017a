// PaymentSessionsStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

const session = (id: string, orderId: string, createdAt: number) => ({
  id, order_id: orderId, provider: 'sandbox', return_url: 'https://tienda.test/vuelta', preselected_method: null, created_at: createdAt,
});

export function paymentSessionsStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
    for (const id of ['po-1', 'po-2', 'po-3']) await db.stores.orders.insert(orderRow(id, { status: 'pendiente_pago', payment_kind: 'online' }));
  });
  after(() => db.stop());

  test('a session is written opening and open; opened once; found while opening, stale when never answered', async () => {
    const { paymentSessions } = db.stores;
    await paymentSessions.insert(session('ps-1', 'po-1', 100));
    assert.deepEqual(await paymentSessions.get('ps-1'), {
      id: 'ps-1', order_id: 'po-1', provider: 'sandbox', status: 'open', return_url: 'https://tienda.test/vuelta',
      preselected_method: null, last_result: null, created_at: 100, updated_at: 100, paid_method: null, closed_reason: null,
      opening: 1, provider_payment_id: null,
    });
    assert.equal((await paymentSessions.openingOfOrder('po-1'))?.id, 'ps-1');
    await paymentSessions.insert(session('ps-2', 'po-2', 200));
    assert.deepEqual(await paymentSessions.staleOpenings(150, 10), ['po-1']);
    assert.equal(await paymentSessions.markOpened('ps-1', 300), true);
    assert.equal(await paymentSessions.markOpened('ps-1', 301), false);
    assert.equal(await paymentSessions.openingOfOrder('po-1'), undefined);
    assert.deepEqual(await paymentSessions.staleOpenings(1_000, 10), ['po-2']);
    await paymentSessions.deleteOfOrder('po-2');
    assert.equal(await paymentSessions.get('ps-2'), undefined);
  });

  test('results on an open session, paid once, then closed no more; the latest of an order, ties by id byte by byte', async () => {
    const { paymentSessions } = db.stores;
    await paymentSessions.recordResult('ps-1', 'failed', 400);
    assert.equal((await paymentSessions.get('ps-1'))?.last_result, 'failed');
    await paymentSessions.setProviderPayment('ps-1', 'mp-9', 410);
    assert.equal(await paymentSessions.markPaid('ps-1', 'tarjeta', 420), true);
    assert.equal(await paymentSessions.markPaid('ps-1', 'tarjeta', 430), false);
    const paid = await paymentSessions.get('ps-1');
    assert.deepEqual([paid?.status, paid?.last_result, paid?.paid_method, paid?.provider_payment_id, paid?.updated_at], ['paid', 'success', 'tarjeta', 'mp-9', 420]);
    assert.equal(await paymentSessions.closeOpenOfOrder('po-1', 'expired', 500), 0);
    await paymentSessions.insert(session('ps-b', 'po-3', 600));
    await paymentSessions.insert(session('ps-B', 'po-3', 600));
    assert.equal((await paymentSessions.latestOfOrder('po-3'))?.id, 'ps-b');
    assert.equal(await paymentSessions.closeOpenOfOrder('po-3', 'cancelled', 700), 2);
    assert.deepEqual([(await paymentSessions.get('ps-B'))?.status, (await paymentSessions.get('ps-B'))?.closed_reason], ['closed', 'cancelled']);
    assert.equal(await paymentSessions.latestOfOrder('po-none'), undefined);
  });
}
