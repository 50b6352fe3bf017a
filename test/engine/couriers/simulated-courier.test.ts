import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { courierFor, courierRegistry, defaultCouriers } from '../../../src/engine/couriers/courier-registry.ts';
import type { CourierProvider } from '../../../src/engine/couriers/courier-provider.ts';
import { DEFAULT_SIMULATED_STEPS, SimulatedCourier } from '../../../src/engine/couriers/simulated-courier.ts';

const T0 = Date.parse('2026-11-21T20:00:00-03:00');
const MINUTE = 60_000;

describe('simulated courier', () => {
  const courier = new SimulatedCourier();
  const track = (afterMs: number) => courier.track({ delivery_id: 'sim-x', order_id: 'x', dispatched_at: T0, at: T0 + afterMs });

  test('steps: asignado at 2 min, en_camino at 10, entregado at 30, each saying when the next comes', async () => {
    assert.deepEqual(DEFAULT_SIMULATED_STEPS, { assignedAfterMinutes: 2, pickedUpAfterMinutes: 10, deliveredAfterMinutes: 30 });
    assert.deepEqual(await track(0), { status: 'pendiente', next_update_at: T0 + 2 * MINUTE });
    assert.deepEqual(await track(2 * MINUTE - 1), { status: 'pendiente', next_update_at: T0 + 2 * MINUTE });
    assert.deepEqual(await track(2 * MINUTE), { status: 'asignado', next_update_at: T0 + 10 * MINUTE });
    assert.deepEqual(await track(10 * MINUTE), { status: 'en_camino', next_update_at: T0 + 30 * MINUTE });
    assert.deepEqual(await track(30 * MINUTE), { status: 'entregado', next_update_at: null });
    assert.deepEqual(await track(24 * 60 * MINUTE), { status: 'entregado', next_update_at: null });
  });

  test('the same order dispatched twice is the same delivery, with a tracking page that leads nowhere real', async () => {
    const request = { order_id: 'abc', idempotency_key: 'comanda-dispatch-abc', pickup: { lat: null, lng: null, address: null }, dropoff: { lat: null, lng: null, address: 'x' }, at: T0 };
    assert.deepEqual(await courier.dispatch(request), await courier.dispatch({ ...request, at: T0 + MINUTE }));
    assert.equal((await courier.dispatch(request)).tracking_url, 'https://simulado.comanda.invalid/seguimiento/sim-abc');
    assert.deepEqual(await courier.cancel({ delivery_id: 'sim-abc', at: T0 }), { delivery_id: 'sim-abc', cancelled: true });
  });

  test('custom steps, checked', async () => {
    const quick = new SimulatedCourier({ steps: { assignedAfterMinutes: 0, pickedUpAfterMinutes: 1, deliveredAfterMinutes: 5 } });
    assert.equal((await quick.track({ delivery_id: 'd', order_id: 'o', dispatched_at: T0, at: T0 })).status, 'asignado');
    assert.throws(() => new SimulatedCourier({ steps: { pickedUpAfterMinutes: 40 } }), /must be increasing/);
  });

  test('sandbox orders always get the simulated courier, never a real one', async () => {
    const real: CourierProvider = {
      name: 'rapido',
      label: 'Rápido',
      quote: async () => null,
      dispatch: async () => ({ delivery_id: 'r-1', tracking_url: null }),
      cancel: async (request) => ({ delivery_id: request.delivery_id, cancelled: true }),
      track: async () => ({ status: 'pendiente' }),
    };
    const registry = courierRegistry(real);
    assert.equal(courierFor(registry, 'rapido', false), real);
    assert.equal(courierFor(registry, 'rapido', true)?.name, 'simulado');
    assert.equal(courierFor(registry, 'otro', false), undefined);
    const simulated = defaultCouriers().get('simulado');
    assert.equal(courierFor(defaultCouriers(), 'rapido', true)?.name, simulated?.name);
  });
});
