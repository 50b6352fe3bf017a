// Issue 34: two engine nodes (two jobs runners) on one PostgreSQL database call Mercado Pago once
// per payment action. Both runners race for the same due actions (refunds and payment reads): the
// claim takes the restaurant's clock row and leases the action, so of two nodes one calls the
// provider (the stand-in speaks its HTTP API and counts every request) and one outcome is recorded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MERCADOPAGO_PROVIDER_NAME } from '../../../src/engine/payments/mercadopago/mercadopago-api.ts';
import { performPaymentAction, requestPaymentCheck } from '../../../src/engine/services/payments/payment-actions.ts';
import { setPaymentCredentials } from '../../../src/engine/services/payments/payment-credentials.ts';
import type { PaymentActionRow } from '../../../src/engine/store/payment-actions-store.ts';
import { R1 } from '../../support/demo-ids.ts';
import type { EngineUnderTest } from '../../support/engine-under-test.ts';
import { eventually } from '../../support/eventually.ts';
import { MercadoPagoStandIn } from '../../support/mercadopago-stand-in.ts';
import { startPostgresEnginesUnderTest } from '../../support/postgres-engine-under-test.ts';

const ACCESS_TOKEN = 'APP_USR-4242424242424242-112120-0123456789abcdef0123456789abcdef-424242';
const WEBHOOK_SECRET = 'whsec-7f3a9c1d2e4b5a6f8e9d0c1b2a3f4e5d';

let a: EngineUnderTest;
let b: EngineUnderTest;
let mp: MercadoPagoStandIn;
before(async () => {
  [a, b] = (await startPostgresEnginesUnderTest({ nodes: 2 })) as [EngineUnderTest, EngineUnderTest];
  mp = await MercadoPagoStandIn.start(ACCESS_TOKEN);
  await setPaymentCredentials(a.server.engine, R1.id, MERCADOPAGO_PROVIDER_NAME, { accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET, apiBase: mp.baseUrl });
});
after(async () => {
  await a?.stop();
  await b?.stop();
  await mp?.close();
});

async function actions(ids: readonly number[]): Promise<PaymentActionRow[]> {
  const rows = [];
  for (const id of ids) rows.push((await b.server.engine.stores.paymentActions.get(id))!);
  return rows;
}

/** Due refunds of fresh stand-in payments, written in one transaction; their ids. */
async function dueRefunds(count: number, prefix: string): Promise<number[]> {
  const payments = Array.from({ length: count }, (_, i) => mp.pay(`${prefix}-${i}`, { amount: 1000 + i }));
  return await a.server.engine.transaction(async (tx) => {
    const ids: number[] = [];
    for (const payment of payments) {
      ids.push(await tx.stores.paymentActions.insert({
        restaurant_id: R1.id,
        provider: MERCADOPAGO_PROVIDER_NAME,
        kind: 'refund',
        payment_id: String(payment.id),
        order_id: null,
        amount: null,
        idempotency_key: `comanda-refund-${MERCADOPAGO_PROVIDER_NAME}-${payment.id}`,
        next_at: a.clock.now(),
        created_at: a.clock.now(),
      }));
    }
    return ids;
  });
}

test('20 refunds and 20 payment reads due, both nodes\' runners at once: each called once at Mercado Pago, each recorded once', { timeout: 180_000 }, async () => {
  const read = Array.from({ length: 20 }, (_, i) => mp.pay(`pedido-leido-${i}`, { amount: 2000 + i }));
  const refundIds = await dueRefunds(20, 'pedido-devuelto');
  for (const [i, payment] of read.entries()) await requestPaymentCheck((i % 2 === 0 ? a : b).server.engine, R1.id, MERCADOPAGO_PROVIDER_NAME, String(payment.id));
  const checkIds: number[] = [];
  for (const payment of read) checkIds.push((await a.server.engine.stores.paymentActions.find(R1.id, MERCADOPAGO_PROVIDER_NAME, 'check', String(payment.id)))!.id);

  await eventually(async () => {
    await Promise.all([a.server.jobs.runDue(), b.server.jobs.runDue(), a.server.jobs.runDue(), b.server.jobs.runDue()]);
    return (await actions([...refundIds, ...checkIds])).every((row) => row.status === 'done');
  }, 'every action recorded done');

  // At the provider: one refund request per payment, one read per payment.
  assert.equal(mp.refundRequests, 20, `refund requests: ${mp.refundKeys.join(', ')}`);
  assert.equal(new Set(mp.refundKeys).size, 20);
  for (const payment of read) {
    assert.equal(mp.requests.filter((r) => r === `GET /v1/payments/${payment.id}`).length, 1, `payment ${payment.id} read once`);
  }
  // Recorded once each: one attempt, the refund's id from the provider, the read's outcome.
  const refunds = await actions(refundIds);
  assert.deepEqual([...new Set(refunds.map((r) => r.attempts))], [1]);
  assert.deepEqual(refunds.map((r) => r.outcome), refunds.map(() => 'refunded'));
  assert.deepEqual(new Set(refunds.map((r) => r.provider_ref)), new Set([...mp.refunds.values()].map((r) => String(r.id))));
  const checks = await actions(checkIds);
  assert.deepEqual([...new Set(checks.map((r) => r.attempts))], [1]);
  assert.deepEqual([...new Set(checks.map((r) => r.outcome))], ['ignored: not an online order of this restaurant']);
  // Nothing left due on either node.
  await Promise.all([a.server.jobs.runDue(), b.server.jobs.runDue()]);
  assert.equal(mp.refundRequests, 20);
});

test('each due refund performed by both nodes four times at once: one call at Mercado Pago, one record', { timeout: 180_000 }, async () => {
  const before = mp.refundRequests;
  const ids = await dueRefunds(10, 'pedido-disputado');
  // Every claim of every action at once, from both nodes' pools: their reads of the row cross.
  const answers = await Promise.all(ids.flatMap((id) => [a, b, a, b].map(async (node) =>
    await performPaymentAction(node.server.engine, node.server.providers.payments, id, 10_000))));
  assert.equal(answers.filter((row) => row !== null).length, 10, 'one claim of each action performed it');
  assert.equal(mp.refundRequests - before, 10, 'one refund request per action');
  const rows = await actions(ids);
  assert.deepEqual([...new Set(rows.map((r) => `${r.status} ${r.attempts} ${r.outcome}`))], ['done 1 refunded']);
});

// Last in the file: it closes the stand-in to end node A's stalled call.
test('a node stalls past its lease: the other node refunds, and the stalled node\'s late outcome is not recorded', { timeout: 180_000 }, async () => {
  const [id] = await dueRefunds(1, 'pedido-atascado');
  const before = mp.refundRequests;
  // Node A's refund reaches Mercado Pago, which makes it and never answers: A's call hangs.
  mp.stallNext(/^POST \/v1\/payments\/\d+\/refunds$/, 1, 'after');
  const late = performPaymentAction(a.server.engine, a.server.providers.payments, id!, 120_000);
  await eventually(() => mp.stalled.length === 1, 'node A\'s refund request held');
  const leased = (await b.server.engine.stores.paymentActions.get(id!))!;
  assert.deepEqual([leased.status, leased.attempts], ['pending', 1]);

  // Within A's lease node B leaves it; past it, B claims it and refunds (same idempotency key: the same refund).
  assert.equal(await performPaymentAction(b.server.engine, b.server.providers.payments, id!, 10_000), null, 'leased to A');
  b.clock.advance(leased.next_at! - b.clock.now() + 1);
  const done = await performPaymentAction(b.server.engine, b.server.providers.payments, id!, 10_000);
  assert.deepEqual([done?.status, done?.outcome, done?.attempts], ['done', 'refunded', 2]);
  assert.equal(mp.refundRequests - before, 2);
  assert.equal(mp.refunds.size, new Set(mp.refundKeys).size, 'one refund per key');

  // A's call ends at last (the provider's connection drops): its failure would put the action back
  // to be retried; fenced by its lapsed lease, nothing of it is recorded.
  await mp.close();
  await late;
  const after = (await a.server.engine.stores.paymentActions.get(id!))!;
  assert.deepEqual([after.status, after.outcome, after.provider_ref, after.next_at, after.attempts, after.last_error],
    ['done', 'refunded', done?.provider_ref, null, 2, null]);
  assert.deepEqual(await a.server.engine.stores.paymentActions.due(b.clock.now() + 24 * 3600_000, 100), []);
});
