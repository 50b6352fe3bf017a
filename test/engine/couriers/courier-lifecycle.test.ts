import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { courierRegistry } from '../../../src/engine/couriers/courier-registry.ts';
import type { CourierProvider } from '../../../src/engine/couriers/courier-provider.ts';
import { SimulatedCourier } from '../../../src/engine/couriers/simulated-courier.ts';
import { R1 } from '../../support/demo-ids.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** The simulated courier behind a switch: while `down`, every call throws as an unreachable courier would. */
class SwitchableCourier implements CourierProvider {
  readonly name = 'simulado';
  readonly label = 'Courier simulado';
  down = false;
  readonly calls: string[] = [];
  private readonly inner = new SimulatedCourier();

  private guard(call: string): void {
    this.calls.push(call);
    if (this.down) throw new Error('courier API unreachable (connect ECONNREFUSED)');
  }
  quote: CourierProvider['quote'] = (request) => this.inner.quote(request);
  dispatch: CourierProvider['dispatch'] = (request) => {
    this.guard(`dispatch ${request.order_id}`);
    return this.inner.dispatch(request);
  };
  cancel: CourierProvider['cancel'] = (request) => {
    this.guard(`cancel ${request.delivery_id}`);
    return this.inner.cancel(request);
  };
  track: CourierProvider['track'] = (request) => {
    this.guard(`track ${request.delivery_id}`);
    return this.inner.track(request);
  };
}

describe('courier deliveries on the engine clock', () => {
  let t: TestEngine;
  const courier = new SwitchableCourier();
  let key: string;
  before(async () => {
    t = await startTestEngine({ couriers: courierRegistry(courier) });
    key = t.demo[0]!.keys.test_write;
  });
  after(() => t.stop());
  afterEach(() => {
    courier.down = false;
  });

  /** A sandbox delivery order at the location that prefers the simulated courier, cooked to `listo`. */
  const readyDelivery = async (email: string | null = null) => {
    const created = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.closedLocation,
        type: 'delivery',
        address: 'Av. Ossa 1200, La Reina',
        shipping_fee: 2890,
        customer: { name: 'Elena', ...(email ? { email } : {}) },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.delivery, { provider: 'simulado', status: null, tracking_url: null });
    assert.equal((await t.call('PATCH', `/orders/${created.body.id}`, { key, body: { status: 'en_preparacion' } })).status, 200);
    const ready = await t.call('PATCH', `/orders/${created.body.id}`, { key, body: { status: 'listo' } });
    assert.equal(ready.status, 200, ready.text);
    return ready.body as { id: string; status: string; delivery: { provider: string; status: string | null; tracking_url: string | null } };
  };
  const read = async (id: string) => (await t.call('GET', `/orders/${id}`, { key })).body;
  /** The courier is called by the jobs runner after the commit: wait for its pass to be over. */
  const settle = () => t.server.jobs.runDue();
  const advance = async (ms: number) => {
    t.clock.advance(ms);
    await settle();
  };

  test('listo requests the dispatch; the courier is called after the commit, assigned, picks up and delivers', async () => {
    const feed = await t.call('GET', '/events', { key });
    const order = await readyDelivery();
    const tracking = `https://simulado.comanda.invalid/seguimiento/sim-${order.id}`;
    assert.equal(order.status, 'listo');
    // The transition only wrote the intent: dispatch requested, no courier called yet.
    assert.deepEqual(order.delivery, { provider: 'simulado', status: 'pendiente', tracking_url: null });
    await settle();
    assert.deepEqual((await read(order.id)).delivery, { provider: 'simulado', status: 'pendiente', tracking_url: tracking });
    assert.ok(courier.calls.includes(`dispatch ${order.id}`));

    await advance(2 * MINUTE - SECOND);
    assert.equal((await read(order.id)).delivery.status, 'pendiente');
    await advance(SECOND);
    let now = await read(order.id);
    assert.equal(now.status, 'listo');
    assert.equal(now.delivery.status, 'asignado');

    await advance(8 * MINUTE);
    now = await read(order.id);
    assert.equal(now.status, 'en_reparto', 'the pickup puts the order on its way');
    assert.deepEqual(now.delivery, { provider: 'simulado', status: 'en_camino', tracking_url: tracking });

    await advance(20 * MINUTE);
    now = await read(order.id);
    assert.equal(now.status, 'entregado');
    assert.equal(now.delivery.status, 'entregado');

    const events = (await t.call('GET', `/events?after=${feed.body.next_cursor}`, { key })).body.data.filter(
      (e: { data: { id?: string } }) => e.data.id === order.id,
    );
    assert.deepEqual(
      events.map((e: { type: string; data: { status: string; delivery: { status: string } } }) => [e.type, e.data.status, e.data.delivery.status]),
      [
        ['order.created', 'recibido', null],
        ['order.updated', 'en_preparacion', null],
        ['order.updated', 'listo', 'pendiente'],
        // The dispatch recorded: the same status, now with the courier's tracking page.
        ['order.updated', 'listo', 'pendiente'],
        ['order.updated', 'listo', 'asignado'],
        ['order.updated', 'en_reparto', 'en_camino'],
        ['order.updated', 'entregado', 'entregado'],
      ],
    );

    // Done: the courier is asked nothing more.
    const calls = courier.calls.length;
    await advance(60 * MINUTE);
    assert.equal(courier.calls.length, calls);
  });

  test('a delivery seen only once it is over still passes through en_reparto', async () => {
    const order = await readyDelivery();
    await settle();
    const feed = await t.call('GET', '/events', { key });
    await advance(45 * MINUTE);
    const now = await read(order.id);
    assert.equal(now.status, 'entregado');
    const events = (await t.call('GET', `/events?after=${feed.body.next_cursor}`, { key })).body.data.filter(
      (e: { data: { id?: string } }) => e.data.id === order.id,
    );
    assert.deepEqual(
      events.map((e: { data: { status: string; delivery: { status: string } } }) => [e.data.status, e.data.delivery.status]),
      [
        ['en_reparto', 'en_camino'],
        ['entregado', 'entregado'],
      ],
    );
  });

  test('cancelling the order calls off its courier delivery', async () => {
    const order = await readyDelivery();
    await settle();
    await advance(3 * MINUTE);
    assert.equal((await read(order.id)).delivery.status, 'asignado');
    const cancelled = await t.call('PATCH', `/orders/${order.id}`, { key, body: { status: 'cancelado' } });
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.delivery.status, 'cancelado');
    // The courier is told after the commit, by the jobs runner.
    await settle();
    assert.ok(courier.calls.includes(`cancel sim-${order.id}`));
    await advance(60 * MINUTE);
    const now = await read(order.id);
    assert.equal(now.status, 'cancelado');
    assert.equal(now.delivery.status, 'cancelado');
    assert.equal((await t.server.engine.stores.courierDeliveries.get(order.id))?.next_check_at, null);
  });

  test('a courier outage: the order stays listo as fallido, retried with backoff until the courier answers', async () => {
    courier.down = true;
    const order = await readyDelivery();
    assert.equal(order.status, 'listo', 'a failing courier never blocks the kitchen');
    await settle();
    assert.deepEqual((await read(order.id)).delivery, { provider: 'simulado', status: 'fallido', tracking_url: null });
    const row = async () => (await t.server.engine.stores.courierDeliveries.get(order.id))!;
    assert.equal((await row()).attempts, 1);
    assert.match((await row()).last_error!, /ECONNREFUSED/);

    const dispatches = () => courier.calls.filter((c) => c === `dispatch ${order.id}`).length;
    await advance(30 * SECOND - 1);
    assert.equal(dispatches(), 1);
    await advance(1);
    assert.equal(dispatches(), 2, 'first retry after 30 s');
    await advance(60 * SECOND - 1);
    assert.equal(dispatches(), 2);
    await advance(1);
    assert.equal(dispatches(), 3, 'then after 1 minute');
    await advance(2 * MINUTE);
    assert.equal(dispatches(), 4, 'then 2 minutes');
    assert.equal((await row()).attempts, 4);
    assert.equal((await read(order.id)).delivery.status, 'fallido');
    assert.equal((await read(order.id)).status, 'listo');

    courier.down = false;
    await advance(4 * MINUTE);
    const back = await read(order.id);
    assert.equal(back.status, 'listo');
    assert.deepEqual(back.delivery, {
      provider: 'simulado',
      status: 'pendiente',
      tracking_url: `https://simulado.comanda.invalid/seguimiento/sim-${order.id}`,
    });
    await advance(30 * MINUTE);
    assert.equal((await read(order.id)).status, 'entregado');
  });

  test('an outage while following a dispatched delivery only delays it', async () => {
    const order = await readyDelivery();
    await settle();
    courier.down = true;
    await advance(15 * MINUTE);
    assert.equal((await read(order.id)).status, 'listo');
    assert.match((await t.server.engine.stores.courierDeliveries.get(order.id))!.last_error!, /unreachable/);
    courier.down = false;
    await advance(30 * SECOND);
    const now = await read(order.id);
    assert.equal(now.status, 'en_reparto');
    assert.equal(now.delivery.status, 'en_camino');
  });

  test('when the kitchen sends its own rider, retries of a failed dispatch stop', async () => {
    courier.down = true;
    const order = await readyDelivery();
    await settle();
    const out = await t.call('PATCH', `/orders/${order.id}`, { key, body: { status: 'en_reparto' } });
    assert.equal(out.status, 200);
    courier.down = false;
    await advance(10 * MINUTE);
    const row = (await t.server.engine.stores.courierDeliveries.get(order.id))!;
    assert.equal(row.next_check_at, null);
    assert.equal(row.attempts, 1);
    assert.match(row.last_error!, /abandoned/);
    assert.equal((await read(order.id)).status, 'en_reparto');
  });

  test('own delivery dispatches no courier', async () => {
    const own = await t.call('POST', '/orders', {
      key,
      body: {
        location_id: R1.openLocation,
        type: 'delivery',
        address: 'Av. Grecia 1234',
        customer: { name: 'Fabián' },
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
      },
    });
    await t.call('PATCH', `/orders/${own.body.id}`, { key, body: { status: 'en_preparacion' } });
    const ready = await t.call('PATCH', `/orders/${own.body.id}`, { key, body: { status: 'listo' } });
    assert.deepEqual(ready.body.delivery, { provider: 'propio', status: null, tracking_url: null });
    await advance(60 * MINUTE);
    assert.equal((await read(own.body.id)).status, 'listo');
    assert.ok(!courier.calls.some((c) => c.includes(own.body.id)));
    assert.equal(await t.server.engine.stores.courierDeliveries.get(own.body.id), undefined);
  });

  test('a production order whose courier has no adapter here: fallido with the reason, never lost', async () => {
    // The location prefers a courier this engine has no adapter for.
    t.server.engine.db.prepare('UPDATE locations SET delivery = ? WHERE id = ?').run('{"couriers":["rapido"]}', R1.closedLocation);
    try {
      assert.equal((await t.call('POST', `/locations/${R1.closedLocation}/open`)).status, 200);
      const created = await t.call('POST', '/orders', {
        body: {
          location_id: R1.closedLocation,
          type: 'delivery',
          address: 'Av. Ossa 1200',
          customer: { name: 'Gala' },
          items: [{ product_id: R1.products.cazuela, quantity: 1 }],
        },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.delivery.provider, 'rapido');
      await t.call('PATCH', `/orders/${created.body.id}`, { body: { status: 'en_preparacion' } });
      const ready = await t.call('PATCH', `/orders/${created.body.id}`, { body: { status: 'listo' } });
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body.delivery, { provider: 'rapido', status: 'fallido', tracking_url: null });
      assert.match((await t.server.engine.stores.courierDeliveries.get(created.body.id))!.last_error!, /no courier adapter named "rapido"/);
      const cancelled = await t.call('PATCH', `/orders/${created.body.id}`, { body: { status: 'cancelado' } });
      assert.equal(cancelled.body.delivery.status, 'cancelado');
      assert.equal((await t.server.engine.stores.courierDeliveries.get(created.body.id))!.next_check_at, null);
    } finally {
      t.server.engine.db.prepare('UPDATE locations SET delivery = ? WHERE id = ?').run('{"couriers":["simulado"]}', R1.closedLocation);
    }
  });

  test('survives a restart: a dispatched delivery goes on from the database', async () => {
    const order = await readyDelivery();
    await settle();
    await t.server.close();
    t.clock.advance(12 * MINUTE);
    await t.restart();
    await settle();
    const now = await read(order.id);
    assert.equal(now.status, 'en_reparto');
    await advance(20 * MINUTE);
    assert.equal((await read(order.id)).status, 'entregado');
  });
});
