// KitchenTimingsStore's contract, on both databases: the item log, open and held lines, learned
// prep times, cooks per station, and each order's promise with its updates.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { HeldItemRow, NewItemTiming, OpenItemRow, PrepStatRow } from '../../../../src/engine/store/kitchen-timings-store.ts';
import { L1, L2, R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

const timing = (orderId: string, changes: Partial<NewItemTiming> = {}): NewItemTiming => ({
  restaurant_id: R1, order_id: orderId, location_id: L1, item_index: 0, kind: 'fired', source: 'screen', station_id: 'parrilla',
  product_id: 'p-1', quantity: 2, channel: null, device: 'd-1', at: 1000, ...changes,
});

const openLine = (orderId: string, itemIndex: number, changes: Partial<OpenItemRow> = {}): OpenItemRow => ({
  order_id: orderId, item_index: itemIndex, location_id: L1, test: 0, station_id: 'parrilla', product_id: 'p-1', quantity: 1,
  fired_at: 1000, started_at: null, started_explicit: 0, fire_seq: 1, ...changes,
});

const heldLine = (orderId: string, itemIndex: number, changes: Partial<HeldItemRow> = {}): HeldItemRow => ({
  order_id: orderId, item_index: itemIndex, location_id: L1, test: 0, station_id: 'freidora', product_id: 'p-2', quantity: 1,
  held_at: 1000, fire_at: 2000, target_ready_at: 3000, ...changes,
});

export function kitchenTimingsStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
    for (const id of ['t-1', 't-2', 't-3']) await db.stores.orders.insert(orderRow(id));
    await db.stores.orders.insert(orderRow('t-sandbox', { test: 1 }));
    await db.stores.orders.insert(orderRow('t-done', { status: 'listo' }));
    await db.stores.orders.insert(orderRow('t-other', { restaurant_id: R2, location_id: 'l-3' }));
  });
  after(() => db.stop());

  test('the log: appended with rising seqs, read back per order, from a time, after a time, and the last done lines of a station', async () => {
    const { kitchenTimings } = db.stores;
    const first = await kitchenTimings.log(timing('t-1', { at: 1000 }));
    const second = await kitchenTimings.log(timing('t-1', { kind: 'done', at: 1500 }));
    const third = await kitchenTimings.log(timing('t-2', { kind: 'done', at: 1400, item_index: 1, channel: 'web' }));
    await kitchenTimings.log(timing('t-other', { restaurant_id: R2, location_id: 'l-3', kind: 'done', at: 1600 }));
    assert.ok(first < second && second < third);
    assert.deepEqual(await kitchenTimings.logOfOrder('t-1'), [{ seq: first, ...timing('t-1', { at: 1000 }) }, { seq: second, ...timing('t-1', { kind: 'done', at: 1500 }) }]);
    assert.deepEqual((await kitchenTimings.logFrom(R1, 1400, 10)).map((r) => r.seq), [second, third]);
    assert.deepEqual((await kitchenTimings.logFrom(R1, 0, 1)).map((r) => r.seq), [first]);
    assert.equal(await kitchenTimings.loggedAfter(R1, 1499), true);
    assert.equal(await kitchenTimings.loggedAfter(R1, 1500), false);
    assert.deepEqual(await kitchenTimings.lastDoneAt(L1, 'parrilla', 10), [1400, 1500]);
    assert.deepEqual(await kitchenTimings.lastDoneAt(L1, 'parrilla', 1), [1400]);
  });

  test('open lines: opened, re-fired, started once, closed one by one or by order; at a location by fire time and place, live or with the sandbox', async () => {
    const { kitchenTimings } = db.stores;
    await kitchenTimings.open(openLine('t-1', 0, { fired_at: 1000, fire_seq: 2 }));
    await kitchenTimings.open(openLine('t-1', 1, { fired_at: 1000, fire_seq: 1 }));
    await kitchenTimings.open(openLine('t-2', 0, { fired_at: 900, fire_seq: 9 }));
    await kitchenTimings.open(openLine('t-2', 1, { station_id: null }));
    await kitchenTimings.open(openLine('t-sandbox', 0, { test: 1, fired_at: 1100 }));
    await kitchenTimings.open(openLine('t-3', 0, { location_id: L2 }));
    const at = async (withTest: boolean, since = 0, limit = 10) =>
      (await kitchenTimings.openAtLocation(L1, withTest, since, limit)).map((r) => `${r.order_id}/${r.item_index}`);
    assert.deepEqual(await at(false), ['t-2/0', 't-1/1', 't-1/0']);
    assert.deepEqual(await at(true), ['t-2/0', 't-1/1', 't-1/0', 't-sandbox/0']);
    assert.deepEqual(await at(true, 1000, 2), ['t-1/1', 't-1/0']);
    await kitchenTimings.start('t-1', 1200);
    await kitchenTimings.start('t-1', 1300);
    assert.deepEqual((await kitchenTimings.openOf('t-1')).map((r) => [r.item_index, r.started_at]), [[0, 1200], [1, 1200]]);
    await kitchenTimings.open(openLine('t-1', 0, { fired_at: 1250, started_at: null, fire_seq: 3, quantity: 99 }));
    assert.deepEqual((await kitchenTimings.openOf('t-1'))[0], openLine('t-1', 0, { fired_at: 1250, fire_seq: 3 }), 're-fired: times replaced, the line kept');
    await kitchenTimings.close('t-1', 0);
    assert.deepEqual((await kitchenTimings.openOf('t-1')).map((r) => r.item_index), [1]);
    await kitchenTimings.closeOrder('t-2');
    assert.deepEqual(await kitchenTimings.openOf('t-2'), []);
  });

  test('prep stats are replaced whole per restaurant; cooks per station are set and replaced', async () => {
    const { kitchenTimings } = db.stores;
    const stat = (stationId: string, productId: string, mean: number): PrepStatRow => ({
      restaurant_id: R1, station_id: stationId, product_id: productId, mean_seconds: mean, median_seconds: mean - 10, p90_seconds: mean + 60,
      samples: 40, excluded: 2, learned_at: 5000,
    });
    await kitchenTimings.replacePrepStats(R1, [stat('parrilla', 'p-1', 300), stat('parrilla', 'p-2', 200)]);
    await db.transaction(async (stores) => stores.kitchenTimings.replacePrepStats(R1, [stat('parrilla', 'p-1', 320), stat('freidora', 'p-3', 180)]));
    await kitchenTimings.replacePrepStats(R2, [{ ...stat('x', 'p-9', 60), restaurant_id: R2 }]);
    const key = (r: PrepStatRow) => `${r.station_id}/${r.product_id}`;
    assert.deepEqual((await kitchenTimings.prepStats(R1)).sort((a, b) => (key(a) < key(b) ? -1 : 1)), [stat('freidora', 'p-3', 180), stat('parrilla', 'p-1', 320)]);
    await kitchenTimings.replacePrepStats(R1, []);
    assert.deepEqual(await kitchenTimings.prepStats(R1), []);
    assert.equal((await kitchenTimings.prepStats(R2)).length, 1);
    await kitchenTimings.setStationCooks(R1, 'parrilla', 2, 10);
    await kitchenTimings.setStationCooks(R1, 'parrilla', 3, 20);
    await kitchenTimings.setStationCooks(R1, 'freidora', 1, 20);
    assert.deepEqual((await kitchenTimings.stationCooks(R1)).sort((a, b) => (a.station_id < b.station_id ? -1 : 1)), [
      { station_id: 'freidora', cooks: 1, set_at: 20 }, { station_id: 'parrilla', cooks: 3, set_at: 20 },
    ]);
  });

  test('promises: put (the creation kept), moved later by updates (the last one current), ready once; open ones; outcomes in seconds', async () => {
    const { kitchenTimings } = db.stores;
    const promise = (orderId: string, createdAt: number, expected: number, promised: number) => ({
      order_id: orderId, restaurant_id: R1, location_id: L1, created_at: createdAt, expected_ready_at: expected, promised_ready_at: promised, ready_at: null,
    });
    await kitchenTimings.putOrderPromise(promise('t-1', 1000, 61_000, 91_000));
    await kitchenTimings.putOrderPromise({ ...promise('t-1', 9999, 62_000, 92_000), ready_at: 5 });
    assert.deepEqual(await kitchenTimings.orderPromise('t-1'), promise('t-1', 1000, 62_000, 92_000));
    await kitchenTimings.putOrderPromise(promise('t-2', 2000, 30_000, 40_000));
    await kitchenTimings.putOrderPromise(promise('t-done', 500, 30_000, 40_000));
    await kitchenTimings.putOrderPromise(promise('t-sandbox', 3000, 30_000, 40_000));
    const update = (at: number, promised: number) => ({ order_id: 't-1', at, previous_promised_ready_at: 92_000, expected_ready_at: 95_000, promised_ready_at: promised });
    await kitchenTimings.updatePromise(update(50_000, 120_000));
    await kitchenTimings.updatePromise(update(60_000, 110_000));
    assert.deepEqual(await kitchenTimings.promiseUpdates('t-1'), [update(50_000, 120_000), update(60_000, 110_000)]);
    const current = (await kitchenTimings.currentPromisesOf(['t-1', 't-2', 't-3'])).sort((a, b) => (a.order_id < b.order_id ? -1 : 1));
    assert.deepEqual(current, [{ order_id: 't-1', promised_ready_at: 110_000 }, { order_id: 't-2', promised_ready_at: 40_000 }]);
    assert.deepEqual(await kitchenTimings.openPromises(L1, 0, 10), [
      { order_id: 't-1', test: 0, created_at: 1000, promised_ready_at: 110_000 },
      { order_id: 't-2', test: 0, created_at: 2000, promised_ready_at: 40_000 },
      { order_id: 't-sandbox', test: 1, created_at: 3000, promised_ready_at: 40_000 },
    ]);
    assert.deepEqual((await kitchenTimings.openPromises(L1, 1500, 1)).map((r) => r.order_id), ['t-2']);
    await kitchenTimings.markReady('t-1', 63_500);
    await kitchenTimings.markReady('t-1', 99_999);
    await kitchenTimings.markReady('t-2', 29_000);
    assert.equal((await kitchenTimings.orderPromise('t-1'))?.ready_at, 63_500, 'ready once');
    assert.deepEqual(await kitchenTimings.outcomes(L1, 10), [{ lateness_seconds: 1.5, wait_seconds: 61 }, { lateness_seconds: -1, wait_seconds: 28 }]);
    assert.deepEqual(await kitchenTimings.outcomes(L1, 1), [{ lateness_seconds: 1.5, wait_seconds: 61 }]);
  });

  test('held lines: held, re-planned, at a location soonest first (live or with the sandbox), due by a time, for many orders, released', async () => {
    const { kitchenTimings } = db.stores;
    await kitchenTimings.hold(heldLine('t-3', 0, { fire_at: 3000 }));
    await kitchenTimings.hold(heldLine('t-3', 1, { fire_at: 2000 }));
    await kitchenTimings.hold(heldLine('t-sandbox', 0, { test: 1, fire_at: 2500 }));
    await kitchenTimings.hold(heldLine('t-other', 0, { location_id: 'l-3', fire_at: 100 }));
    await kitchenTimings.hold(heldLine('t-3', 0, { fire_at: 1500, target_ready_at: 4000, held_at: 1 }));
    assert.deepEqual(await kitchenTimings.heldOf('t-3'), [heldLine('t-3', 0, { fire_at: 1500, target_ready_at: 4000 }), heldLine('t-3', 1, { fire_at: 2000 })]);
    const at = async (withTest: boolean, limit = 10) => (await kitchenTimings.heldAtLocation(L1, withTest, limit)).map((r) => `${r.order_id}/${r.item_index}`);
    assert.deepEqual(await at(false), ['t-3/0', 't-3/1']);
    assert.deepEqual(await at(true), ['t-3/0', 't-3/1', 't-sandbox/0']);
    assert.deepEqual(await at(true, 1), ['t-3/0']);
    assert.deepEqual((await kitchenTimings.dueHeldAtLocation(L1, true, 2000, 10)).map((r) => `${r.order_id}/${r.item_index}`), ['t-3/0', 't-3/1']);
    assert.deepEqual((await kitchenTimings.heldOfOrders(['t-sandbox', 't-other', 't-1'])).map((r) => r.order_id).sort(), ['t-other', 't-sandbox']);
    assert.deepEqual((await kitchenTimings.heldLocations()).sort(), [L1, 'l-3']);
    await kitchenTimings.unhold('t-3', 0);
    assert.deepEqual((await kitchenTimings.heldOf('t-3')).map((r) => r.item_index), [1]);
    await kitchenTimings.unholdOrder('t-3');
    await kitchenTimings.unholdOrder('t-sandbox');
    assert.deepEqual(await kitchenTimings.heldLocations(), ['l-3']);
  });
}
