import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';

let t: EngineUnderTest;
before(async () => {
  t = await startEngineUnderTest();
});
after(() => t.stop());

test('50 units of stock and 200 parallel orders of 1: exactly 50 created, stock 0, never negative', { timeout: 120_000 }, async () => {
  const set = await t.call('PUT', '/stock', {
    body: { location_id: R1.openLocation, items: [{ product_id: R1.products.empanadaQueso, quantity: 50 }] },
  });
  assert.equal(set.status, 200, set.text);
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      t.call('POST', '/orders', {
        body: {
          location_id: R1.openLocation,
          type: 'retiro',
          customer: { name: `Cliente ${i}` },
          items: [{ product_id: R1.products.empanadaQueso, quantity: 1 }],
        },
      }),
    ),
  );
  const byStatus = new Map<number, number>();
  for (const r of results) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  assert.deepEqual(Object.fromEntries(byStatus), { 201: 50, 409: 150 });
  assert.ok(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'insufficient_stock'));
  const numbers = results.filter((r) => r.status === 201).map((r) => r.body.number);
  assert.equal(new Set(numbers).size, 50, 'every created order has its own number');

  const stock = await t.call('GET', `/stock?location_id=${R1.openLocation}`);
  assert.equal(stock.body.data.find((e: { product_id: string }) => e.product_id === R1.products.empanadaQueso).quantity, 0);
  // Through the engine's stores, so the test holds on either database (issue 34).
  const stores = t.server.engine.stores;
  for (const location of [R1.openLocation, R1.closedLocation, R1.inactiveLocation]) {
    const negative = [...(await stores.stock.quantitiesAt(location)).values()].filter((q) => q < 0);
    assert.deepEqual(negative, [], `no stock below zero at ${location}`);
  }
  const orders = await stores.orders.list({ restaurantId: R1.id, world: 'live', limit: 10_000 });
  assert.equal(orders.filter((o) => o.items.includes(R1.products.empanadaQueso)).length, 50);
});

test('parallel cancels of one order restore its stock exactly once', async () => {
  await t.call('PUT', '/stock', {
    body: { location_id: R1.openLocation, items: [{ product_id: R1.products.pastelDeChoclo, quantity: 10 }] },
  });
  const order = await t.call('POST', '/orders', {
    body: {
      location_id: R1.openLocation,
      type: 'retiro',
      customer: { name: 'Carla' },
      items: [{ product_id: R1.products.pastelDeChoclo, quantity: 4 }],
    },
  });
  assert.equal(order.status, 201);
  const cancels = await Promise.all(
    Array.from({ length: 20 }, () => t.call('PATCH', `/orders/${order.body.id}`, { body: { status: 'cancelado' } })),
  );
  assert.ok(cancels.every((r) => r.status === 200 && r.body.status === 'cancelado'));
  const stock = await t.call('GET', `/stock?location_id=${R1.openLocation}`);
  assert.equal(stock.body.data.find((e: { product_id: string }) => e.product_id === R1.products.pastelDeChoclo).quantity, 10);
});
