import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1, UNKNOWN_UUID } from '../../support/demo-ids.ts';

function assertError(res: { status: number; body: unknown; headers: Headers }, status: number, code: string, message?: string): void {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.ok(res.body !== null && typeof res.body === 'object');
  assert.deepEqual(Object.keys(res.body as object), ['error']);
  const error = (res.body as { error: Record<string, unknown> }).error;
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message']);
  assert.equal(error.code, code);
  assert.equal(typeof error.message, 'string');
  if (message !== undefined) assert.equal(error.message, message);
}

const validOrder = () => ({
  location_id: R1.openLocation,
  type: 'retiro',
  customer: { name: 'Ana' },
  items: [{ product_id: R1.products.cazuela, quantity: 1 }],
});

describe('errors', () => {
  let engine: EngineUnderTest;

  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });

  test('an unknown route is 404 not_found with the error shape, with or without a key', async () => {
    for (const [method, path, key] of [
      ['GET', '/nope', undefined],
      ['GET', '/nope', null],
      ['DELETE', '/orders', undefined],
      ['POST', '/menu', undefined],
      ['GET', '/locations/abc', undefined],
    ] as const) {
      const res = await engine.call(method, path, key === null ? { key: null } : {});
      assertError(res, 404, 'not_found', `no such endpoint: ${method} /v1${path}`);
    }
    // Whatever the method and body: QUERY with no Content-Type, a body that is not JSON, too big a body.
    for (const [method, path, init] of [
      ['QUERY', '/nope', {}],
      ['QUERY', '/nope', { body: 'no es json', headers: { 'content-type': 'text/plain' } }],
      ['QUERY', '/orders', {}],
      ['POST', '/nope', { body: '{"roto": ', headers: { 'content-type': 'application/json' } }],
      ['PATCH', '/nope', { body: 'x'.repeat(2 * 1024 * 1024), headers: { 'content-type': 'application/json' } }],
      ['PUT', '/menu', { body: '<xml/>', headers: { 'content-type': 'application/xml' } }],
    ] as const) {
      const res = await fetch(`${engine.baseUrl}${path}`, { method, ...init });
      assertError(
        { status: res.status, body: await res.json(), headers: res.headers },
        404,
        'not_found',
        `no such endpoint: ${method} /v1${path}`,
      );
    }
    // outside /v1 too
    const res = await fetch(`${engine.baseUrl.replace(/\/v1$/, '')}/menu`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
  });

  test('a malformed uuid in a path is 400; a well-formed unknown one is 404', async () => {
    const malformed: [string, string, unknown, string][] = [
      ['GET', '/orders/abc', undefined, 'order_id must be a UUID'],
      ['GET', '/orders/13000000-0000-4000-8000-00000000000z', undefined, 'order_id must be a UUID'],
      ['PATCH', '/orders/abc', { status: 'listo' }, 'order_id must be a UUID'],
      ['POST', '/locations/abc/open', undefined, 'location_id must be a UUID'],
      ['POST', '/locations/abc/close', undefined, 'location_id must be a UUID'],
    ];
    for (const [method, path, body, message] of malformed) {
      assertError(await engine.call(method, path, body !== undefined ? { body } : {}), 400, 'invalid_request', message);
    }
    assertError(await engine.call('GET', `/orders/${UNKNOWN_UUID}`), 404, 'not_found', `order ${UNKNOWN_UUID} not found`);
    assertError(
      await engine.call('PATCH', `/orders/${UNKNOWN_UUID}`, { body: { status: 'listo' } }),
      404,
      'not_found',
      `order ${UNKNOWN_UUID} not found`,
    );
    assertError(await engine.call('POST', `/locations/${UNKNOWN_UUID}/open`), 404, 'not_found', `location ${UNKNOWN_UUID} not found`);
    // ids are read in any case
    const managed = engine.demo[0]!.managed_order_ids[0]!;
    const upper = await engine.call('GET', `/orders/${managed.toUpperCase()}`);
    assert.equal(upper.status, 200);
    assert.equal(upper.body.id, managed);
  });

  test('a body that is not valid JSON is 400', async () => {
    for (const rawBody of ['{bad', '{"location_id": ', "{'a': 1}", '[1,2']) {
      assertError(
        await engine.call('POST', '/orders', { rawBody, headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_request',
        'request body is not valid JSON',
      );
    }
    assertError(
      await engine.call('PUT', '/stock', { rawBody: '', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request',
      'request body is empty; send a JSON object',
    );
    assertError(await engine.call('POST', '/orders'), 400, 'invalid_request', 'body must be object');
    assertError(await engine.call('POST', '/orders', { body: [validOrder()] }), 400, 'invalid_request', 'body must be object');
    assertError(await engine.call('POST', '/orders', { body: 'text' }), 400, 'invalid_request', 'body must be object');
  });

  test('a body over 1 MiB is refused with 400 and the engine keeps serving', async () => {
    const big = JSON.stringify({ ...validOrder(), notes: 'x'.repeat(1024 * 1024) });
    const res = await engine.call('POST', '/orders', { rawBody: big, headers: { 'content-type': 'application/json' } });
    assertError(res, 400, 'invalid_request', 'request body is larger than the limit of 1048576 bytes (1 MiB)');
    const menu = await engine.call('GET', '/menu');
    assert.equal(menu.status, 200);
    assert.equal(menu.body.categories.length, 4);
    // and a body just under the limit is read (then refused for its content, not its size)
    const under = JSON.stringify({ ...validOrder(), notes: null, items: [{ product_id: R1.products.cazuela, quantity: 2, notes: null, padding: 'x'.repeat(1024 * 1024 - 400) }] });
    assert.ok(Buffer.byteLength(under) < 1024 * 1024);
    const accepted = await engine.call('POST', '/orders', { rawBody: under, headers: { 'content-type': 'application/json' } });
    assert.equal(accepted.status, 201);
  });

  test('a body that is not JSON by content type is 400', async () => {
    for (const contentType of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await engine.call('POST', '/orders', { rawBody: JSON.stringify(validOrder()), headers: { 'content-type': contentType } });
      assertError(res, 400, 'invalid_request', 'request body must be JSON (Content-Type: application/json)');
    }
    // nothing was created
    const orders = await engine.call('GET', '/orders?limit=100');
    assert.equal(orders.body.data.filter((o: { customer: { name: string } }) => o.customer.name === 'Ana').length, 1);
    // charset parameter is fine
    const withCharset = await engine.call('POST', '/orders', {
      rawBody: JSON.stringify(validOrder()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(withCharset.status, 201);
  });

  test('unknown query fields and unknown fields inside items and customer are ignored; prices sent by the client are not used', async () => {
    const res = await engine.call('POST', '/orders?foo=bar', {
      body: {
        ...validOrder(),
        items: [{ product_id: R1.products.cazuela, quantity: 2, unit_price: 1, price: 1 }],
        customer: { name: 'Bea', vip: true },
      },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.status, 'recibido');
    assert.equal(res.body.items[0].unit_price, 8490);
    assert.equal(res.body.total, 16980);
    assert.equal('vip' in res.body.customer, false);
    assert.equal((await engine.call('GET', `/orders?limit=1&unknown=1`)).status, 200);
  });

  test('a store front sending its cart as it has it gets its order at the catalogue\'s prices: unknown top-level fields and the cart\'s own price fields are ignored', async () => {
    const res = await engine.call('POST', '/orders', {
      body: {
        ...validOrder(),
        items: [{ product_id: R1.products.cazuela, quantity: 2, unit_price: 1 }],
        coupon_hint: 'VERANO',
        subtotal: 2,
        total: 2,
        discount: 999,
        status: 'entregado',
        number: '1',
      },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.status, 'recibido');
    assert.equal(res.body.items[0].unit_price, 8490);
    assert.equal(res.body.subtotal, 16980);
    assert.equal(res.body.discount, 0);
    assert.equal(res.body.total, 16980);
    assert.equal('coupon_hint' in res.body, false);
    assert.notEqual(res.body.number, '1');
    const stored = await engine.call('GET', `/orders/${res.body.id as string}`);
    assert.equal(stored.body.total, 16980);
    assert.equal(stored.body.status, 'recibido');
  });

  test('an unknown field never stands for a known one: a misspelt address leaves a delivery order without one (400)', async () => {
    assertError(
      await engine.call('POST', '/orders', { body: { ...validOrder(), type: 'delivery', adress: 'Av. Grecia 1234' } }),
      400,
      'invalid_request',
      'address is required when type is delivery',
    );
  });

  test('validation messages name the field', async () => {
    const cases: [unknown, string][] = [
      [{ ...validOrder(), items: [{ product_id: R1.products.cazuela, quantity: 0 }] }, 'items[0].quantity must be >= 1'],
      [
        { ...validOrder(), items: [{ product_id: R1.products.cazuela, quantity: 1 }, { product_id: R1.products.cazuela, quantity: 1000 }] },
        'items[1].quantity must be <= 999',
      ],
      [{ ...validOrder(), items: [{ product_id: R1.products.cazuela, quantity: '1' }] }, 'items[0].quantity must be integer'],
      [{ ...validOrder(), items: [{ product_id: 'pino', quantity: 1 }] }, 'items[0].product_id must be a UUID'],
      [{ ...validOrder(), items: [{ quantity: 1 }] }, 'items[0].product_id is required'],
      [{ ...validOrder(), items: [] }, 'items must have at least 1 element'],
      [
        { ...validOrder(), items: Array.from({ length: 101 }, () => ({ product_id: R1.products.cazuela, quantity: 1 })) },
        'items must have at most 100 elements',
      ],
      [{ ...validOrder(), customer: {} }, 'customer.name is required'],
      [{ ...validOrder(), customer: { name: '' } }, 'customer.name must not be empty'],
      [{ ...validOrder(), customer: { name: '   ' } }, 'customer.name must not be blank'],
      [{ ...validOrder(), customer: { name: 'Ana', email: 'not-an-email' } }, 'customer.email must be a valid email'],
      [{ ...validOrder(), type: 'mesa' }, 'type must be one of: delivery, retiro'],
      [{ ...validOrder(), shipping_fee: -1 }, 'shipping_fee must be >= 0'],
      [{ ...validOrder(), location_id: undefined }, 'location_id is required'],
      [{ ...validOrder(), payment: 'cheque' }, 'payment must be one of: external, online'],
    ];
    for (const [body, message] of cases) {
      assertError(await engine.call('POST', '/orders', { body }), 400, 'invalid_request', message);
    }
    const managed = engine.demo[0]!.managed_order_ids[0]!;
    assertError(
      await engine.call('PATCH', `/orders/${managed}`, { body: { status: 'recibido' } }),
      400,
      'invalid_request',
      'status must be one of: en_preparacion, listo, en_reparto, entregado, cancelado',
    );
    assertError(await engine.call('PATCH', `/orders/${managed}`, { body: {} }), 400, 'invalid_request', 'status is required');
    assertError(await engine.call('GET', '/orders?limit=0'), 400, 'invalid_request', 'limit must be >= 1');
    assertError(await engine.call('GET', '/orders?limit=101'), 400, 'invalid_request', 'limit must be <= 100');
    assertError(await engine.call('GET', '/orders?status=abierto'), 400, 'invalid_request');
  });

  test('GET /v1/openapi.json needs no key and is OpenAPI 3.1 listing every endpoint of the specification', async () => {
    const res = await engine.call('GET', '/openapi.json', { key: null });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(res.body.openapi, /^3\.1\.\d+$/);
    assert.equal(res.body.info.version, '1.0');
    const operations = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const operation of [
      'GET /orders',
      'POST /orders',
      'GET /orders/{order_id}',
      'PATCH /orders/{order_id}',
      'POST /delivery/quote',
      'GET /menu',
      'GET /stock',
      'PUT /stock',
      'GET /locations',
      'POST /locations/{location_id}/open',
      'POST /locations/{location_id}/close',
      'GET /events',
    ]) {
      assert.ok(operations.includes(operation), `${operation} is documented`);
    }
    assert.equal(res.body.servers[0].url, '/v1');
    assert.equal(res.body.components.securitySchemes.bearer.type, 'http');
    assert.equal(res.body.components.securitySchemes.bearer.scheme, 'bearer');
  });
});
