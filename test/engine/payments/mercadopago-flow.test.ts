import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { MERCADOPAGO_PROVIDER_NAME } from '../../../src/engine/payments/mercadopago/mercadopago-api.ts';
import { readKitchenTicketById } from '../../../src/engine/services/kitchen/kitchen-board.ts';
import { paymentActionsOfOrder } from '../../../src/engine/services/payments/payment-actions.ts';
import { setPaymentCredentials } from '../../../src/engine/services/payments/payment-credentials.ts';
import type { PaymentActionRow } from '../../../src/engine/store/payment-actions-store.ts';
import { R1 } from '../../support/demo-ids.ts';
import { eventually } from '../../support/eventually.ts';
import { MercadoPagoStandIn } from '../../support/mercadopago-stand-in.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../mail/smtp-test-server.ts';

const ACCESS_TOKEN = 'APP_USR-4242424242424242-112120-0123456789abcdef0123456789abcdef-424242';
const WEBHOOK_SECRET = 'whsec-7f3a9c1d2e4b5a6f8e9d0c1b2a3f4e5d';
const RETURN_URL = 'https://tienda.example/vuelta?ref=abc';

interface OnlineOrder {
  id: string;
  number: string;
  total: number;
  status: string;
  payment_link: { payment_url: string; session_id: string };
}

describe('Mercado Pago Checkout Pro, live world, against a local stand-in', () => {
  let t: TestEngine;
  let mp: MercadoPagoStandIn;
  let smtp: SmtpTestServer;

  before(async () => {
    mp = await MercadoPagoStandIn.start(ACCESS_TOKEN);
    smtp = await startSmtpTestServer();
    t = await startTestEngine({ paymentTimeoutMs: 5000, smtp: { url: smtp.url, from: 'pedidos@picada.example' } });
    await setPaymentCredentials(t.server.engine, R1.id, 'mercadopago', { accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET, apiBase: mp.baseUrl });
  });
  after(async () => {
    await t.stop();
    await mp.close();
    await smtp.close();
  });

  const notificationUrl = () => `${t.server.origin}/v1/payments/notifications/mercadopago/${R1.id}`;
  const nowSeconds = () => Math.floor(t.clock.now() / 1000);
  const notify = (paymentId: number, options: { secret?: string; tsSeconds?: number; requestId?: string } = {}) =>
    mp.notify(notificationUrl(), paymentId, options.secret ?? WEBHOOK_SECRET, {
      tsSeconds: options.tsSeconds ?? nowSeconds(),
      ...(options.requestId ? { requestId: options.requestId } : {}),
    });
  const check = async (paymentId: number): Promise<PaymentActionRow | undefined> =>
    await t.server.engine.stores.paymentActions.find(R1.id, MERCADOPAGO_PROVIDER_NAME, 'check', String(paymentId));
  const refund = async (paymentId: number): Promise<PaymentActionRow | undefined> =>
    await t.server.engine.stores.paymentActions.find(R1.id, MERCADOPAGO_PROVIDER_NAME, 'refund', String(paymentId));
  const order = async (id: string) =>
    (await t.call('GET', `/orders/${id}`)).body as { status: string; payment: { paid: boolean; method: string | null; refunded: boolean; amount_refunded: number } };
  /** Where the feed stands now: the next events come after it. */
  const feedNow = async () => (await t.call('GET', '/events')).body.next_cursor as string;
  const orderUpdates = async (after: string, orderId: string) =>
    ((await t.call('GET', `/events?after=${after}&limit=500`)).body.data as { type: string; data: { id: string; payment: { refunded: boolean; amount_refunded: number } } }[]).filter(
      (event) => event.type === 'order.updated' && event.data.id === orderId,
    );

  const createOnline = async (): Promise<OnlineOrder> => {
    const res = await t.call('POST', '/orders', {
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Ana Pérez', email: 'ana@example.com' },
        items: [
          { product_id: R1.products.barrosLuco, quantity: 2 },
          { product_id: R1.products.completo, quantity: 1, modifier_option_ids: [R1.options.paltaExtra] },
        ],
        payment: 'online',
        return_url: RETURN_URL,
      },
    });
    assert.equal(res.status, 201, res.text);
    return res.body as OnlineOrder;
  };

  const returnTo = async (sessionId: string, to: 'success' | 'failure' | 'pending') => {
    const res = await fetch(`${t.server.origin}/v1/payments/return/${sessionId}?to=${to}`, { redirect: 'manual' });
    await res.text();
    assert.equal(res.status, 303);
    return new URL(res.headers.get('location')!);
  };

  test('the whole flow: order → preference → approved payment → signed webhook → recibido, paid', async () => {
    const created = await createOnline();
    assert.equal(created.status, 'pendiente_pago');
    const preference = [...mp.preferences.values()].find((p) => p.body.external_reference === created.id);
    assert.ok(preference, 'a preference was created for the order');
    assert.equal(created.payment_link.payment_url, `https://www.mercadopago.cl/checkout/v1/redirect?pref_id=${preference.id}`);
    const body = preference.body;
    const lines = ((await t.call('GET', `/orders/${created.id}`)).body.items as { name: string; quantity: number; unit_price: number }[]).map(
      (item) => [item.name, item.quantity, item.unit_price, 'CLP'],
    );
    assert.deepEqual(body.items.map((i: any) => [i.title, i.quantity, i.unit_price, i.currency_id]), lines);
    assert.equal(lines[0]![0], 'Barros Luco');
    assert.equal(body.items.reduce((sum: number, i: any) => sum + i.quantity * i.unit_price, 0), created.total);
    assert.deepEqual(body.payer, { email: 'ana@example.com' });
    assert.equal(preference.idempotencyKey, created.payment_link.session_id);
    assert.equal(body.notification_url, notificationUrl());
    for (const key of ['success', 'failure', 'pending'] as const) {
      assert.equal(body.back_urls[key], `${t.server.origin}/v1/payments/return/${created.payment_link.session_id}?to=${key}`);
    }
    assert.equal(body.expires, true);
    const from = DateTime.fromISO(body.expiration_date_from).toMillis();
    assert.equal(from, t.clock.now());
    assert.equal(DateTime.fromISO(body.expiration_date_to).toMillis() - from, 30 * 60_000);

    // Back from the hosted page before the webhook: the engine does not take the redirect's word.
    assert.equal((await returnTo(created.payment_link.session_id, 'success')).searchParams.get('payment'), 'pending');

    const payment = mp.pay(created.id);
    const signedAt = nowSeconds();
    const answer = await notify(payment.id, { requestId: 'mp-request-1', tsSeconds: signedAt });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { received: true });
    await eventually(async () => (await order(created.id)).status === 'recibido', 'the order paid');
    const paid = await order(created.id);
    assert.deepEqual(paid.payment, { ...paid.payment, paid: true, method: 'tarjeta' });
    assert.equal((await check(payment.id))?.outcome, 'confirmed');
    assert.ok(mp.requests.includes(`GET /v1/payments/${payment.id}`), 'the payment was read from Mercado Pago');
    const back = await returnTo(created.payment_link.session_id, 'success');
    assert.equal(back.origin + back.pathname, 'https://tienda.example/vuelta');
    assert.equal(back.searchParams.get('payment'), 'success');
    assert.equal(back.searchParams.get('order_id'), created.id);

    // The very same notification replayed (same request id, timestamp and signature): nothing changes, nothing is refunded.
    const events = t.server.engine.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number };
    assert.equal((await notify(payment.id, { requestId: 'mp-request-1', tsSeconds: signedAt })).status, 200);
    await eventually(async () => (await check(payment.id))?.status === 'done', 'the replayed check done');
    assert.equal(await refund(payment.id), undefined);
    assert.equal((t.server.engine.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n, events.n);
    assert.equal((await order(created.id)).status, 'recibido');
    assert.equal((await order(created.id)).payment.refunded, false);
    assert.equal((await order(created.id)).payment.amount_refunded, 0);

    // The kitchen cooks it; the customer gets the ready email.
    assert.equal((await t.call('PATCH', `/orders/${created.id}`, { body: { status: 'en_preparacion' } })).status, 200);
    assert.equal((await t.call('PATCH', `/orders/${created.id}`, { body: { status: 'listo' } })).status, 200);
    const mail = await smtp.next();
    assert.deepEqual(mail.to, ['ana@example.com']);
    assert.equal(mail.subject, `Tu pedido N° ${created.number} está listo`);
  });

  test('a rejected payment leaves the order waiting for payment; the customer is told it failed', async () => {
    const created = await createOnline();
    const payment = mp.pay(created.id, { status: 'rejected' });
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await check(payment.id))?.status === 'done', 'the rejected payment read');
    assert.equal((await check(payment.id))?.outcome, 'rejected');
    const current = await order(created.id);
    assert.equal(current.status, 'pendiente_pago');
    assert.equal(current.payment.paid, false);
    assert.equal((await returnTo(created.payment_link.session_id, 'failure')).searchParams.get('payment'), 'failed');
    assert.equal(await refund(payment.id), undefined);
  });

  test('a pending payment changes nothing; once approved it pays; a late, older notification changes nothing', async () => {
    const created = await createOnline();
    const payment = mp.pay(created.id, { status: 'in_process', type: 'bank_transfer' });
    assert.equal((await notify(payment.id, { requestId: 'first-notification' })).status, 200);
    await eventually(async () => (await check(payment.id))?.status === 'done', 'the pending payment read');
    assert.equal((await check(payment.id))!.outcome, 'pending');
    assert.equal((await order(created.id)).status, 'pendiente_pago');
    assert.equal((await returnTo(created.payment_link.session_id, 'pending')).searchParams.get('payment'), 'pending');

    mp.payments.get(payment.id)!.status = 'approved';
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await order(created.id)).status === 'recibido', 'paid once approved');
    assert.equal((await order(created.id)).payment.method, 'transferencia');
    // The first notification delivered again, late: the payment is read again and nothing moves.
    assert.equal((await notify(payment.id, { requestId: 'first-notification' })).status, 200);
    await eventually(async () => (await check(payment.id))?.status === 'done', 'the late notification read');
    assert.equal((await check(payment.id))!.outcome, 'confirmed');
    assert.equal(await refund(payment.id), undefined);
    assert.equal((await order(created.id)).status, 'recibido');
  });

  test('a webhook before the order\'s payment page is recorded: the payment is read again once it is, then confirms', async () => {
    const release = mp.holdPreferences();
    const pending = t.call('POST', '/orders', {
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Ana Pérez' },
        items: [{ product_id: R1.products.barrosLuco, quantity: 1 }],
        payment: 'online',
        return_url: RETURN_URL,
      },
    });
    await eventually(() => mp.heldPreferences.length === 1, 'the preference asked for');
    const orderId = mp.heldPreferences[0]!.external_reference as string;
    const total = (mp.heldPreferences[0]!.items as { quantity: number; unit_price: number }[]).reduce((sum, i) => sum + i.quantity * i.unit_price, 0);
    const payment = mp.pay(orderId, { amount: total });
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await check(payment.id))?.outcome === 'waiting: the payment page is still being opened', 'the early read');
    assert.equal((await check(payment.id))!.status, 'pending');
    release();
    const created = await pending;
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'pendiente_pago');
    t.clock.advance(30_000);
    await eventually(async () => (await order(orderId)).status === 'recibido', 'paid once the page is open');
    assert.equal((await check(payment.id))!.outcome, 'confirmed');
  });

  test('a forged, a stale and an unsigned webhook are refused in the error shape, and read nothing', async () => {
    const created = await createOnline();
    const payment = mp.pay(created.id);
    const forged = await notify(payment.id, { secret: 'not-the-restaurant-secret' });
    assert.equal(forged.status, 401);
    assert.deepEqual(Object.keys(forged.body), ['error']);
    assert.equal(forged.body.error.code, 'unauthorized');
    assert.match(forged.body.error.message, /does not match/);
    const stale = await notify(payment.id, { tsSeconds: nowSeconds() - 10 * 60 });
    assert.equal(stale.status, 401);
    assert.match(stale.body.error.message, /too old/);
    const unsigned = await fetch(`${notificationUrl()}?data.id=${payment.id}&type=payment`, { method: 'POST' });
    assert.equal(unsigned.status, 401);
    await unsigned.text();
    assert.equal(await check(payment.id), undefined);
    assert.ok(!mp.requests.includes(`GET /v1/payments/${payment.id}`));
    assert.equal((await order(created.id)).status, 'pendiente_pago');
  });

  test('an approved payment of another amount is refused and refunded; the order keeps waiting', async () => {
    const created = await createOnline();
    const payment = mp.pay(created.id, { amount: created.total - 1000 });
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await refund(payment.id))?.status === 'done', 'the refund made');
    assert.match((await check(payment.id))!.outcome!, /^refund_requested: /);
    assert.equal((await refund(payment.id))!.amount, created.total - 1000);
    assert.equal(mp.payments.get(payment.id)!.status, 'refunded');
    assert.equal([...mp.refunds.values()].filter((r) => r.payment_id === payment.id).length, 1);
    const current = await order(created.id);
    assert.equal(current.status, 'pendiente_pago');
    assert.equal(current.payment.paid, false);
    assert.equal(current.payment.refunded, true, 'a client testing refunded === true sees it');
    assert.equal(current.payment.amount_refunded, created.total - 1000);
  });

  test('Mercado Pago answering 5xx: the read is retried with backoff on the engine clock, then confirms', async () => {
    const created = await createOnline();
    const payment = mp.pay(created.id);
    mp.failNext(new RegExp(`^GET /v1/payments/${payment.id}$`), 2, 503);
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await check(payment.id))?.attempts === 1 && (await check(payment.id))?.last_error !== null, 'the first read failed');
    assert.match((await check(payment.id))!.last_error!, /Mercado Pago answered 503/);
    assert.equal((await order(created.id)).status, 'pendiente_pago');
    t.clock.advance(30_000);
    // While the second read is under way the row already says attempts 2, with its lease (5 minutes
    // on) as next_at: the failure is recorded once next_at is the 60 s backoff.
    await eventually(async () => (await check(payment.id))?.attempts === 2 && (await check(payment.id))?.next_at === t.clock.now() + 60_000, 'the second read failed');
    assert.equal((await order(created.id)).status, 'pendiente_pago');
    t.clock.advance(60_000);
    await eventually(async () => (await order(created.id)).status === 'recibido', 'paid once Mercado Pago answers');
    assert.equal((await check(payment.id))!.attempts, 3);
  });

  test('a missed notification: 10 minutes on, the order\'s payments are searched by external_reference, read, and confirm it', async () => {
    const created = await createOnline();
    const payment = mp.pay(created.id);
    t.clock.advance(9 * 60_000);
    await t.server.jobs.runDue();
    assert.equal((await paymentActionsOfOrder(t.server.engine, created.id)).length, 0, 'not searched before 10 minutes');
    t.clock.advance(60_000);
    await eventually(async () => (await order(created.id)).status === 'recibido', 'paid once found');
    assert.ok(mp.requests.includes('GET /v1/payments/search'));
    assert.ok(mp.requests.includes(`GET /v1/payments/${payment.id}`), 'the payment found was read on its own');
    const actions = await paymentActionsOfOrder(t.server.engine, created.id);
    assert.deepEqual(actions.map((a) => [a.kind, a.status, a.outcome]), [['search', 'done', 'found 1 payment(s)'], ['check', 'done', 'confirmed']]);
    assert.equal(await refund(payment.id), undefined);
  });

  test('opening the preference fails with 5xx: 503 payment_unavailable and no order; the next try works', async () => {
    mp.failNext(/^POST \/checkout\/preferences$/, 1, 502);
    const refused = await t.call('POST', '/orders', {
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Ana Pérez' },
        items: [{ product_id: R1.products.barrosLuco, quantity: 1 }],
        payment: 'online',
        return_url: RETURN_URL,
      },
    });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, 'payment_unavailable');
    assert.match(refused.body.error.message, /Mercado Pago answered 502/);
    assert.doesNotMatch(refused.text, new RegExp(ACCESS_TOKEN));
    const created = await createOnline();
    assert.equal(created.status, 'pendiente_pago');
  });

  test('a payment approved after the order expired is refunded exactly once, across webhooks and a restart', async () => {
    const created = await createOnline();
    t.clock.advance(31 * 60_000);
    await eventually(async () => (await order(created.id)).status === 'cancelado', 'the order expired');
    const since = await feedNow();
    const payment = mp.pay(created.id);
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await refund(payment.id))?.status === 'done', 'the late payment refunded');
    assert.equal((await check(payment.id))!.outcome, 'refund_requested: the order is cancelado');
    assert.equal(mp.payments.get(payment.id)!.status, 'refunded');
    // Payment truth: on the order, in the feed, on the kitchen ticket.
    assert.deepEqual((await order(created.id)).payment, { method: null, paid: false, refunded: true, amount_refunded: created.total });
    assert.deepEqual((await orderUpdates(since, created.id)).map((e) => e.data.payment.amount_refunded), [created.total]);
    assert.equal((await readKitchenTicketById(t.server.engine, R1.id, created.id)).kitchen.payment.refunded, created.total);
    assert.equal((await order(created.id)).status, 'cancelado');

    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await check(payment.id))?.status === 'done', 'the repeated check done');
    await t.restart();
    assert.equal((await notify(payment.id)).status, 200);
    await eventually(async () => (await check(payment.id))?.status === 'done', 'the check after the restart done');
    assert.equal(mp.requests.filter((r) => r === `POST /v1/payments/${payment.id}/refunds`).length, 1, 'asked to refund once');
    assert.equal([...mp.refunds.values()].filter((r) => r.payment_id === payment.id).length, 1);
    const actions = await paymentActionsOfOrder(t.server.engine, created.id);
    // The search: 10 minutes in, its session had had no notification (it found nothing then).
    assert.deepEqual(actions.map((a) => [a.kind, a.status]), [['search', 'done'], ['check', 'done'], ['refund', 'done']]);
    assert.equal((await order(created.id)).status, 'cancelado');
    assert.equal((await order(created.id)).payment.amount_refunded, created.total, 'counted once');
    assert.deepEqual((await orderUpdates(since, created.id)).map((e) => e.data.payment.amount_refunded), [created.total], 'one event for it');
  });
});
