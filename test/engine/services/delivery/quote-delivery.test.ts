import { test, describe, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { courierRegistry, defaultCouriers } from '../../../../src/engine/couriers/courier-registry.ts';
import type { CourierProvider } from '../../../../src/engine/couriers/courier-provider.ts';
import { ApiError } from '../../../../src/engine/domain/errors.ts';
import type { ShippingSubsidyRule } from '../../../../src/engine/domain/delivery-quote.ts';
import type { LatLng } from '../../../../src/engine/domain/geo.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import type { Actor } from '../../../../src/engine/domain/actor.ts';
import type { DeliverySettings } from '../../../../src/engine/domain/delivery-settings.ts';
import { quoteDelivery } from '../../../../src/engine/services/delivery/quote-delivery.ts';
import type { QuoteInput } from '../../../../src/shared/schemas/delivery.ts';

const RESTAURANT_ID = '0b7e1c52-5d1f-4c1e-9a57-6f1d2a3b4c01';
const OTHER_RESTAURANT_ID = '0b7e1c52-5d1f-4c1e-9a57-6f1d2a3b4c02';
const KM_PER_DEGREE = (Math.PI / 180) * 6371.0088;
const LOCATION: LatLng = [-33.4378, -70.6505];
/** A point `km` due north of the location. */
const northBy = (km: number): LatLng => [LOCATION[0] + km / KM_PER_DEGREE, LOCATION[1]];

const OWN_RADIUS_3KM: DeliverySettings['own'] = {
  enabled: true,
  coverage: { radius_km: 3 },
  fee_bands: [
    { up_to_km: 1.5, fee: 1500 },
    { up_to_km: 3, fee: 2200 },
  ],
  duration_minutes: 30,
};
// A rectangle reaching about 2.2 km north of the location and 1.1 km south, 1.8 km wide.
const OWN_POLYGON: DeliverySettings['own'] = {
  enabled: true,
  coverage: {
    polygon: [
      [-33.4478, -70.66],
      [-33.4478, -70.641],
      [-33.4178, -70.641],
      [-33.4178, -70.66],
    ],
  },
  fee_bands: [{ up_to_km: 5, fee: 1800 }],
  duration_minutes: 25,
};

interface LocationFixture {
  id: string;
  name?: string;
  coordinates?: LatLng | null;
  isActive?: boolean;
  delivery: DeliverySettings;
  restaurantId?: string;
}

const dirs: string[] = [];
const engines: Engine[] = [];
afterEach(() => {
  for (const engine of engines.splice(0)) engine.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(locations: LocationFixture[], subsidies: ShippingSubsidyRule[] = []): Engine {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-'));
  dirs.push(dir);
  const engine = new Engine({ database: join(dir, 'test.db'), clock: new ManualClock('2026-11-21T12:00:00-03:00') });
  engines.push(engine);
  const insertRestaurant = engine.db.prepare(
    `INSERT INTO restaurants (id, name, register_mode, time_zone, shipping_subsidies, created_at)
     VALUES (?, ?, 'manual', 'America/Santiago', ?, 0)`,
  );
  insertRestaurant.run(RESTAURANT_ID, 'La Picá de Prueba', JSON.stringify(subsidies));
  insertRestaurant.run(OTHER_RESTAURANT_ID, 'Otro Restaurante', '[]');
  const insertLocation = engine.db.prepare(
    `INSERT INTO locations (id, restaurant_id, name, address, latitude, longitude, is_active, delivery, position)
     VALUES (?, ?, ?, 'Catedral 1000, Santiago', ?, ?, ?, ?, ?)`,
  );
  locations.forEach((l, position) => {
    const coordinates = l.coordinates === undefined ? LOCATION : l.coordinates;
    insertLocation.run(
      l.id,
      l.restaurantId ?? RESTAURANT_ID,
      l.name ?? `Sucursal ${position + 1}`,
      coordinates?.[0] ?? null,
      coordinates?.[1] ?? null,
      l.isActive === false ? 0 : 1,
      JSON.stringify(l.delivery),
      position,
    );
  });
  return engine;
}

const actor: Actor = { restaurantId: RESTAURANT_ID, world: 'live', canWrite: false, keyId: 'test' };

const LOCATION_ID = '1c0ffee0-0000-4000-8000-000000000001';

function input(dropoff: LatLng | null, subtotal = 10000, locationId = LOCATION_ID): QuoteInput {
  return {
    location_id: locationId,
    dropoff: {
      address: 'Av. Siempre Viva 742, Santiago',
      latitude: dropoff?.[0] ?? null,
      longitude: dropoff?.[1] ?? null,
      city: 'Santiago',
      street: 'Av. Siempre Viva 742',
      state: 'Región Metropolitana',
      zip: null,
    },
    subtotal,
  };
}

async function quoteAt(location: Omit<LocationFixture, 'id'>, dropoff: LatLng | null, options: { subtotal?: number; subsidies?: ShippingSubsidyRule[] } = {}) {
  const engine = setup([{ id: LOCATION_ID, ...location }], options.subsidies);
  return await quoteDelivery(engine, actor, input(dropoff, options.subtotal), defaultCouriers());
}

const UNAVAILABLE = { available: false, provider: null, fee: 0, fee_original: 0, fee_subsidy: 0, currency: 'CLP', duration_minutes: 0 };

describe('own delivery', () => {
  test('inside the radius: own riders at the band fee', async () => {
    assert.deepEqual(await quoteAt({ delivery: { own: OWN_RADIUS_3KM } }, northBy(2)), {
      available: true,
      provider: 'propio',
      fee: 2200,
      fee_original: 2200,
      fee_subsidy: 0,
      currency: 'CLP',
      duration_minutes: 30,
      expires: '2026-11-21T12:10:00-03:00',
      message: 'Despacho propio',
    });
  });

  test('near the location: the first band', async () => {
    assert.equal((await quoteAt({ delivery: { own: OWN_RADIUS_3KM } }, northBy(1))).fee, 1500);
  });

  test('outside the radius without couriers: unavailable, saying why', async () => {
    assert.deepEqual(await quoteAt({ delivery: { own: OWN_RADIUS_3KM } }, northBy(3.2)), {
      ...UNAVAILABLE,
      expires: '2026-11-21T12:10:00-03:00',
      message:
        'La dirección está fuera de la zona de cobertura del despacho propio; no hay couriers configurados. Solo está disponible el retiro en la sucursal.',
    });
  });

  test('inside the polygon', async () => {
    const quote = await quoteAt({ delivery: { own: OWN_POLYGON } }, northBy(2));
    assert.equal(quote.available, true);
    assert.equal(quote.provider, 'propio');
    assert.equal(quote.fee, 1800);
    assert.equal(quote.duration_minutes, 25);
  });

  test('outside the polygon, though nearer than inside points', async () => {
    const quote = await quoteAt({ delivery: { own: OWN_POLYGON } }, northBy(-1.5));
    assert.equal(quote.available, false);
    assert.match(quote.message, /fuera de la zona de cobertura del despacho propio/);
  });

  test('a dropoff without coordinates cannot be checked for own coverage', async () => {
    const quote = await quoteAt({ delivery: { own: OWN_RADIUS_3KM } }, null);
    assert.equal(quote.available, false);
    assert.equal(
      quote.message,
      'La dirección no tiene coordenadas (latitude y longitude) y el despacho propio las necesita para validar la cobertura; no hay couriers configurados. Solo está disponible el retiro en la sucursal.',
    );
  });

  test('disabled own delivery is not offered even inside its coverage', async () => {
    const quote = await quoteAt({ delivery: { own: { ...OWN_RADIUS_3KM, enabled: false } } }, northBy(1));
    assert.equal(quote.available, false);
    assert.match(quote.message, /^La sucursal no tiene despacho propio ni couriers configurados\./);
  });

  test('a location without coordinates cannot price own delivery', async () => {
    const quote = await quoteAt({ coordinates: null, delivery: { own: OWN_RADIUS_3KM } }, northBy(1));
    assert.equal(quote.available, false);
    assert.match(quote.message, /^La sucursal no tiene coordenadas y el despacho propio las necesita/);
  });
});

describe('couriers', () => {
  test('outside own coverage: falls back to the simulated courier', async () => {
    // 4.5 km: 5 started km → 1990 + 5 × 450; 20 + 4 × 4.5 minutes.
    assert.deepEqual(await quoteAt({ delivery: { own: OWN_RADIUS_3KM, couriers: ['simulado'] } }, northBy(4.5)), {
      available: true,
      provider: 'simulado',
      fee: 4240,
      fee_original: 4240,
      fee_subsidy: 0,
      currency: 'CLP',
      duration_minutes: 38,
      expires: '2026-11-21T12:10:00-03:00',
      message: 'Courier simulado',
    });
  });

  test('own delivery comes first when it covers, even with couriers', async () => {
    assert.equal((await quoteAt({ delivery: { own: OWN_RADIUS_3KM, couriers: ['simulado'] } }, northBy(1))).provider, 'propio');
  });

  test('without own delivery the courier quotes', async () => {
    const quote = await quoteAt({ delivery: { couriers: ['simulado'] } }, northBy(0.5));
    assert.equal(quote.provider, 'simulado');
    assert.equal(quote.fee, 1990 + 450);
    assert.equal(quote.duration_minutes, 22);
  });

  test('the preference order decides; a provider this engine lacks is skipped', async () => {
    const flat = (name: string, fee: number): CourierProvider => ({
      name,
      label: `Courier ${name}`,
      quote: async () => ({ fee, duration_minutes: 40 }),
      dispatch: async () => ({ delivery_id: 'x', tracking_url: null }),
      cancel: async (request) => ({ delivery_id: request.delivery_id, cancelled: true }),
      track: async () => ({ status: 'pendiente' }),
    });
    const registry = courierRegistry(flat('courier_a', 3000), flat('courier_b', 2000));
    const engine = setup([{ id: LOCATION_ID, delivery: { couriers: ['desconocido', 'courier_b', 'courier_a'] } }]);
    const quote = await quoteDelivery(engine, actor, input(northBy(1)), registry);
    assert.equal(quote.provider, 'courier_b');
    assert.equal(quote.fee, 2000);
    assert.equal(quote.message, 'Courier courier_b');
  });

  test('a courier that does not cover passes to the next', async () => {
    const none: CourierProvider = {
      name: 'courier_a',
      label: 'Courier A',
      quote: async () => null,
      dispatch: async () => ({ delivery_id: 'x', tracking_url: null }),
      cancel: async (request) => ({ delivery_id: request.delivery_id, cancelled: true }),
      track: async () => ({ status: 'pendiente' }),
    };
    const engine = setup([{ id: LOCATION_ID, delivery: { couriers: ['courier_a', 'simulado'] } }]);
    const registry = courierRegistry(none, ...defaultCouriers().values());
    assert.equal((await quoteDelivery(engine, actor, input(northBy(1)), registry)).provider, 'simulado');
  });

  test('beyond 15 km no courier covers', async () => {
    const quote = await quoteAt({ delivery: { own: OWN_RADIUS_3KM, couriers: ['simulado'] } }, northBy(16));
    assert.equal(quote.available, false);
    assert.equal(
      quote.message,
      'La dirección está fuera de la zona de cobertura del despacho propio; ningún courier cubre la dirección. Solo está disponible el retiro en la sucursal.',
    );
  });

  test('the simulated courier needs coordinates too', async () => {
    const quote = await quoteAt({ delivery: { couriers: ['simulado'] } }, null);
    assert.equal(quote.available, false);
    assert.equal(quote.message, 'Ningún courier cubre la dirección sin coordenadas. Solo está disponible el retiro en la sucursal.');
  });

  test('only providers this engine does not have', async () => {
    const quote = await quoteAt({ delivery: { couriers: ['desconocido'] } }, northBy(1));
    assert.equal(quote.available, false);
    assert.match(quote.message, /^Ningún courier configurado está disponible\./);
  });
});

test('no own delivery and no couriers: pickup only', async () => {
  const quote = await quoteAt({ delivery: {} }, northBy(1));
  assert.deepEqual(quote, {
    ...UNAVAILABLE,
    expires: '2026-11-21T12:10:00-03:00',
    message: 'La sucursal no tiene despacho propio ni couriers configurados. Solo está disponible el retiro en la sucursal.',
  });
});

describe('subsidies', () => {
  const freeOver20k: ShippingSubsidyRule = { type: 'free_over_subtotal', min_subtotal: 20000 };
  const halfUpTo1000: ShippingSubsidyRule = { type: 'percentage', percent: 50, max: 1000 };
  const own = { delivery: { own: OWN_RADIUS_3KM } };

  test('free over subtotal', async () => {
    const quote = await quoteAt(own, northBy(2), { subtotal: 20000, subsidies: [freeOver20k] });
    assert.deepEqual([quote.fee, quote.fee_original, quote.fee_subsidy], [0, 2200, 2200]);
  });

  test('below the minimum subtotal the customer pays everything', async () => {
    const quote = await quoteAt(own, northBy(2), { subtotal: 19990, subsidies: [freeOver20k] });
    assert.deepEqual([quote.fee, quote.fee_original, quote.fee_subsidy], [2200, 2200, 0]);
  });

  test('percentage with cap, and the largest rule wins', async () => {
    const quote = await quoteAt(own, northBy(2), { subtotal: 15000, subsidies: [freeOver20k, halfUpTo1000] });
    assert.deepEqual([quote.fee, quote.fee_original, quote.fee_subsidy], [1200, 2200, 1000]);
  });

  test('subsidies apply to courier quotes too', async () => {
    const quote = await quoteAt({ delivery: { couriers: ['simulado'] } }, northBy(4.5), { subsidies: [halfUpTo1000] });
    assert.deepEqual([quote.provider, quote.fee, quote.fee_original, quote.fee_subsidy], ['simulado', 3240, 4240, 1000]);
  });

  test('the fee is never negative', async () => {
    const quote = await quoteAt(own, northBy(2), { subsidies: [{ type: 'percentage', percent: 100, max: 50000 }] });
    assert.deepEqual([quote.fee, quote.fee_original, quote.fee_subsidy], [0, 2200, 2200]);
  });

  test('an unavailable quote carries no subsidy', async () => {
    const quote = await quoteAt(own, northBy(10), { subtotal: 50000, subsidies: [freeOver20k] });
    assert.deepEqual([quote.available, quote.fee, quote.fee_original, quote.fee_subsidy], [false, 0, 0, 0]);
  });
});

describe('the location', () => {
  test('a deactivated location does not deliver', async () => {
    const quote = await quoteAt({ name: 'Sucursal Centro', isActive: false, delivery: { own: OWN_RADIUS_3KM, couriers: ['simulado'] } }, northBy(1));
    assert.deepEqual(quote, {
      ...UNAVAILABLE,
      expires: '2026-11-21T12:10:00-03:00',
      message: 'La sucursal Sucursal Centro está desactivada y no recibe pedidos.',
    });
  });

  test("another restaurant's location is unknown (400)", async () => {
    const otherLocation = '1c0ffee0-0000-4000-8000-000000000099';
    const engine = setup([
      { id: LOCATION_ID, delivery: { own: OWN_RADIUS_3KM } },
      { id: otherLocation, restaurantId: OTHER_RESTAURANT_ID, delivery: { own: OWN_RADIUS_3KM } },
    ]);
    await assert.rejects(
      async () => await quoteDelivery(engine, actor, input(northBy(1), 10000, otherLocation), defaultCouriers()),
      (error: unknown) =>
        error instanceof ApiError &&
        error.code === 'invalid_request' &&
        error.status === 400 &&
        error.message === `location_id: unknown location ${otherLocation}`,
    );
  });

  test('an unknown location is 400', async () => {
    const engine = setup([{ id: LOCATION_ID, delivery: {} }]);
    await assert.rejects(
      async () => await quoteDelivery(engine, actor, input(northBy(1), 10000, '1c0ffee0-0000-4000-8000-0000000000aa'), defaultCouriers()),
      (error: unknown) => error instanceof ApiError && error.status === 400,
    );
  });

  test('the location id is read in any case', async () => {
    const engine = setup([{ id: LOCATION_ID, delivery: { own: OWN_RADIUS_3KM } }]);
    assert.equal((await quoteDelivery(engine, actor, input(northBy(1), 10000, LOCATION_ID.toUpperCase()), defaultCouriers())).available, true);
  });
});

describe('expiry and side effects', () => {
  test('expires exactly 10 minutes after the quote, with the -03:00 offset', async () => {
    const engine = setup([{ id: LOCATION_ID, delivery: { own: OWN_RADIUS_3KM } }]);
    (engine.clock as ManualClock).set('2026-11-21T23:55:30-03:00');
    assert.equal((await quoteDelivery(engine, actor, input(northBy(1)), defaultCouriers())).expires, '2026-11-22T00:05:30-03:00');
  });

  test('a quote writes nothing to the database', async () => {
    const engine = setup([{ id: LOCATION_ID, delivery: { own: OWN_RADIUS_3KM, couriers: ['simulado'] } }]);
    const changes = () => engine.db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n;
    const before = changes();
    await quoteDelivery(engine, actor, input(northBy(1)), defaultCouriers());
    await quoteDelivery(engine, actor, input(northBy(5)), defaultCouriers());
    await quoteDelivery(engine, actor, input(northBy(50)), defaultCouriers());
    assert.equal(changes(), before);
  });
});
