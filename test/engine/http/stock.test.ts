import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1, UNKNOWN_UUID } from '../../support/demo-ids.ts';

const R2_PROVIDENCIA = '21000000-0000-4000-8000-000000000001';
const R2_HANDROLL = '23000000-0000-4000-8000-000000000004';
const P = R1.products;

function availableAt(body: { categories: { products: { id: string; available: boolean }[] }[] }, productId: string): boolean {
  const product = body.categories.flatMap((c) => c.products).find((p) => p.id === productId);
  assert.ok(product, `product ${productId} is on the menu`);
  return product.available;
}

describe('GET /stock and PUT /stock', () => {
  let engine: EngineUnderTest;

  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });

  const stockAt = async (locationId: string, key?: string) => {
    const res = await engine.call('GET', `/stock?location_id=${locationId}`, key ? { key } : {});
    assert.equal(res.status, 200);
    return res.body as { data: { product_id: string; name: string; quantity: number }[] };
  };

  const feedEnd = async (key?: string): Promise<string> => {
    const res = await engine.call('GET', '/events', key ? { key } : {});
    assert.equal(res.status, 200);
    return res.body.next_cursor as string;
  };

  test('GET /stock lists tracked products only; no stock row means 0', async () => {
    assert.deepEqual(await stockAt(R1.openLocation), {
      data: [
        { product_id: P.empanadaPino, name: 'Empanada de pino', quantity: 0 },
        { product_id: P.empanadaQueso, name: 'Empanada de queso', quantity: 30 },
        { product_id: P.humitas, name: 'Humitas', quantity: 0 },
        { product_id: P.pastelDeChoclo, name: 'Pastel de choclo', quantity: 8 },
      ],
    });
    assert.deepEqual(await stockAt(R1.inactiveLocation, engine.demo[0]!.keys.test_read), {
      data: [
        { product_id: P.empanadaPino, name: 'Empanada de pino', quantity: 40 },
        { product_id: P.empanadaQueso, name: 'Empanada de queso', quantity: 0 },
        { product_id: P.humitas, name: 'Humitas', quantity: 15 },
        { product_id: P.pastelDeChoclo, name: 'Pastel de choclo', quantity: 0 },
      ],
    });
  });

  test('GET /stock: location_id missing, unknown, another restaurant\'s or malformed is 400', async () => {
    const missing = await engine.call('GET', '/stock');
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: { code: 'invalid_request', message: 'location_id is required' } });

    for (const unknown of [UNKNOWN_UUID, R2_PROVIDENCIA]) {
      const res = await engine.call('GET', `/stock?location_id=${unknown}`);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: { code: 'invalid_request', message: `location_id: unknown location ${unknown}` } });
    }

    const malformed = await engine.call('GET', '/stock?location_id=not-a-uuid');
    assert.equal(malformed.status, 400);
    assert.deepEqual(malformed.body, { error: { code: 'invalid_request', message: 'location_id must be a UUID' } });
  });

  test('PUT /stock sets absolute quantities; GET /stock and GET /menu follow; a stock.updated event is written', async () => {
    const cursor = await feedEnd();
    const put = await engine.call('PUT', '/stock', {
      body: {
        location_id: R1.openLocation,
        items: [
          { product_id: P.empanadaPino, quantity: 12 },
          { product_id: P.empanadaQueso, quantity: 0 },
          { product_id: P.humitas, quantity: 3 },
        ],
      },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, {
      data: [
        { product_id: P.empanadaPino, quantity: 12 },
        { product_id: P.empanadaQueso, quantity: 0 },
        { product_id: P.humitas, quantity: 3 },
      ],
      simulated: false,
    });

    assert.deepEqual(await stockAt(R1.openLocation), {
      data: [
        { product_id: P.empanadaPino, name: 'Empanada de pino', quantity: 12 },
        { product_id: P.empanadaQueso, name: 'Empanada de queso', quantity: 0 },
        { product_id: P.humitas, name: 'Humitas', quantity: 3 },
        { product_id: P.pastelDeChoclo, name: 'Pastel de choclo', quantity: 8 },
      ],
    });
    // another location is untouched
    assert.equal((await stockAt(R1.closedLocation)).data.find((e) => e.product_id === P.empanadaQueso)!.quantity, 12);

    const menu = (await engine.call('GET', `/menu?location_id=${R1.openLocation}`)).body;
    assert.equal(availableAt(menu, P.empanadaPino), true);
    assert.equal(availableAt(menu, P.empanadaQueso), false);
    assert.equal(availableAt(menu, P.humitas), true);

    const events = await engine.call('GET', `/events?after=${cursor}`);
    assert.equal(events.status, 200);
    assert.equal(events.body.data.length, 1);
    const [event] = events.body.data;
    assert.equal(event.type, 'stock.updated');
    assert.equal(event.created_at, '2026-11-21T20:00:00-03:00');
    assert.deepEqual(event.data, {
      location_id: R1.openLocation,
      items: [
        { product_id: P.empanadaPino, quantity: 12 },
        { product_id: P.empanadaQueso, quantity: 0 },
        { product_id: P.humitas, quantity: 3 },
      ],
    });
    assert.equal(events.body.next_cursor, event.id);
    assert.equal(events.body.has_more, false);

    // Setting again is absolute, not a delta.
    const again = await engine.call('PUT', '/stock', {
      body: { location_id: R1.openLocation, items: [{ product_id: P.empanadaPino, quantity: 5 }] },
    });
    assert.equal(again.status, 200);
    assert.equal((await stockAt(R1.openLocation)).data[0]!.quantity, 5);
  });

  test('PUT /stock with a product without track_stock is 400 naming it, and changes nothing', async () => {
    const before = await stockAt(R1.openLocation);
    const res = await engine.call('PUT', '/stock', {
      body: {
        location_id: R1.openLocation,
        items: [
          { product_id: P.empanadaQueso, quantity: 7 },
          { product_id: P.cazuela, quantity: 3 },
          { product_id: P.bebidaLata, quantity: 3 },
        ],
      },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'invalid_request');
    assert.equal(
      res.body.error.message,
      `products without track_stock cannot have stock: ${P.cazuela}, ${P.bebidaLata}`,
    );
    assert.deepEqual(await stockAt(R1.openLocation), before);
  });

  test('PUT /stock with an unknown product (or another restaurant\'s) is 400 naming it', async () => {
    for (const productId of [UNKNOWN_UUID, R2_HANDROLL]) {
      const res = await engine.call('PUT', '/stock', {
        body: { location_id: R1.openLocation, items: [{ product_id: productId, quantity: 1 }] },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: { code: 'invalid_request', message: `unknown products: ${productId}` } });
    }
  });

  test('PUT /stock with an unknown location is 400', async () => {
    const res = await engine.call('PUT', '/stock', {
      body: { location_id: UNKNOWN_UUID, items: [{ product_id: P.empanadaPino, quantity: 1 }] },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: { code: 'invalid_request', message: `location_id: unknown location ${UNKNOWN_UUID}` } });
  });

  test('PUT /stock refuses a bad quantity naming the field', async () => {
    const cases: [unknown, string][] = [
      [-1, 'items[1].quantity must be >= 0'],
      [1.5, 'items[1].quantity must be integer'],
      ['3', 'items[1].quantity must be integer'],
      [null, 'items[1].quantity must be integer'],
    ];
    for (const [quantity, message] of cases) {
      const res = await engine.call('PUT', '/stock', {
        body: {
          location_id: R1.openLocation,
          items: [
            { product_id: P.empanadaPino, quantity: 1 },
            { product_id: P.empanadaQueso, quantity },
          ],
        },
      });
      assert.equal(res.status, 400, `quantity ${JSON.stringify(quantity)}`);
      assert.deepEqual(res.body, { error: { code: 'invalid_request', message } });
    }
    const missing = await engine.call('PUT', '/stock', {
      body: { location_id: R1.openLocation, items: [{ product_id: P.empanadaPino }] },
    });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: { code: 'invalid_request', message: 'items[0].quantity is required' } });
  });

  test('PUT /stock refuses a malformed body naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ items: [{ product_id: P.empanadaPino, quantity: 1 }] }, 'location_id is required'],
      [{ location_id: 'x', items: [{ product_id: P.empanadaPino, quantity: 1 }] }, 'location_id must be a UUID'],
      [{ location_id: R1.openLocation, items: [] }, 'items must have at least 1 element'],
      [{ location_id: R1.openLocation, items: [{ product_id: 'pino', quantity: 1 }] }, 'items[0].product_id must be a UUID'],
      [
        {
          location_id: R1.openLocation,
          items: [
            { product_id: P.empanadaPino, quantity: 1 },
            { product_id: P.empanadaPino, quantity: 2 },
          ],
        },
        `items[1].product_id repeats product ${P.empanadaPino}`,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await engine.call('PUT', '/stock', { body });
      assert.equal(res.status, 400, message);
      assert.deepEqual(res.body, { error: { code: 'invalid_request', message } });
    }
  });

  test('PUT /stock with a read key is 403 forbidden, live or sandbox', async () => {
    const before = await stockAt(R1.openLocation);
    for (const key of [engine.demo[0]!.keys.live_read, engine.demo[0]!.keys.test_read]) {
      const res = await engine.call('PUT', '/stock', {
        key,
        body: { location_id: R1.openLocation, items: [{ product_id: P.empanadaPino, quantity: 99 }] },
      });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'forbidden');
      assert.match(res.body.error.message, /write permission/);
    }
    assert.deepEqual(await stockAt(R1.openLocation), before);
  });

  test('PUT /stock with a sandbox key answers the same with simulated: true and changes nothing', async () => {
    const before = await stockAt(R1.openLocation);
    const cursor = await feedEnd();
    const testCursor = await feedEnd(engine.demo[0]!.keys.test_read);
    const body = {
      location_id: R1.openLocation,
      items: [
        { product_id: P.pastelDeChoclo, quantity: 77 },
        { product_id: P.empanadaQueso, quantity: 0 },
      ],
    };
    const res = await engine.call('PUT', '/stock', { key: engine.demo[0]!.keys.test_write, body });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: body.items, simulated: true });
    assert.deepEqual(await stockAt(R1.openLocation), before);
    assert.deepEqual(await stockAt(R1.openLocation, engine.demo[0]!.keys.test_read), before);
    // no event in either world
    assert.deepEqual((await engine.call('GET', `/events?after=${cursor}`)).body.data, []);
    assert.deepEqual(
      (await engine.call('GET', `/events?after=${testCursor}`, { key: engine.demo[0]!.keys.test_read })).body.data,
      [],
    );
    // the sandbox still validates like production
    const untracked = await engine.call('PUT', '/stock', {
      key: engine.demo[0]!.keys.test_write,
      body: { location_id: R1.openLocation, items: [{ product_id: P.cazuela, quantity: 1 }] },
    });
    assert.equal(untracked.status, 400);
    assert.deepEqual(untracked.body, {
      error: { code: 'invalid_request', message: `products without track_stock cannot have stock: ${P.cazuela}` },
    });
  });

  test('a live stock write is seen in the feed of sandbox keys too', async () => {
    const testCursor = await feedEnd(engine.demo[0]!.keys.test_read);
    const res = await engine.call('PUT', '/stock', {
      body: { location_id: R1.closedLocation, items: [{ product_id: P.pastelDeChoclo, quantity: 9 }] },
    });
    assert.equal(res.status, 200);
    const events = await engine.call('GET', `/events?after=${testCursor}`, { key: engine.demo[0]!.keys.test_read });
    assert.equal(events.status, 200);
    assert.deepEqual(
      events.body.data.map((e: { type: string; data: unknown }) => [e.type, e.data]),
      [['stock.updated', { location_id: R1.closedLocation, items: [{ product_id: P.pastelDeChoclo, quantity: 9 }] }]],
    );
  });

  test('unknown body fields are ignored', async () => {
    const res = await engine.call('PUT', '/stock', {
      body: { location_id: R1.closedLocation, mode: 'delta', items: [{ product_id: P.pastelDeChoclo, quantity: 4, name: 'x' }] },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: [{ product_id: P.pastelDeChoclo, quantity: 4 }], simulated: false });
    assert.equal((await stockAt(R1.closedLocation)).data.find((e) => e.product_id === P.pastelDeChoclo)!.quantity, 4);
  });
});
