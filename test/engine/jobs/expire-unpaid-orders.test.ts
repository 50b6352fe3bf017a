import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxSimulator } from '../../../src/engine/payments/sandbox-simulator.ts';
import { confirmPayment } from '../../../src/engine/services/payments/confirm-payment.ts';
import { R1, R2 } from '../../support/demo-ids.ts';
import { fakeLiveProvider, startTestEngine, type TestEngine } from './engine-with-jobs.ts';

const MINUTE = 60_000;

describe('unpaid online orders are cancelled after the restaurant timeout', () => {
  let t: TestEngine;
  before(async () => {
    t = await startTestEngine({ payments: { live: fakeLiveProvider, test: sandboxSimulator } });
  });
  after(() => t.stop());

  const stockOf = async (productId: string) => {
    const res = await t.call('GET', `/stock?location_id=${R1.openLocation}`);
    return res.body.data.find((e: { product_id: string }) => e.product_id === productId).quantity as number;
  };

  const onlineOrder = async (key: string, locationId: string, productId: string, quantity = 1) => {
    const res = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: locationId,
        type: 'retiro',
        customer: { name: 'Carla' },
        items: [{ product_id: productId, quantity }],
        payment: 'online',
        return_url: 'https://tienda.example/vuelta',
      },
    });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; created_at: string; payment_link: { payment_url: string; session_id: string } };
  };

  test('exactly at 30 minutes (clock-driven), with the stock given back and an event', async () => {
    const before = await stockOf(R1.products.pastelDeChoclo);
    const order = await onlineOrder(t.demo[0]!.keys.live_write, R1.openLocation, R1.products.pastelDeChoclo, 3);
    assert.equal(await stockOf(R1.products.pastelDeChoclo), before - 3, 'an unpaid order holds its stock');
    const feed = await t.call('GET', '/events');

    t.clock.advance(30 * MINUTE - 1000);
    assert.equal((await t.call('GET', `/orders/${order.id}`)).body.status, 'pendiente_pago', 'one second early: still waiting');
    t.clock.advance(1000);
    const read = await t.call('GET', `/orders/${order.id}`);
    assert.equal(read.body.status, 'cancelado');
    assert.deepEqual(read.body.payment, { method: null, paid: false, refunded: false, amount_refunded: 0 });
    assert.equal(await stockOf(R1.products.pastelDeChoclo), before);

    const events = (await t.call('GET', `/events?after=${feed.body.next_cursor}`)).body.data;
    assert.deepEqual(
      events.map((e: { type: string }) => e.type),
      ['stock.updated', 'order.updated'],
    );
    assert.equal(events[1].data.status, 'cancelado');
    assert.deepEqual(events[0].data.items, [{ product_id: R1.products.pastelDeChoclo, quantity: before }]);

    // The provider's confirmation arriving late never revives it.
    const late = await confirmPayment(t.server.engine, { session_id: order.payment_link.session_id, result: 'success', method: 'tarjeta' });
    assert.equal(late?.changed, false);
    assert.deepEqual(late?.state, { kind: 'closed', reason: 'expired' });
    assert.equal((await t.call('GET', `/orders/${order.id}`)).body.status, 'cancelado');
    assert.equal(await stockOf(R1.products.pastelDeChoclo), before, 'stock is given back once');
  });

  test('a paid order is never cancelled; a failed payment leaves the order waiting until the timeout', async () => {
    const paid = await onlineOrder(t.demo[0]!.keys.live_write, R1.openLocation, R1.products.cazuela);
    const failed = await onlineOrder(t.demo[0]!.keys.live_write, R1.openLocation, R1.products.cazuela);
    t.clock.advance(10 * MINUTE);
    await confirmPayment(t.server.engine, { session_id: paid.payment_link.session_id, result: 'success', method: 'tarjeta' });
    await confirmPayment(t.server.engine, { session_id: failed.payment_link.session_id, result: 'failed', method: null });
    assert.equal((await t.call('GET', `/orders/${failed.id}`)).body.status, 'pendiente_pago');
    t.clock.advance(20 * MINUTE);
    assert.equal((await t.call('GET', `/orders/${paid.id}`)).body.status, 'recibido');
    assert.equal((await t.call('GET', `/orders/${failed.id}`)).body.status, 'cancelado');
  });

  test('the timeout is per restaurant (20 minutes in demo restaurant 2), in the sandbox too', async () => {
    const key = t.demo[1]!.keys.test_write;
    const order = await onlineOrder(key, '21000000-0000-4000-8000-000000000001', '23000000-0000-4000-8000-000000000001');
    t.clock.advance(20 * MINUTE - 1);
    assert.equal((await t.call('GET', `/orders/${order.id}`, { key })).body.status, 'pendiente_pago');
    t.clock.advance(1);
    assert.equal((await t.call('GET', `/orders/${order.id}`, { key })).body.status, 'cancelado');
    assert.equal(R2.id, t.demo[1]!.id);

    // Its simulator page says why, and paying there changes nothing.
    const shown = await fetch(order.payment_link.payment_url);
    assert.equal(shown.status, 410);
    assert.match(await shown.text(), /El pedido se anuló porque no se pagó dentro de 20 minutos/);
    const late = await fetch(order.payment_link.payment_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'result=success&method=tarjeta',
    });
    assert.equal(late.status, 410);
    assert.equal((await t.call('GET', `/orders/${order.id}`, { key })).body.status, 'cancelado');
  });

  test('survives a restart: the job works from the database', async () => {
    const before = await stockOf(R1.products.empanadaQueso);
    const order = await onlineOrder(t.demo[0]!.keys.live_write, R1.openLocation, R1.products.empanadaQueso, 2);
    await t.server.close();
    // Time passes while the engine is down.
    t.clock.advance(45 * MINUTE);
    await t.restart();
    const read = await t.call('GET', `/orders/${order.id}`);
    assert.equal(read.body.status, 'cancelado');
    assert.equal(await stockOf(R1.products.empanadaQueso), before);
  });
});
