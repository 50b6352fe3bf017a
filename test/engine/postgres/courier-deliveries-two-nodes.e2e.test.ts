// Issue 34: two engine nodes on one PostgreSQL database ask the courier once per claim. Each ready
// delivery order is followed by both nodes four times at once: the claim takes the restaurant's
// clock row and leases the delivery, so one of the eight calls dispatches it and one is recorded.
// The courier is the simulated one behind a counter (no courier speaks a network protocol here).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CourierProvider } from '../../../src/engine/couriers/courier-provider.ts';
import { courierRegistry } from '../../../src/engine/couriers/courier-registry.ts';
import { SimulatedCourier } from '../../../src/engine/couriers/simulated-courier.ts';
import { followCourierDelivery } from '../../../src/engine/services/delivery/follow-courier-deliveries.ts';
import { R1 } from '../../support/demo-ids.ts';
import type { EngineUnderTest } from '../../support/engine-under-test.ts';
import { startPostgresEnginesUnderTest } from '../../support/postgres-engine-under-test.ts';

/** The simulated courier, counting the dispatches it is asked for. */
class CountingCourier implements CourierProvider {
  readonly name = 'simulado';
  readonly label = 'Courier simulado';
  readonly dispatched: string[] = [];
  private readonly inner = new SimulatedCourier();
  quote: CourierProvider['quote'] = (request) => this.inner.quote(request);
  dispatch: CourierProvider['dispatch'] = async (request) => {
    this.dispatched.push(request.order_id);
    // A real call takes turns of the event loop: the other claims run meanwhile.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    return await this.inner.dispatch(request);
  };
  cancel: CourierProvider['cancel'] = (request) => this.inner.cancel(request);
  track: CourierProvider['track'] = (request) => this.inner.track(request);
}

let a: EngineUnderTest;
let b: EngineUnderTest;
before(async () => {
  [a, b] = (await startPostgresEnginesUnderTest({ nodes: 2 })) as [EngineUnderTest, EngineUnderTest];
  // The nodes' own runners would dispatch with their own couriers: here the test is the runner.
  await a.server.jobs.stop();
  await b.server.jobs.stop();
});
after(async () => {
  await a?.stop();
  await b?.stop();
});

test('10 ready deliveries, each followed by both nodes four times at once: each dispatched once, recorded once', { timeout: 180_000 }, async () => {
  const key = a.demo[0]!.keys.test_write;
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const node = i % 2 === 0 ? a : b;
    const created = await node.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.closedLocation,
        type: 'delivery',
        address: 'Av. Ossa 1200, La Reina',
        shipping_fee: 2890,
        customer: { name: `Elena ${i}` },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await node.call('PATCH', `/orders/${created.body.id}`, { key, body: { status: 'en_preparacion' } })).status, 200);
    const ready = await node.call('PATCH', `/orders/${created.body.id}`, { key, body: { status: 'listo' } });
    assert.equal(ready.status, 200, ready.text);
    ids.push(created.body.id as string);
  }
  const courier = new CountingCourier();
  const couriers = courierRegistry(courier);
  await Promise.all(ids.flatMap((id) => [a, b, a, b].map(async (node) => await followCourierDelivery(node.server.engine, couriers, id, 10_000))));
  assert.deepEqual([...courier.dispatched].sort(), [...ids].sort(), 'each delivery dispatched once');
  for (const id of ids) {
    const row = await a.server.engine.stores.courierDeliveries.get(id);
    assert.deepEqual([row?.status, row?.attempts, row?.delivery_id !== null, row?.last_error], ['pendiente', 1, true, null], id);
  }
});
