// KitchenBoardStore's contract, on both databases (runners: ../stores-on-sqlite.test.ts and
// ../stores-on-postgres.e2e.test.ts). Event sequences are compared relative to each other: SQLite
// numbers the whole file, PostgreSQL each restaurant on its own.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { R1, R2, RESTAURANTS_SEED, type OpenBackend, type StoreBackend } from '../support/store-backends.ts';
import { orderRow } from './orders-store.contract.ts';

const DAY_START = Date.parse('2026-11-21T03:00:00Z');

export function kitchenBoardStoreContract(open: OpenBackend): void {
  let db: StoreBackend;
  before(async () => {
    db = await open();
    await db.exec(RESTAURANTS_SEED);
  });
  after(() => db.stop());

  test('the current orders: active ones of both worlds whatever their age, and any created since the day started', async () => {
    const { orders, kitchenBoard } = db.stores;
    await orders.insert(orderRow('c-old-active', { status: 'en_preparacion', created_at: DAY_START - 86_400_000 }));
    await orders.insert(orderRow('c-test', { status: 'listo', test: 1, created_at: DAY_START - 1 }));
    await orders.insert(orderRow('c-today-done', { status: 'entregado', created_at: DAY_START }));
    await orders.insert(orderRow('c-old-done', { status: 'entregado', created_at: DAY_START - 1 }));
    await orders.insert(orderRow('c-other', { restaurant_id: R2, location_id: null, status: 'recibido' }));
    const ids = (await kitchenBoard.currentOrders(R1, DAY_START)).map((r) => r.id).sort();
    assert.deepEqual(ids, ['c-old-active', 'c-test', 'c-today-done']);
  });

  test('the latest finished orders: last changed first, ties by id byte by byte, at most the limit', async () => {
    const { orders, kitchenBoard } = db.stores;
    for (const [id, status, updatedAt] of [['f-B', 'entregado', 500], ['f-a', 'cancelado', 500], ['f-c', 'entregado', 400], ['f-open', 'listo', 900]] as const) {
      await orders.insert(orderRow(id, { restaurant_id: R2, location_id: null, status, updated_at: updatedAt }));
    }
    assert.deepEqual((await kitchenBoard.latestFinished(R2, 10)).map((r) => r.id), ['f-a', 'f-B', 'f-c']);
    assert.deepEqual((await kitchenBoard.latestFinished(R2, 2)).map((r) => r.id), ['f-a', 'f-B']);
  });

  test('events: the restaurant\'s first at or after a position, its order events\' ids and statuses, and all its events after a cursor', async () => {
    const { events, kitchenBoard } = db.stores;
    const first = await events.append(R1, 'live', 'order.created', 1000, { id: 'o-1', status: 'recibido', number: '1' });
    await events.append(R2, 'live', 'order.created', 1001, { id: 'o-other', status: 'recibido' });
    const second = await events.append(R1, 'test', 'stock.changed', 1002, { product: 'p' });
    const third = await events.append(R1, 'both', 'order.updated', 1003, { id: 'o-1', status: 'listo' });
    assert.deepEqual(await kitchenBoard.firstEventAtOrAfter(R1, first), { seq: first, created_at: 1000 });
    assert.deepEqual(await kitchenBoard.firstEventAtOrAfter(R1, first + 1), { seq: second, created_at: 1002 });
    assert.equal(await kitchenBoard.firstEventAtOrAfter(R1, third + 1), undefined);
    assert.deepEqual(await kitchenBoard.orderStatusEvents(R1, first), [
      { created_at: 1000, order_id: 'o-1', status: 'recibido' },
      { created_at: 1003, order_id: 'o-1', status: 'listo' },
    ]);
    assert.deepEqual(await kitchenBoard.orderStatusEvents(R1, second), [{ created_at: 1003, order_id: 'o-1', status: 'listo' }]);
    assert.deepEqual(await kitchenBoard.events(R1, first, 10), [
      { seq: second, type: 'stock.changed', created_at: 1002, world: 'test', data: '{"product":"p"}' },
      { seq: third, type: 'order.updated', created_at: 1003, world: 'both', data: '{"id":"o-1","status":"listo"}' },
    ]);
    assert.deepEqual((await kitchenBoard.events(R1, first, 1)).map((e) => e.seq), [second]);
  });
}
