// Issue 34: a courier delivery's claim (courier_deliveries.claimed_until, migrations 0023/0010) fences
// its outcome across engine nodes on one PostgreSQL database. Node A claims a dispatch and is stuck
// in the courier's call (a node that died or stalled mid-call): node B takes nothing while A's lease
// runs, then takes the delivery over and books it with the same idempotency key (one delivery at the
// courier), and A's late answer, when A comes back, records nothing. The record before the claim
// column, read as written, would have set B's booked delivery back to `fallido` (its id dropped) with
// a retry on A's late failure. The courier is a stand-in behind a counter that books one delivery per
// idempotency key, as couriers' APIs do (no courier adapter speaks a network protocol here).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CourierProvider } from '../../../src/engine/couriers/courier-provider.ts';
import { courierRegistry } from '../../../src/engine/couriers/courier-registry.ts';
import { SimulatedCourier } from '../../../src/engine/couriers/simulated-courier.ts';
import { followCourierDelivery } from '../../../src/engine/services/delivery/follow-courier-deliveries.ts';
import { R1 } from '../../support/demo-ids.ts';
import type { EngineUnderTest } from '../../support/engine-under-test.ts';
import { eventually } from '../../support/eventually.ts';
import { startPostgresEnginesUnderTest } from '../../support/postgres-engine-under-test.ts';

/** The lease a claim holds (follow-courier-deliveries.ts: CALL_LEASE_MINUTES), and a little more. */
const PAST_THE_LEASE_MS = 5 * 60_000 + 1_000;

/**
 * A courier that books one delivery per idempotency key, as couriers' APIs do; `stall()` makes its
 * next dispatch hang until `answerStalled` (the call under way when its node stopped).
 */
class StandInCourier implements CourierProvider {
  readonly name = 'simulado';
  readonly label = 'Courier simulado';
  readonly dispatches: { orderId: string; key: string }[] = [];
  readonly bookings = new Map<string, string>();
  private readonly inner = new SimulatedCourier();
  private stalled: { resolve: () => void } | null = null;
  private stallNext = false;
  quote: CourierProvider['quote'] = (request) => this.inner.quote(request);
  stall(): void {
    this.stallNext = true;
  }
  answerStalled(): void {
    this.stalled?.resolve();
  }
  dispatch: CourierProvider['dispatch'] = async (request) => {
    this.dispatches.push({ orderId: request.order_id, key: request.idempotency_key });
    if (this.stallNext) {
      this.stallNext = false;
      await new Promise<void>((resolve) => (this.stalled = { resolve }));
      throw new Error('courier unreachable (the answer of a call made before the node stalled)');
    }
    const booked = this.bookings.get(request.idempotency_key);
    if (booked) return { delivery_id: booked, tracking_url: null };
    const answer = await this.inner.dispatch(request);
    this.bookings.set(request.idempotency_key, answer.delivery_id);
    return answer;
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

async function readyDelivery(node: EngineUnderTest, name: string): Promise<string> {
  const key = node.demo[0]!.keys.test_write;
  const created = await node.call('POST', '/orders', {
    key,
    body: {
      location_id: R1.closedLocation,
      type: 'delivery',
      address: 'Av. Ossa 1200, La Reina',
      shipping_fee: 2890,
      customer: { name },
      items: [{ product_id: R1.products.cazuela, quantity: 1 }],
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal((await node.call('PATCH', `/orders/${created.body.id}`, { key, body: { status: 'en_preparacion' } })).status, 200);
  const ready = await node.call('PATCH', `/orders/${created.body.id}`, { key, body: { status: 'listo' } });
  assert.equal(ready.status, 200, ready.text);
  return created.body.id as string;
}

test('a node stuck in a dispatch: the other node waits out its lease, books the delivery once, and the late answer records nothing', { timeout: 180_000 }, async () => {
  const id = await readyDelivery(a, 'Elena');
  const courier = new StandInCourier();
  const couriers = courierRegistry(courier);
  courier.stall();
  const stuck = followCourierDelivery(a.server.engine, couriers, id, 3_600_000);
  await eventually(() => courier.dispatches.length === 1, 'the stuck node calling the courier');
  const claimed = await b.server.engine.stores.courierDeliveries.get(id);
  assert.equal(claimed?.claimed_until, a.clock.now() + 5 * 60_000, 'A holds the claim for its lease');

  // Within A's lease, B calls nobody, whatever is due on the row.
  await followCourierDelivery(b.server.engine, couriers, id, 10_000);
  assert.equal(courier.dispatches.length, 1);

  // Past it, B takes the delivery over: the same idempotency key, so one delivery at the courier.
  a.clock.advance(PAST_THE_LEASE_MS);
  b.clock.advance(PAST_THE_LEASE_MS);
  await followCourierDelivery(b.server.engine, couriers, id, 10_000);
  assert.equal(courier.dispatches.length, 2);
  assert.deepEqual(new Set(courier.dispatches.map((d) => d.key)).size, 1, 'both calls carry the one idempotency key');
  assert.equal(courier.bookings.size, 1, 'one delivery booked');
  const booked = await a.server.engine.stores.courierDeliveries.get(id);
  assert.deepEqual([booked?.status, booked?.delivery_id, booked?.claimed_until, booked?.attempts], ['pendiente', courier.bookings.get(`comanda-dispatch-${id}`), null, 2]);

  // A comes back with its call's failure: fenced, it records nothing.
  courier.answerStalled();
  await stuck;
  const after = await b.server.engine.stores.courierDeliveries.get(id);
  assert.deepEqual(after, booked, "A's late answer changed nothing");
  const order = await b.call('GET', `/orders/${id}`, { key: b.demo[0]!.keys.test_write });
  assert.equal(order.body.delivery?.status ?? order.body.delivery_status, 'pendiente', order.text);

  // And no third dispatch, however long both nodes follow it.
  for (const ms of [60_000, 3_600_000]) {
    a.clock.advance(ms);
    b.clock.advance(ms);
    await Promise.all([a, b].map(async (node) => await followCourierDelivery(node.server.engine, couriers, id, 10_000)));
  }
  assert.equal(courier.dispatches.length, 2);
});

test('a node that dies mid-dispatch: after its lease the other node books the delivery with the same key, once', { timeout: 180_000 }, async () => {
  const id = await readyDelivery(b, 'Marta');
  const courier = new StandInCourier();
  const couriers = courierRegistry(courier);
  courier.stall();
  const stuck = followCourierDelivery(a.server.engine, couriers, id, 3_600_000).catch(() => {});
  await eventually(() => courier.dispatches.length === 1, 'the stuck node calling the courier');
  await a.stop(); // A dies with its call under way: its outcome is never recorded.
  await followCourierDelivery(b.server.engine, couriers, id, 10_000);
  assert.equal(courier.dispatches.length, 1, 'nothing while the dead node\'s lease runs');
  b.clock.advance(PAST_THE_LEASE_MS);
  await Promise.all([1, 2, 3].map(async () => await followCourierDelivery(b.server.engine, couriers, id, 10_000)));
  assert.equal(courier.dispatches.length, 2, 'one take-over call');
  assert.equal(new Set(courier.dispatches.map((d) => d.key)).size, 1);
  assert.equal(courier.bookings.size, 1, 'one delivery booked');
  const row = await b.server.engine.stores.courierDeliveries.get(id);
  assert.deepEqual([row?.status, row?.claimed_until, row?.last_error], ['pendiente', null, null]);
  // The dead node's call ends (its hour-long timer with it, which kept this file's process alive
  // for an hour after its tests), and still records nothing.
  courier.answerStalled();
  await stuck;
  assert.deepEqual(await b.server.engine.stores.courierDeliveries.get(id), row);
});
