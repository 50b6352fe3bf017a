// The reports' reads of the item timing log (issue 33's speed): the figures read only the columns
// they are computed from, the log's export reads every column of the period's rows; both read the
// same rows, in the same order (by time, then as written), of one location and one world.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { R1 } from '../../support/demo-ids.ts';
import { startEngineUnderTest, type EngineUnderTest } from '../../support/engine-under-test.ts';
import { handlersFor, placeOrder } from '../screen/support.ts';
import { readKitchenReportTable } from '../../../src/engine/services/reports/kitchen-report-export.ts';
import type { Actor } from '../../../src/engine/domain/actor.ts';

const MIN = 60_000;
const T0 = DateTime.fromISO('2026-11-28T20:00:00-03:00').toMillis();
const DAY = '2026-11-28';
const manager: Actor = { restaurantId: R1.id, world: 'live', canWrite: false, keyId: 'test' };
const LEAN_COLUMNS = ['seq', 'order_id', 'item_index', 'kind', 'station_id', 'product_id', 'quantity', 'channel', 'at'];

let engine: EngineUnderTest;
before(async () => {
  engine = await startEngineUnderTest();
});
after(async () => {
  await engine?.stop();
});

test('the lean log and the full log read the same rows in the same order; the export lists the period only, every column', async () => {
  const kitchen = handlersFor(engine);
  const ids: string[] = [];
  // One order the evening before (inside the report's look-back of 2 hours before midnight), three on the day.
  for (const [i, minutes] of [-22 * 60 + 5, 0, 1, 2].entries()) {
    engine.clock.set(T0 + minutes * MIN);
    const order = await placeOrder(engine, { items: [{ product_id: R1.products.completo, quantity: 1 }] });
    ids[i] = order.id;
    await kitchen.ok('orders:transition', { order_id: order.id, target: 'en_preparacion' });
    engine.clock.set(T0 + (minutes + 6) * MIN);
    await kitchen.ok('items:set-done', { order_id: order.id, item_index: 0, done: true });
  }
  const reports = engine.server.engine.stores.kitchenReports;
  const from = DateTime.fromISO(`${DAY}T00:00:00`, { zone: 'America/Santiago' }).toMillis();
  const window = [R1.id, R1.openLocation, 'live', from - 3 * 3_600_000, from + 86_400_000, 1000] as const;
  const lean = await engine.server.engine.read(async () => await reports.log(...window));
  const full = await engine.server.engine.read(async () => await reports.fullLog(...window));
  assert.ok(lean.length >= 8, `rows read: ${lean.length}`);
  assert.deepEqual(Object.keys(lean[0]!).sort(), [...LEAN_COLUMNS].sort());
  assert.deepEqual(lean, full.map((row) => Object.fromEntries(LEAN_COLUMNS.map((c) => [c, row[c as keyof typeof row]]))));
  assert.ok(full.every((row, i) => i === 0 || row.at > full[i - 1]!.at || (row.at === full[i - 1]!.at && row.seq > full[i - 1]!.seq)));
  // The other world's rows are not among them.
  assert.equal((await engine.server.engine.read(async () => await reports.log(R1.id, R1.openLocation, 'test', window[3], window[4], 1000))).length, 0);

  const exported = await readKitchenReportTable(engine.server.engine, manager, { location_id: R1.openLocation, from: DAY }, 'item_timings');
  const at = exported.columns.indexOf('at_ms');
  const order = exported.columns.indexOf('order_id');
  const inDay = full.filter((row) => row.at >= from && row.at < from + 86_400_000);
  assert.ok(inDay.length < full.length, 'the evening before is read by the report but not exported');
  assert.deepEqual(exported.rows.map((r) => r[exported.columns.indexOf('seq')]), inDay.map((row) => row.seq));
  assert.ok(exported.rows.every((r) => (r[at] as number) >= from && r[order] !== ids[0]));
  for (const column of ['source', 'device']) assert.ok(exported.rows.every((r) => r[exported.columns.indexOf(column)] !== undefined));
});
