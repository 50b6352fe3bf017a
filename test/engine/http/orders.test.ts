import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { R1, UNKNOWN_UUID } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';

const OFFSET_NOV = /^2026-11-\d\dT\d\d:\d\d:\d\d-03:00$/;

function pickup(items: unknown[], extra: Record<string, unknown> = {}) {
  return { location_id: R1.openLocation, type: 'retiro', customer: { name: 'Ana Pérez' }, items, ...extra };
}

describe('POST /orders', () => {
  let t: EngineUnderTest;
  before(async () => {
    t = await startEngineUnderTest();
  });
  after(() => t.stop());

  test('prices from the catalogue: offer price, modifiers, quantities, totals', async () => {
    const res = await t.call('POST', '/orders', {
      body: pickup([
        { product_id: R1.products.barrosLuco, quantity: 2 },
        { product_id: R1.products.churrasco, quantity: 1, modifier_option_ids: [R1.options.panAmasado], notes: 'sin mayo' },
        { product_id: R1.products.completo, quantity: 3, modifier_option_ids: [R1.options.paltaExtra, R1.options.chucrut] },
      ]),
    });
    assert.equal(res.status, 201, res.text);
    const order = res.body;
    assert.equal(order.status, 'recibido');
    assert.equal(order.type, 'retiro');
    assert.deepEqual(order.payment, { method: 'efectivo', paid: false, refunded: false, amount_refunded: 0 });
    assert.equal(order.delivery, null);
    assert.equal(order.address, null);
    assert.deepEqual(
      order.items.map((i: { unit_price: number; quantity: number }) => [i.unit_price, i.quantity]),
      [
        [7490, 2],
        [9490, 1],
        [4690, 3],
      ],
    );
    assert.deepEqual(order.items[1].modifiers, [{ group: 'Pan', name: 'Pan amasado', price: 500 }]);
    assert.equal(order.items[1].notes, 'sin mayo');
    assert.deepEqual(order.items[2].modifiers, [
      { group: 'Agregados', name: 'Palta extra', price: 800 },
      { group: 'Agregados', name: 'Chucrut', price: 400 },
    ]);
    assert.equal(order.subtotal, 7490 * 2 + 9490 + 4690 * 3);
    assert.equal(order.shipping_fee, 0);
    assert.equal(order.discount, 0);
    assert.equal(order.total, order.subtotal);
    assert.match(order.created_at, OFFSET_NOV);
    assert.equal(order.created_at, '2026-11-21T20:00:00-03:00');
    assert.equal(order.updated_at, order.created_at);
    assert.equal(order.test, false);
    assert.match(order.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(order.number, /^\d+$/);

    const read = await t.call('GET', `/orders/${order.id}`);
    assert.equal(read.status, 200);
    // The promise is the creation's answer (issue 32); the order read later is the same otherwise.
    const { promise, ...created } = order;
    assert.ok(promise);
    assert.deepEqual(read.body, created);
  });

  test('prices sent by the client are ignored', async () => {
    const res = await t.call('POST', '/orders', {
      body: pickup([{ product_id: R1.products.bebidaLata, quantity: 1, unit_price: 1, price: 1 }]),
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.items[0].unit_price, 1790);
    assert.equal(res.body.total, 1790);
  });

  test('delivery: address required, shipping fee kept, own delivery provider', async () => {
    const missing = await t.call('POST', '/orders', { body: { ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), type: 'delivery' } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'invalid_request');
    assert.match(missing.body.error.message, /address/);

    const res = await t.call('POST', '/orders', {
      body: { ...pickup([{ product_id: R1.products.bebidaLata, quantity: 2 }]), type: 'delivery', address: 'Av. Grecia 1234', shipping_fee: 1990 },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.address, 'Av. Grecia 1234');
    assert.equal(res.body.shipping_fee, 1990);
    assert.equal(res.body.total, 1790 * 2 + 1990);
    assert.deepEqual(res.body.delivery, { provider: 'propio', status: null, tracking_url: null });
  });

  test('retiro forces shipping_fee to 0', async () => {
    const res = await t.call('POST', '/orders', {
      body: pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }], { shipping_fee: 5000, address: 'ignored' }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.shipping_fee, 0);
    assert.equal(res.body.address, null);
    assert.equal(res.body.total, 1790);
  });

  test('modifier rules: required group, max, foreign option, repeated option', async () => {
    const cases: [unknown[], RegExp][] = [
      [[], /items\[0\]\.modifier_option_ids: group "Pan" needs at least 1 option, got 0/],
      [[R1.options.marraqueta, R1.options.frica], /group "Pan" accepts at most 1 option, got 2/],
      [[R1.options.marraqueta, R1.options.paltaExtra], /items\[0\]\.modifier_option_ids\[1\] is not an option of product/],
      [[R1.options.marraqueta, R1.options.marraqueta], /items\[0\]\.modifier_option_ids\[1\] repeats option/],
    ];
    for (const [options, message] of cases) {
      const res = await t.call('POST', '/orders', {
        body: pickup([{ product_id: R1.products.churrasco, quantity: 1, modifier_option_ids: options }]),
      });
      assert.equal(res.status, 400, JSON.stringify(options));
      assert.equal(res.body.error.code, 'invalid_request');
      assert.match(res.body.error.message, message);
    }
    const tooMany = await t.call('POST', '/orders', {
      body: pickup([
        {
          product_id: R1.products.completo,
          quantity: 1,
          modifier_option_ids: [R1.options.paltaExtra, R1.options.tomateExtra, R1.options.chucrut, R1.options.ajiVerde],
        },
      ]),
    });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.error.message, /group "Agregados" accepts at most 3 options, got 4/);
  });

  test('field validation names the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [pickup([{ product_id: R1.products.bebidaLata, quantity: 0 }]), 'items[0].quantity must be >= 1'],
      [pickup([{ product_id: R1.products.bebidaLata, quantity: 1000 }]), 'items[0].quantity must be <= 999'],
      [pickup([{ product_id: R1.products.bebidaLata, quantity: 1.5 }]), 'items[0].quantity must be integer'],
      [pickup([{ product_id: R1.products.bebidaLata, quantity: '2' }]), 'items[0].quantity must be integer'],
      [pickup([{ product_id: 'nope', quantity: 1 }]), 'items[0].product_id must be a UUID'],
      [pickup([]), 'items must have at least 1 element'],
      [pickup(Array.from({ length: 101 }, () => ({ product_id: R1.products.bebidaLata, quantity: 1 }))), 'items must have at most 100 elements'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), customer: {} }, 'customer.name is required'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), customer: { name: '   ' } }, 'customer.name must not be blank'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), customer: { name: 'A', email: 'not-an-email' } }, 'customer.email must be a valid email'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), type: 'drone' }, 'type must be one of: delivery, retiro'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), shipping_fee: -1 }, 'shipping_fee must be >= 0'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), location_id: undefined }, 'location_id is required'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), payment: 'bitcoin' }, 'payment must be one of: external, online'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), payment_method: 'tarjeta' }, 'payment_method is accepted only with payment = online'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), payment: 'online' }, 'return_url is required when payment is online'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), payment: 'online', return_url: 'http://shop.example/ok' }, 'return_url must be an https URL'],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), scheduled_for: 'mañana' }, 'scheduled_for must be an ISO 8601 date-time'],
    ];
    for (const [body, message] of cases) {
      const res = await t.call('POST', '/orders', { body });
      assert.equal(res.status, 400, `${message}: ${res.text}`);
      assert.equal(res.body.error.code, 'invalid_request');
      assert.equal(res.body.error.message, message);
    }
  });

  test('unknown, inactive and foreign products or locations are 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [pickup([{ product_id: UNKNOWN_UUID, quantity: 1 }]), /^items\[0\]\.product_id: unknown product/],
      [pickup([{ product_id: R1.products.porotosGranados, quantity: 1 }]), /^items\[0\]\.product_id: .* is not on sale/],
      [pickup([{ product_id: R1.products.sopaipillas, quantity: 1 }]), /^items\[0\]\.product_id: .* is not on sale/],
      [pickup([{ product_id: '23000000-0000-4000-8000-000000000001', quantity: 1 }]), /^items\[0\]\.product_id: unknown product/],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), location_id: UNKNOWN_UUID }, /^location_id: unknown location/],
      [{ ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), location_id: '21000000-0000-4000-8000-000000000001' }, /^location_id: unknown location/],
    ];
    for (const [body, message] of cases) {
      const res = await t.call('POST', '/orders', { body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error.code, 'invalid_request');
      assert.match(res.body.error.message, message);
    }
  });

  test('location rules: closed is 409 for live keys only, inactive is 409 for every key', async () => {
    const atClosed = { ...pickup([{ product_id: R1.products.bebidaLata, quantity: 1 }]), location_id: R1.closedLocation };
    const live = await t.call('POST', '/orders', { body: atClosed });
    assert.equal(live.status, 409);
    assert.equal(live.body.error.code, 'location_closed');
    const sandbox = await t.call('POST', '/orders', { key: t.demo[0]!.keys.test_write, body: atClosed });
    assert.equal(sandbox.status, 201);
    assert.equal(sandbox.body.test, true);

    const atInactive = { ...atClosed, location_id: R1.inactiveLocation };
    for (const key of [t.demo[0]!.keys.live_write, t.demo[0]!.keys.test_write]) {
      const res = await t.call('POST', '/orders', { key, body: atInactive });
      assert.equal(res.status, 409);
      assert.equal(res.body.error.code, 'location_inactive');
    }
  });

  test('stock: taken atomically, 409 naming the product, restored on cancel', async () => {
    const stockOf = async (productId: string) => {
      const res = await t.call('GET', `/stock?location_id=${R1.openLocation}`);
      return res.body.data.find((e: { product_id: string }) => e.product_id === productId).quantity as number;
    };
    const before = await stockOf(R1.products.pastelDeChoclo);
    assert.equal(before, 8);
    const tooMuch = await t.call('POST', '/orders', {
      body: pickup([
        { product_id: R1.products.pastelDeChoclo, quantity: 5 },
        { product_id: R1.products.pastelDeChoclo, quantity: 4 },
      ]),
    });
    assert.equal(tooMuch.status, 409);
    assert.equal(tooMuch.body.error.code, 'insufficient_stock');
    assert.match(tooMuch.body.error.message, /Pastel de choclo/);
    assert.match(tooMuch.body.error.message, /9 requested, 8 left/);
    assert.equal(await stockOf(R1.products.pastelDeChoclo), 8);

    const pino = await t.call('POST', '/orders', { body: pickup([{ product_id: R1.products.empanadaPino, quantity: 1 }]) });
    assert.equal(pino.status, 409);
    assert.equal(pino.body.error.code, 'insufficient_stock');

    // The first product there, the second not: refused with what there was, and nothing of the first taken.
    const partly = await t.call('POST', '/orders', {
      headers: { 'idempotency-key': 'partly-in-stock' },
      body: pickup([
        { product_id: R1.products.empanadaQueso, quantity: 2 },
        { product_id: R1.products.pastelDeChoclo, quantity: 9 },
      ]),
    });
    assert.equal(partly.status, 409);
    assert.match(partly.body.error.message, /9 requested, 8 left/);
    assert.equal(await stockOf(R1.products.empanadaQueso), 30);
    assert.equal(await stockOf(R1.products.pastelDeChoclo), 8);

    const ok = await t.call('POST', '/orders', {
      body: pickup([
        { product_id: R1.products.pastelDeChoclo, quantity: 3 },
        { product_id: R1.products.empanadaQueso, quantity: 2 },
      ]),
    });
    assert.equal(ok.status, 201);
    assert.equal(await stockOf(R1.products.pastelDeChoclo), 5);
    assert.equal(await stockOf(R1.products.empanadaQueso), 28);

    const cancelled = await t.call('PATCH', `/orders/${ok.body.id}`, { body: { status: 'cancelado' } });
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, 'cancelado');
    assert.equal(await stockOf(R1.products.pastelDeChoclo), 8);
    assert.equal(await stockOf(R1.products.empanadaQueso), 30);

    const again = await t.call('PATCH', `/orders/${ok.body.id}`, { body: { status: 'cancelado' } });
    assert.equal(again.status, 200, 'cancelling a cancelled order is a no-op');
    assert.equal(await stockOf(R1.products.pastelDeChoclo), 8, 'stock is restored once');
  });

  test('sandbox orders: labelled, own numbering, stock checked but never taken', async () => {
    const key = t.demo[0]!.keys.test_write;
    const res = await t.call('POST', '/orders', { key, body: pickup([{ product_id: R1.products.pastelDeChoclo, quantity: 8 }]) });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.test, true);
    assert.match(res.body.number, /^T\d+$/);
    const stock = await t.call('GET', `/stock?location_id=${R1.openLocation}`);
    assert.equal(stock.body.data.find((e: { product_id: string }) => e.product_id === R1.products.pastelDeChoclo).quantity, 8);
    const tooMuch = await t.call('POST', '/orders', { key, body: pickup([{ product_id: R1.products.pastelDeChoclo, quantity: 9 }]) });
    assert.equal(tooMuch.status, 409);
    assert.equal(tooMuch.body.error.code, 'insufficient_stock');
    const cancel = await t.call('PATCH', `/orders/${res.body.id}`, { key, body: { status: 'cancelado' } });
    assert.equal(cancel.status, 200);
    const afterCancel = await t.call('GET', `/stock?location_id=${R1.openLocation}`);
    assert.equal(
      afterCancel.body.data.find((e: { product_id: string }) => e.product_id === R1.products.pastelDeChoclo).quantity,
      8,
      'cancelling a sandbox order gives nothing back, since it took nothing',
    );
  });

  test('online payment: sandbox gives a payment link, production without provider is 503 and creates nothing', async () => {
    const body = pickup([{ product_id: R1.products.pastelDeChoclo, quantity: 1 }], {
      payment: 'online',
      payment_method: 'tarjeta',
      return_url: 'https://tienda.example/vuelta',
    });
    const sandbox = await t.call('POST', '/orders', { key: t.demo[0]!.keys.test_write, body });
    assert.equal(sandbox.status, 201, sandbox.text);
    assert.equal(sandbox.body.status, 'pendiente_pago');
    assert.deepEqual(sandbox.body.payment, { method: null, paid: false, refunded: false, amount_refunded: 0 });
    assert.match(sandbox.body.payment_link.session_id, /^ps_test_[0-9a-f]{32}$/);
    assert.equal(sandbox.body.payment_link.payment_url, `${t.baseUrl}/sandbox/pay/${sandbox.body.payment_link.session_id}`);
    const read = await t.call('GET', `/orders/${sandbox.body.id}`, { key: t.demo[0]!.keys.test_read });
    assert.equal(read.body.payment_link, undefined, 'payment_link only in the POST response');

    const listBefore = await t.call('GET', '/orders?limit=100');
    const live = await t.call('POST', '/orders', { body });
    assert.equal(live.status, 503);
    assert.equal(live.body.error.code, 'payment_unavailable');
    const listAfter = await t.call('GET', '/orders?limit=100');
    assert.equal(listAfter.body.data.length, listBefore.body.data.length);
    const stock = await t.call('GET', `/stock?location_id=${R1.openLocation}`);
    assert.equal(stock.body.data.find((e: { product_id: string }) => e.product_id === R1.products.pastelDeChoclo).quantity, 8);
  });

  test('scheduled orders: programado, window checked against lead time and 7 days', async () => {
    const item = [{ product_id: R1.products.bebidaLata, quantity: 1 }];
    const tooSoon = await t.call('POST', '/orders', { body: pickup(item, { scheduled_for: '2026-11-21T20:29:00-03:00' }) });
    assert.equal(tooSoon.status, 400);
    assert.equal(tooSoon.body.error.message, "scheduled_for must be at least 30 minutes ahead (the location's preparation lead)");
    const tooLate = await t.call('POST', '/orders', { body: pickup(item, { scheduled_for: '2026-11-28T20:00:01-03:00' }) });
    assert.equal(tooLate.status, 400);
    assert.equal(tooLate.body.error.message, 'scheduled_for must be at most 7 days ahead');
    const ok = await t.call('POST', '/orders', { body: pickup(item, { scheduled_for: '2026-11-22T13:30:00' }) });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.status, 'programado');
    assert.equal(ok.body.scheduled_for, '2026-11-22T13:30:00-03:00');
    const utc = await t.call('POST', '/orders', { body: pickup(item, { scheduled_for: '2026-11-22T16:30:00Z' }) });
    assert.equal(utc.body.scheduled_for, '2026-11-22T13:30:00-03:00');
    // A scheduled order needs an active location, not an open one.
    const closed = await t.call('POST', '/orders', {
      body: { ...pickup(item, { scheduled_for: '2026-11-22T13:30:00-03:00' }), location_id: R1.closedLocation },
    });
    assert.equal(closed.status, 201, closed.text);
    assert.equal(closed.body.status, 'programado');
  });
});

describe('PATCH /orders/{id}', () => {
  let t: EngineUnderTest;
  before(async () => {
    t = await startEngineUnderTest();
  });
  after(() => t.stop());

  const create = async (type: 'retiro' | 'delivery') => {
    const res = await t.call('POST', '/orders', {
      body: {
        location_id: R1.openLocation,
        type,
        customer: { name: 'Bruno' },
        address: type === 'delivery' ? 'Av. Irarrázaval 3000' : undefined,
        items: [{ product_id: R1.products.cazuela, quantity: 1 }],
      },
    });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; updated_at: string };
  };

  test('pickup flow to entregado, with updated_at following the clock', async () => {
    const order = await create('retiro');
    for (const status of ['en_preparacion', 'listo', 'entregado']) {
      t.clock.advance(60_000);
      const res = await t.call('PATCH', `/orders/${order.id}`, { body: { status } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, status);
      assert.notEqual(res.body.updated_at, order.updated_at);
    }
    const done = await t.call('GET', `/orders/${order.id}`);
    assert.equal(done.body.status, 'entregado');
  });

  test('own delivery flow reports the dispatch status', async () => {
    const order = await create('delivery');
    await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'en_preparacion' } });
    await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'listo' } });
    const skip = await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'entregado' } });
    assert.equal(skip.status, 409, 'a delivery order cannot skip en_reparto');
    assert.equal(skip.body.error.code, 'illegal_transition');
    const out = await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'en_reparto' } });
    assert.deepEqual(out.body.delivery, { provider: 'propio', status: 'en_camino', tracking_url: null });
    const delivered = await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'entregado' } });
    assert.deepEqual(delivered.body.delivery, { provider: 'propio', status: 'entregado', tracking_url: null });
  });

  test('illegal transitions are 409 naming both states; terminal states stay', async () => {
    const order = await create('retiro');
    const jump = await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'listo' } });
    assert.equal(jump.status, 409);
    assert.deepEqual(jump.body, { error: { code: 'illegal_transition', message: jump.body.error.message } });
    assert.match(jump.body.error.message, /recibido/);
    assert.match(jump.body.error.message, /listo/);
    const pickupToDelivery = await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'en_reparto' } });
    assert.equal(pickupToDelivery.status, 409);
    await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'cancelado' } });
    for (const status of ['en_preparacion', 'listo', 'en_reparto', 'entregado']) {
      const res = await t.call('PATCH', `/orders/${order.id}`, { body: { status } });
      assert.equal(res.status, 409, status);
      assert.equal(res.body.error.code, 'illegal_transition');
    }
  });

  test('same state is a no-op answered 200 without side effects or events', async () => {
    const order = await create('retiro');
    await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'en_preparacion' } });
    const feed = await t.call('GET', '/events');
    t.clock.advance(60_000);
    const same = await t.call('PATCH', `/orders/${order.id}`, { body: { status: 'en_preparacion' } });
    assert.equal(same.status, 200);
    assert.equal(same.body.status, 'en_preparacion');
    const after = await t.call('GET', `/events?after=${feed.body.next_cursor}`);
    assert.deepEqual(after.body.data, []);
    const read = await t.call('GET', `/orders/${order.id}`);
    assert.equal(read.body.updated_at, same.body.updated_at);
  });

  test('bad targets and ids', async () => {
    const order = await create('retiro');
    for (const status of ['recibido', 'programado', 'pendiente_pago', 'volando', 3]) {
      const res = await t.call('PATCH', `/orders/${order.id}`, { body: { status } });
      assert.equal(res.status, 400, String(status));
      assert.equal(res.body.error.code, 'invalid_request');
    }
    const missing = await t.call('PATCH', `/orders/${order.id}`, { body: {} });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.message, 'status is required');
    const malformed = await t.call('PATCH', '/orders/not-a-uuid', { body: { status: 'listo' } });
    assert.equal(malformed.status, 400);
    const unknown = await t.call('PATCH', `/orders/${UNKNOWN_UUID}`, { body: { status: 'listo' } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'not_found');
  });

  test('an order managed by a POS integration cannot be changed', async () => {
    const managedId = t.demo[0]!.managed_order_ids[0]!;
    for (const status of ['en_preparacion', 'cancelado']) {
      const res = await t.call('PATCH', `/orders/${managedId}`, { body: { status } });
      assert.equal(res.status, 409);
      assert.equal(res.body.error.code, 'managed_by_integrator');
    }
    const read = await t.call('GET', `/orders/${managedId}`);
    assert.equal(read.body.status, 'recibido');
    assert.equal(read.body.managed_by_integrator, true);
  });

  test('scheduled: early start and cancel from programado', async () => {
    const res = await t.call('POST', '/orders', {
      body: pickup([{ product_id: R1.products.cazuela, quantity: 1 }], { scheduled_for: '2026-11-22T13:00:00-03:00' }),
    });
    assert.equal(res.body.status, 'programado');
    const jump = await t.call('PATCH', `/orders/${res.body.id}`, { body: { status: 'listo' } });
    assert.equal(jump.status, 409);
    const early = await t.call('PATCH', `/orders/${res.body.id}`, { body: { status: 'en_preparacion' } });
    assert.equal(early.status, 200);
    assert.equal(early.body.status, 'en_preparacion');
  });

  test('other restaurants and other worlds never see the order', async () => {
    const order = await create('retiro');
    const foreign = await t.call('GET', `/orders/${order.id}`, { key: t.demo[1]!.keys.live_write });
    assert.equal(foreign.status, 404);
    const foreignPatch = await t.call('PATCH', `/orders/${order.id}`, { key: t.demo[1]!.keys.live_write, body: { status: 'cancelado' } });
    assert.equal(foreignPatch.status, 404);
    const sandbox = await t.call('GET', `/orders/${order.id}`, { key: t.demo[0]!.keys.test_write });
    assert.equal(sandbox.status, 404);
    const still = await t.call('GET', `/orders/${order.id}`);
    assert.equal(still.body.status, 'recibido');
  });
});

describe('GET /orders', () => {
  let t: EngineUnderTest;
  const ids: string[] = [];
  before(async () => {
    t = await startEngineUnderTest();
    // 25 orders a minute apart at the open location, pickup and delivery in turn; every fifth cancelled.
    for (let i = 0; i < 25; i++) {
      t.clock.advance(60_000);
      const res = await t.call('POST', '/orders', {
        body: {
          location_id: R1.openLocation,
          type: i % 2 === 0 ? 'retiro' : 'delivery',
          address: 'Calle 1',
          customer: { name: `Cliente ${i}` },
          items: [{ product_id: R1.products.bebidaLata, quantity: 1 }],
        },
      });
      assert.equal(res.status, 201);
      ids.push(res.body.id);
      if (i % 5 === 0) await t.call('PATCH', `/orders/${res.body.id}`, { body: { status: 'cancelado' } });
    }
  });
  after(() => t.stop());

  test('newest first, default page of 20, cursor walks every order once', async () => {
    const first = await t.call('GET', '/orders');
    assert.equal(first.status, 200);
    assert.equal(first.body.data.length, 20);
    assert.equal(first.body.has_more, true);
    assert.equal(typeof first.body.next_cursor, 'string');
    const seen: string[] = first.body.data.map((o: { id: string }) => o.id);
    let cursor = first.body.next_cursor;
    let pages = 1;
    while (cursor) {
      const page = await t.call('GET', `/orders?limit=7&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(page.status, 200);
      seen.push(...page.body.data.map((o: { id: string }) => o.id));
      cursor = page.body.has_more ? page.body.next_cursor : null;
      if (!page.body.has_more) assert.equal(page.body.next_cursor, null);
      pages++;
    }
    // 25 created here + the demo's managed order.
    assert.equal(seen.length, 26);
    assert.equal(new Set(seen).size, 26);
    assert.deepEqual(seen.slice(0, 25), [...ids].reverse());
    assert.equal(pages, 2);
  });

  test('filters: status, location, from inclusive, to exclusive', async () => {
    const cancelled = await t.call('GET', '/orders?status=cancelado&limit=100');
    assert.equal(cancelled.body.data.length, 5);
    assert.ok(cancelled.body.data.every((o: { status: string }) => o.status === 'cancelado'));
    const otherLocation = await t.call('GET', `/orders?location_id=${R1.closedLocation}`);
    assert.deepEqual(otherLocation.body.data, []);
    // Order i was created at 20:00 + (i+1) min.
    const window = await t.call('GET', `/orders?limit=100&from=${encodeURIComponent('2026-11-21T20:03:00-03:00')}&to=${encodeURIComponent('2026-11-21T20:06:00-03:00')}`);
    assert.deepEqual(
      window.body.data.map((o: { id: string }) => o.id),
      [ids[4], ids[3], ids[2]],
    );
    const local = await t.call('GET', `/orders?limit=100&from=2026-11-21T20:03:00&to=2026-11-21T23:06:00Z`);
    assert.deepEqual(local.body.data.map((o: { id: string }) => o.id), [ids[4], ids[3], ids[2]]);
  });

  test('bad parameters are 400', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'status=perdido', 'location_id=xyz', `location_id=${UNKNOWN_UUID}`, 'from=ayer', 'cursor=garbage']) {
      const res = await t.call('GET', `/orders?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'invalid_request', query);
    }
    // Impossible date-times match neither the documented pattern nor the engine: one 400, one message.
    for (const query of ['to=5301-15-75%2090:08:75.5', 'from=2026-02-30T10:00', 'to=2026-11-21T24:00']) {
      const res = await t.call('GET', `/orders?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.message, `${query.split('=')[0]} must be an ISO 8601 date-time`, query);
    }
  });

  test('each world and each restaurant lists only its own orders', async () => {
    const sandbox = await t.call('GET', '/orders', { key: t.demo[0]!.keys.test_read });
    assert.deepEqual(sandbox.body.data, []);
    const other = await t.call('GET', '/orders', { key: t.demo[1]!.keys.live_read });
    assert.deepEqual(other.body.data, []);
    const mine = await t.call('GET', '/orders?limit=1', { key: t.demo[0]!.keys.live_read });
    assert.equal(mine.body.data.length, 1);
  });
});
