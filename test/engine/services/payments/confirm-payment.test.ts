import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { importDemoRestaurants } from '../../../../src/engine/demo/seed-demo.ts';
import { defaultCouriers } from '../../../../src/engine/couriers/courier-registry.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import type { PaymentConfirmation } from '../../../../src/engine/payments/payment-provider.ts';
import { sandboxSimulator } from '../../../../src/engine/payments/sandbox-simulator.ts';
import type { Actor } from '../../../../src/engine/domain/actor.ts';
import { confirmPayment, readPaymentSession, returnUrlWith } from '../../../../src/engine/services/payments/confirm-payment.ts';
import { placeOnlineOrder } from '../../../../src/engine/services/orders/place-order.ts';
import { transitionOrder } from '../../../../src/engine/services/orders/transition-order.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { DEMO_NOW } from '../../../support/engine-under-test.ts';

const payments = { live: null, test: sandboxSimulator };
const actor: Actor = { restaurantId: R1.id, world: 'test', canWrite: true, keyId: 'confirm-test' };

describe('confirmPayment (what every provider confirmation goes through)', () => {
  let dir: string;
  let engine: Engine;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'comanda-confirm-'));
    engine = new Engine({ database: join(dir, 'engine.db'), clock: new ManualClock(DEMO_NOW) });
    await importDemoRestaurants(engine, payments);
  });
  after(() => {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const online = () =>
    placeOnlineOrder(
      { engine, payments },
      actor,
      {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Ana' },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
        payment: 'online',
        return_url: 'https://tienda.example/vuelta#fin',
      },
      'http://127.0.0.1:4750',
    );

  test('opening a session records it in the store with the preselection', async () => {
    const order = await online();
    const session = (await engine.stores.paymentSessions.get(order.payment_link!.session_id))!;
    assert.equal(session.order_id, order.id);
    assert.equal(session.provider, 'sandbox');
    assert.equal(session.status, 'open');
    assert.equal(order.payment_link!.payment_url, `http://127.0.0.1:4750/v1/sandbox/pay/${session.id}`);
  });

  test('malformed confirmations are refused before anything is read', async () => {
    const order = await online();
    const id = order.payment_link!.session_id;
    const bad: [PaymentConfirmation, RegExp][] = [
      [{ session_id: id, result: 'maybe' as never, method: null }, /result must be one of: success, failed, cancelled/],
      [{ session_id: id, result: 'success', method: null }, /method must be one of: tarjeta, transferencia, apple_pay/],
      [{ session_id: id, result: 'success', method: 'efectivo' as never }, /method must be one of/],
    ];
    for (const [confirmation, message] of bad) {
      await assert.rejects(async () => await confirmPayment(engine, confirmation), (error: Error & { code?: string }) => error.code === 'invalid_request' && message.test(error.message));
    }
    assert.equal((await engine.stores.orders.getById(order.id))!.status, 'pendiente_pago');
    assert.equal(await confirmPayment(engine, { session_id: 'ps_test_unknown', result: 'success', method: 'tarjeta' }), null);
  });

  test('success pays once; its outcome and the page view agree', async () => {
    const order = await online();
    const id = order.payment_link!.session_id;
    const first = (await confirmPayment(engine, { session_id: id, result: 'success', method: 'apple_pay' }))!;
    assert.equal(first.changed, true);
    assert.deepEqual(first.state, { kind: 'paid', method: 'apple_pay' });
    assert.equal(first.order.status, 'recibido');
    assert.equal(first.order.paid, 1);
    const again = (await confirmPayment(engine, { session_id: id, result: 'success', method: 'tarjeta' }))!;
    assert.equal(again.changed, false);
    assert.equal((await engine.stores.orders.getById(order.id))!.payment_method, 'apple_pay', 'the first confirmation stands');
    assert.deepEqual((await readPaymentSession(engine, id))!.state, { kind: 'paid', method: 'apple_pay' });
    // Paid: cancelling later does not reopen or close the paid session.
    await transitionOrder(engine, actor, order.id, 'cancelado', defaultCouriers());
    assert.equal((await engine.stores.paymentSessions.get(id))!.status, 'paid');
  });

  test('a cancelled order closes its session; nothing revives it', async () => {
    const order = await online();
    const id = order.payment_link!.session_id;
    await transitionOrder(engine, actor, order.id, 'cancelado', defaultCouriers());
    assert.equal((await engine.stores.paymentSessions.get(id))!.closed_reason, 'cancelled');
    const late = (await confirmPayment(engine, { session_id: id, result: 'success', method: 'tarjeta' }))!;
    assert.deepEqual(late.state, { kind: 'closed', reason: 'cancelled' });
    assert.equal(late.changed, false);
    assert.equal((await engine.stores.orders.getById(order.id))!.status, 'cancelado');
    assert.equal((await engine.stores.orders.getById(order.id))!.paid, 0);
  });

  test('return_url keeps its own query and fragment', async () => {
    assert.equal(
      returnUrlWith('https://tienda.example/vuelta?ref=1&payment=x#fin', 'abc', 'failed'),
      'https://tienda.example/vuelta?ref=1&payment=failed&order_id=abc#fin',
    );
  });
});
