import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { courierRegistry } from '../../../src/engine/couriers/courier-registry.ts';
import type { CourierDispatchRequest, CourierProvider } from '../../../src/engine/couriers/courier-provider.ts';
import { SimulatedCourier } from '../../../src/engine/couriers/simulated-courier.ts';
import type { OpenSessionRequest, PaymentProvider } from '../../../src/engine/payments/payment-provider.ts';
import { sandboxSimulator } from '../../../src/engine/payments/sandbox-simulator.ts';
import { createOrder } from '../../../src/engine/services/orders/create-order.ts';
import { R1 } from '../../support/demo-ids.ts';
import { startTestEngine, type TestEngine } from '../jobs/engine-with-jobs.ts';

const MINUTE = 60_000;

/** A call that stays pending until the test releases (or fails) it: a provider as slow as the test wants. */
class Gate {
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  closed = false;
  pending = 0;
  async pass(signal?: AbortSignal): Promise<void> {
    if (!this.closed) return;
    this.pending++;
    try {
      await new Promise<void>((resolve, reject) => {
        this.waiters.push({ resolve, reject });
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    } finally {
      this.pending--;
    }
  }
  /** Resolves once `count` calls wait at the gate. */
  async reached(count = 1): Promise<void> {
    while (this.pending < count) await new Promise((resolve) => setImmediate(resolve));
  }
  open(): void {
    this.closed = false;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }
  fail(error: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }
}

const paymentGate = new Gate();
let paymentDown = false;
const paymentCalls: OpenSessionRequest[] = [];
/** A production provider behind the gate: slow, down or answering as the test says. */
const slowProvider: PaymentProvider = {
  name: 'pasarela-lenta',
  async openSession(request) {
    paymentCalls.push(request);
    await paymentGate.pass(request.signal);
    if (paymentDown) throw new Error('connect ECONNREFUSED 10.0.0.9:443');
    return { payment_url: `https://pagos.example/checkout/${request.session_id}` };
  },
};

const courierGate = new Gate();
const dispatches: CourierDispatchRequest[] = [];
/** The simulated courier behind the gate (sandbox orders use the registry's "simulado"). */
class SlowCourier extends SimulatedCourier {
  override async dispatch(request: CourierDispatchRequest) {
    dispatches.push(request);
    await courierGate.pass(request.signal);
    return super.dispatch(request);
  }
}

describe('adapters are called outside the transaction: a slow provider delays no other write', () => {
  let t: TestEngine;
  let other: Database.Database;
  before(async () => {
    t = await startTestEngine({
      payments: { live: slowProvider, test: sandboxSimulator },
      couriers: courierRegistry(new SlowCourier() as CourierProvider),
      // Long enough for a gated call never to time out by accident; the timeout test has its own engine.
      paymentTimeoutMs: 60_000,
      courierTimeoutMs: 60_000,
    });
    // Another connection to the same file, as another process would have: it must get the write lock.
    other = new Database(t.dbPath);
    other.pragma('busy_timeout = 0');
  });
  after(async () => {
    paymentGate.open();
    courierGate.open();
    other.close();
    await t.stop();
  });

  const onlineBody = (quantity = 1) => ({
    location_id: R1.openLocation,
    type: 'retiro',
    customer: { name: 'Paula' },
    items: [{ product_id: R1.products.pastelDeChoclo, quantity }],
    payment: 'online',
    return_url: 'https://tienda.example/vuelta',
  });
  const externalBody = { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Tomás' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] };
  const stockOf = async (productId: string) => {
    const res = await t.call('GET', `/stock?location_id=${R1.openLocation}`);
    return res.body.data.find((e: { product_id: string }) => e.product_id === productId).quantity as number;
  };
  /** The write lock is free: another connection can take it at once (busy_timeout 0). */
  const writeLockIsFree = () => {
    other.exec('BEGIN IMMEDIATE');
    other.exec('ROLLBACK');
    return true;
  };

  test('while the payment provider is pending, other orders and transitions complete; then the 201 carries the link', async () => {
    const feed = await t.call('GET', '/events');
    paymentGate.closed = true;
    const online = t.call('POST', '/orders', { body: onlineBody(), headers: { 'idempotency-key': 'slow-pay-1' } });
    await paymentGate.reached();

    // The provider holds its answer: SQLite's write lock is not held meanwhile.
    assert.equal(t.server.engine.db.inTransaction, false);
    assert.ok(writeLockIsFree());
    const created = await t.call('POST', '/orders', { body: externalBody });
    assert.equal(created.status, 201, created.text);
    const moved = await t.call('PATCH', `/orders/${created.body.id}`, { body: { status: 'en_preparacion' } });
    assert.equal(moved.status, 200);
    // A retry of the pending request is told to wait, and creates nothing.
    const retry = await t.call('POST', '/orders', { body: onlineBody(), headers: { 'idempotency-key': 'slow-pay-1' } });
    assert.equal(retry.status, 409);
    assert.equal(retry.body.error.code, 'state_conflict');
    assert.equal(paymentGate.pending, 1, 'all of that happened while the provider was still pending');

    paymentGate.open();
    const answer = await online;
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.status, 'pendiente_pago');
    assert.equal(answer.body.payment_link.payment_url, `https://pagos.example/checkout/${answer.body.payment_link.session_id}`);
    assert.equal(paymentCalls.at(-1)!.session_id, answer.body.payment_link.session_id, 'the session id is the key towards the provider');
    const replay = await t.call('POST', '/orders', { body: onlineBody(), headers: { 'idempotency-key': 'slow-pay-1' } });
    assert.equal(replay.text, answer.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');

    // The online order is announced once its payment page exists: after the writes made meanwhile.
    const events = (await t.call('GET', `/events?after=${feed.body.next_cursor}`)).body.data as { type: string; data: { id?: string } }[];
    const created_ = events.filter((e) => e.type === 'order.created').map((e) => e.data.id);
    assert.deepEqual(created_, [created.body.id, answer.body.id]);
  });

  test('a provider that fails: 503 payment_unavailable, the stock comes back, no order was created, the key can be retried', async () => {
    const before = await stockOf(R1.products.pastelDeChoclo);
    const listed = async () => (await t.call('GET', '/orders?limit=100')).body.data.length as number;
    const ordersBefore = await listed();
    const feed = await t.call('GET', '/events');
    paymentDown = true;
    try {
      const refused = await t.call('POST', '/orders', { body: onlineBody(2), headers: { 'idempotency-key': 'slow-pay-2' } });
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.error.code, 'payment_unavailable');
      assert.match(refused.body.error.message, /ECONNREFUSED/);
    } finally {
      paymentDown = false;
    }
    assert.equal(await stockOf(R1.products.pastelDeChoclo), before);
    assert.equal(await listed(), ordersBefore, 'the withdrawn order is gone');
    const events = (await t.call('GET', `/events?after=${feed.body.next_cursor}`)).body.data as { type: string }[];
    assert.deepEqual(
      events.map((e) => e.type),
      ['stock.updated', 'stock.updated'],
      'the stock taken and given back; no order.created, no cancellation: to integrators no order existed',
    );
    const again = await t.call('POST', '/orders', { body: onlineBody(2), headers: { 'idempotency-key': 'slow-pay-2' } });
    assert.equal(again.status, 201, 'a 503 is not stored: the same key works once the provider is back');
  });

  test('an order whose provider was asked when the engine stopped is withdrawn by the jobs runner', async () => {
    const before = await stockOf(R1.products.pastelDeChoclo);
    // Only the first half ran (as if the process died while the provider was being asked).
    const half = await createOrder(
      t.server.engine,
      { restaurantId: R1.id, world: 'live', canWrite: true, keyId: 'test' },
      onlineBody(1) as never,
      { payments: t.server.providers.payments, origin: 'http://127.0.0.1' },
    );
    assert.equal(await stockOf(R1.products.pastelDeChoclo), before - 1);
    t.clock.advance(5 * MINUTE);
    await t.server.jobs.runDue();
    assert.equal(await t.server.engine.stores.orders.getById(half.id), undefined);
    assert.equal(await stockOf(R1.products.pastelDeChoclo), before);
  });

  test('while a courier dispatch is pending, the kitchen keeps writing; the dispatch then lands', async () => {
    const key = t.demo[0]!.keys.test_write;
    const order = await t.call('POST', '/orders', {
      key,
      body: { location_id: R1.closedLocation, type: 'delivery', address: 'Av. Ossa 1200', customer: { name: 'Elena' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
    });
    assert.equal((await t.call('PATCH', `/orders/${order.body.id}`, { key, body: { status: 'en_preparacion' } })).status, 200);
    courierGate.closed = true;
    const ready = await t.call('PATCH', `/orders/${order.body.id}`, { key, body: { status: 'listo' } });
    assert.equal(ready.status, 200, 'listo answers without waiting for the courier');
    assert.deepEqual(ready.body.delivery, { provider: 'simulado', status: 'pendiente', tracking_url: null });
    const pass = t.server.jobs.runDue();
    await courierGate.reached();

    assert.equal(t.server.engine.db.inTransaction, false);
    assert.ok(writeLockIsFree());
    const created = await t.call('POST', '/orders', { body: externalBody });
    assert.equal(created.status, 201);
    assert.equal((await t.call('PATCH', `/orders/${created.body.id}`, { body: { status: 'cancelado' } })).status, 200);
    assert.equal(courierGate.pending, 1, 'the courier was still pending');

    courierGate.open();
    await pass;
    const read = await t.call('GET', `/orders/${order.body.id}`, { key });
    assert.deepEqual(read.body.delivery, {
      provider: 'simulado',
      status: 'pendiente',
      tracking_url: `https://simulado.comanda.invalid/seguimiento/sim-${order.body.id}`,
    });
    assert.equal(dispatches.at(-1)!.idempotency_key, `comanda-dispatch-${order.body.id}`);
  });
});

describe('adapters that never answer time out', () => {
  let t: TestEngine;
  const hanging = new Gate();
  hanging.closed = true;
  const dispatchKeys: string[] = [];
  const hangingProvider: PaymentProvider = {
    name: 'pasarela-colgada',
    async openSession(request) {
      await hanging.pass(request.signal);
      return { payment_url: 'https://never.example' };
    },
  };
  class HangingCourier extends SimulatedCourier {
    override async dispatch(request: CourierDispatchRequest) {
      dispatchKeys.push(request.idempotency_key);
      await hanging.pass(request.signal);
      return super.dispatch(request);
    }
  }
  before(async () => {
    t = await startTestEngine({
      payments: { live: hangingProvider, test: sandboxSimulator },
      couriers: courierRegistry(new HangingCourier() as CourierProvider),
      // Tiny real-time deadlines: the providers never answer, so these are what end the calls.
      paymentTimeoutMs: 30,
      courierTimeoutMs: 30,
    });
  });
  after(() => t.stop());

  test('a payment provider past its timeout: 503 and the order withdrawn', async () => {
    const res = await t.call('POST', '/orders', {
      body: {
        location_id: R1.openLocation,
        type: 'retiro',
        customer: { name: 'Iván' },
        items: [{ product_id: R1.products.pastelDeChoclo, quantity: 1 }],
        payment: 'online',
        return_url: 'https://tienda.example/vuelta',
      },
    });
    assert.equal(res.status, 503);
    assert.equal(res.body.error.code, 'payment_unavailable');
    assert.match(res.body.error.message, /did not answer within 30 ms/);
    assert.equal(hanging.pending, 0, 'the provider was told to give up (its signal aborted)');
  });

  test('a courier past its timeout: fallido, retried with the same idempotency key', async () => {
    const key = t.demo[0]!.keys.test_write;
    const order = await t.call('POST', '/orders', {
      key,
      body: { location_id: R1.closedLocation, type: 'delivery', address: 'Av. Ossa 1200', customer: { name: 'Elena' }, items: [{ product_id: R1.products.cazuela, quantity: 1 }] },
    });
    await t.call('PATCH', `/orders/${order.body.id}`, { key, body: { status: 'en_preparacion' } });
    await t.call('PATCH', `/orders/${order.body.id}`, { key, body: { status: 'listo' } });
    await t.server.jobs.runDue();
    const row = (await t.server.engine.stores.courierDeliveries.get(order.body.id))!;
    assert.equal(row.status, 'fallido');
    assert.match(row.last_error!, /did not answer within 30 ms/);
    assert.equal((await t.call('GET', `/orders/${order.body.id}`, { key })).body.delivery.status, 'fallido');
    t.clock.advance(30_000);
    await t.server.jobs.runDue();
    const mine = dispatchKeys.filter((k) => k === `comanda-dispatch-${order.body.id}`);
    assert.equal(mine.length, 2, 'the retry sent the same key: the courier books one rider');
  });
});
