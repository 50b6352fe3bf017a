// MailOutboxStore's contract, on both databases.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { NewMail } from '../../../../src/engine/store/mail-outbox-store.ts';
import { R1, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

const mail = (orderId: string, changes: Partial<NewMail> = {}): NewMail => ({
  restaurant_id: R1, order_id: orderId, kind: 'order_ready', test: 0, to_address: 'ana@correo.test', from_name: 'Uno',
  subject: 'Tu pedido está listo', body_text: 'Pasa a buscarlo.', created_at: 100, status: 'pending', ...changes,
});

export function mailOutboxStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
    for (const id of ['mo-1', 'mo-2', 'mo-3']) await db.stores.orders.insert(orderRow(id));
  });
  after(() => db.stop());

  test('a mail is queued once per order and kind: pending ones are due at once, sandbox ones never', async () => {
    const { mailOutbox } = db.stores;
    assert.equal(await mailOutbox.enqueue(mail('mo-1')), true);
    assert.equal(await mailOutbox.enqueue(mail('mo-1', { subject: 'otra vez' })), false);
    assert.equal(await mailOutbox.enqueue(mail('mo-2', { status: 'sandbox', created_at: 50 })), true);
    const [pending] = await mailOutbox.listByOrder('mo-1');
    assert.equal(typeof pending?.id, 'number');
    assert.deepEqual(await mailOutbox.get(pending!.id), {
      id: pending!.id, restaurant_id: R1, order_id: 'mo-1', kind: 'order_ready', test: 0, to_address: 'ana@correo.test',
      from_name: 'Uno', subject: 'Tu pedido está listo', body_text: 'Pasa a buscarlo.', status: 'pending', attempts: 0,
      next_attempt_at: 100, last_error: null, created_at: 100, updated_at: 100, sent_at: null,
    });
    assert.equal((await mailOutbox.listByOrder('mo-2'))[0]?.next_attempt_at, null);
    assert.deepEqual(await mailOutbox.due(100, 10), [pending!.id]);
    assert.deepEqual(await mailOutbox.due(99, 10), []);
    assert.deepEqual((await mailOutbox.listByRestaurant(R1, 10)).map((m) => m.order_id), ['mo-1', 'mo-2']);
  });

  test('an unsent mail is rewritten; a claim counts an attempt and holds it; retry, sent and failed act on pending ones', async () => {
    const { mailOutbox } = db.stores;
    const id = (await mailOutbox.listByOrder('mo-1'))[0]!.id;
    assert.equal(await mailOutbox.rewriteUnsent('mo-1', 'order_ready', 'Listo', 'Ya', 150), true);
    assert.equal(await mailOutbox.claim(id, 200, 260), true);
    assert.equal(await mailOutbox.claim(id, 200, 260), false);
    assert.equal(await mailOutbox.rewriteUnsent('mo-1', 'order_ready', 'Tarde', 'No', 210), false);
    await mailOutbox.scheduleRetry(id, 500, 'timeout', 220);
    let row = await mailOutbox.get(id);
    assert.deepEqual([row?.attempts, row?.next_attempt_at, row?.last_error, row?.subject], [1, 500, 'timeout', 'Listo']);
    await mailOutbox.markSent(id, 600);
    row = await mailOutbox.get(id);
    assert.deepEqual([row?.status, row?.sent_at, row?.next_attempt_at, row?.last_error], ['sent', 600, null, null]);
    await mailOutbox.markFailed(id, 'late', 700);
    assert.equal((await mailOutbox.get(id))?.status, 'sent');
    await mailOutbox.enqueue(mail('mo-3', { created_at: 800 }));
    const other = (await mailOutbox.listByOrder('mo-3'))[0]!.id;
    await mailOutbox.markFailed(other, 'rebotó', 900);
    assert.deepEqual([(await mailOutbox.get(other))?.status, (await mailOutbox.get(other))?.next_attempt_at], ['failed', null]);
    assert.equal(await mailOutbox.get(99_999), undefined);
  });
}
