// KitchenReportsStore's contract, on both databases (issue 34): what the reports read by time, for
// one location and one world. Every body reads the one seed made before them. Order ids that sort
// differently byte by byte ('B…' < 'a…') and by a dictionary ('a…' < 'B…') check that ties are
// broken as SQLite breaks them, under any collation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { L1, L2, R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

const LEAN_COLUMNS = ['seq', 'order_id', 'item_index', 'kind', 'station_id', 'product_id', 'quantity', 'channel', 'at'].sort();

const timing = (orderId: string, at: number, changes: Record<string, unknown> = {}) => ({
  restaurant_id: R1, order_id: orderId, location_id: L1, item_index: 0, kind: 'done' as const, source: 'tablet', station_id: 's',
  product_id: 'p', quantity: 1, channel: 'Tienda web', device: 'd', at, ...changes,
});

const promise = (orderId: string, createdAt: number, changes: Record<string, unknown> = {}) => ({
  order_id: orderId, restaurant_id: R1, location_id: L1, created_at: createdAt, expected_ready_at: createdAt + 10,
  promised_ready_at: createdAt + 20, ready_at: null, ...changes,
});

export function kitchenReportsStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  /** The log's seqs, by name, as the database handed them out. */
  const seqs: Record<string, number> = {};
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
    const { orders, kitchenTimings, kitchenData, events } = db.stores;
    await orders.insert(orderRow('a-1', { number: '11' }));
    await orders.insert(orderRow('B-1', { number: '12' }));
    await orders.insert(orderRow('kr-test', { test: 1, number: 'T1' }));
    await orders.insert(orderRow('kr-l2', { location_id: L2, number: '13' }));
    await orders.insert(orderRow('c-a', { status: 'cancelado', created_at: 500, updated_at: 900 }));
    await orders.insert(orderRow('c-B', { status: 'cancelado', created_at: 500, updated_at: 800 }));
    await orders.insert(orderRow('c-late', { status: 'cancelado', created_at: 2000, updated_at: 2100 }));
    await orders.insert(orderRow('c-test', { status: 'cancelado', test: 1, created_at: 500, updated_at: 600 }));
    await orders.insert(orderRow('c-l2', { status: 'cancelado', location_id: L2, created_at: 500, updated_at: 600 }));
    await orders.insert(orderRow('c-r2', { status: 'cancelado', restaurant_id: R2, location_id: 'l-3', created_at: 500, updated_at: 600 }));
    await orders.insert(orderRow('c-done', { status: 'entregado', created_at: 500, updated_at: 600 }));

    seqs.late = await kitchenTimings.log(timing('a-1', 300));
    seqs.first = await kitchenTimings.log(timing('B-1', 100));
    seqs.second = await kitchenTimings.log(timing('a-1', 100, { item_index: 1, kind: 'started', channel: null }));
    seqs.atEnd = await kitchenTimings.log(timing('a-1', 400));
    await kitchenTimings.log(timing('kr-test', 150));
    await kitchenTimings.log(timing('kr-l2', 150, { location_id: L2 }));

    await kitchenTimings.putOrderPromise(promise('a-1', 200));
    await kitchenTimings.putOrderPromise(promise('B-1', 200, { ready_at: 230 }));
    await kitchenTimings.putOrderPromise(promise('kr-test', 210));
    await kitchenTimings.putOrderPromise(promise('kr-l2', 1200, { location_id: L2 }));
    await kitchenData.setChannel('B-1', 'Mesón');

    await events.append(R1, 'live', 'location.updated', 100, { id: L1, paused: true });
    await events.append(R1, 'live', 'location.updated', 300, { id: L1, paused: false });
    await events.append(R1, 'test', 'location.updated', 300, { id: L1, paused: true });
    await events.append(R1, 'live', 'order.updated', 200, { id: 'a-1' });
    await events.append(R2, 'live', 'location.updated', 200, { id: 'l-3' });
  });
  after(() => db.stop());

  test('the log of a location and world in [from, to), by time then as written, at most the limit; the lean rows are the full rows\' figures', async () => {
    const { kitchenReports } = db.stores;
    const full = await kitchenReports.fullLog(R1, L1, 'live', 100, 400, 10);
    assert.deepEqual(full.map((r) => r.seq), [seqs.first, seqs.second, seqs.late]);
    assert.deepEqual(full[1], {
      seq: seqs.second, restaurant_id: R1, order_id: 'a-1', location_id: L1, item_index: 1, kind: 'started', source: 'tablet',
      station_id: 's', product_id: 'p', quantity: 1, channel: null, device: 'd', at: 100,
    });
    const lean = await kitchenReports.log(R1, L1, 'live', 100, 400, 10);
    assert.deepEqual(Object.keys(lean[0]!).sort(), LEAN_COLUMNS);
    assert.deepEqual(lean, full.map((row) => Object.fromEntries(LEAN_COLUMNS.map((c) => [c, row[c as keyof typeof row]]))));
    assert.deepEqual((await kitchenReports.log(R1, L1, 'live', 100, 400, 2)).map((r) => r.seq), [seqs.first, seqs.second]);
    assert.deepEqual((await kitchenReports.log(R1, L1, 'test', 0, 1000, 10)).map((r) => r.order_id), ['kr-test']);
    assert.deepEqual((await kitchenReports.fullLog(R1, L2, 'live', 0, 1000, 10)).map((r) => r.order_id), ['kr-l2']);
    assert.deepEqual(await kitchenReports.log(R2, L1, 'live', 0, 1000, 10), []);
  });

  test('the promises made in [from, to) for a location and world, with the order\'s number and channel, ties by order id byte by byte', async () => {
    const { kitchenReports } = db.stores;
    assert.deepEqual(await kitchenReports.promises(L1, 'live', 0, 1000, 10), [
      { ...promise('B-1', 200, { ready_at: 230 }), number: '12', channel: 'Mesón' },
      { ...promise('a-1', 200), number: '11', channel: null },
    ]);
    assert.deepEqual((await kitchenReports.promises(L1, 'live', 0, 1000, 1)).map((p) => p.order_id), ['B-1']);
    assert.deepEqual(await kitchenReports.promises(L1, 'live', 0, 200, 10), []);
    assert.deepEqual((await kitchenReports.promises(L1, 'test', 0, 1000, 10)).map((p) => [p.order_id, p.number]), [['kr-test', 'T1']]);
    assert.deepEqual((await kitchenReports.promises(L2, 'live', 1200, 1201, 10)).map((p) => p.order_id), ['kr-l2']);
  });

  test('the cancelled orders created in [from, to) of a restaurant, location and world, by creation then id byte by byte', async () => {
    const { kitchenReports } = db.stores;
    assert.deepEqual(await kitchenReports.cancelled(R1, L1, 'live', 0, 2000, 10), [
      { id: 'c-B', number: 'c-B', created_at: 500, updated_at: 800 },
      { id: 'c-a', number: 'c-a', created_at: 500, updated_at: 900 },
    ]);
    assert.deepEqual((await kitchenReports.cancelled(R1, L1, 'live', 0, 2001, 1)).map((o) => o.id), ['c-B']);
    assert.deepEqual((await kitchenReports.cancelled(R1, L1, 'live', 0, 2001, 10)).map((o) => o.id), ['c-B', 'c-a', 'c-late']);
    assert.deepEqual((await kitchenReports.cancelled(R1, L1, 'test', 0, 2001, 10)).map((o) => o.id), ['c-test']);
    assert.deepEqual((await kitchenReports.cancelled(R1, L2, 'live', 0, 2001, 10)).map((o) => o.id), ['c-l2']);
    assert.deepEqual((await kitchenReports.cancelled(R2, 'l-3', 'live', 0, 2001, 10)).map((o) => o.id), ['c-r2']);
  });

  test('order numbers by id: those found, none for an unknown id or an empty list', async () => {
    const { kitchenReports } = db.stores;
    assert.deepEqual(await kitchenReports.numbers(['a-1', 'kr-test', 'none', 'a-1']), new Map([['a-1', '11'], ['kr-test', 'T1']]));
    assert.deepEqual(await kitchenReports.numbers([]), new Map());
  });

  test('a restaurant\'s location.updated events (both worlds) in [from, to) oldest first, and its last ones before a time latest first', async () => {
    const { kitchenReports } = db.stores;
    const read = (rows: { created_at: number; data: string }[]) => rows.map((r) => [r.created_at, JSON.parse(r.data) as unknown]);
    assert.deepEqual(read(await kitchenReports.locationUpdates(R1, 100, 301, 10)), [
      [100, { id: L1, paused: true }], [300, { id: L1, paused: false }], [300, { id: L1, paused: true }],
    ]);
    assert.deepEqual(read(await kitchenReports.locationUpdates(R1, 101, 300, 10)), []);
    assert.deepEqual(read(await kitchenReports.locationUpdates(R1, 0, 1000, 1)), [[100, { id: L1, paused: true }]]);
    assert.deepEqual(read(await kitchenReports.locationUpdatesBefore(R1, 301, 2)), [[300, { id: L1, paused: true }], [300, { id: L1, paused: false }]]);
    assert.deepEqual(read(await kitchenReports.locationUpdatesBefore(R1, 300, 10)), [[100, { id: L1, paused: true }]]);
    assert.deepEqual(read(await kitchenReports.locationUpdatesBefore(R2, 1000, 10)), [[200, { id: 'l-3' }]]);
  });

  test('a location is active in [from, to) by a log row or by a promise alone, of its world only; each range answered in order', async () => {
    const { kitchenReports } = db.stores;
    const range = (from: number, to: number) => ({ from, to });
    assert.deepEqual(
      await kitchenReports.activeIn(R1, L1, 'live', [range(100, 101), range(500, 1000), range(200, 201)]),
      [true, false, true],
      'a log row; nothing; a promise alone',
    );
    assert.deepEqual(await kitchenReports.activeIn(R1, L1, 'test', [range(150, 151), range(100, 101)]), [true, false], "the other world's rows");
    assert.deepEqual(await kitchenReports.activeIn(R1, L2, 'live', [range(1200, 1201), range(100, 101)]), [true, false], 'a promise of another location');
    assert.deepEqual(await kitchenReports.activeIn(R1, L1, 'live', []), []);
  });
}
