// PaymentActionsStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { NewPaymentAction } from '../../../../src/engine/store/payment-actions-store.ts';
import { R1, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

const action = (paymentId: string, changes: Partial<NewPaymentAction> = {}): NewPaymentAction => ({
  restaurant_id: R1, provider: 'mercadopago', kind: 'check', payment_id: paymentId, order_id: null, amount: null,
  idempotency_key: null, next_at: 100, created_at: 50, ...changes,
});

export function paymentActionsStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('an inserted action has an id, reads back pending, is found by its key and its order', async () => {
    const { paymentActions } = db.stores;
    const id = await paymentActions.insert(action('pay-1', { order_id: 'o-1', kind: 'refund', amount: 2500, idempotency_key: 'idem-1' }));
    assert.equal(typeof id, 'number');
    assert.deepEqual(await paymentActions.get(id), {
      id, restaurant_id: R1, provider: 'mercadopago', kind: 'refund', payment_id: 'pay-1', order_id: 'o-1', amount: 2500,
      idempotency_key: 'idem-1', status: 'pending', outcome: null, provider_ref: null, attempts: 0, requested: 1, next_at: 100,
      last_error: null, created_at: 50, updated_at: 50,
    });
    assert.equal((await paymentActions.find(R1, 'mercadopago', 'refund', 'pay-1'))?.id, id);
    assert.equal(await paymentActions.find(R1, 'mercadopago', 'check', 'pay-1'), undefined);
    const second = await paymentActions.insert(action('pay-2', { order_id: 'o-1' }));
    assert.deepEqual((await paymentActions.listOfOrder('o-1')).map((a) => a.id), [id, second]);
    await assert.rejects(Promise.resolve().then(() => paymentActions.insert(action('pay-2', { order_id: 'o-1' }))));
  });

  test('due by a time, oldest first; an update changes the named columns and the update time', async () => {
    const { paymentActions } = db.stores;
    const late = await paymentActions.insert(action('pay-3', { next_at: 300 }));
    const [first, second] = await paymentActions.due(100, 10);
    assert.ok(first! < second!);
    assert.deepEqual(await paymentActions.due(300, 10), [first, second, late]);
    await paymentActions.update(first!, { status: 'done', outcome: 'refunded', next_at: null, attempts: 1, provider_ref: 'ref-1' }, 400);
    const row = await paymentActions.get(first!);
    assert.deepEqual([row?.status, row?.outcome, row?.next_at, row?.attempts, row?.provider_ref, row?.updated_at], ['done', 'refunded', null, 1, 'ref-1', 400]);
    assert.deepEqual(await paymentActions.due(300, 10), [second, late]);
  });

  test('updateClaimed writes only while the action holds that lease: pending, next_at the lease (issue 34)', async () => {
    const { paymentActions } = db.stores;
    const id = await paymentActions.insert(action('pay-fenced', { next_at: 100 }));
    // Claimed by a node at 100, lease to 1 000; that lease lapses and another claim leases to 2 000.
    await paymentActions.update(id, { attempts: 1, next_at: 1_000 }, 100);
    await paymentActions.update(id, { attempts: 2, next_at: 2_000 }, 1_500);
    assert.equal(await paymentActions.updateClaimed(id, 1_000, { status: 'done', outcome: 'refunded', next_at: null }, 1_600), false, 'the lapsed claim records nothing');
    assert.equal(await paymentActions.updateClaimed(id, 999, {}, 1_600), false, 'another lease, even only checked, holds nothing');
    assert.deepEqual([(await paymentActions.get(id))?.status, (await paymentActions.get(id))?.updated_at], ['pending', 1_500]);
    assert.equal(await paymentActions.updateClaimed(id, 2_000, {}, 1_700), true, 'the current claim holds it');
    assert.equal(await paymentActions.updateClaimed(id, 2_000, { status: 'done', outcome: 'refunded', provider_ref: 'ref-9', next_at: null }, 1_800), true);
    const row = await paymentActions.get(id);
    assert.deepEqual([row?.status, row?.outcome, row?.provider_ref, row?.next_at, row?.attempts, row?.updated_at], ['done', 'refunded', 'ref-9', null, 2, 1_800]);
    assert.equal(await paymentActions.updateClaimed(id, 2_000, { status: 'pending' }, 1_900), false, 'a recorded action is not held');
    assert.equal(await paymentActions.updateClaimed(id, 2_000, {}, 1_900), false);
  });

  test('quiet sessions: live orders paid online whose payment was never read nor searched, in a window', async () => {
    const { orders, paymentActions, paymentSessions } = db.stores;
    for (const [id, test_] of [['q-1', 0], ['q-2', 0], ['q-test', 1], ['q-read', 0]] as const) {
      await orders.insert(orderRow(id, { payment_kind: 'online', test: test_, number: `Q${id}` }));
    }
    for (const [id, at] of [['q-1', 500], ['q-2', 700], ['q-test', 500], ['q-read', 500]] as const) {
      await paymentSessions.insert({ id: `s-${id}`, order_id: id, provider: 'mercadopago', return_url: 'https://t.test', preselected_method: null, created_at: at });
      await paymentSessions.markOpened(`s-${id}`, at);
    }
    await paymentActions.insert(action('q-read', { kind: 'search', order_id: 'q-read' }));
    assert.deepEqual(await paymentActions.quietSessions('mercadopago', 800, 400, 10), [
      { order_id: 'q-1', restaurant_id: R1 }, { order_id: 'q-2', restaurant_id: R1 },
    ]);
    assert.deepEqual(await paymentActions.quietSessions('mercadopago', 600, 400, 10), [{ order_id: 'q-1', restaurant_id: R1 }]);
    assert.deepEqual(await paymentActions.quietSessions('sandbox', 800, 400, 10), []);
  });
}
