// Mercado Pago hanging or failing at each step the engine takes with it (the preference, reading a
// payment, searching an order's payments, a refund), against the local stand-in: nothing is lost,
// nothing is done twice, and each failure is retried on the engine's clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MERCADOPAGO_PROVIDER_NAME } from '../../../src/engine/payments/mercadopago/mercadopago-api.ts';
import { paymentActionsOfOrder } from '../../../src/engine/services/payments/payment-actions.ts';
import { setPaymentCredentials } from '../../../src/engine/services/payments/payment-credentials.ts';
import type { PaymentActionRow } from '../../../src/engine/store/payment-actions-store.ts';
import { R1 } from '../../support/demo-ids.ts';
import { eventually } from '../../support/eventually.ts';
import { MercadoPagoStandIn } from '../../support/mercadopago-stand-in.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const ACCESS_TOKEN = 'APP_USR-4242424242424242-112120-faults';
const WEBHOOK_SECRET = 'whsec-faults-7f3a9c1d2e4b';
/**
 * Real time the engine waits on Mercado Pago before it gives a call up (the stand-in hangs for ever).
 * Every call meant to succeed must answer within it too, and its retry is due only on the engine's
 * clock: a call missing 2 s on a loaded machine (load 30) left an eventually() waiting for a payment
 * that never came until the test timed out at 60 s. Each test waits it out once, for its hanging call.
 */
const TIMEOUT_MS = 6000;

describe('Mercado Pago hanging or answering 5xx at each step, against the stand-in', () => {
  let t: TestEngine;
  let mp: MercadoPagoStandIn;

  before(async () => {
    mp = await MercadoPagoStandIn.start(ACCESS_TOKEN);
    t = await startTestEngine({ paymentTimeoutMs: TIMEOUT_MS });
    await setPaymentCredentials(t.server.engine, R1.id, 'mercadopago', { accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET, apiBase: mp.baseUrl });
  });
  after(async () => {
    await t.stop();
    await mp.close();
  });

  const body = {
    location_id: R1.openLocation,
    type: 'retiro',
    customer: { name: 'Ana Pérez', email: 'ana@example.com' },
    items: [{ product_id: R1.products.barrosLuco, quantity: 1 }],
    payment: 'online',
    return_url: 'https://tienda.example/vuelta',
  };
  const createOnline = async () => {
    const res = await t.call('POST', '/orders', { body });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; total: number; status: string };
  };
  const order = async (id: string) => (await t.call('GET', `/orders/${id}`)).body as { status: string; payment: { paid: boolean; refunded: boolean; amount_refunded: number } };
  const notify = (paymentId: number) =>
    mp.notify(`${t.server.origin}/v1/payments/notifications/mercadopago/${R1.id}`, paymentId, WEBHOOK_SECRET, {
      tsSeconds: Math.floor(t.clock.now() / 1000),
    });
  const action = async (kind: 'check' | 'refund', paymentId: number | string): Promise<PaymentActionRow | undefined> =>
    await t.server.engine.stores.paymentActions.find(R1.id, MERCADOPAGO_PROVIDER_NAME, kind, String(paymentId));
  const searchOf = async (orderId: string) => (await paymentActionsOfOrder(t.server.engine, orderId)).find((a) => a.kind === 'search');
  const orderCount = () => (t.server.engine.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
  /** The action failed its `attempts`-th call with `error` and waits on the engine clock for the next. */
  const failedAttempt = (row: PaymentActionRow | undefined, attempts: number, error: RegExp) =>
    row?.status === 'pending' && row.attempts === attempts && error.test(row.last_error ?? '') && (row.next_at ?? 0) > t.clock.now();

  test('creating the preference hangs: the engine drops it, the order is withdrawn, 503 payment_unavailable; the next order works', async () => {
    const ordersBefore = orderCount();
    const droppedBefore = mp.dropped;
    mp.stallNext(/^POST \/checkout\/preferences$/, 1);
    const refused = await t.call('POST', '/orders', { body });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, 'payment_unavailable');
    assert.match(refused.body.error.message, new RegExp(`did not answer within ${TIMEOUT_MS} ms`));
    assert.equal(orderCount(), ordersBefore, 'no order left behind');
    await eventually(() => mp.dropped === droppedBefore + 1, 'the hanging request dropped by the engine');
    const created = await createOnline();
    assert.equal(created.status, 'pendiente_pago');
  });

  test('reading the payment hangs, then answers 503: each retried on the engine clock, then the order is paid', async () => {
    const created = await createOnline();
    const payment = mp.pay(created.id);
    const path = new RegExp(`^GET /v1/payments/${payment.id}$`);
    mp.stallNext(path, 1);
    mp.failNext(path, 1, 503);
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => failedAttempt(await action('check', payment.id), 1, /did not answer within/), 'the first read timed out');
    assert.equal((await order(created.id)).status, 'pendiente_pago');
    t.clock.advance(30_000);
    await eventually(async () => failedAttempt(await action('check', payment.id), 2, /answered 503/), 'the second read answered 503');
    t.clock.advance(60_000);
    await eventually(async () => (await order(created.id)).status === 'recibido', 'paid once Mercado Pago answers');
    assert.equal((await action('check', payment.id))!.attempts, 3);
    assert.equal(await action('refund', payment.id), undefined);
  });

  test('searching for a missed notification answers 500, then hangs: retried, then the payment found pays the order', async () => {
    const created = await createOnline();
    mp.pay(created.id);
    const search = new RegExp(`^GET /v1/payments/search\\?external_reference=${created.id}&`);
    mp.failNext(search, 1, 500);
    mp.stallNext(search, 1);
    t.clock.advance(10 * 60_000);
    await eventually(async () => failedAttempt(await searchOf(created.id), 1, /answered 500/), 'the first search answered 500');
    t.clock.advance(30_000);
    await eventually(async () => failedAttempt(await searchOf(created.id), 2, /did not answer within/), 'the second search timed out');
    t.clock.advance(60_000);
    await eventually(async () => (await order(created.id)).status === 'recibido', 'paid once found');
    assert.equal((await searchOf(created.id))!.outcome, 'found 1 payment(s)');
  });

  test('the refund answers 502, then is made but its answer is lost: retried with the same key, refunded once', async () => {
    const created = await createOnline();
    const payment = mp.pay(created.id, { amount: created.total + 500 });
    const path = new RegExp(`^POST /v1/payments/${payment.id}/refunds$`);
    mp.failNext(path, 1, 502);
    mp.stallNext(path, 1, 'after');
    const keysBefore = mp.refundKeys.length;
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => failedAttempt(await action('refund', payment.id), 1, /answered 502/), 'the first refund answered 502');
    t.clock.advance(30_000);
    await eventually(async () => failedAttempt(await action('refund', payment.id), 2, /did not answer within/), 'the second refund timed out');
    assert.equal(mp.payments.get(payment.id)!.status, 'refunded', 'Mercado Pago made it; the engine does not know yet');
    assert.equal((await order(created.id)).payment.amount_refunded, 0);
    t.clock.advance(60_000);
    await eventually(async () => (await action('refund', payment.id))?.status === 'done', 'the refund recorded');
    assert.equal([...mp.refunds.values()].filter((r) => r.payment_id === payment.id).length, 1, 'one refund at Mercado Pago');
    // The 502 was answered before the stand-in read the key; the two that reached it carried the same one.
    assert.deepEqual(mp.refundKeys.slice(keysBefore), [`comanda-refund-mercadopago-${payment.id}`, `comanda-refund-mercadopago-${payment.id}`]);
    assert.equal((await order(created.id)).payment.amount_refunded, created.total + 500);
    assert.equal((await order(created.id)).status, 'pendiente_pago');
  });

  test('a late approval after expiry: the engine stops while the refund is under way; after the restart it is refunded exactly once', async () => {
    const created = await createOnline();
    t.clock.advance(31 * 60_000);
    await eventually(async () => (await order(created.id)).status === 'cancelado', 'the order expired');
    const payment = mp.pay(created.id);
    const line = `POST /v1/payments/${payment.id}/refunds`;
    mp.stallNext(new RegExp(`^${line}$`), 1, 'after');
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(() => mp.stalled.includes(line), 'the refund under way at Mercado Pago');
    assert.equal(mp.payments.get(payment.id)!.status, 'refunded');

    await t.restart();
    assert.equal((await action('refund', payment.id))!.status, 'pending', 'the engine never heard the answer');
    // The call's lease (5 minutes, engine clock) has to run out before another process takes it up.
    t.clock.advance(5 * 60_000 + 1000);
    await eventually(async () => (await action('refund', payment.id))?.status === 'done', 'the refund recorded after the restart');
    assert.equal(mp.requests.filter((r) => r === line).length, 2, 'asked twice');
    assert.equal([...mp.refunds.values()].filter((r) => r.payment_id === payment.id).length, 1, 'refunded once');
    // A webhook for it again changes nothing.
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await action('check', payment.id))?.status === 'done', 'the repeated check done');
    assert.equal(mp.requests.filter((r) => r === line).length, 2);
    const current = await order(created.id);
    assert.equal(current.status, 'cancelado');
    assert.equal(current.payment.amount_refunded, created.total, 'counted once');
  });
});
