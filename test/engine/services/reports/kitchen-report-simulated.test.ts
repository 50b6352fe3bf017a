// The promise report for a simulated service (issue 33): the pacing simulator (bench/simulator) runs
// a rush against a real engine and keeps its own record of every order (its promise as the API
// answered it, when it was really ready, refused or not); the report read back from the engine
// equals that record to the second.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { ManualClock } from '../../../../src/engine/clock.ts';
import { importRestaurant } from '../../../../src/engine/services/restaurants/import-restaurant.ts';
import { createApiKey } from '../../../../src/engine/services/keys/api-keys.ts';
import { setKeyChannelKind } from '../../../../src/engine/services/kitchen/busy-mode.ts';
import { readKitchenReport } from '../../../../src/engine/services/reports/kitchen-report.ts';
import { formatInstant } from '../../../../src/engine/domain/time.ts';
import { quantile } from '../../../../src/engine/domain/prep-times.ts';
import { startEngineServer, type EngineServer } from '../../../../src/host/start-engine-server.ts';
import { serviceStart, simulateService, type SimulationContext } from '../../../../bench/simulator/kitchen-sim.ts';
import { readProfile, restaurantFromProfile } from '../../../../bench/simulator/profile.ts';

const RESTAURANT_ID = '90000000-0000-4000-8000-000000000001';
const LOCATION_ID = '91000000-0000-4000-8000-000000000001';
// The stress rush: the kitchen falls behind and busy mode pauses the store fronts.
const profile = { ...readProfile(join(import.meta.dirname, '../../../../bench/profiles/stress-rush.json')) };

let dir: string;
let server: EngineServer;
let context: SimulationContext;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'comanda-report-sim-'));
  const clock = new ManualClock(serviceStart(profile, 0) - 3_600_000);
  const generous = { capacity: 1_000_000, refillPerSecond: 1_000_000 };
  server = await startEngineServer({ database: join(dir, 'sim.db'), clock, logger: false, rateLimits: { perKey: generous, unauthenticated: generous } });
  const imported = await importRestaurant(server.engine, restaurantFromProfile(profile, { restaurant: RESTAURANT_ID, location: LOCATION_ID }));
  const keys: Record<string, string> = {};
  for (const channel of profile.channels) {
    const created = await createApiKey(server.engine, { restaurantId: RESTAURANT_ID, world: 'live', write: true, label: channel.label });
    keys[channel.label] = created.key;
    await setKeyChannelKind(server.engine, created.record.id, channel.kind === 'store_front' ? 'store_front' : 'pos');
  }
  context = { server, clock, restaurantId: RESTAURANT_ID, locationId: imported.locationIds[0]!, productIds: imported.productIds, keys, lineStarts: true };
});
after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// A simulated service on the real engine: 6–7 s on a quiet machine, ten times that at a load of 30 (its timeout is a safety net against a hang, not a speed limit).
test('the promise report of a simulated rush equals the simulator\'s own record, to the second', { timeout: 600_000 }, async () => {
  const served = await simulateService(context, profile, 1001, 0);
  const day = DateTime.fromMillis(serviceStart(profile, 0), { zone: profile.time_zone }).toISODate()!;
  const report = await readKitchenReport(server.engine, { restaurantId: RESTAURANT_ID, world: 'live', canWrite: false, keyId: 'manager' }, { location_id: context.locationId, from: day });

  const taken = served.orders.filter((o) => o.refused === null && o.promised_ready_at !== null);
  const ready = taken.filter((o) => o.ready_at !== null);
  const kept = ready.filter((o) => o.ready_at! <= o.promised_ready_at!);
  assert.ok(taken.length > 20, `a rush: ${taken.length} orders`);
  assert.ok(kept.length < ready.length, 'some promises were missed (the stress rush)');
  assert.equal(report.promises.orders, taken.length);
  assert.equal(report.promises.ready, ready.length);
  assert.equal(report.promises.kept, kept.length);
  assert.equal(report.promises.kept_share, kept.length / ready.length);
  const lateness = ready.map((o) => (o.ready_at! - o.promised_ready_at!) / 1000);
  assert.equal(report.promises.lateness_p50_seconds, Math.round(quantile(lateness, 0.5)));
  assert.equal(report.promises.lateness_p90_seconds, Math.round(quantile(lateness, 0.9)));
  // The histogram, counted here by whole minutes late against the simulator's record.
  for (const bin of report.promises.histogram) {
    const inBin = lateness.filter((s) => (bin.from_minutes === null || s / 60 >= bin.from_minutes) && (bin.to_minutes === null || s / 60 < bin.to_minutes));
    assert.equal(bin.orders, inBin.length, `lateness ${bin.from_minutes}..${bin.to_minutes} min`);
  }
  // By channel: the simulator records each order's channel kind; the engine its key's label.
  const kindOf = new Map(profile.channels.map((c) => [c.label, c.kind]));
  for (const kind of new Set(profile.channels.map((c) => c.kind))) {
    const mine = report.promises.by_channel.filter((c) => kindOf.get(c.key) === kind);
    const theirs = ready.filter((o) => o.channel === kind);
    assert.equal(mine.reduce((n, c) => n + c.ready, 0), theirs.length, `${kind}: ready`);
    assert.equal(mine.reduce((n, c) => n + c.kept, 0), theirs.filter((o) => o.ready_at! <= o.promised_ready_at!).length, `${kind}: kept`);
  }
  // Busy mode: each pause the simulator saw is a paused stretch of the report, at the same second.
  assert.ok(served.busy.pauses.length > 0, 'the stress rush pauses the store fronts');
  assert.deepEqual(
    report.busy.map((b) => b.from),
    served.busy.pauses.map((t) => formatInstant(t, profile.time_zone)),
  );
  assert.ok(served.orders.some((o) => o.refused === 'kitchen_busy'), 'store fronts were refused meanwhile');
});
