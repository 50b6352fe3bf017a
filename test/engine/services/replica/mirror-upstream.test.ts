// A replica mirrors what its upstream says through one service; a feed page fetched before the
// replica's own push landed can arrive after it, and must not move the order back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mirrorOrder } from '../../../../src/engine/services/replica/mirror-upstream.ts';
import type { OrderView } from '../../../../src/engine/services/orders/order-view.ts';
import { R1 } from '../../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../../support/engine-under-test.ts';

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

const status = async (id: string) => ((await engine.call('GET', `/orders/${id}`)).body as OrderView).status;

test('a view of an order in an earlier state changes nothing; the same state applies; a forced one wins', async () => {
  const created = await engine.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Feed tardío' }, items: [{ product_id: R1.products.bebidaLata, quantity: 1 }] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as OrderView).id;
  const older = (await engine.call('PATCH', `/orders/${id}`, { body: { status: 'en_preparacion' } })).body as OrderView;
  await engine.call('PATCH', `/orders/${id}`, { body: { status: 'listo' } });
  const core = engine.server.engine;

  await mirrorOrder(core, R1.id, 'live', older, 'order.updated');
  assert.equal(await status(id), 'listo', 'an earlier state never comes back');

  const later = { ...older, status: 'listo' as const, notes: 'nota del upstream' };
  await mirrorOrder(core, R1.id, 'live', later, 'order.updated');
  assert.equal(((await engine.call('GET', `/orders/${id}`)).body as OrderView).notes, 'nota del upstream', 'the same state is applied (clocks are not compared)');

  await mirrorOrder(core, R1.id, 'live', older, 'order.updated', { force: true });
  assert.equal(await status(id), 'en_preparacion', "the upstream's refusal (force) still wins");
});

test('a refund mirrored from the upstream keeps its amount, whether the upstream says amount_refunded or (an older engine) a number in refunded', async () => {
  const created = await engine.call('POST', '/orders', {
    body: { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Reembolso' }, items: [{ product_id: R1.products.bebidaLata, quantity: 1 }] },
  });
  assert.equal(created.status, 201, created.text);
  const view = created.body as OrderView;
  const core = engine.server.engine;
  const payment = async () => ((await engine.call('GET', `/orders/${view.id}`)).body as OrderView).payment;

  await mirrorOrder(core, R1.id, 'live', { ...view, payment: { ...view.payment, refunded: true, amount_refunded: 1200 } }, 'order.updated');
  assert.deepEqual(await payment(), { method: 'efectivo', paid: false, refunded: true, amount_refunded: 1200 });

  const olderUpstream = { ...view, payment: { method: 'efectivo', paid: false, refunded: 1500 } } as unknown as OrderView;
  await mirrorOrder(core, R1.id, 'live', olderUpstream, 'order.updated');
  assert.deepEqual(await payment(), { method: 'efectivo', paid: false, refunded: true, amount_refunded: 1500 });

  const beforeRefunds = { ...view, payment: { method: 'efectivo', paid: false } } as unknown as OrderView;
  await mirrorOrder(core, R1.id, 'live', beforeRefunds, 'order.updated');
  assert.deepEqual(await payment(), { method: 'efectivo', paid: false, refunded: false, amount_refunded: 0 });
});
