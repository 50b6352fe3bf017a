// Informes' busy-mode timeline (issue 33): the orders busy mode refused are recorded although each
// refusal's transaction is undone (noted in memory, written by the jobs runner), counted per stretch
// and in all, the first 5 of each minute listed, in the report and in its export; a POS's order,
// never refused, is not among them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEngineUnderTest, type EngineUnderTest } from '../../../support/engine-under-test.ts';
import { importRestaurant } from '../../../../src/engine/services/restaurants/import-restaurant.ts';
import { createApiKey } from '../../../../src/engine/services/keys/api-keys.ts';
import { setBusyOverride, setKeyChannelKind } from '../../../../src/engine/services/kitchen/busy-mode.ts';
import { readKitchenReport } from '../../../../src/engine/services/reports/kitchen-report.ts';
import { readKitchenReportTable } from '../../../../src/engine/services/reports/kitchen-report-export.ts';
import type { Actor } from '../../../../src/engine/domain/actor.ts';

const RESTAURANT = '95000000-0000-4000-8000-000000000033';
const LOCATION = '95100000-0000-4000-8000-000000000033';
const SECOND = 1000;
const manager: Actor = { restaurantId: RESTAURANT, world: 'live', canWrite: true, keyId: 'test' };

let engine: EngineUnderTest;
let storeFront: string;
let pos: string;
let burger: string;
before(async () => {
  engine = await startEngineUnderTest({ seed: false });
  const imported = await importRestaurant(engine.server.engine, {
    id: RESTAURANT,
    name: 'La Plancha Ocupada',
    register_mode: 'manual',
    locations: [{ id: LOCATION, name: 'Centro', address: 'Calle 1', register_open: true }],
    catalogue: { categories: [{ name: 'Carta', products: [{ slug: 'burger', name: 'Hamburguesa', price: 5000, prep_minutes: 10 }] }] },
    stations: [{ id: 'plancha', name: 'Plancha', cooks: 1, products: ['burger'] }],
    busy_mode: { threshold_minutes: 30, after_minutes: 3, margin_minutes: 10, max_pauses_per_hour: 2 },
  });
  burger = imported.productIds.burger!;
  const key = async (label: string, kind: 'store_front' | 'pos') => {
    const created = await createApiKey(engine.server.engine, { restaurantId: RESTAURANT, world: 'live', write: true, label });
    await setKeyChannelKind(engine.server.engine, created.record.id, kind);
    return created.key;
  };
  storeFront = await key('tienda web', 'store_front');
  pos = await key('caja', 'pos');
});
after(async () => {
  await engine?.stop();
});

const order = (key: string, quantity = 1) =>
  engine.call('POST', '/orders', { key, body: { location_id: LOCATION, type: 'retiro', customer: { name: 'Ana' }, items: [{ product_id: burger, quantity }] } });
const day = { location_id: LOCATION, from: '2026-11-21' };

test('the orders busy mode refused are counted per stretch and listed, in the report and its export', async () => {
  const core = engine.server.engine;
  await setBusyOverride(core, manager, LOCATION, 'pause');
  // 8 store-front orders in one minute (a flood of retries, each refused), then 2 in the next; a POS's goes through.
  for (let i = 0; i < 8; i++) {
    engine.clock.advance(5 * SECOND);
    const refused = await order(storeFront, i + 1);
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error.code, 'kitchen_busy');
  }
  assert.equal((await order(pos)).status, 201);
  engine.clock.advance(60 * SECOND);
  for (let i = 0; i < 2; i++) assert.equal((await order(storeFront)).status, 503);
  // Written by the jobs runner (the next tick; a move of the clock runs it at once).
  await engine.server.jobs.runDue();
  engine.clock.advance(60 * SECOND);
  await setBusyOverride(core, manager, LOCATION, 'resume');
  assert.equal((await order(storeFront)).status, 201, 'resumed: taken, and not counted');
  await engine.server.jobs.runDue();

  const report = await readKitchenReport(core, manager, day);
  assert.equal(report.busy.length, 1);
  assert.equal(report.busy[0]!.refused, 10);
  assert.equal(report.busy_refusals.refused, 10);
  // The first 5 of the first minute, and both of the second: by time, each with its channel, lines and total.
  assert.equal(report.busy_refusals.list.length, 7);
  assert.deepEqual(
    report.busy_refusals.list.map((r) => [r.channel, r.type, r.lines, r.total]),
    [...[1, 2, 3, 4, 5].map((q) => ['tienda web', 'retiro', 1, 5000 * q]), ['tienda web', 'retiro', 1, 5000], ['tienda web', 'retiro', 1, 5000]],
  );
  assert.deepEqual(
    report.busy_refusals.list.map((r) => r.at),
    [...report.busy_refusals.list.map((r) => r.at)].sort(),
  );
  assert.equal(report.busy_refusals.list_truncated, true, 'the first minute had 8, 5 listed');

  const table = await readKitchenReportTable(core, manager, day, 'busy_refusals');
  assert.deepEqual(table.columns, ['at', 'channel', 'type', 'lines', 'total']);
  assert.equal(table.rows.length, 7);
  const busyTable = await readKitchenReportTable(core, manager, day, 'busy');
  assert.equal(busyTable.rows[0]![4], 10);
});
