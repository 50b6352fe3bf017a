// The report stores' contracts, on both databases: KitchenReportDaysStore (with the triggers that
// delete a stored day when a late row lands in its span), BusyRefusalsStore and KitchenReplayStore
// (each a describe of its own).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { RefusalMinute, RefusedOrder } from '../../../../src/engine/domain/busy-refusals.ts';
import type { ReportDayRow } from '../../../../src/engine/store/kitchen-report-days-store.ts';
import { L1, L2, R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

function withBackend(open: OpenBackend, seed: (db: StoreBackend) => Promise<void>): () => StoreBackend {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
    await seed(db);
  });
  after(() => db.stop());
  return () => db;
}

const timing = (orderId: string, at: number, changes: Record<string, unknown> = {}) => ({
  restaurant_id: R1, order_id: orderId, location_id: L1, item_index: 0, kind: 'done' as const, source: null, station_id: 's',
  product_id: 'p', quantity: 1, channel: null, device: 'd', at, ...changes,
});

export function kitchenReportDaysStoreContract(open: OpenBackend): void {
  const db = withBackend(open, async (backend) => {
    await backend.stores.orders.insert(orderRow('rd-1'));
  });
  const day = (date: string, readFrom: number, changes: Partial<ReportDayRow> = {}): ReportDayRow => ({
    restaurant_id: R1, location_id: L1, test: 0, day: date, time_zone: 'America/Santiago', read_from: readFrom, read_to: readFrom + 1000,
    cooks: '{}', format: 1, summary: `{"day":"${date}"}`, computed_at: 50, ...changes,
  });

  test('days are put, replaced, read by range in day order (text compared byte by byte) and listed without their summaries', async () => {
    const { kitchenReportDays } = db().stores;
    await kitchenReportDays.put(day('2026-11-02', 2000));
    await kitchenReportDays.put(day('2026-11-01', 1000));
    await kitchenReportDays.put(day('2026-11-03', 3000, { test: 1 }));
    await kitchenReportDays.put(day('2026-11-02', 2000, { summary: '{"v":2}', format: 2, computed_at: 60 }));
    assert.deepEqual(await kitchenReportDays.get(R1, L1, 'live', '2026-11-01', '2026-11-30'), [day('2026-11-01', 1000), day('2026-11-02', 2000, { summary: '{"v":2}', format: 2, computed_at: 60 })]);
    assert.deepEqual((await kitchenReportDays.get(R1, L1, 'live', '2026-11-02', '2026-11-02')).map((d) => d.day), ['2026-11-02']);
    assert.deepEqual(await kitchenReportDays.stored(R1, L1, 'test', '2026-11-01', '2026-11-30'), [{ day: '2026-11-03', time_zone: 'America/Santiago', cooks: '{}', format: 1 }]);
    assert.deepEqual(await kitchenReportDays.get(R1, L2, 'live', '2026-11-01', '2026-11-30'), []);
  });

  test('a late log row inside a day\'s span deletes that day; a late promise or a moved one inside it too; rows outside leave it', async () => {
    const { kitchenReportDays, kitchenTimings } = db().stores;
    await kitchenTimings.log(timing('rd-1', 1500));
    assert.deepEqual((await kitchenReportDays.get(R1, L1, 'live', '2026-11-01', '2026-11-30')).map((d) => d.day), ['2026-11-02']);
    await kitchenTimings.log(timing('rd-1', 3000));
    assert.deepEqual((await kitchenReportDays.get(R1, L1, 'live', '2026-11-01', '2026-11-30')).map((d) => d.day), ['2026-11-02']);
    await kitchenTimings.putOrderPromise({ order_id: 'rd-1', restaurant_id: R1, location_id: L1, created_at: 2999, expected_ready_at: 9, promised_ready_at: 9, ready_at: null });
    assert.deepEqual(await kitchenReportDays.get(R1, L1, 'live', '2026-11-01', '2026-11-30'), []);
    await kitchenReportDays.put(day('2026-11-03', 2500, { test: 0 }));
    await kitchenTimings.markReady('rd-1', 3500);
    assert.deepEqual(await kitchenReportDays.get(R1, L1, 'live', '2026-11-01', '2026-11-30'), [], 'a change of a promise created inside the span');
  });
}

export function busyRefusalsStoreContract(open: OpenBackend): void {
  const db = withBackend(open, async () => {});
  const order = (at: number): RefusedOrder => ({ at, channel: 'Tienda web', type: 'retiro', lines: 1, total: 1000 });

  test('a minute\'s tallies add up (a minute flushed in parts), per location and world; read by range in minute order, at most the limit', async () => {
    const { busyRefusals } = db().stores;
    const minute = (m: number, refused: number, listed: RefusedOrder[], changes: Partial<RefusalMinute> = {}): RefusalMinute => ({
      restaurant_id: R1, location_id: L1, test: 0, minute: m, refused, listed, ...changes,
    });
    await busyRefusals.add(minute(120_000, 1, [order(120_001)]));
    await busyRefusals.add(minute(60_000, 2, [order(60_001)]));
    await busyRefusals.add(minute(120_000, 3, [order(120_002)]));
    await busyRefusals.add(minute(120_000, 1, [], { test: 1 }));
    await busyRefusals.add(minute(120_000, 1, [], { restaurant_id: R2, location_id: 'l-3' }));
    const read = await busyRefusals.between(R1, L1, 'live', 0, 180_000, 10);
    assert.deepEqual(read.map((m) => [m.minute, m.refused, m.listed.length]), [[60_000, 2, 1], [120_000, 4, 2]]);
    assert.deepEqual((await busyRefusals.between(R1, L1, 'live', 0, 120_000, 10)).map((m) => m.minute), [60_000]);
    assert.deepEqual((await busyRefusals.between(R1, L1, 'live', 0, 180_000, 1)).map((m) => m.minute), [60_000]);
    assert.deepEqual((await busyRefusals.between(R1, L1, 'test', 0, 180_000, 10)).map((m) => m.refused), [1]);
  });
}

export function kitchenReplayStoreContract(open: OpenBackend): void {
  const db = withBackend(open, async (backend) => {
    await backend.stores.orders.insert(orderRow('rp-1'));
    await backend.stores.orders.insert(orderRow('rp-2'));
    await backend.stores.orders.insert(orderRow('rp-test', { test: 1 }));
  });

  test('the log of a location and world in a time range, by time then as written, at most the limit', async () => {
    const { kitchenTimings, kitchenReplay } = db().stores;
    const a = await kitchenTimings.log(timing('rp-1', 200));
    const b = await kitchenTimings.log(timing('rp-2', 100));
    const c = await kitchenTimings.log(timing('rp-1', 100, { item_index: 1 }));
    await kitchenTimings.log(timing('rp-test', 150));
    await kitchenTimings.log(timing('rp-1', 150, { location_id: L2 }));
    await kitchenTimings.log(timing('rp-1', 300));
    assert.deepEqual((await kitchenReplay.log(R1, L1, 'live', 100, 300, 10)).map((r) => r.seq), [b, c, a]);
    assert.deepEqual((await kitchenReplay.log(R1, L1, 'live', 100, 300, 2)).map((r) => r.seq), [b, c]);
    assert.equal((await kitchenReplay.log(R1, L1, 'test', 0, 1000, 10))[0]?.order_id, 'rp-test');
  });

  test('orders\' states from their events (one world, one location, a time range) oldest first; promises of many orders', async () => {
    const { events, kitchenReplay, kitchenTimings } = db().stores;
    await events.append(R1, 'live', 'order.created', 100, { id: 'rp-1', number: '7', status: 'recibido', location_id: L1 });
    await events.append(R1, 'live', 'order.updated', 100, { id: 'rp-2', number: '8', status: 'recibido', location_id: L1 });
    await events.append(R1, 'live', 'order.updated', 50, { id: 'rp-1', number: '7', status: 'listo', location_id: L1 });
    await events.append(R1, 'test', 'order.created', 110, { id: 'rp-test', number: 'T1', status: 'recibido', location_id: L1 });
    await events.append(R1, 'live', 'order.created', 120, { id: 'rp-x', number: '9', status: 'recibido', location_id: L2 });
    await events.append(R1, 'live', 'stock.changed', 130, { location_id: L1 });
    assert.deepEqual(await kitchenReplay.orderStates(R1, 'live', L1, 50, 200, 10), [
      { order_id: 'rp-1', number: '7', status: 'listo', at: 50 },
      { order_id: 'rp-1', number: '7', status: 'recibido', at: 100 },
      { order_id: 'rp-2', number: '8', status: 'recibido', at: 100 },
    ]);
    assert.deepEqual((await kitchenReplay.orderStates(R1, 'test', L1, 0, 200, 10)).map((s) => s.order_id), ['rp-test']);
    assert.equal((await kitchenReplay.orderStates(R1, 'live', L1, 51, 200, 1)).length, 1);
    await kitchenTimings.putOrderPromise({ order_id: 'rp-1', restaurant_id: R1, location_id: L1, created_at: 1, expected_ready_at: 5, promised_ready_at: 9, ready_at: null });
    await kitchenTimings.markReady('rp-1', 8);
    assert.deepEqual(await kitchenReplay.promises(['rp-1', 'rp-2']), [{ order_id: 'rp-1', promised_ready_at: 9, ready_at: 8 }]);
  });
}
