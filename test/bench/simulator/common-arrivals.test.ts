// The simulator's --common-arrivals (issue 32, twelfth round): two busy-mode rules compared on a seed
// must meet the same customers. With the orders drawn from a stream of their own, a kitchen that
// refuses many and one that refuses none are sent the same orders (times, channels, carts) and the
// orders both took cook the same true seconds; from the one shared stream they are not.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/engine/clock.ts';
import { importRestaurant } from '../../../src/engine/services/restaurants/import-restaurant.ts';
import { createApiKey } from '../../../src/engine/services/keys/api-keys.ts';
import { setKeyChannelKind } from '../../../src/engine/services/kitchen/busy-mode.ts';
import { startEngineServer, type EngineServer } from '../../../src/host/start-engine-server.ts';
import { serviceStart, simulateService, type SimulatedOrder } from '../../../bench/simulator/kitchen-sim.ts';
import { readProfile, restaurantFromProfile, type Profile } from '../../../bench/simulator/profile.ts';

const RESTAURANT_ID = '90000000-0000-4000-8000-000000000032';
const LOCATION_ID = '91000000-0000-4000-8000-000000000032';
const stress = readProfile(join(import.meta.dirname, '../../../bench/profiles/stress-rush.json'));
// Forty minutes of the stress rush; one kitchen pauses at a 5-minute wait (it refuses store fronts early), the other never.
const short = { ...stress, duration_minutes: 40 };
const refusing: Profile = { ...short, busy_mode: { threshold_minutes: 5, after_minutes: 1, margin_minutes: 2, max_pauses_per_hour: 2 } };
const taking: Profile = { ...short, busy_mode: undefined };

const dirs: string[] = [];
const servers: EngineServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function serve(profile: Profile, commonArrivals: boolean): Promise<SimulatedOrder[]> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-common-arrivals-'));
  dirs.push(dir);
  const clock = new ManualClock(serviceStart(profile, 0) - 3_600_000);
  const generous = { capacity: 1_000_000, refillPerSecond: 1_000_000 };
  const server = await startEngineServer({ database: join(dir, 'sim.db'), clock, logger: false, rateLimits: { perKey: generous, unauthenticated: generous } });
  servers.push(server);
  const imported = await importRestaurant(server.engine, restaurantFromProfile(profile, { restaurant: RESTAURANT_ID, location: LOCATION_ID }));
  const keys: Record<string, string> = {};
  for (const channel of profile.channels) {
    const created = await createApiKey(server.engine, { restaurantId: RESTAURANT_ID, world: 'live', write: true, label: channel.label });
    keys[channel.label] = created.key;
    await setKeyChannelKind(server.engine, created.record.id, channel.kind === 'store_front' ? 'store_front' : 'pos');
  }
  const context = { server, clock, restaurantId: RESTAURANT_ID, locationId: imported.locationIds[0]!, productIds: imported.productIds, keys, lineStarts: true, commonArrivals };
  return (await simulateService(context, profile, 1001, 0)).orders;
}

const customers = (orders: SimulatedOrder[]) => orders.map((o) => `${o.created_at} ${o.channel} ${o.lines.map((l) => `${l.quantity}×${l.slug}`).join(',')}`);
const trueSeconds = (orders: SimulatedOrder[]) => new Map(orders.filter((o) => o.refused === null).map((o) => [o.created_at, o.lines.map((l) => l.true_seconds)]));

// Four 40-minute services on the real engine: seconds each on a quiet machine (the timeout is a safety net against a hang, not a speed limit).
test('with common arrivals a kitchen that refuses and one that does not are sent the same orders, and cook the ones both took in the same true times; from the shared stream they are not', { timeout: 900_000 }, async () => {
  const [refused, taken] = [await serve(refusing, true), await serve(taking, true)];
  assert.ok(refused.some((o) => o.refused === 'kitchen_busy'), 'the first kitchen refused store fronts');
  assert.ok(taken.every((o) => o.refused === null), 'the second took every order');
  assert.deepEqual(customers(refused), customers(taken));
  const both = trueSeconds(taken);
  for (const [at, seconds] of trueSeconds(refused)) assert.deepEqual(seconds, both.get(at), `the order made at ${at} cooks as long in both kitchens`);

  const [refusedShared, takenShared] = [await serve(refusing, false), await serve(taking, false)];
  assert.notDeepEqual(customers(refusedShared), customers(takenShared), 'from the one shared stream, the refusals change the orders that come after them');
});
