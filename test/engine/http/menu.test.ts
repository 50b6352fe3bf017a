import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { R1, UNKNOWN_UUID } from '../../support/demo-ids.ts';

/** Restaurant 2's first location (schedule mode). */
const R2_PROVIDENCIA = '21000000-0000-4000-8000-000000000001';

interface MenuProduct {
  id: string;
  slug: string;
  available: boolean;
  [field: string]: unknown;
}
interface MenuCategory {
  id: string;
  name: string;
  description: string | null;
  products: MenuProduct[];
}

function productsOf(body: { categories: MenuCategory[] }): Map<string, MenuProduct> {
  return new Map(body.categories.flatMap((c) => c.products.map((p) => [p.id, p] as const)));
}

function availability(body: { categories: MenuCategory[] }): Record<string, boolean> {
  return Object.fromEntries(body.categories.flatMap((c) => c.products.map((p) => [p.slug, p.available])));
}

describe('GET /menu', () => {
  let engine: EngineUnderTest;

  before(async () => {
    engine = await startEngineUnderTest();
  });
  after(async () => {
    await engine.stop();
  });

  test('returns only active categories and products, in catalogue order', async () => {
    const res = await engine.call('GET', '/menu');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['categories']);
    const shape = (res.body.categories as MenuCategory[]).map((c) => [c.name, c.description, c.products.map((p) => p.slug)]);
    assert.deepEqual(shape, [
      ['Empanadas', 'Horneadas todos los días', ['empanada-pino', 'empanada-queso', 'empanada-camaron-queso']],
      ['Sándwiches', null, ['churrasco-italiano', 'barros-luco', 'completo-italiano']],
      ['Platos', null, ['pastel-de-choclo', 'cazuela-de-vacuno', 'humitas']],
      ['Bebidas y postres', null, ['bebida-lata', 'mote-con-huesillo']],
    ]);
    const ids = [...productsOf(res.body).keys()];
    assert.equal(ids.includes(R1.products.porotosGranados), false, 'inactive product is absent');
    assert.equal(ids.includes(R1.products.sopaipillas), false, 'product of an inactive category is absent');
    assert.equal(
      (res.body.categories as MenuCategory[]).some((c) => c.id === '12000000-0000-4000-8000-000000000005'),
      false,
      'inactive category "Invierno" is absent',
    );
  });

  test('a product has every field of the specification, with offer_price', async () => {
    const res = await engine.call('GET', '/menu');
    const products = productsOf(res.body);
    assert.deepEqual(products.get(R1.products.barrosLuco), {
      id: R1.products.barrosLuco,
      slug: 'barros-luco',
      name: 'Barros Luco',
      description: 'Carne de vacuno y queso fundido',
      price: 8490,
      offer_price: 7490,
      image_url: null,
      available: true,
      modifier_groups: [],
    });
    assert.equal(products.get(R1.products.cazuela)!.offer_price, null);
    assert.equal(products.get(R1.products.cazuela)!.description, null);
  });

  test('modifier groups and options come in configured order with their prices', async () => {
    const products = productsOf((await engine.call('GET', '/menu')).body);
    assert.deepEqual(products.get(R1.products.churrasco), {
      id: R1.products.churrasco,
      slug: 'churrasco-italiano',
      name: 'Churrasco italiano',
      description: 'Carne de vacuno, palta, tomate y mayonesa casera',
      price: 8990,
      offer_price: null,
      image_url: 'https://example.com/comanda/churrasco-italiano.jpg',
      available: true,
      modifier_groups: [
        {
          id: R1.groups.pan,
          name: 'Pan',
          required: true,
          min: 1,
          max: 1,
          options: [
            { id: R1.options.marraqueta, name: 'Marraqueta', price: 0, available: true },
            { id: R1.options.frica, name: 'Frica', price: 0, available: true },
            { id: R1.options.panAmasado, name: 'Pan amasado', price: 500, available: true },
          ],
        },
      ],
    });
    assert.deepEqual(products.get(R1.products.completo)!.modifier_groups, [
      {
        id: R1.groups.agregados,
        name: 'Agregados',
        required: false,
        min: 0,
        max: 3,
        options: [
          { id: R1.options.paltaExtra, name: 'Palta extra', price: 800, available: true },
          { id: R1.options.tomateExtra, name: 'Tomate extra', price: 500, available: true },
          { id: R1.options.chucrut, name: 'Chucrut', price: 400, available: true },
          { id: R1.options.ajiVerde, name: 'Ají verde', price: 0, available: true },
        ],
      },
    ]);
  });

  test('without location_id a product is available when stock remains at any active location', async () => {
    const res = await engine.call('GET', '/menu');
    assert.equal(res.status, 200);
    assert.deepEqual(availability(res.body), {
      // 0 at the open location but 24 at the (active, closed) one
      'empanada-pino': true,
      'empanada-queso': true,
      'empanada-camaron-queso': true,
      'churrasco-italiano': true,
      'barros-luco': true,
      'completo-italiano': true,
      'pastel-de-choclo': true,
      'cazuela-de-vacuno': true,
      // in stock only at the deactivated location
      humitas: false,
      'bebida-lata': true,
      'mote-con-huesillo': true,
    });
  });

  test('with location_id only that location is evaluated', async () => {
    const open = await engine.call('GET', `/menu?location_id=${R1.openLocation}`);
    assert.equal(open.status, 200);
    const atOpen = availability(open.body);
    assert.equal(atOpen['empanada-pino'], false, 'tracked with 0 at the location');
    assert.equal(atOpen['empanada-queso'], true);
    assert.equal(atOpen['pastel-de-choclo'], true);
    assert.equal(atOpen.humitas, false, 'tracked with no stock row at the location');
    assert.equal(atOpen['cazuela-de-vacuno'], true, 'untracked is always available');

    const closed = await engine.call('GET', `/menu?location_id=${R1.closedLocation}`);
    assert.equal(closed.status, 200);
    const atClosed = availability(closed.body);
    assert.equal(atClosed['empanada-pino'], true);
    assert.equal(atClosed.humitas, false);

    // uppercase ids are read too
    const upper = await engine.call('GET', `/menu?location_id=${R1.openLocation.toUpperCase()}`);
    assert.equal(upper.status, 200);
    assert.deepEqual(availability(upper.body), atOpen);
  });

  test('stock left only at the deactivated location makes the product unavailable without location_id', async () => {
    // pino: 0 at the open location; set 0 at the closed one too; 40 remain at the deactivated one.
    const put = await engine.call('PUT', '/stock', {
      body: { location_id: R1.closedLocation, items: [{ product_id: R1.products.empanadaPino, quantity: 0 }] },
    });
    assert.equal(put.status, 200);
    const anywhere = availability((await engine.call('GET', '/menu')).body);
    assert.equal(anywhere['empanada-pino'], false);
    assert.equal(anywhere['empanada-queso'], true);

    await engine.call('PUT', '/stock', {
      body: { location_id: R1.openLocation, items: [{ product_id: R1.products.empanadaPino, quantity: 1 }] },
    });
    assert.equal(availability((await engine.call('GET', '/menu')).body)['empanada-pino'], true);
    assert.equal(availability((await engine.call('GET', `/menu?location_id=${R1.openLocation}`)).body)['empanada-pino'], true);
    assert.equal(availability((await engine.call('GET', `/menu?location_id=${R1.closedLocation}`)).body)['empanada-pino'], false);
  });

  test('another restaurant has its own menu, with its offer_price', async () => {
    const res = await engine.call('GET', '/menu', { key: engine.demo[1]!.keys.test_read });
    assert.equal(res.status, 200);
    const products = productsOf(res.body);
    assert.equal(products.size, 8);
    assert.equal(products.has(R1.products.barrosLuco), false);
    const tempura = products.get('23000000-0000-4000-8000-000000000003')!;
    assert.equal(tempura.price, 7990);
    assert.equal(tempura.offer_price, 6990);
    // gyozas: 0 at Providencia, 30 at Las Condes
    const gyozas = '23000000-0000-4000-8000-000000000005';
    assert.equal(products.get(gyozas)!.available, true);
    const atProvidencia = productsOf(
      (await engine.call('GET', `/menu?location_id=${R2_PROVIDENCIA}`, { key: engine.demo[1]!.keys.live_read })).body,
    );
    assert.equal(atProvidencia.get(gyozas)!.available, false);
  });

  test('unknown location_id is 400, also another restaurant\'s location', async () => {
    for (const [locationId, key] of [
      [UNKNOWN_UUID, undefined],
      [R2_PROVIDENCIA, undefined],
      [R1.openLocation, engine.demo[1]!.keys.live_read],
    ] as const) {
      const res = await engine.call('GET', `/menu?location_id=${locationId}`, key ? { key } : {});
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        error: { code: 'invalid_request', message: `location_id: unknown location ${locationId}` },
      });
    }
  });

  test('malformed location_id is 400 naming the field', async () => {
    for (const bad of ['', 'abc', '11000000-0000-4000-8000-00000000000', '11000000000040008000000000000001']) {
      const res = await engine.call('GET', `/menu?location_id=${bad}`);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: { code: 'invalid_request', message: 'location_id must be a UUID' } });
    }
  });

  test('unknown query parameters are ignored', async () => {
    const res = await engine.call('GET', '/menu?foo=bar&page=2');
    assert.equal(res.status, 200);
    assert.equal(res.body.categories.length, 4);
  });
});
